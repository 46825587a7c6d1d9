import { ApiRouter, problems } from '@workspace/kit';
import { z } from 'zod';
import { TENANT_ID } from '../config.js';
import { cookieOptions } from '../cookies.js';
import type { PortalSession } from '../sessions.js';
import { browserState, limit, type BffContext } from './context.js';

const portalSessionView = z.object({
  subcontractorId: z.string(),
  tenant: z.object({ id: z.string(), name: z.string() }),
  /** Send as x-csrf-token on the portal's state-changing calls. */
  csrfToken: z.string(),
  expiresAt: z.string(),
});

const toView = (session: PortalSession) => ({
  subcontractorId: session.subcontractorId,
  tenant: { id: session.tenantId, name: session.tenantName },
  csrfToken: session.csrfToken,
  expiresAt: new Date(session.expiresAt).toISOString(),
});

/** The subcontractor portal's session: separate cookie, separate store, one subcontractor of one tenant. */
export function portalRoutes(context: BffContext): ApiRouter {
  const { identity, portal } = context;
  return new ApiRouter()
    .route({
      method: 'post',
      path: '/portal/session',
      summary:
        'Redeem a portal magic link (single use) into a portal session cookie; no CSRF token exists yet, so it is rate limited',
      public: true,
      request: {
        body: z.object({
          tenantId: z.string().regex(TENANT_ID, 'Tenant id is not valid'),
          token: z.string().min(20).max(100),
        }),
      },
      responses: { 200: { description: 'Signed in to the portal', schema: portalSessionView } },
      handler: async ({ body, req, res }) => {
        await limit(context.limits.redeem, req, res);
        const redemption = await identity.redeemPortalLink(body);
        const previous = browserState(req).portal;
        if (previous) await portal.destroy(previous);
        const { sessionId, session } = await portal.create(redemption);
        res.cookie(
          context.cookies.portal,
          sessionId,
          cookieOptions(context.secure, { maxAge: redemption.expiresIn * 1000 }),
        );
        return toView(session);
      },
    })
    .route({
      method: 'get',
      path: '/portal/session',
      summary: 'The portal session of this browser',
      public: true,
      responses: { 200: { description: 'Signed in to the portal', schema: portalSessionView } },
      handler: ({ req }) => {
        const session = browserState(req).portal;
        if (!session) throw problems.unauthorized();
        return Promise.resolve(toView(session));
      },
    })
    .route({
      method: 'post',
      path: '/portal/logout',
      summary: 'End the portal session and clear its cookie (CSRF header)',
      public: true,
      responses: { 204: { description: 'Signed out of the portal' } },
      handler: async ({ req, res }) => {
        const session = browserState(req).portal;
        if (session) await portal.destroy(session);
        res.clearCookie(context.cookies.portal, cookieOptions(context.secure));
        return undefined;
      },
    });
}
