import { randomBytes } from 'node:crypto';
import {
  acmeSeed,
  demoSeed,
  freePort,
  signIn as signInAtIdentity,
  startIdentityHarness,
  type IdentityHarness,
} from '@workspace/identity/testing';
import { startBff, type RunningBff } from '../src/app.js';
import {
  PUBLIC_URL,
  TestBrowser,
  read,
  signInThroughBff,
  signedInBrowser,
  testBffConfig,
  urlOf,
} from './support.js';

/*
 * The bff against the real identity service (PostgreSQL, Kafka) and the dev OIDC provider. identity's test
 * harness registers http://localhost:8080/api/auth/callback as the redirect URI, so the bff runs with that
 * PUBLIC_URL and the test browser (./support.js) sends the IdP's redirect to the bff's real port.
 */

const CSRF_FAILED = 'Invalid or missing CSRF token.';

let harness: IdentityHarness;
let bff: RunningBff;
let base: string;
let clockOffsetMs = 0;
const identityCalls: string[] = [];

const bffConfig = (overrides: Record<string, string> = {}) => testBffConfig(harness.baseUrl, overrides);

beforeAll(async () => {
  harness = await startIdentityHarness();
  bff = await startBff(bffConfig(), {
    now: () => Date.now() + clockOffsetMs,
    fetch: (input, init) => {
      identityCalls.push(`${init?.method ?? 'GET'} ${new URL(urlOf(input)).pathname}`);
      return fetch(input, init);
    },
  });
  base = `http://127.0.0.1:${bff.port}`;
});

afterAll(async () => {
  await bff.shutdown('test');
  await harness.stop();
});

/** A browser signed in at the bff, and its session's CSRF token. */
const signedIn = (tenant = 'demo', email = 'admin@demo.test') => signedInBrowser(base, { tenant, email });

