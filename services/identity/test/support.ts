import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { baseConfigSchema, recordEvent, remoteJwks, startService, type StartedService } from '@workspace/kit';
import { createTestDatabase, serviceTestEnv, type TestDatabase } from '@workspace/kit/testing';
import { ledgerService, provisionLedgerSchema } from '@workspace/kit/testing/ledger-service';
import { provisionServiceSchema } from '@workspace/kit';
import { cisEvents, type CisAuditAction } from '@workspace/proto';
import { startDevIdp, type RunningDevIdp } from '../../../deploy/local/dev-idp.js';
import { identityConfigSchema, type IdentityConfig } from '../src/config.js';
import { seededSubject, seedTenant, type TenantSeed } from '../src/commands/seed-tenant.js';
import { identityService, type IdentitySeams, type IdentityService } from '../src/service.js';

export const INTERNAL_TOKEN = randomBytes(24).toString('hex');
export const CLIENT = { clientId: 'workspace', clientSecret: randomBytes(16).toString('hex') };
export const REDIRECT_URI = 'http://localhost:8080/api/auth/callback';
/** Where the IdP's RP-initiated logout sends the browser back to: the bff's sign-in page. */
export const POST_LOGOUT_REDIRECT_URI = 'http://localhost:8080/login';

export const demoSeed = JSON.parse(
  readFileSync(new URL('../../../deploy/local/seed/demo.json', import.meta.url), 'utf8'),
) as TenantSeed & { password: string };

export const acmeSeed: TenantSeed & { password: string } = {
  password: 'acme-password',
  tenant: {
    id: 'acme',
    name: 'Acme Builders',
    region: 'eu',
    branding: {},
    storageTier: 'free',
    entitlements: [],
    modules: [{ id: 'cis', enabled: true, config: {} }],
  },
  users: [
    {
      uid: '10000000-0000-4000-8000-000000000001',
      email: 'admin@acme.test',
      firstName: 'Acme',
      lastName: 'Admin',
      role: 'admin',
      bundleIds: ['admin'],
    },
  ],
};

/**
 * Ports a test server may take: below Linux's ephemeral range (32768-60999, where the kernel picks both `listen(0)`
 * ports and the local ports of outgoing connections). A port picked from that range can be taken by a Kafka or
 * PostgreSQL connection between the pick and the server's listen (EADDRINUSE); below it, only another listener can.
 */
const TEST_PORTS = { from: 20_000, to: 32_767 } as const;

/** A port nothing listens on now (checked on every interface, as the bff listens), for a server a test starts. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = TEST_PORTS.from + Math.floor(Math.random() * (TEST_PORTS.to - TEST_PORTS.from + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(
    `no free port between ${String(TEST_PORTS.from)} and ${String(TEST_PORTS.to)} after 50 tries`,
  );
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

export interface IdentityHarness {
  database: TestDatabase;
  idp: RunningDevIdp;
  service: StartedService<IdentityConfig>;
  definition: IdentityService;
  config: IdentityConfig;
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Real PostgreSQL and Kafka, the dev IdP, identity seeded with the demo and acme tenants. `config` overrides
 * identity's settings; `seams` swaps what a test controls (the signing keys' clock).
 */
export async function startIdentityHarness(
  options: { publicUrl?: string; config?: Record<string, string>; seams?: IdentitySeams } = {},
): Promise<IdentityHarness> {
  const database = await createTestDatabase('identity');
  const roles = await provisionServiceSchema(database.adminUrl, {
    schema: 'identity',
    role: 'svc_identity',
    password: 'identity-test',
    ownerPassword: 'identity-owner-test',
  });
  const accounts = [demoSeed, acmeSeed].flatMap((seed) =>
    seed.users.map((user) => ({
      subject: seededSubject(seed.tenant.id, user.email),
      email: user.email,
      name: `${user.firstName} ${user.lastName}`,
      password: seed.password,
    })),
  );
  const idpPort = await freePort();
  // A test that serves the bff on its own origin adds that origin's callback.
  const redirectUris = [
    REDIRECT_URI,
    ...(options.publicUrl ? [`${options.publicUrl}/api/auth/callback`] : []),
  ];
  const postLogoutRedirectUris = [
    POST_LOGOUT_REDIRECT_URI,
    ...(options.publicUrl ? [`${options.publicUrl}/login`] : []),
  ];
  const idp = await startDevIdp({
    port: idpPort,
    clients: [{ ...CLIENT, redirectUris, postLogoutRedirectUris }],
    accounts,
  });
  const config = identityConfigSchema.parse({
    ...serviceTestEnv(roles),
    IDENTITY_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    OIDC_ISSUER_URL: idp.issuer,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    OIDC_ALLOW_HTTP: 'true',
    // Magic links land on the bff the test serves, when it serves one.
    ...(options.publicUrl ? { PORTAL_LOGIN_URL: `${options.publicUrl}/portal-login` } : {}),
    ...options.config,
  });
  const definition = identityService(config, options.seams);
  const service = await startService(definition, config);
  await seedTenant(definition.context(), demoSeed);
  await seedTenant(definition.context(), acmeSeed);
  return {
    database,
    idp,
    service,
    definition,
    config,
    baseUrl: `http://127.0.0.1:${service.port}`,
    stop: async () => {
      await service.shutdown();
      await idp.close();
      await database.drop();
    },
  };
}

