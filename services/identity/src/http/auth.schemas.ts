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
});

export const signedInView = tokenResponse.extend({
  user: userView,
  scopes: z.array(z.string()),
  tenant: tenantView,
});

export const refreshTokenBody = z.object({ refreshToken: z.string().min(20).max(200) });

export const refreshedView = tokenResponse.extend({ scopes: z.array(z.string()) });
