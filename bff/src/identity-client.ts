import { HttpProblem, ServiceClient, type Logger } from '@workspace/kit';
import { z } from 'zod';

/*
 * What identity answers, as the bff passes it on: every member identity's own response schemas list. The open maps
 * (branding, theme preference, a module's config) are identity's to define, and reach the SPA as they are.
 */
export const userView = z.object({
  uid: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  role: z.string(),
  status: z.string(),
  themePreference: z.record(z.string(), z.unknown()),
  profilePhotoUrl: z.string().nullable(),
  teamIds: z.array(z.string()),
  siteIds: z.array(z.string()),
  bundleIds: z.array(z.string()),
});

export const tenantView = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  branding: z.record(z.string(), z.unknown()),
  modules: z.array(
    z.object({ id: z.string(), enabled: z.boolean(), config: z.record(z.string(), z.unknown()).optional() }),
  ),
  storageTier: z.string(),
  entitlements: z.array(z.string()),
});

const authorizeResponse = z.object({
  authorizationUrl: z.url(),
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
});

const tokens = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int().positive(),
  refreshToken: z.string(),
  refreshExpiresIn: z.number().int().positive(),
  scopes: z.array(z.string()),
});

/** `idToken`: the IdP's ID token, for the id_token_hint of its RP-initiated logout (kept in the session only). */
const signInResponse = tokens.extend({ user: userView, tenant: tenantView, idToken: z.string().optional() });

const endSessionResponse = z.object({ endSessionUrl: z.string().nullable() });

const portalRedemption = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int().positive(),
  subcontractorId: z.string(),
  tenant: z.object({ id: z.string(), name: z.string() }),
});

const storedSession = z.object({
  kind: z.enum(['staff', 'portal']),
  value: z.string(),
  expiresAt: z.number(),
});
const lease = z.object({ acquired: z.boolean() });
const rateLimitDecision = z.object({ allowed: z.boolean(), retryAfterSeconds: z.number().int() });

export const tenantMetadata = z.object({
  id: z.string(),
  name: z.string(),
  databaseRegion: z.string(),
  branding: z.record(z.string(), z.unknown()),
});

const profile = z.object({ user: userView, tenant: tenantView });
const availableScopes = z.object({ scopes: z.array(z.string()), restricted: z.boolean() });
const effectiveScopes = z.object({ granted: z.array(z.string()) });
const entitlements = z.object({ enabled: z.array(z.string()) });
const logoImage = z.object({ contentType: z.string(), etag: z.string(), data: z.string() });

export type Tokens = z.infer<typeof tokens>;
export type SignInResult = z.infer<typeof signInResponse>;
export type PortalRedemption = z.infer<typeof portalRedemption>;
export type UserView = z.infer<typeof userView>;
export type TenantView = z.infer<typeof tenantView>;

export const IDENTITY_UNREACHABLE = 'The identity service is not reachable.';

export interface IdentityClientOptions {
  baseUrl: string;
  internalToken: string;
  timeoutMs: number;
  logger: Logger;
  fetch?: typeof fetch;
}

/**
 * Typed calls to identity. A non-2xx answer becomes an HttpProblem with identity's status, code, detail and field
 * errors (so the SPA shows identity's message); no answer at all (refused, reset, timed out) is a 503.
 */
export class IdentityClient {
  /** The kit's client for identity, which the bff's generic proxy forwards through too. */
  readonly http: ServiceClient;

