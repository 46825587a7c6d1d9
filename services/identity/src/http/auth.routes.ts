import { ApiRouter } from '@workspace/kit';
import { logout, logoutEverywhere, refreshSession } from '../commands/sessions.js';
import { completeSignIn, endSessionUrl, startSignIn } from '../commands/sign-in.js';
import type { IdentityContext } from '../context.js';
import { presentSignedIn } from './auth.present.js';
import {
  authorizationView,
  authorizeBody,
  callbackBody,
  endSessionBody,
  endSessionView,
  refreshedView,
  refreshTokenBody,
  signedInView,
} from './auth.schemas.js';
import { internalOnly } from './internal.js';

/** Sign-in, refresh and logout: called by the bff only (internal token). */
export function authRoutes(context: IdentityContext): ApiRouter {
  const guard = internalOnly(context.config.INTERNAL_API_TOKEN);
  return new ApiRouter()
    .route({
      method: 'post',
      path: '/auth/authorize',
      summary: 'Start sign-in: the IdP authorization URL with PKCE, state and nonce (bff only)',
      public: true,
      guard,
      request: { body: authorizeBody },
      responses: {
        200: {
          description: 'Where to send the browser, and the checks to keep for the callback',
          schema: authorizationView,
        },
      },
      handler: ({ body }) => startSignIn(context, body),
    })
    .route({
      method: 'post',
      path: '/auth/callback',
      summary: 'Finish sign-in: exchange the code, map the IdP subject to a user, issue tokens (bff only)',
      public: true,
      guard,
      request: { body: callbackBody },
      responses: { 200: { description: 'Signed in', schema: signedInView } },
      handler: async ({ body }) => presentSignedIn(await completeSignIn(context, body)),
    })
    .route({
      method: 'post',
      path: '/auth/refresh',
      summary: 'Rotate a refresh token and issue a new access token with current scopes (bff only)',
      public: true,
      guard,
      request: { body: refreshTokenBody },
      responses: { 200: { description: 'Refreshed', schema: refreshedView } },
      handler: ({ body }) => refreshSession(context, body.refreshToken),
    })
    .route({
      method: 'post',
      path: '/auth/logout',
      summary: 'End a session: revoke its refresh token (bff only)',
      public: true,
      guard,
      request: { body: refreshTokenBody },
      responses: { 204: { description: 'Signed out' } },
      handler: async ({ body }) => {
        await logout(context, body.refreshToken);
        return undefined;
      },
    })
    .route({
      method: 'post',
      path: '/auth/logout-all',
      summary:
        'Sign out of all sessions: revoke every refresh token of the token’s user and delete their bff staff sessions (bff only)',
      public: true,
      guard,
      request: { body: refreshTokenBody },
      responses: { 204: { description: 'Every session of the user ended' } },
      handler: async ({ body }) => {
        await logoutEverywhere(context, body.refreshToken);
        return undefined;
      },
    })
    .route({
      method: 'post',
      path: '/auth/end-session-url',
      summary:
        'The tenant IdP’s RP-initiated logout URL (end_session_endpoint with id_token_hint and post_logout_redirect_uri), or null when it has none (bff only)',
      public: true,
      guard,
      request: { body: endSessionBody },
      responses: { 200: { description: 'Where to send the browser', schema: endSessionView } },
      handler: async ({ body }) => ({ endSessionUrl: await endSessionUrl(context, body) }),
    });
}