describe('staff sign-in through the bff', () => {
  it('goes login → IdP page → form → callback → session cookie, and /api/auth/session shows the admin and a CSRF token', async () => {
    const browser = new TestBrowser(base);
    const { login, callback, loginPage } = await signInThroughBff(browser, base, {
      tenant: 'demo',
      email: 'admin@demo.test',
      password: demoSeed.password,
      returnTo: '/schedule?cal=team',
    });
    expect(new URL(login.headers.get('location') ?? '').origin).toBe(harness.idp.issuer);
    expect(login.headers.get('location')).toContain(
      `redirect_uri=${encodeURIComponent(`${PUBLIC_URL}/api/auth/callback`)}`,
    );
    const signInCookie = login.headers.getSetCookie().find((header) => header.startsWith('ws_signin='));
    expect(signInCookie).toMatch(/Path=\/api\/auth/);
    expect(signInCookie).toMatch(/HttpOnly/);
    expect(signInCookie).toMatch(/SameSite=Lax/);
    expect(signInCookie).toMatch(/Max-Age=600/);
    expect(signInCookie).not.toMatch(/Secure/);
    expect(loginPage).toContain('Sign in to Workspace');

    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/schedule?cal=team');
    const sessionCookie = browser.lastSetCookie('ws_session') ?? '';
    expect(sessionCookie).toMatch(/^ws_session=[A-Za-z0-9_-]{43};/);
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/SameSite=Lax/);
    expect(sessionCookie).toMatch(/Path=\//);
    expect(sessionCookie).not.toMatch(/Secure/);
    expect(browser.cookie('ws_signin')).toBeUndefined();

    const session = await browser.api('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.headers.get('cache-control')).toBe('no-store');
    const body = await read(session);
    expect(body).toMatchObject({
      authenticated: true,
      user: { email: 'admin@demo.test', role: 'admin', displayName: 'Ada Admin' },
      tenant: { id: 'demo', name: 'Demo Construction Ltd', region: 'uk' },
    });
    expect(body.scopes).toEqual(expect.arrayContaining(['tenant.edit_settings', 'roles.manage']));
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The browser never sees identity's tokens.
    expect(JSON.stringify(body)).not.toMatch(/accessToken"|refreshToken/);
  });

  it('sends the browser back only to a path on this origin', async () => {
    const browser = new TestBrowser(base);
    const { callback } = await signInThroughBff(browser, base, {
      tenant: 'demo',
      email: 'viewer@demo.test',
      password: demoSeed.password,
      returnTo: '//evil.example/phish',
    });
    expect(callback.headers.get('location')).toBe('/');
  });

  it('redirects failures to /login?error=<code>', async () => {
    const browser = new TestBrowser(base);
    const unknown = await browser.api('/api/auth/login?tenant=nobody');
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get('location')).toBe('/login?error=unknown_tenant');
    const noTenant = await browser.api('/api/auth/login');
    expect(noTenant.headers.get('location')).toBe('/login?error=tenant_required');

    const noCookie = await browser.api('/api/auth/callback?code=abc&state=xyz');
    expect(noCookie.headers.get('location')).toBe('/login?error=signin_expired');
    const denied = await browser.api('/api/auth/callback?error=access_denied&state=xyz');
    expect(denied.headers.get('location')).toBe('/login?error=access_denied');

    await browser.api('/api/auth/login?tenant=demo');
    expect(browser.cookie('ws_signin')).toBeDefined();
    const forgedState = await browser.api('/api/auth/callback?code=abc&state=forged');
    expect(forgedState.headers.get('location')).toBe('/login?error=state_mismatch');

    const otherTenant = await signInThroughBff(new TestBrowser(base), base, {
      tenant: 'demo',
      email: 'admin@acme.test',
      password: acmeSeed.password,
    });
    expect(otherTenant.callback.headers.get('location')).toBe('/login?error=not_set_up');
  });

  it('answers 401 problems without a session', async () => {
    const browser = new TestBrowser(base);
    for (const path of ['/api/auth/session', '/api/v1/auth/effective-scopes', '/api/me', '/api/tenant']) {
      const res = await browser.api(path);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
  });
});

describe('CSRF', () => {
  it('refuses PATCH /api/me without or with a wrong x-csrf-token, and accepts the session’s token', async () => {
    const { browser, csrf } = await signedIn('demo', 'editor@demo.test');
    const missing = await browser.api('/api/me', { method: 'PATCH', json: { status: 'busy' } });
    expect(missing.status).toBe(403);
    expect(await read(missing)).toMatchObject({ status: 403, detail: CSRF_FAILED });
    const wrong = await browser.api('/api/me', {
      method: 'PATCH',
      json: { status: 'busy' },
      csrf: randomBytes(32).toString('base64url'),
    });
    expect(wrong.status).toBe(403);
    expect((await read(wrong)).detail).toBe(CSRF_FAILED);
    expect((await read(await browser.api('/api/me'))).user.status).toBe('active');

    const right = await browser.api('/api/me', {
      method: 'PATCH',
      json: { status: 'busy', themePreference: { mode: 'dark' } },
      csrf,
    });
    expect(right.status).toBe(200);
    expect(await read(right)).toMatchObject({ status: 'busy', themePreference: { mode: 'dark' } });
    expect((await read(await browser.api('/api/me'))).user).toMatchObject({ status: 'busy' });

    const invalid = await browser.api('/api/me', { method: 'PATCH', json: { status: 'asleep' }, csrf });
    expect(invalid.status).toBe(400);
    expect((await read(invalid)).errors[0].field).toBe('body.status');
  });

  it('protects logout and the tenant settings; identity still decides who may change them', async () => {
    const { browser, csrf } = await signedIn('demo', 'viewer@demo.test');
    expect((await browser.api('/api/auth/logout', { method: 'POST' })).status).toBe(403);
    expect((await browser.api('/api/auth/session')).status).toBe(200);
    expect((await browser.api('/api/tenant', { method: 'PATCH', json: { name: 'X' } })).status).toBe(403);
    const notAllowed = await browser.api('/api/tenant', { method: 'PATCH', json: { name: 'X' }, csrf });
    expect(notAllowed.status).toBe(403);
    expect((await read(notAllowed)).detail).toBe('This requires the tenant.edit_settings permission.');

    const admin = await signedIn('demo', 'admin@demo.test');
    const tenant = await admin.browser.api('/api/tenant');
    expect(await read(tenant)).toMatchObject({ id: 'demo', entitlements: ['calls.voip'] });
    const renamed = await admin.browser.api('/api/tenant', {
      method: 'PATCH',
      json: { name: 'Demo Construction Ltd' },
      csrf: admin.csrf,
    });
    expect(renamed.status).toBe(200);
    expect(await read(renamed)).toMatchObject({ id: 'demo', name: 'Demo Construction Ltd' });
  });
});

describe('workspace endpoints', () => {
  it('serves effective scopes: 401 without a session, granted and effective with one', async () => {
    expect((await new TestBrowser(base).api('/api/v1/auth/effective-scopes')).status).toBe(401);
    const { browser } = await signedIn('demo', 'viewer@demo.test');
    const res = await browser.api('/api/v1/auth/effective-scopes');
    expect(res.status).toBe(200);
    const body = await read(res);
    expect(body.granted.length).toBeGreaterThan(0);
    expect(body.effective).toEqual(body.granted);
    expect(body.granted).not.toContain('roles.manage');
  });

  it('serves tenant metadata, and the spec’s fallback (error set, region uk) for an unknown tenant', async () => {
    const browser = new TestBrowser(base);
    const demo = await browser.api('/api/metadata', { headers: { 'x-tenant-id': 'demo' } });
    expect(demo.status).toBe(200);
    expect(await read(demo)).toEqual({
      id: 'demo',
      name: 'Demo Construction Ltd',
      databaseRegion: 'uk',
      branding: { accentColor: '#1677FF' },
      error: null,
    });
    const acme = await browser.api('/api/metadata', { headers: { 'x-tenant-id': 'acme' } });
    expect(await read(acme)).toMatchObject({ id: 'acme', databaseRegion: 'eu', error: null });
    const unknown = await browser.api('/api/metadata', { headers: { 'x-tenant-id': 'nobody' } });
    expect(unknown.status).toBe(200);
    expect(await read(unknown)).toEqual({
      id: 'nobody',
      name: null,
      databaseRegion: 'uk',
      branding: {},
      error: 'Tenant not found.',
    });
    const missing = await browser.api('/api/metadata');
    expect(missing.status).toBe(400);
  });

  it('never serves another tenant: tid / tenantId / x-tenant-id other than the session’s answer 404', async () => {
    const { browser } = await signedIn('demo', 'admin@demo.test');
    const scopes = await browser.api('/api/tenant/available-scopes?tid=demo');
    expect(scopes.status).toBe(200);
    expect(await read(scopes)).toMatchObject({ restricted: false });
    expect((await browser.api('/api/tenant/available-scopes')).status).toBe(200);

    const entitlements = await browser.api('/api/entitlements?tenantId=demo');
    expect(entitlements.status).toBe(200);
    expect(entitlements.headers.get('cache-control')).toBe('no-store');
    expect(await read(entitlements)).toEqual({ enabled: ['calls.voip'] });

    for (const path of ['/api/tenant/available-scopes?tid=acme', '/api/entitlements?tenantId=acme']) {
      const res = await browser.api(path);
      expect(res.status).toBe(404);
      expect(JSON.stringify(await read(res))).not.toContain('acme');
    }
    const metadata = await browser.api('/api/metadata', { headers: { 'x-tenant-id': 'acme' } });
    expect(metadata.status).toBe(404);
    const own = await browser.api('/api/metadata');
    expect(await read(own)).toMatchObject({ id: 'demo', error: null });
  });
});

describe('service forwarding', () => {
  it('needs a session (401) and the CSRF token on changes (403) before anything reaches cis; answers 503 where cis is not deployed', async () => {
    const anonymous = new TestBrowser(base);
    expect((await anonymous.api('/api/cis/invoices')).status).toBe(401);
    // A change without any session (never signed in, ended or revoked) is 401 too: nothing to forge it for.
    const ended = await anonymous.api('/api/cis/invoices', { method: 'POST', json: {} });
    expect(ended.status).toBe(401);
    expect((await read(ended)).detail).toBe('Your session has ended. Please sign in again.');
    const { browser, csrf } = await signedIn('demo', 'accountant@demo.test');
    const unprotected = await browser.api('/api/cis/invoices', { method: 'POST', json: {} });
    expect(unprotected.status).toBe(403);
    expect((await read(unprotected)).detail).toBe(CSRF_FAILED);
    // This bff has no CIS_URL: the service is reported unavailable, not silently empty.
    const missing = await browser.api('/api/cis/invoices', { method: 'POST', json: {}, csrf });
    expect(missing.status).toBe(503);
    expect((await read(missing)).detail).toBe('The cis service is not available.');
    expect((await browser.api('/api/portal/cis/me')).status).toBe(401);
  });
});

describe('session lifetime', () => {
  it('logout revokes the session and clears the cookie', async () => {
    const { browser, csrf } = await signedIn('demo', 'manager@demo.test');
    const stolenCookie = browser.cookie('ws_session');
    identityCalls.length = 0;
    const logout = await browser.api('/api/auth/logout', { method: 'POST', csrf });
    expect(logout.status).toBe(200);
    expect(identityCalls).toContain('POST /v1/auth/logout');
    expect(browser.lastSetCookie('ws_session')).toMatch(/^ws_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(browser.cookie('ws_session')).toBeUndefined();
    expect((await browser.api('/api/auth/session')).status).toBe(401);
    const replayed = await fetch(`${base}/api/auth/session`, {
      headers: { cookie: `ws_session=${stolenCookie}` },
    });
    expect(replayed.status).toBe(401);
  });

  it('gives every sign-in a new session id and ends the one the browser had (no fixation)', async () => {
    const { browser } = await signedIn('demo', 'clerk@demo.test');
    const first = browser.cookie('ws_session');
    const { callback } = await signInThroughBff(browser, base, {
      tenant: 'demo',
      email: 'clerk@demo.test',
      password: demoSeed.password,
    });
    expect(callback.status).toBe(302);
    const second = browser.cookie('ws_session');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect((await browser.api('/api/auth/session')).status).toBe(200);
    const old = await fetch(`${base}/api/auth/session`, { headers: { cookie: `ws_session=${first}` } });
    expect(old.status).toBe(401);
  });

  it('renews the access token through identity within 30 s of expiry, once for concurrent requests', async () => {
    const { browser } = await signedIn('demo', 'cis.admin@demo.test');
    const before = (await read(await browser.api('/api/auth/session'))).accessTokenExpiresAt as string;
    identityCalls.length = 0;
    clockOffsetMs = 280_000; // 20 s left of identity's 300 s token
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => browser.api('/api/v1/auth/effective-scopes')),
      );
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(identityCalls.filter((call) => call === 'POST /v1/auth/refresh')).toHaveLength(1);
      const after = (await read(await browser.api('/api/auth/session'))).accessTokenExpiresAt as string;
      expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
      expect(identityCalls.filter((call) => call === 'POST /v1/auth/refresh')).toHaveLength(1);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('ends a session that has been idle longer than the idle timeout', async () => {
    const { browser } = await signedIn('demo', 'accountant@demo.test');
    clockOffsetMs = (bffConfig().SESSION_IDLE_TIMEOUT_SECONDS + 1) * 1000;
    try {
      expect((await browser.api('/api/auth/session')).status).toBe(401);
    } finally {
      clockOffsetMs = 0;
    }
    expect((await browser.api('/api/auth/session')).status).toBe(401);
  });

  it('set-token renews the session now (idToken ignored), so scope changes at identity take effect', async () => {
    const { browser, csrf } = await signedIn('acme', 'admin@acme.test');
    const before = (await read(await browser.api('/api/auth/session'))).scopes as string[];
    expect(before).toContain('roles.manage');

    const { body } = await signInAtIdentity(harness, 'acme', 'admin@acme.test', acmeSeed.password);
    const putWhitelist = (scopes: string[] | null) =>
      fetch(`${harness.baseUrl}/v1/tenant/available-scopes`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${String(body.accessToken)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scopes }),
      });
    expect((await putWhitelist(['notes.view', 'users.view'])).status).toBe(204);
    try {
      expect(
        (await browser.api('/api/auth/set-token', { method: 'POST', json: { idToken: 'ignored' } })).status,
      ).toBe(403);
      const renewed = await browser.api('/api/auth/set-token', {
        method: 'POST',
        json: { idToken: 'anything' },
        csrf,
      });
      expect(renewed.status).toBe(200);
      const view = await read(renewed);
      expect(view.scopes).toEqual(['notes.view', 'users.view']);
      expect(view.csrfToken).toBe(csrf);
      expect((await read(await browser.api('/api/auth/session'))).scopes).toEqual([
        'notes.view',
        'users.view',
      ]);
      const withoutBody = await browser.api('/api/auth/set-token', { method: 'POST', json: {}, csrf });
      expect(withoutBody.status).toBe(200);
    } finally {
      expect((await putWhitelist(null)).status).toBe(204);
    }
  });
});

describe('portal sessions', () => {
  it('redeems a magic link into ws_portal (no CSRF token yet), once only; a second redemption fails with identity’s message', async () => {
    const { body } = await signInAtIdentity(harness, 'demo', 'admin@demo.test', demoSeed.password);
    const created = await fetch(`${harness.baseUrl}/v1/portal/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${String(body.accessToken)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subcontractorId: 'sub-bff-1' }),
    });
    expect(created.status).toBe(201);
    const link = new URL(((await read(created)) as { magicLink: string }).magicLink);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/portal-login`);
    const redeem = { tenantId: link.searchParams.get('tid'), token: link.searchParams.get('token') };

    const portal = new TestBrowser(base);
    const first = await portal.api('/api/portal/session', { method: 'POST', json: redeem });
    expect(first.status).toBe(200);
    const session = await read(first);
    expect(session).toMatchObject({
      subcontractorId: 'sub-bff-1',
      tenant: { id: 'demo', name: 'Demo Construction Ltd' },
    });
    const cookie = portal.lastSetCookie('ws_portal') ?? '';
    expect(cookie).toMatch(/^ws_portal=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(JSON.stringify(session)).not.toContain('accessToken');

    const current = await portal.api('/api/portal/session');
    expect(current.status).toBe(200);
    expect(await read(current)).toMatchObject({
      subcontractorId: 'sub-bff-1',
      csrfToken: session.csrfToken,
    });
    // A portal session is not a staff session.
    expect((await portal.api('/api/auth/session')).status).toBe(401);
    expect((await portal.api('/api/v1/auth/effective-scopes')).status).toBe(401);

    const second = await new TestBrowser(base).api('/api/portal/session', { method: 'POST', json: redeem });
    expect(second.status).toBe(410);
    expect(await read(second)).toMatchObject({
      status: 410,
      detail: 'This link has already been used. Ask your contractor for a new one.',
    });

    expect((await portal.api('/api/portal/logout', { method: 'POST' })).status).toBe(403);
    const logout = await portal.api('/api/portal/logout', { method: 'POST', csrf: session.csrfToken });
    expect(logout.status).toBe(204);
    expect((await portal.api('/api/portal/session')).status).toBe(401);
  });

  it('refuses a malformed redemption with field errors', async () => {
    const res = await new TestBrowser(base).api('/api/portal/session', {
      method: 'POST',
      json: { tenantId: 'Not A Tenant', token: 'short' },
    });
    expect(res.status).toBe(400);
    expect((await read(res)).errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'body.tenantId',
      'body.token',
    ]);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After after the limit on sign-in start, callback and link redemption', async () => {
    const limited = await startBff(bffConfig({ SIGNIN_RATE_LIMIT_PER_MINUTE: '3' }));
    try {
      const limitedBase = `http://127.0.0.1:${limited.port}`;
      const logins = [];
      for (let i = 0; i < 4; i++)
        logins.push(await fetch(`${limitedBase}/api/auth/login?tenant=demo`, { redirect: 'manual' }));
      expect(logins.map((res) => res.status)).toEqual([302, 302, 302, 429]);
      const refused = logins[3]!;
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(await read(refused)).toMatchObject({ status: 429, code: 'rate_limited' });

      const callbacks = [];
      for (let i = 0; i < 4; i++) {
        callbacks.push(
          await fetch(`${limitedBase}/api/auth/callback?code=c&state=s`, { redirect: 'manual' }),
        );
      }
      expect(callbacks.map((res) => res.status)).toEqual([302, 302, 302, 429]);

      const redemptions = [];
      for (let i = 0; i < 4; i++) {
        redemptions.push(
          await fetch(`${limitedBase}/api/portal/session`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ tenantId: 'demo', token: randomBytes(32).toString('base64url') }),
          }),
        );
      }
      expect(redemptions.map((res) => res.status)).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.shutdown('test');
    }
  });
});