  constructor(options: IdentityClientOptions) {
    this.http = new ServiceClient({
      service: 'identity',
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      internalToken: options.internalToken,
      logger: options.logger,
      unavailable: { code: 'identity_unreachable', detail: IDENTITY_UNREACHABLE },
      failure: { code: 'identity_error', serverErrors: 'pass' },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  authorize(input: { tenantId: string; redirectUri: string; loginHint?: string; prompt?: 'login' }) {
    return this.http.post({
      path: '/v1/auth/authorize',
      caller: 'internal',
      body: input,
      schema: authorizeResponse,
    });
  }

  completeSignIn(input: {
    tenantId: string;
    callbackUrl: string;
    state: string;
    nonce: string;
    codeVerifier: string;
    /** The refresh chain ends this long after the sign-in (the bff session's absolute lifetime). */
    sessionLifetimeSeconds: number;
  }) {
    return this.http.post({
      path: '/v1/auth/callback',
      caller: 'internal',
      body: input,
      schema: signInResponse,
    });
  }

  refresh(refreshToken: string) {
    return this.http.post({
      path: '/v1/auth/refresh',
      caller: 'internal',
      body: { refreshToken },
      schema: tokens,
    });
  }

  async logout(refreshToken: string): Promise<void> {
    await this.http.post({ path: '/v1/auth/logout', caller: 'internal', body: { refreshToken } });
  }

  /** Ends every session of the refresh token's user: all their refresh tokens and their bff staff sessions. */
  async logoutEverywhere(refreshToken: string): Promise<void> {
    await this.http.post({ path: '/v1/auth/logout-all', caller: 'internal', body: { refreshToken } });
  }

  /**
   * Where the browser goes to end its sign-in at the tenant's IdP (OpenID Connect RP-initiated logout) and come back
   * to `postLogoutRedirectUri`; null when the IdP offers no end-session endpoint.
   */
  async endSessionUrl(input: {
    tenantId: string;
    idToken?: string;
    postLogoutRedirectUri: string;
  }): Promise<string | null> {
    const answer = await this.http.post({
      path: '/v1/auth/end-session-url',
      caller: 'internal',
      body: input,
      schema: endSessionResponse,
    });
    return answer.endSessionUrl;
  }

  redeemPortalLink(input: { tenantId: string; token: string }) {
    return this.http.post({
      path: '/v1/portal/links/redeem',
      caller: 'internal',
      body: input,
      schema: portalRedemption,
    });
  }

  /** Queues a subcontractor's request for a fresh portal sign-in link (ADR 0055); the same answer for everyone. */
  async requestPortalLink(input: { tenantId: string; email: string }): Promise<void> {
    await this.http.post({ path: '/v1/portal/link-requests', caller: 'internal', body: input });
  }

  /** The bff's session store at identity (ADR 0025): a sealed session by its key, or undefined. */
  async getSession(key: string): Promise<z.infer<typeof storedSession> | undefined> {
    try {
      return await this.http.get({ path: sessionPath(key), caller: 'internal', schema: storedSession });
    } catch (error) {
      if (error instanceof HttpProblem && error.status === 404) return undefined;
      throw error;
    }
  }

  async putSession(
    key: string,
    session: {
      kind: 'staff' | 'portal';
      tenantId: string;
      subject: string;
      value: string;
      expiresAt: number;
    },
  ): Promise<void> {
    await this.http.put({ path: sessionPath(key), caller: 'internal', body: session });
  }

  async deleteSession(key: string): Promise<void> {
    await this.http.delete({ path: sessionPath(key), caller: 'internal' });
  }

  /** Takes the session's refresh lease for `ms` (true), or frees it with 0. */
  async leaseSession(key: string, ms: number): Promise<boolean> {
    const answer = await this.http.post({
      path: `${sessionPath(key)}/lease`,
      caller: 'internal',
      body: { ms },
      schema: lease,
    });
    return answer.acquired;
  }

  /** Counts an attempt against the shared rate-limit windows of `bucket` (every bff replica's view). */
  hitRateLimit(bucket: string, body: { keys: string[]; limit: number; windowMs: number }) {
    return this.http.post({
      path: `/v1/internal/rate-limits/${encodeURIComponent(bucket)}/hit`,
      caller: 'internal',
      body,
      schema: rateLimitDecision,
    });
  }

  metadata(tenantId: string) {
    return this.http.get({
      path: `/v1/tenants/${encodeURIComponent(tenantId)}/metadata`,
      schema: tenantMetadata,
    });
  }

  me(accessToken: string) {
    return this.http.get({ path: '/v1/me', caller: { accessToken }, schema: profile });
  }

  effectiveScopes(accessToken: string) {
    return this.http.get({
      path: '/v1/me/effective-scopes',
      caller: { accessToken },
      schema: effectiveScopes,
    });
  }

  availableScopes(accessToken: string) {
    return this.http.get({
      path: '/v1/tenant/available-scopes',
      caller: { accessToken },
      schema: availableScopes,
    });
  }

  entitlements(accessToken: string) {
    return this.http.get({ path: '/v1/tenant/entitlements', caller: { accessToken }, schema: entitlements });
  }

  logoImage(accessToken: string) {
    return this.http.get({ path: '/v1/tenant/logo/image', caller: { accessToken }, schema: logoImage });
  }

  /** Readiness: identity answers its own health check in time. */
  healthy(): Promise<boolean> {
    return this.http.healthy();
  }
}

const sessionPath = (key: string) => `/v1/internal/sessions/${encodeURIComponent(key)}`;
