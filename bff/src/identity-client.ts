import { STATUS_CODES } from 'node:http';
import { HttpProblem, type FieldError, type Logger } from '@workspace/kit';
import { z } from 'zod';

/*
 * What identity answers, as far as the bff relies on it. Objects are loose: a field identity adds later passes
 * through to the SPA instead of being dropped here.
 */
export const userView = z.looseObject({
  uid: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  role: z.string(),
  status: z.string(),
  themePreference: z.record(z.string(), z.unknown()),
});

export const tenantView = z.looseObject({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  branding: z.record(z.string(), z.unknown()),
  modules: z.array(z.looseObject({ id: z.string(), enabled: z.boolean() })),
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

const signInResponse = tokens.extend({ user: userView, tenant: tenantView });

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
const revokedPortalAccess = z.object({ revoked: z.number(), linksExpired: z.number() });

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
/** Footer settings as identity answers them (identity validates what is saved). */
export const footerView = z.looseObject({ showFooter: z.boolean(), displayName: z.string() });

/** The tenant's logo as identity describes it (kind, text, image type, size and version; not the bytes). */
export const logoView = z.looseObject({
  kind: z.enum(['none', 'text', 'image']),
  text: z.string().nullable(),
  contentType: z.string().nullable(),
  etag: z.string().nullable(),
});
const logoImage = z.object({ contentType: z.string(), etag: z.string(), data: z.string() });

export type Tokens = z.infer<typeof tokens>;
export type SignInResult = z.infer<typeof signInResponse>;
export type PortalRedemption = z.infer<typeof portalRedemption>;
export type UserView = z.infer<typeof userView>;
export type TenantView = z.infer<typeof tenantView>;

export const IDENTITY_UNREACHABLE = 'The identity service is not reachable.';

/** identity's non-2xx answer; `identityDetail` is the message its body carried (undefined when it had none). */
export class IdentityProblem extends HttpProblem {
  constructor(
    status: number,
    code: string,
    detail: string,
    errors: FieldError[] | undefined,
    readonly identityDetail: string | undefined,
  ) {
    super(status, code, detail, errors);
  }
}

const problemBody = z.object({
  code: z.string().optional(),
  detail: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

export interface IdentityClientOptions {
  baseUrl: string;
  internalToken: string;
  timeoutMs: number;
  logger: Logger;
  fetch?: typeof fetch;
}

type Caller = { internal: true } | { accessToken: string };

/**
 * Typed calls to identity. A non-2xx answer becomes an HttpProblem with identity's status, code, detail and field
 * errors (so the SPA shows identity's message); no answer at all (refused, reset, timed out) is a 503.
 */
export class IdentityClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: IdentityClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  authorize(input: { tenantId: string; redirectUri: string; loginHint?: string }) {
    return this.call(authorizeResponse, 'POST', '/v1/auth/authorize', { internal: true }, input);
  }

  completeSignIn(input: {
    tenantId: string;
    callbackUrl: string;
    state: string;
    nonce: string;
    codeVerifier: string;
  }) {
    return this.call(signInResponse, 'POST', '/v1/auth/callback', { internal: true }, input);
  }

  refresh(refreshToken: string) {
    return this.call(tokens, 'POST', '/v1/auth/refresh', { internal: true }, { refreshToken });
  }

  async logout(refreshToken: string): Promise<void> {
    await this.send('POST', '/v1/auth/logout', { internal: true }, { refreshToken });
  }

  redeemPortalLink(input: { tenantId: string; token: string }) {
    return this.call(portalRedemption, 'POST', '/v1/portal/links/redeem', { internal: true }, input);
  }

  /** The bff's session store at identity (ADR 0025): a sealed session by its key, or undefined. */
  async getSession(key: string): Promise<z.infer<typeof storedSession> | undefined> {
    try {
      return await this.call(storedSession, 'GET', sessionPath(key), { internal: true });
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
    await this.send('PUT', sessionPath(key), { internal: true }, session);
  }

  async deleteSession(key: string): Promise<void> {
    await this.send('DELETE', sessionPath(key), { internal: true });
  }

  /** Takes the session's refresh lease for `ms` (true), or frees it with 0. */
  async leaseSession(key: string, ms: number): Promise<boolean> {
    return (await this.call(lease, 'POST', `${sessionPath(key)}/lease`, { internal: true }, { ms })).acquired;
  }

  /** Counts an attempt against the shared rate-limit windows of `bucket` (every bff replica's view). */
  hitRateLimit(bucket: string, body: { keys: string[]; limit: number; windowMs: number }) {
    return this.call(
      rateLimitDecision,
      'POST',
      `/v1/internal/rate-limits/${encodeURIComponent(bucket)}/hit`,
      { internal: true },
      body,
    );
  }

  revokePortalSessions(accessToken: string, subcontractorId: string) {
    return this.call(
      revokedPortalAccess,
      'POST',
      '/v1/portal/sessions/revoke',
      { accessToken },
      { subcontractorId },
    );
  }

  metadata(tenantId: string) {
    return this.call(tenantMetadata, 'GET', `/v1/tenants/${encodeURIComponent(tenantId)}/metadata`, null);
  }

  me(accessToken: string) {
    return this.call(profile, 'GET', '/v1/me', { accessToken });
  }

  updateMe(accessToken: string, body: unknown) {
    return this.call(userView, 'PATCH', '/v1/me', { accessToken }, body);
  }

  effectiveScopes(accessToken: string) {
    return this.call(effectiveScopes, 'GET', '/v1/me/effective-scopes', { accessToken });
  }

  tenant(accessToken: string) {
    return this.call(tenantView, 'GET', '/v1/tenant', { accessToken });
  }

  updateTenant(accessToken: string, body: unknown) {
    return this.call(tenantView, 'PATCH', '/v1/tenant', { accessToken }, body);
  }

  availableScopes(accessToken: string) {
    return this.call(availableScopes, 'GET', '/v1/tenant/available-scopes', { accessToken });
  }

  entitlements(accessToken: string) {
    return this.call(entitlements, 'GET', '/v1/tenant/entitlements', { accessToken });
  }

  footer(accessToken: string) {
    return this.call(footerView, 'GET', '/v1/tenant/footer', { accessToken });
  }

  saveFooter(accessToken: string, body: unknown) {
    return this.call(footerView, 'PUT', '/v1/tenant/footer', { accessToken }, body);
  }

  logo(accessToken: string) {
    return this.call(logoView, 'GET', '/v1/tenant/logo', { accessToken });
  }

  logoImage(accessToken: string) {
    return this.call(logoImage, 'GET', '/v1/tenant/logo/image', { accessToken });
  }

  saveLogo(accessToken: string, body: unknown) {
    return this.call(logoView, 'PUT', '/v1/tenant/logo', { accessToken }, body);
  }

  async deleteLogo(accessToken: string): Promise<void> {
    await this.send('DELETE', '/v1/tenant/logo', { accessToken });
  }

  /** Readiness: identity answers its own health check in time. */
  async healthy(): Promise<boolean> {
    try {
      const response = await this.fetch(`${this.options.baseUrl}/healthz`, {
        signal: AbortSignal.timeout(Math.min(this.options.timeoutMs, 2000)),
      });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  private async call<S extends z.ZodType>(
    schema: S,
    method: string,
    path: string,
    caller: Caller | null,
    body?: unknown,
  ): Promise<z.infer<S>> {
    const { status, text } = await this.send(method, path, caller, body);
    const parsed = schema.safeParse(parseJson(text));
    if (!parsed.success) {
      this.options.logger.error(
        { method, path, status, issues: parsed.error.issues.slice(0, 5) },
        'identity answered in an unexpected shape',
      );
      throw new HttpProblem(502, 'identity_bad_response', 'The identity service answered unexpectedly.');
    }
    return parsed.data;
  }

  private async send(
    method: string,
    path: string,
    caller: Caller | null,
    body?: unknown,
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (caller && 'internal' in caller) headers['x-internal-token'] = this.options.internalToken;
    if (caller && 'accessToken' in caller) headers.authorization = `Bearer ${caller.accessToken}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      this.options.logger.warn({ err: error, method, path }, 'identity is not reachable');
      throw new HttpProblem(503, 'identity_unreachable', IDENTITY_UNREACHABLE);
    }
    if (!response.ok) throw this.problem(response.status, text, method, path);
    return { status: response.status, text };
  }

  private problem(status: number, text: string, method: string, path: string): HttpProblem {
    const parsed = problemBody.safeParse(parseJson(text));
    const document = parsed.success ? parsed.data : {};
    if (status >= 500) this.options.logger.warn({ method, path, status }, 'identity failed');
    const errors: FieldError[] | undefined = document.errors;
    return new IdentityProblem(
      status,
      document.code ?? 'identity_error',
      document.detail ?? STATUS_CODES[status] ?? 'The identity service refused the request.',
      errors,
      document.detail,
    );
  }
}

const sessionPath = (key: string) => `/v1/internal/sessions/${encodeURIComponent(key)}`;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