/** Cookies of one browser, enough for the IdP's interaction and session cookies (a test may keep one across sign-ins). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (!name) continue;
      // A cookie set empty or already expired is deleted (the IdP's logout clears its session cookie so).
      const expired = /;\s*expires=Thu, 01 Jan 1970/i.test(header) || /;\s*max-age=0(;|$)/i.test(header);
      if (expired || value.join('=') === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join('='));
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export async function internalPost(harness: IdentityHarness, path: string, body: unknown) {
  return fetch(`${harness.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
    body: JSON.stringify(body),
  });
}

/**
 * Stores a portal session of a subcontractor as the bff does (PUT /v1/internal/sessions/:key, sealed value, an hour
 * to live) and answers its key.
 */
export async function putPortalSession(
  harness: IdentityHarness,
  tenantId: string,
  subcontractorId: string,
): Promise<string> {
  const key = `portal-${randomBytes(16).toString('base64url')}`;
  const res = await fetch(`${harness.baseUrl}/v1/internal/sessions/${key}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
    body: JSON.stringify({
      kind: 'portal',
      tenantId,
      subject: subcontractorId,
      value: 'sealed',
      expiresAt: Date.now() + 3_600_000,
    }),
  });
  expect(res.status).toBe(204);
  return key;
}

/**
 * Makes a magic link for a subcontractor (POST /v1/portal/links with a staff bearer); answers the status and the
 * link's token (null when no link was made).
 */
export async function createPortalLink(
  harness: IdentityHarness,
  bearer: string,
  subcontractorId: string,
): Promise<{ status: number; token: string | null }> {
  const res = await fetch(`${harness.baseUrl}/v1/portal/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ subcontractorId }),
  });
  const { magicLink } = (await res.json()) as { magicLink?: string };
  return { status: res.status, token: magicLink ? new URL(magicLink).searchParams.get('token') : null };
}

/** Whether a bff session is still stored (GET /v1/internal/sessions/:key answers 200). */
export async function sessionExists(harness: IdentityHarness, key: string): Promise<boolean> {
  return (
    (
      await fetch(`${harness.baseUrl}/v1/internal/sessions/${key}`, {
        headers: { 'x-internal-token': INTERNAL_TOKEN },
      })
    ).status === 200
  );
}

/**
 * Records a cis event about one demo subcontractor (by cis-admin) in identity's outbox, whose relay publishes it to
 * cis.events.v1 as cis's own would. `source` is cis unless given (a forged event names another); the aggregate is
 * the subcontractor unless given; `details` are the activity's details when given.
 */
export function recordCisSubcontractorEvent(
  harness: IdentityHarness,
  type: CisAuditAction,
  subcontractorId: string,
  options: { source?: string; aggregateId?: string; details?: Record<string, string> } = {},
): Promise<string> {
  return harness.service.deps.db.transaction((trx) =>
    recordEvent(trx, options.source ?? '/workspace/cis', cisEvents[type], {
      tenantId: 'demo',
      aggregateId: options.aggregateId ?? subcontractorId,
      data: {
        actorId: 'cis-admin',
        targetType: 'subcontractor',
        targetId: subcontractorId,
        targetIds: [subcontractorId],
        succeeded: 1,
        ...(options.details ? { details: options.details } : {}),
      },
    }),
  );
}

/**
 * Signs in through the real flow, as the bff and a browser would: authorize at identity, the IdP's login page and
 * form, its redirects (consent included), then the callback at identity. Returns identity's answer, and the login
 * page the IdP showed ('' when it showed none: its own session was alive in `options.jar`, the browser's cookies).
 * `options.prompt` and `options.sessionLifetimeSeconds` are passed to authorize and the callback as the bff would.
 */
