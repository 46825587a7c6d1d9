import { baseConfigSchema } from '@workspace/kit';
import { z } from 'zod';

export const identityConfigSchema = baseConfigSchema.extend({
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(300),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(8 * 3600),
  /** A refresh chain (a sign-in and all its rotations) ends this long after the sign-in, however often it is used. */
  REFRESH_SESSION_MAX_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(30 * 24 * 3600),
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
  /** The signing key is replaced when it is this old (0: only by POST /v1/internal/signing-keys/rotate). */
  SIGNING_KEY_ROTATION_DAYS: z.coerce.number().min(0).default(30),
  /**
   * A new key is in the JWKS this long before it signs, so services whose JWKS cache predates the rotation fetch it
   * again first (the kit's verifiers refetch at most every 30 s).
   */
  SIGNING_KEY_ACTIVATION_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /**
   * How often each replica runs maintenance: scheduled key rotation, reloading the keys (another replica's
   * rotation), deleting keys past their publication, and deleting expired refresh sessions, portal links and bff
   * sessions.
   */
  MAINTENANCE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** How long an IdP's discovery document (openid-client configuration) is reused before it is fetched again. */
  OIDC_DISCOVERY_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3600),
  /** The consumer group that ends the portal access of subcontractors cis archives or deletes (one for all replicas). */
  PORTAL_ACCESS_CONSUMER_GROUP: z.string().min(1).default('identity-portal-access'),
  /**
   * The cis service, which sends the sign-in links subcontractors ask for (ADR 0055). Unset: requests are still
   * answered the same but nothing is sent (a warning is logged for each).
   */
  CIS_URL: z.url().optional(),
  /** How often each replica looks for queued sign-in link requests (and retries) besides its own wake-ups. */
  PORTAL_LINK_REQUEST_POLL_MS: z.coerce.number().int().min(50).default(2_000),
  /** Lets openid-client talk to an IdP over plain http (the local dev IdP). Never on in production. */
  OIDC_ALLOW_HTTP: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;
