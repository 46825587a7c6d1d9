import { ApiRouter, HttpProblem, problems, safeEqual } from '@workspace/kit';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { TENANT_ID, callbackUrl, signedOutUrl } from '../config.js';
import { clearSignInCookieOptions, cookieOptions, signInCookieOptions } from '../cookies.js';
import { tenantView, userView } from '../identity-client.js';
import { safeReturnTo } from '../security.js';
import { SESSION_ENDED, type StaffSession } from '../sessions.js';
import { browserState, limit, requireStaff, type BffContext } from './context.js';

/** Short codes for /login?error=… (the SPA turns them into words). */
export const SIGN_IN_ERRORS = [
  'tenant_required',
  'unknown_tenant',
  'signin_expired',
  'state_mismatch',
  'access_denied',
  'idp_error',
  'not_set_up',
  'signin_failed',
  'unavailable',
] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];

const sessionView = z.object({
  authenticated: z.literal(true),
  user: userView,
  tenant: tenantView,
  scopes: z.array(z.string()),
  csrfToken: z.string(),
  /** When the current access token expires (ISO 8601); the bff renews it on use. */
  accessTokenExpiresAt: z.string(),
});

/** Where the browser goes after signing out: the IdP's end-session URL, or the sign-in page. */
const signedOutView = z.object({
  redirectTo: z
    .string()
    .describe(
      'The IdP’s end-session URL (RP-initiated logout, back to /login), or /login when the IdP has none',
    ),
});

const redirect = { 302: { description: 'Redirect (Location header)' } };

/** The sign-in page: where a signed-out browser lands when the IdP cannot end its own session. */
const SIGN_IN_PAGE = '/login';

/** The SPA's sign-in page, showing the error. */
const loginPage = (error: SignInError) => `/login?error=${error}`;

/** Maps identity's refusal of a sign-in step to the SPA's error code. */
function signInErrorOf(error: HttpProblem): SignInError {
  if (error.status === 404) return 'unknown_tenant';
  if (error.status === 403) return 'not_set_up';
  if (error.status >= 500) return 'unavailable';
  return 'signin_failed';
}

