import { ApiRouter } from '@workspace/kit';
import { requestPortalLink } from '../commands/portal-link-requests.js';
import {
  createPortalLink,
  redeemPortalLink,
  revokeSubcontractorPortalAccess,
} from '../commands/portal-links.js';
import type { IdentityContext } from '../context.js';
import { internalOnly } from './internal.js';
import { presentPortalLink } from './portal-links.present.js';
import {
  linkRequestBody,
  linkRequestView,
  portalLinkView,
  portalSessionView,
  redeemBody,
  revokedView,
  subcontractorBody,
} from './portal-links.schemas.js';

/** Portal access: magic links (created by staff, redeemed through the bff) and their revocation. */
export function portalLinksRoutes(context: IdentityContext, queued: () => void = () => {}): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'post',
      path: '/portal/link-requests',
      summary:
        'Queue a subcontractor’s request for a fresh sign-in link (bff only): the same answer for every address and tenant; the link is e-mailed only to a subcontractor of that tenant with portal access',
      public: true,
      guard: internalOnly(context.config.INTERNAL_API_TOKEN),
      status: 202,
      request: { body: linkRequestBody },
      responses: { 202: { description: 'Queued (or nothing to send)', schema: linkRequestView } },
      handler: async ({ body }) => {
        if (!context.config.CIS_URL) {
          context.logger.warn(
            { tenantId: body.tenantId },
            'portal sign-in link not sent: CIS_URL is not set',
          );
        } else {
          await requestPortalLink(context, body);
          queued();
        }
        return { accepted: true as const };
      },
    })
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
