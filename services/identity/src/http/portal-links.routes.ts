import { ApiRouter } from '@workspace/kit';
import {
  createPortalLink,
  redeemPortalLink,
  revokeSubcontractorPortalAccess,
} from '../commands/portal-links.js';
import type { IdentityContext } from '../context.js';
import { internalOnly } from './internal.js';
import { presentPortalLink } from './portal-links.present.js';
import {
  portalLinkView,
  portalSessionView,
  redeemBody,
  revokedView,
  subcontractorBody,
} from './portal-links.schemas.js';

/** Portal access: magic links (created by staff, redeemed through the bff) and their revocation. */
export function portalLinksRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'post',
      path: '/portal/links/redeem',
      summary: 'Redeem a portal magic link (single use, 15 minutes) into a portal session (bff only)',
      public: true,
      guard: internalOnly(context.config.INTERNAL_API_TOKEN),
      request: { body: redeemBody },
      responses: {
        200: { description: 'A portal session limited to one subcontractor', schema: portalSessionView },
      },
      handler: ({ body }) => redeemPortalLink(context, body),
    })
    .route({
      method: 'post',
      path: '/portal/links',
      summary:
        'Create a portal magic link for a subcontractor (15 minutes, single use; only its hash is kept)',
      scopes: ['cis.portal.invite'],
      status: 201,
      request: { body: subcontractorBody },
      responses: {
        201: { description: 'The link, to show once and send by email', schema: portalLinkView },
      },
      handler: async ({ ctx, body }) => {
        const input = { tenantId: ctx.tenantId, subcontractorId: body.subcontractorId, actor: ctx.userId };
        return presentPortalLink(await createPortalLink(context, input));
      },
    })
    .route({
      method: 'post',
      path: '/portal/sessions/revoke',
      summary:
        'End every portal session of a subcontractor at once and expire their unused magic links (they need a new link)',
      scopes: ['cis.portal.invite'],
      request: { body: subcontractorBody },
      responses: {
        200: { description: 'How many sessions ended and links expired', schema: revokedView },
      },
      handler: async ({ ctx, body }) => {
        const input = { tenantId: ctx.tenantId, subcontractorId: body.subcontractorId, actor: ctx.userId };
        const revoked = await revokeSubcontractorPortalAccess(context, input);
        return { revoked: revoked.sessions, linksExpired: revoked.links };
      },
    });
}
