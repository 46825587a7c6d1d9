import { baseConfigSchema } from '@workspace/kit';
import { z } from 'zod';

export const identityConfigSchema = baseConfigSchema.extend({
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(300),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(8 * 3600),
  PORTAL_SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(8 * 3600),
  /** `kid:base64(32 bytes)[,kid:base64...]`: seals signing keys and IdP client secrets at rest. */
  IDENTITY_ENCRYPTION_KEYS: z.string().min(10),
  /** Shared with the bff: sign-in, refresh, logout and link redemption are called by the bff only. */
  INTERNAL_API_TOKEN: z.string().min(32),
  /** The IdP tenants use unless they configure their own. */
  OIDC_ISSUER_URL: z.url(),
  OIDC_CLIENT_ID: z.string().min(1),
  OIDC_CLIENT_SECRET: z.string().min(1),
  /** Where a portal magic link lands (the portal's login page on the bff's origin). */
  PORTAL_LOGIN_URL: z.url().default('http://localhost:8080/portal-login'),
  /** Lets openid-client talk to an IdP over plain http (the local dev IdP). Never on in production. */
  OIDC_ALLOW_HTTP: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;