export function authRoutes(context: BffContext): ApiRouter {
  const { config, identity, staff } = context;

  const view = async (session: StaffSession) => {
    const { user, tenant } = await identity.me(session.accessToken);
    return {
      authenticated: true as const,
      user,
      tenant,
      scopes: session.scopes,
      csrfToken: session.csrfToken,
      accessTokenExpiresAt: new Date(session.accessTokenExpiresAt).toISOString(),
    };
  };

  /** Ends a session at identity too (its refresh token is revoked); the local session goes regardless. */
  const end = async (session: StaffSession) => {
    await staff.destroy(session);
    try {
      await identity.logout(session.refreshToken);
    } catch (error) {
      context.logger.warn({ err: error, tenantId: session.tenantId }, 'identity did not revoke a session');
    }
  };

  /**
   * Where a browser whose session just ended goes: the IdP's end-session endpoint (RP-initiated logout with the
   * sign-in's ID token as id_token_hint), which ends the IdP's own session and sends it back to the sign-in page, so
   * the next sign-in asks for credentials. Without an end-session endpoint (or when identity cannot say), the
   * sign-in page: the session here has ended, the IdP's may not have (docs/identity.md).
   */
  const afterSignOut = async (session: StaffSession): Promise<string> => {
    try {
      const url = await identity.endSessionUrl({
        tenantId: session.tenantId,
        ...(session.idToken ? { idToken: session.idToken } : {}),
        postLogoutRedirectUri: signedOutUrl(config),
      });
      return url ?? SIGN_IN_PAGE;
    } catch (error) {
      context.logger.warn(
        { err: error, tenantId: session.tenantId },
        'no end-session URL: the IdP session is not ended',
      );
      return SIGN_IN_PAGE;
    }
  };

  /** Where the browser goes to sign in: the IdP (with the sign-in cookie set), or the SPA's page with an error. */
  const startSignIn = async (
    query: {
      tenant?: string | undefined;
      returnTo?: string | undefined;
      loginHint?: string | undefined;
      prompt?: 'login' | undefined;
    },
    res: Response,
  ): Promise<string> => {
    const tenantId = query.tenant ?? config.DEFAULT_TENANT;
    if (tenantId === undefined) return loginPage('tenant_required');
    if (!TENANT_ID.test(tenantId)) return loginPage('unknown_tenant');
    let started;
    try {
      started = await identity.authorize({
        tenantId,
        redirectUri: callbackUrl(config),
        ...(query.loginHint ? { loginHint: query.loginHint } : {}),
        ...(query.prompt ? { prompt: query.prompt } : {}),
      });
    } catch (error) {
      if (error instanceof HttpProblem) return loginPage(signInErrorOf(error));
      throw error;
    }
    const sealed = context.signIn.seal({
      state: started.state,
      nonce: started.nonce,
      codeVerifier: started.codeVerifier,
      tenantId,
      returnTo: safeReturnTo(query.returnTo),
    });
    res.cookie(context.cookies.signIn, sealed, signInCookieOptions(context.secure));
    return started.authorizationUrl;
  };

  /** Where the browser goes back from the IdP: returnTo with a new session cookie, or the SPA's page with an error. */
  const finishSignIn = async (
    query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
    req: Request,
    res: Response,
  ): Promise<string> => {
    const browser = browserState(req);
    const pending = context.signIn.open(browser.cookies.get(context.cookies.signIn));
    res.clearCookie(context.cookies.signIn, clearSignInCookieOptions(context.secure));
    if (query.error !== undefined) {
      return loginPage(query.error === 'access_denied' ? 'access_denied' : 'idp_error');
    }
    if (!pending) return loginPage('signin_expired');
    if (!query.code || !query.state || !safeEqual(query.state, pending.state))
      return loginPage('state_mismatch');
    let signedIn;
    try {
      signedIn = await identity.completeSignIn({
        tenantId: pending.tenantId,
        // The exact URL the IdP redirected to (identity checks it against the redirect URI and state).
        callbackUrl: `${config.PUBLIC_URL}${req.originalUrl}`,
        state: pending.state,
        nonce: pending.nonce,
        codeVerifier: pending.codeVerifier,
        // identity's refresh chain ends with this session (never outlives it).
        sessionLifetimeSeconds: Math.floor(staff.absoluteTimeoutMs / 1000),
      });
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      context.logger.info({ tenantId: pending.tenantId, status: error.status }, 'sign-in refused');
      return loginPage(signInErrorOf(error));
    }
    // A new session id on every sign-in (no fixation); a session this browser had before ends.
    if (browser.staff) await end(browser.staff);
    const { sessionId, session } = await staff.create(signedIn);
    res.cookie(
      context.cookies.session,
      sessionId,
      cookieOptions(context.secure, { maxAge: staff.cookieLifetimeMs(session) }),
    );
    return pending.returnTo;
  };

  return new ApiRouter()
    .route({
      method: 'get',
      path: '/auth/login',
      summary:
        'Start staff sign-in: redirects to the tenant’s IdP (authorization code + PKCE through identity)',
      public: true,
      request: {
        query: z.object({
          tenant: z.string().max(63).optional(),
          returnTo: z.string().max(2048).optional(),
          loginHint: z.string().max(200).optional(),
          /** `login`: the IdP asks for credentials even if its own session is alive ('Use another account'). */
          prompt: z.literal('login').optional(),
        }),
      },
      responses: redirect,
      handler: async ({ query, req, res }) => {
        await limit(context.limits.login, req, res);
        res.redirect(302, await startSignIn(query, res));
      },
    })
    .route({
      method: 'get',
      path: '/auth/callback',
      summary: 'Finish staff sign-in (the IdP redirects here): creates the session, redirects to returnTo',
      public: true,
      request: {
        query: z.object({
          code: z.string().max(4096).optional(),
          state: z.string().max(1024).optional(),
          error: z.string().max(256).optional(),
        }),
      },
      responses: redirect,
      handler: async ({ query, req, res }) => {
        await limit(context.limits.callback, req, res);
        res.redirect(302, await finishSignIn(query, req, res));
      },
    })
    .route({
      method: 'post',
      path: '/auth/logout',
      summary:
        'Sign out: revokes the session at identity, deletes it, clears the cookie and answers where the browser goes to end the IdP’s session (CSRF header)',
      public: true,
      responses: { 200: { description: 'Signed out', schema: signedOutView } },
      handler: async ({ req, res }) => {
        const session = browserState(req).staff;
        res.clearCookie(context.cookies.session, cookieOptions(context.secure));
        if (!session) return { redirectTo: SIGN_IN_PAGE };
        await end(session);
        return { redirectTo: await afterSignOut(session) };
      },
    })
    .route({
      method: 'post',
      path: '/auth/logout-all',
      summary:
        'Sign out of all sessions: every refresh token of the user revoked and every staff session of the user deleted (other browsers included), then as logout (CSRF header)',
      responses: { 200: { description: 'Every session of the user ended', schema: signedOutView } },
      handler: async ({ req, res }) => {
        const session = browserState(req).staff;
        if (!session) throw problems.unauthorized(SESSION_ENDED);
        // identity first: when it cannot end the other sessions, the user is told and stays signed in here.
        await identity.logoutEverywhere(session.refreshToken);
        await staff.destroy(session);
        context.logger.info(
          { tenantId: session.tenantId, userId: session.uid },
          'signed out of all sessions',
        );
        res.clearCookie(context.cookies.session, cookieOptions(context.secure));
        return { redirectTo: await afterSignOut(session) };
      },
    })
    .route({
      method: 'get',
      path: '/auth/session',
      summary: 'The signed-in user, tenant, scopes and the CSRF token to send as x-csrf-token',
      responses: { 200: { description: 'Signed in', schema: sessionView } },
      handler: async ({ req, res }) => view(await requireStaff(context, req, res)),
    })
    .route({
      method: 'post',
      path: '/auth/set-token',
      summary:
        'Renew the session’s access token now (new scopes take effect); the spec’s idToken body is accepted and ignored (CSRF header)',
      request: { body: z.object({ idToken: z.string().max(8192).optional() }) },
      responses: { 200: { description: 'Renewed', schema: sessionView } },
      handler: async ({ req, res }) => {
        const current = await requireStaff(context, req, res);
        let renewed;
        try {
          renewed = await staff.fresh(current, { force: true });
        } catch (error) {
          if (error instanceof HttpProblem && error.status === 401) {
            res.clearCookie(context.cookies.session, cookieOptions(context.secure));
          }
          throw error;
        }
        return view(renewed);
      },
    });
}
