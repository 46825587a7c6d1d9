import { randomBytes } from 'node:crypto';
import {
  INTERNAL_TOKEN,
  REDIRECT_URI,
  demoSeed,
  signIn as signInAtIdentity,
  startIdentityHarness,
  type IdentityHarness,
} from '../../services/identity/test/support.js';
import { startBff, type RunningBff } from '../src/app.js';
import { bffConfigSchema } from '../src/config.js';

/*
 * Two bff replicas in front of one identity (real PostgreSQL, Kafka and the dev IdP): sessions live at identity
 * (ADR 0025), so a cookie made by one replica works at the other, one refresh serves both, and a revoked portal
 * session is refused by both at once.
 */

const PUBLIC_URL = 'http://localhost:8080';
const SESSION_SECRET = randomBytes(32).toString('hex');
/** Each replica serves a session it read from identity for this long (the default): changes elsewhere apply after. */
const SESSION_CACHE_MS = 1_000;
const pastTheReplicaCache = () => new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS + 100));

let harness: IdentityHarness;
const replicas: { bff: RunningBff; base: string; calls: string[] }[] = [];
let clockOffsetMs = 0;

const urlOf = (input: string | URL | Request) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

beforeAll(async () => {
  harness = await startIdentityHarness();
  for (let index = 0; index < 2; index++) {
    const calls: string[] = [];
    const bff = await startBff(
      bffConfigSchema.parse({
        PORT: '0',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        IDENTITY_URL: harness.baseUrl,
        INTERNAL_API_TOKEN: INTERNAL_TOKEN,
        PUBLIC_URL,
        SESSION_SECRET,
        SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
        SESSION_CACHE_MS: String(SESSION_CACHE_MS),
      }),
      {
        now: () => Date.now() + clockOffsetMs,
        fetch: (input, init) => {
          calls.push(`${init?.method ?? 'GET'} ${new URL(urlOf(input)).pathname}`);
          return fetch(input, init);
        },
      },
    );
    replicas.push({ bff, base: `http://127.0.0.1:${bff.port}`, calls });
  }
});

afterAll(async () => {
  for (const replica of replicas) await replica.bff.shutdown('test');
  await harness.stop();
});

const A = () => replicas[0]?.base ?? '';
const B = () => replicas[1]?.base ?? '';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const read = (res: Response): Promise<any> => res.json();

