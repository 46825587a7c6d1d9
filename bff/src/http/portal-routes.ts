import { ApiRouter, HttpProblem, problems } from '@workspace/kit';
import type { Response } from 'express';
import { z } from 'zod';
import { TENANT_ID } from '../config.js';
import { cookieOptions } from '../cookies.js';
import { clientIp, type RateLimiter } from '../rate-limit.js';
import type { PortalSession } from '../sessions.js';
import { browserState, limit, type BffContext } from './context.js';

/**
 * The answer to every sign-in link request, known address or not (ADR 0055): it never says whether the address
 * belongs to a subcontractor of that contractor.
 */
export const SIGN_IN_LINK_REQUESTED =
  'If this address belongs to a subcontractor with access to this contractor’s portal, a sign-in link is on its way to it. The link works once, within 15 minutes.';

const signInLinkAnswer = z.object({ message: z.string() });

/** Counts a sign-in link request against one limiter, or answers 429 saying when to try again (in minutes). */
async function limitLinkRequests(limiter: RateLimiter, key: string, res: Response): Promise<void> {
  const decision = await limiter.hit([key]);
  if (decision.allowed) return;
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  const minutes = Math.ceil(decision.retryAfterSeconds / 60);
  throw new HttpProblem(
    429,
    'rate_limited',
    `Too many sign-in link requests. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

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
      method: 'post',
      path: '/portal/sign-in-links',
      summary:
        'Ask for a fresh portal sign-in link by e-mail for a contractor (tenantId): the same 202 answer whether or not the address is known; rate limited per address and per client IP (no CSRF token exists yet)',
      public: true,
      status: 202,
      request: {
        body: z.object({
          tenantId: z.string().regex(TENANT_ID, 'Enter the contractor code from your invitation'),
          email: z.email('Enter a valid email address').max(254),
        }),
      },
      responses: {
        202: { description: 'Accepted (a link is sent only to a known address)', schema: signInLinkAnswer },
        429: { description: 'Too many requests from this address or this client (Retry-After)' },
      },
      handler: async ({ body, req, res }) => {
        const email = body.email.trim().toLowerCase();
        await limitLinkRequests(context.limits.portalLinkIp, `ip:${clientIp(req)}`, res);
        await limitLinkRequests(context.limits.portalLinkAddress, `address:${email}`, res);
        await identity.requestPortalLink({ tenantId: body.tenantId, email });
        return { message: SIGN_IN_LINK_REQUESTED };
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