export async function signIn(
  harness: IdentityHarness,
  tenantId: string,
  email: string,
  password: string,
  options: { jar?: CookieJar; prompt?: 'login'; sessionLifetimeSeconds?: number } = {},
): Promise<{ status: number; body: Record<string, unknown>; loginPage: string }> {
  const started = (await (
    await internalPost(harness, '/v1/auth/authorize', {
      tenantId,
      redirectUri: REDIRECT_URI,
      ...(options.prompt ? { prompt: options.prompt } : {}),
    })
  ).json()) as {
    authorizationUrl: string;
    state: string;
    nonce: string;
    codeVerifier: string;
  };
  const jar = options.jar ?? new CookieJar();
  let url = started.authorizationUrl;
  let loginPage = '';
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(REDIRECT_URI)) {
      const callback = await internalPost(harness, '/v1/auth/callback', {
        tenantId,
        callbackUrl: url,
        state: started.state,
        nonce: started.nonce,
        codeVerifier: started.codeVerifier,
        ...(options.sessionLifetimeSeconds ? { sessionLifetimeSeconds: options.sessionLifetimeSeconds } : {}),
      });
      return { status: callback.status, body: (await callback.json()) as Record<string, unknown>, loginPage };
    }
    let response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(response);
    if (response.status === 200 && /\/interaction\//.test(url)) {
      loginPage = await response.text();
      const action = /action="([^"]+)"/.exec(loginPage)?.[1] ?? '';
      response = await fetch(new URL(action, url), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
      jar.store(response);
      if (response.status === 401) return { status: 401, body: {}, loginPage: await response.text() };
    } else if (response.status === 200) {
      // A page the IdP's script submits at once (e.g. ending the previous account's session when another one signs
      // in): post its hidden fields as the browser would.
      response = await submitSelfPostingForm(await response.text(), url, jar);
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`sign-in stopped at ${url} with ${response.status}: ${await response.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects during sign-in');
}

async function submitSelfPostingForm(html: string, url: string, jar: CookieJar): Promise<Response> {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action || !/\.submit\(\)/.test(html)) throw new Error(`sign-in stopped at ${url}: ${html}`);
  const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(
    ([, name = '', value = '']): [string, string] => [name, value],
  );
  const response = await fetch(new URL(action, url), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  jar.store(response);
  return response;
}

/** The password of a seeded tenant's users (acme's, or the demo seed's for any other tenant). */
export const seedPassword = (tenant: string): string =>
  tenant === 'acme' ? acmeSeed.password : demoSeed.password;

/** An access token of a seeded user, signed in through the real flow (see signIn); a failed sign-in throws. */
export async function accessToken(
  harness: IdentityHarness,
  tenant: string,
  email: string,
  password = seedPassword(tenant),
): Promise<string> {
  const result = await signIn(harness, tenant, email, password);
  if (result.status !== 200) throw new Error(`sign-in as ${email} failed: ${JSON.stringify(result.body)}`);
  return result.body.accessToken as string;
}

/**
 * accessToken, signing each user in once: later calls for the same tenant and email answer the first token.
 * `harness` is read at each call (a test file starts it in beforeAll).
 */
export function cachedAccessTokens(
  harness: () => IdentityHarness,
): (tenant: string, email: string, password?: string) => Promise<string> {
  const tokens = new Map<string, string>();
  return async (tenant, email, password) => {
    const key = `${tenant}/${email}`;
    let token = tokens.get(key);
    if (token === undefined) {
      token = await accessToken(harness(), tenant, email, password);
      tokens.set(key, token);
    }
    return token;
  };
}

/** Response bodies are asserted on, not trusted: reading them untyped is the point. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** One call of identity's HTTP API, with a bearer token when given and a JSON body when given. */
export async function callIdentity(
  harness: IdentityHarness,
  method: string,
  path: string,
  bearer?: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${harness.baseUrl}${path}`, {
    method,
    headers: {
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** The scopes a bearer holds (GET /v1/me/effective-scopes); anything but 200 throws. */
export async function effectiveScopes(harness: IdentityHarness, bearer: string): Promise<string[]> {
  const res = await callIdentity(harness, 'GET', '/v1/me/effective-scopes', bearer);
  if (res.status !== 200) throw new Error(`effective scopes: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.granted as string[];
}

/** A route of a service's OpenAPI document: whether it is public and the scopes it names. */
export interface ReviewedRoute {
  route: string;
  method: string;
  url: string;
  public: boolean;
  scopes: string[];
}

/**
 * The routes of a service as its own /openapi.json lists them (generated from the routes themselves, so a route
 * added later is reviewed too); `fill` turns a path's {parameters} into a URL to call.
 */
export async function routesOf(baseUrl: string, fill: (path: string) => string): Promise<ReviewedRoute[]> {
  const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: unknown[]; 'x-required-scopes'?: string[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      route: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      url: fill(path),
      public: operation.security !== undefined,
      scopes: operation['x-required-scopes'] ?? [],
    })),
  );
}

/** The status a route answers (an empty JSON body for anything but GET); the body is not read. */
export async function routeStatus(
  baseUrl: string,
  method: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { ...headers, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    ...(method === 'GET' ? {} : { body: '{}' }),
    signal: AbortSignal.timeout(10_000),
  });
  await res.body?.cancel();
  return res.status;
}

/** The kit's ledger fixture service, in a schema of the harness's database, verifying tokens by identity's JWKS. */
/**
 * A service (the kit's ledger fixture) trusting identity's JWKS; `jwksCooldownMs` shortens the JWKS refetch
 * cooldown (30 s by default) so a test need not wait it out.
 */
export async function startLedgerTrustingIdentity(
  harness: IdentityHarness,
  name: string,
  options: { jwksCooldownMs?: number } = {},
) {
  const roles = await provisionLedgerSchema(harness.database.adminUrl);
  const jwksUrl = `${harness.baseUrl}/.well-known/jwks.json`;
  const config = baseConfigSchema.parse({ ...serviceTestEnv(roles), JWKS_URL: jwksUrl });
  return startService(
    ledgerService(`${name}-${Date.now()}`),
    config,
    options.jwksCooldownMs === undefined
      ? {}
      : { keys: remoteJwks(jwksUrl, { cooldownMs: options.jwksCooldownMs }) },
  );
}