describe('HTTP surface', () => {
  it('sends the strict Content-Security-Policy on API answers, redirects and unknown paths', async () => {
    const browser = new TestBrowser(base);
    for (const res of [
      await browser.api('/api/auth/session'),
      await browser.api('/api/auth/login?tenant=demo'),
      await browser.api('/nowhere'),
    ]) {
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      // Powerful features the SPAs do not use are off (review L18).
      for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()'])
        expect(res.headers.get('permissions-policy')).toContain(feature);
    }
    // The kit's own endpoints get the same policy (one helmet pass for every answer).
    for (const path of ['/openapi.json', '/healthz']) {
      expect((await fetch(`${base}${path}`)).headers.get('content-security-policy')).toContain(
        "connect-src 'self'",
      );
    }
  });

  it('lists every /api route in /openapi.json', async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        'GET /api/auth/login',
        'GET /api/auth/callback',
        'POST /api/auth/logout',
        'POST /api/auth/logout-all',
        'GET /api/auth/session',
        'POST /api/auth/set-token',
        'GET /api/metadata',
        'GET /api/tenant/available-scopes',
        'GET /api/v1/auth/effective-scopes',
        'GET /api/entitlements',
        'GET /api/me',
        'PATCH /api/me',
        'GET /api/tenant',
        'PATCH /api/tenant',
        'GET /api/tenant/footer',
        'PUT /api/tenant/footer',
        'GET /api/tenant/logo',
        'GET /api/tenant/logo/settings',
        'PUT /api/tenant/logo',
        'DELETE /api/tenant/logo',
        'POST /api/portal/session',
        'GET /api/portal/session',
        'POST /api/portal/logout',
        // A returning subcontractor asks for a fresh sign-in link (ADR 0055).
        'POST /api/portal/sign-in-links',
        // Staff end a subcontractor's portal sessions (ADR 0025).
        'POST /api/portal/sessions/revoke',
        // identity's live updates (Server-Sent Events), streamed with the session's token.
        'GET /api/live',
        // Forwarded to the cis service, whose own /openapi.json lists its routes.
        'GET /api/cis/*path',
        'POST /api/cis/*path',
        'PUT /api/cis/*path',
        'DELETE /api/cis/*path',
        'GET /api/portal/cis/*path',
        'POST /api/portal/cis/*path',
        // Forwards with more than the defaults: a larger body, a stream (no timeout), a rate limit (ADR 0032).
        'POST /api/cis/invoices/import',
        'GET /api/cis/invoices/stream',
        'GET /api/cis/jobs/{id}/stream',
        'POST /api/portal/cis/invoices',
        // The portal's profile change (forwarded to cis's PUT /v1/portal/subcontractors/:id).
        'PUT /api/portal/cis/subcontractors/{id}',
        'POST /api/portal/invite',
        // The drive (ADR 0049): its API with the staff token, the file list's stream, a drawn signature's larger body,
        // and the public share links without a session.
        'GET /api/drive/*path',
        'POST /api/drive/*path',
        'PUT /api/drive/*path',
        'DELETE /api/drive/*path',
        'GET /api/drive/files/stream',
        'POST /api/drive/signatures/{taskId}/sign',
        'GET /api/public/shares/*path',
        'POST /api/public/shares/*path',
        // The signed-in user's in-app notifications (ADR 0052): only notification's /v1/notifications/*.
        'GET /api/notification',
        'GET /api/notification/stream',
        'GET /api/notification/*path',
        'POST /api/notification/*path',
        'PUT /api/notification/*path',
        'DELETE /api/notification/*path',
        // The public site's Start a project (sendProjectRequest, docs/site.md).
        'POST /api/public/project-requests',
        // The colleague directory (Share File, Create Shared Drive).
        'GET /api/users/directory',
        // The audit service (docs/audit.md "The audit screen"): its API with the staff token, the live entries'
        // stream, and audit_logEvent (client events, rate limited per user).
        'GET /api/audit/*path',
        'POST /api/audit/*path',
        'PUT /api/audit/*path',
        'DELETE /api/audit/*path',
        'GET /api/audit/entries/stream',
        'POST /api/audit/client-events',
      ].sort(),
    );
  });

  it('is ready when identity is, and says identity is not reachable when it is not', async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await read(ready)).toMatchObject({ checks: { identity: 'up' } });

    const nowhere = await startBff(bffConfig({ IDENTITY_URL: `http://127.0.0.1:${await freePort()}` }));
    try {
      const nowhereBase = `http://127.0.0.1:${nowhere.port}`;
      const notReady = await fetch(`${nowhereBase}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await read(notReady)).toMatchObject({ checks: { identity: 'down' } });
      const redeem = await fetch(`${nowhereBase}/api/portal/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tenantId: 'demo', token: randomBytes(32).toString('base64url') }),
      });
      expect(redeem.status).toBe(503);
      expect(await read(redeem)).toMatchObject({ detail: 'The identity service is not reachable.' });
      const metadata = await fetch(`${nowhereBase}/api/metadata`, { headers: { 'x-tenant-id': 'demo' } });
      expect(await read(metadata)).toMatchObject({
        id: 'demo',
        databaseRegion: 'uk',
        error: 'The identity service is not reachable.',
      });
      const login = await fetch(`${nowhereBase}/api/auth/login?tenant=demo`, { redirect: 'manual' });
      expect(login.headers.get('location')).toBe('/login?error=unavailable');
    } finally {
      await nowhere.shutdown('test');
    }
  });
});
