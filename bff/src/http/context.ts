import { HttpProblem, problems, type Logger } from '@workspace/kit';
import type { Request, RequestHandler, Response } from 'express';
import type { BffConfig } from '../config.js';
import { cookieOptions, type CookieNames, type SignInSealer } from '../cookies.js';
import type { IdentityClient } from '../identity-client.js';
import { clientIp, enforceLimit, type RateLimiter } from '../rate-limit.js';
import { csrfTokensMatch, parseCookies } from '../security.js';
import {
  SESSION_ENDED,
  type PortalSession,
  type PortalSessions,
  type StaffSession,
  type StaffSessions,
} from '../sessions.js';
import type { SessionStreams } from '../streams.js';

/** What the bff's handlers share. */
export interface BffContext {
  config: BffConfig;
  identity: IdentityClient;
  staff: StaffSessions;
  portal: PortalSessions;
  signIn: SignInSealer;
  limits: {
    login: RateLimiter;
    callback: RateLimiter;
    redeem: RateLimiter;
    /** The unauthenticated tenant metadata (per client IP). */
    metadata: RateLimiter;
    /** A staff user's portal invitations (each sends an e-mail). */
    invite: RateLimiter;
    /** A portal subcontractor's invoice submissions. */
    portalSubmit: RateLimiter;
    /** Requests for a fresh portal sign-in link: per e-mail address, and per client IP (15-minute windows). */
    portalLinkAddress: RateLimiter;
    portalLinkIp: RateLimiter;
    /** The public share links' calls (per client IP, and per user when signed in). */
    publicShares: RateLimiter;
    /** A staff user's client-side audit events (the web's audit_logEvent). */
    auditEvents: RateLimiter;
    /** The public site's project requests (per client IP, per hour). */
    projectRequests: RateLimiter;
  };
  /** The Server-Sent-Event streams this replica forwards, bound to their sessions and capped per user. */
  streams: SessionStreams;
  /** Cookies carry Secure (PUBLIC_URL is https). */
  secure: boolean;
  /** The cookies' names (prefixed on https). */
  cookies: CookieNames;
  logger: Logger;
}

/** The browser's cookies and the sessions they name, read once per /api request. */
export interface BrowserState {
  cookies: Map<string, string>;
  staff?: StaffSession;
  portal?: PortalSession;
}

declare module 'express-serve-static-core' {
  interface Request {
    browser?: BrowserState;
  }
}

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FAILED = 'Invalid or missing CSRF token.';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Portal link redemption starts a session and a sign-in link request comes before any, so there is no token yet;
 * both are rate limited instead (README).
 */
const CSRF_EXEMPT = new Set(['POST /portal/session', 'POST /portal/sign-in-links']);

/**
 * Calls anyone may make without a session (a public share link's passcode): never refused for CSRF. The service
 * proxy sends a staff session's token along with such a change only when the CSRF token matches (service-proxy.ts),
 * so a forged one is just an anonymous call.
 */
const PUBLIC_PREFIX = '/public/';

export function browserState(req: Request): BrowserState {
  return req.browser ?? { cookies: new Map() };
}

/** Every /api answer carries session-specific data or none worth caching. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * Loads the staff and portal sessions the cookies name. A staff session becomes the request context (tenant,
 * user, role, scopes), so ApiRouter's guards answer 401 without one and the access log names the caller.
 */
export function loadBrowserState(context: BffContext): RequestHandler {
  return async (req, _res, next) => {
    const cookies = parseCookies(req.headers.cookie);
    const [staff, portal] = await Promise.all([
      context.staff.load(cookies.get(context.cookies.session)),
      context.portal.load(cookies.get(context.cookies.portal)),
    ]);
    req.browser = { cookies, ...(staff ? { staff } : {}), ...(portal ? { portal } : {}) };
    if (staff) {
      req.ctx = {
        tenantId: staff.tenantId,
        userId: staff.uid,
        role: staff.role,
        scopes: new Set(staff.scopes),
      };
    }
    next();
  };
}

/**
 * Double-submit check for every state-changing /api call: the x-csrf-token header must equal the token of a
 * session this browser holds (staff or portal). Another origin can neither read that token (it is only in the
 * session answers, which CORS does not expose) nor set the header on a cross-site form.
 */
export const csrfGuard: RequestHandler = (req, _res, next) => {
  if (!STATE_CHANGING.has(req.method)) {
    next();
    return;
  }
  const path = req.path.toLowerCase().replace(/\/+$/, '');
  if (CSRF_EXEMPT.has(`${req.method} ${path}`) || path.startsWith(PUBLIC_PREFIX)) {
    next();
    return;
  }
  const { staff, portal } = browserState(req);
  // No session (never signed in, ended or revoked): nothing to forge a request for; say the session has ended.
  if (!staff && !portal) {
    next(problems.unauthorized(SESSION_ENDED));
    return;
  }
  const provided = req.get(CSRF_HEADER);
  if (csrfTokensMatch(staff?.csrfToken, provided) || csrfTokensMatch(portal?.csrfToken, provided)) {
    next();
    return;
  }
  next(new HttpProblem(403, 'csrf_failed', CSRF_FAILED));
};

/** Rate-limit keys: the client IP, and the signed-in user when there is one. */
export function limitKeys(req: Request): string[] {
  const staff = browserState(req).staff;
  return [`ip:${clientIp(req)}`, ...(staff ? [`user:${staff.tenantId}:${staff.uid}`] : [])];
}

export function limit(limiter: RateLimiter, req: Request, res: Response): Promise<void> {
  return enforceLimit(limiter, limitKeys(req), res);
}

/**
 * The signed-in staff session with a usable access token (refreshed when it is within 30 s of expiry). When the
 * session has ended the cookie is cleared and the answer is 401.
 */
export async function requireStaff(context: BffContext, req: Request, res: Response): Promise<StaffSession> {
  const session = browserState(req).staff;
  if (!session) throw problems.unauthorized();
  try {
    return await context.staff.fresh(session);
  } catch (error) {
    if (error instanceof HttpProblem && error.status === 401) {
      res.clearCookie(context.cookies.session, cookieOptions(context.secure));
    }
    throw error;
  }
}

/** The tenant a browser names must be the session's; anything else answers 404, never the other tenant's data. */
export function requireSameTenant(session: { tenantId: string }, requested: string | undefined): void {
  if (requested !== undefined && requested !== session.tenantId) throw problems.notFound('Tenant not found.');
}
