import { z } from 'zod';
import { tenantId } from '../domain/tenant.js';
import { tenantView } from './tenant.schemas.js';
import { userView } from './users.schemas.js';

export const tokenResponse = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int(),
  refreshToken: z.string(),
  refreshExpiresIn: z.number().int(),
});

export const authorizeBody = z.object({
  tenantId,
  redirectUri: z.url(),
  loginHint: z.string().max(200).optional(),
  /** `login`: the IdP asks for credentials even while its own session is alive ('Use another account'). */
  prompt: z.literal('login').optional(),
});

export const authorizationView = z.object({
  authorizationUrl: z.string(),
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
});

export const callbackBody = z.object({
  tenantId,
  callbackUrl: z.url(),
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43).max(128),
  /**
   * The caller's session ends this long after the sign-in (the bff's absolute lifetime): the refresh chain ends then
   * too, or at REFRESH_SESSION_MAX_LIFETIME_SECONDS when that is sooner.
   */
  sessionLifetimeSeconds: z.number().int().min(60).optional(),
});

export const signedInView = tokenResponse.extend({
  user: userView,
  scopes: z.array(z.string()),
  tenant: tenantView,
  /** The IdP's ID token, for the caller's RP-initiated logout (id_token_hint); identity does not keep it. */
  idToken: z.string(),
});

export const refreshTokenBody = z.object({ refreshToken: z.string().min(20).max(200) });

export const refreshedView = tokenResponse.extend({ scopes: z.array(z.string()) });

export const endSessionBody = z.object({
  tenantId,
  /** The sign-in's ID token (id_token_hint); without it the IdP may ask the user to confirm. */
  idToken: z.string().max(16_384).optional(),
  /** Where the IdP sends the browser afterwards (registered at the IdP for the client). */
  postLogoutRedirectUri: z.url(),
});

export const endSessionView = z.object({
  /** The IdP's end-session URL to send the browser to, or null when the IdP publishes no end_session_endpoint. */
  endSessionUrl: z.string().nullable(),
});