/** One browser: cookies per host (as browsers keep them: the port does not separate them), manual redirects. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const host = new URL(url).hostname;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(header)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  api(base: string, path: string, init: RequestInit & { json?: unknown; csrf?: string } = {}) {
    const { json, csrf, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    if (csrf !== undefined) headers.set('x-csrf-token', csrf);
    return this.fetch(`${base}${path}`, {
      ...rest,
      headers,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  }
}

/** Signs in through bff `base`: /api/auth/login, the IdP's pages and form, then the callback at the same bff. */
async function signInAt(base: string, email: string): Promise<{ browser: Browser; csrf: string }> {
  const browser = new Browser();
  const login = await browser.api(base, '/api/auth/login?tenant=demo');
  let url = login.headers.get('location') ?? '';
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(REDIRECT_URI)) {
      const callback = await browser.fetch(`${base}${url.slice(PUBLIC_URL.length)}`);
      expect(callback.status).toBe(302);
      const session = await browser.api(base, '/api/auth/session');
      expect(session.status).toBe(200);
      return { browser, csrf: ((await read(session)) as { csrfToken: string }).csrfToken };
    }
    let response = await browser.fetch(url);
    if (response.status === 200 && /\/interaction\//.test(url)) {
      const page = await response.text();
      const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
      response = await browser.fetch(new URL(action, url).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: demoSeed.password }).toString(),
      });
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`sign-in stopped at ${url} with ${response.status}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects during sign-in');
}

describe('sessions shared by bff replicas', () => {
  it('accepts at replica B the session signed in at replica A (same cookie); signing out at B ends it at A', async () => {
    const { browser, csrf } = await signInAt(A(), 'editor@demo.test');
    const atB = await browser.api(B(), '/api/auth/session');
    expect(atB.status).toBe(200);
    expect(await read(atB)).toMatchObject({ user: { email: 'editor@demo.test' }, csrfToken: csrf });
    expect((await browser.api(B(), '/api/v1/auth/effective-scopes')).status).toBe(200);
    // A state-changing call at B with the CSRF token A issued.
    const saved = await browser.api(B(), '/api/me', { method: 'PATCH', csrf, json: { status: 'busy' } });
    expect(saved.status).toBe(200);

    expect((await browser.api(B(), '/api/auth/logout', { method: 'POST', csrf })).status).toBe(204);
    expect((await browser.api(B(), '/api/auth/session')).status).toBe(401);
    await pastTheReplicaCache();
    expect((await browser.api(A(), '/api/auth/session')).status).toBe(401);
  });

  it('keeps only sealed values at identity: no token of the session is readable in its row', async () => {
    const { browser } = await signInAt(A(), 'viewer@demo.test');
    const rows = await harness.service.deps
      .db('bff_sessions')
      .where({ kind: 'staff', tenant_id: 'demo' })
      .select<{ value_sealed: string }[]>('value_sealed');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.value_sealed).toMatch(/^v1\.s1\./);
      expect(row.value_sealed).not.toMatch(/demo\.[A-Za-z0-9_-]{43}/);
      expect(row.value_sealed).not.toContain('eyJ');
    }
    expect((await browser.api(B(), '/api/auth/session')).status).toBe(200);
  });

  it('renews a session once at identity when both replicas need a new access token at the same time', async () => {
    const { browser } = await signInAt(A(), 'cis.admin@demo.test');
    for (const replica of replicas) replica.calls.length = 0;
    clockOffsetMs = 280_000; // 20 s left of identity's 300 s token, on both replicas
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          browser.api(index % 2 === 0 ? A() : B(), '/api/v1/auth/effective-scopes'),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const refreshes = replicas
        .flatMap((replica) => replica.calls)
        .filter((call) => call === 'POST /v1/auth/refresh');
      expect(refreshes).toHaveLength(1);
      // Still signed in at both (a second use of the rotated refresh token would have ended every session).
      expect((await browser.api(A(), '/api/auth/session')).status).toBe(200);
      expect((await browser.api(B(), '/api/auth/session')).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('portal sessions revoked', () => {
  it('refuses at every replica, once their session cache time has passed, the portal session of a subcontractor the contractor revoked', async () => {
    const subcontractorId = `sub-${randomBytes(4).toString('hex')}`;
    const { body } = await signInAtIdentity(harness, 'demo', 'admin@demo.test', demoSeed.password);
    const created = await fetch(`${harness.baseUrl}/v1/portal/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${String(body.accessToken)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subcontractorId }),
    });
    const link = new URL(((await read(created)) as { magicLink: string }).magicLink);
    const portal = new Browser();
    const redeemed = await portal.api(A(), '/api/portal/session', {
      method: 'POST',
      json: { tenantId: link.searchParams.get('tid'), token: link.searchParams.get('token') },
    });
    expect(redeemed.status).toBe(200);
    expect((await portal.api(B(), '/api/portal/session')).status).toBe(200);

    // The contractor's admin, signed in at replica B, revokes (a viewer may not).
    const viewer = await signInAt(B(), 'viewer@demo.test');
    const denied = await viewer.browser.api(B(), '/api/portal/sessions/revoke', {
      method: 'POST',
      csrf: viewer.csrf,
      json: { subcontractorId },
    });
    expect(denied.status).toBe(403);
    expect((await portal.api(A(), '/api/portal/session')).status).toBe(200);
    const admin = await signInAt(B(), 'admin@demo.test');
    const revoked = await admin.browser.api(B(), '/api/portal/sessions/revoke', {
      method: 'POST',
      csrf: admin.csrf,
      json: { subcontractorId },
    });
    expect(revoked.status).toBe(200);
    expect(await read(revoked)).toEqual({ revoked: 1, linksExpired: 0 });

    await pastTheReplicaCache();
    expect((await portal.api(A(), '/api/portal/session')).status).toBe(401);
    expect((await portal.api(B(), '/api/portal/session')).status).toBe(401);
  });
});

describe('rate limits shared by bff replicas', () => {
  it('counts sign-in attempts at every replica together, and keeps no client address in clear', async () => {
    // Two more replicas with a limit of 3 a minute and their own secret (so their windows are theirs alone).
    const secret = randomBytes(32).toString('hex');
    const limited: RunningBff[] = [];
    try {
      for (let index = 0; index < 2; index++) {
        limited.push(
          await startBff(
            bffConfigSchema.parse({
              PORT: '0',
              LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
              IDENTITY_URL: harness.baseUrl,
              INTERNAL_API_TOKEN: INTERNAL_TOKEN,
              PUBLIC_URL,
              SESSION_SECRET: secret,
              SIGNIN_RATE_LIMIT_PER_MINUTE: '3',
            }),
          ),
        );
      }
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        const replica = limited[attempt % 2]!;
        const res = await fetch(`http://127.0.0.1:${replica.port}/api/auth/login?tenant=demo`, {
          redirect: 'manual',
        });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      // Three attempts in all, not three per replica.
      expect(statuses).toEqual([302, 302, 302, 429]);
      // Magic-link redemption has its own windows.
      const redeem = await fetch(`http://127.0.0.1:${limited[1]!.port}/api/portal/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tenantId: 'demo', token: randomBytes(32).toString('base64url') }),
      });
      expect(redeem.status).toBe(404);

      const windows = await harness.service.deps
        .db('rate_limit_windows')
        .select<{ bucket: string; key: string; count: number }[]>('bucket', 'key', 'count');
      expect(windows.some((row) => row.bucket === 'login' && row.count === 3)).toBe(true);
      expect(windows.some((row) => row.bucket === 'redeem')).toBe(true);
      for (const row of windows) {
        expect(row.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(row.key).not.toContain('127.0.0.1');
      }
    } finally {
      for (const bff of limited) await bff.shutdown('test');
    }
  });
});
