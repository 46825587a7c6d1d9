import { randomBytes } from 'node:crypto';
import { startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import type { RunningBff } from '../src/app.js';
import { TestBrowser, demoPortalLink, read, signedInBrowser, startTestBff, urlOf } from './support.js';

/*
 * Two bff replicas in front of one identity (real PostgreSQL, Kafka and the dev IdP): sessions live at identity
 * (ADR 0025), so a cookie made by one replica works at the other, one refresh serves both, and a revoked portal
 * session is refused by both at once.
 */

const SESSION_SECRET = randomBytes(32).toString('hex');
/** Each replica serves a session it read from identity for this long (the default): changes elsewhere apply after. */
const SESSION_CACHE_MS = 1_000;
let clockOffsetMs = 0;
/** Moves the replicas' clock (their injected now) past their session cache, instead of waiting it out. */
const pastTheReplicaCache = () => {
  clockOffsetMs += SESSION_CACHE_MS + 100;
};

let harness: IdentityHarness;
const replicas: { bff: RunningBff; base: string; calls: string[] }[] = [];

beforeAll(async () => {
  harness = await startIdentityHarness();
  for (let index = 0; index < 2; index++) {
    const calls: string[] = [];
    const { bff, base } = await startTestBff(
      harness.baseUrl,
      { SESSION_SECRET, SESSION_CACHE_MS: String(SESSION_CACHE_MS) },
      {
        now: () => Date.now() + clockOffsetMs,
        fetch: (input, init) => {
          calls.push(`${init?.method ?? 'GET'} ${new URL(urlOf(input)).pathname}`);
          return fetch(input, init);
        },
      },
    );
    replicas.push({ bff, base, calls });
  }
});

afterAll(async () => {
  for (const replica of replicas) await replica.bff.shutdown('test');
  await harness.stop();
});

const A = () => replicas[0]?.base ?? '';
const B = () => replicas[1]?.base ?? '';

/** A browser signed in at the bff at `base`, and its session's CSRF token; bffs on other ports share its cookies. */
const signInAt = (base: string, email: string) => signedInBrowser(base, { email, cookiesBy: 'host' });

describe('sessions shared by bff replicas', () => {
  it('accepts at replica B the session signed in at replica A (same cookie); signing out at B ends it at A', async () => {
    const { browser, csrf } = await signInAt(A(), 'editor@demo.test');
    const atB = await browser.apiAt(B(), '/api/auth/session');
    expect(atB.status).toBe(200);
    expect(await read(atB)).toMatchObject({ user: { email: 'editor@demo.test' }, csrfToken: csrf });
    expect((await browser.apiAt(B(), '/api/v1/auth/effective-scopes')).status).toBe(200);
    // A state-changing call at B with the CSRF token A issued.
    const saved = await browser.apiAt(B(), '/api/me', { method: 'PATCH', csrf, json: { status: 'busy' } });
    expect(saved.status).toBe(200);

    expect((await browser.apiAt(B(), '/api/auth/logout', { method: 'POST', csrf })).status).toBe(200);
    expect((await browser.apiAt(B(), '/api/auth/session')).status).toBe(401);
    pastTheReplicaCache();
    expect((await browser.apiAt(A(), '/api/auth/session')).status).toBe(401);
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
      // No token in clear: a JWT's header and payload each start eyJ and are joined by a dot (random ciphertext
      // may hold 'eyJ' by chance, about once in 260,000 characters).
      expect(row.value_sealed).not.toMatch(/eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\./);
    }
    expect((await browser.apiAt(B(), '/api/auth/session')).status).toBe(200);
  });

  it('renews a session once at identity when both replicas need a new access token at the same time', async () => {
    const { browser } = await signInAt(A(), 'cis.admin@demo.test');
    for (const replica of replicas) replica.calls.length = 0;
    clockOffsetMs = 280_000; // 20 s left of identity's 300 s token, on both replicas
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          browser.apiAt(index % 2 === 0 ? A() : B(), '/api/v1/auth/effective-scopes'),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const refreshes = replicas
        .flatMap((replica) => replica.calls)
        .filter((call) => call === 'POST /v1/auth/refresh');
      expect(refreshes).toHaveLength(1);
      // Still signed in at both (a second use of the rotated refresh token would have ended every session).
      expect((await browser.apiAt(A(), '/api/auth/session')).status).toBe(200);
      expect((await browser.apiAt(B(), '/api/auth/session')).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('portal sessions revoked', () => {
  it('refuses at every replica, once their session cache time has passed, the portal session of a subcontractor the contractor revoked', async () => {
    const subcontractorId = `sub-${randomBytes(4).toString('hex')}`;
    const link = await demoPortalLink(harness, subcontractorId);
    const portal = new TestBrowser(A(), { cookiesBy: 'host' });
    const redeemed = await portal.apiAt(A(), '/api/portal/session', {
      method: 'POST',
      json: { tenantId: link.searchParams.get('tid'), token: link.searchParams.get('token') },
    });
    expect(redeemed.status).toBe(200);
    expect((await portal.apiAt(B(), '/api/portal/session')).status).toBe(200);

    // The contractor's admin, signed in at replica B, revokes (a viewer may not).
    const viewer = await signInAt(B(), 'viewer@demo.test');
    const denied = await viewer.browser.apiAt(B(), '/api/portal/sessions/revoke', {
      method: 'POST',
      csrf: viewer.csrf,
      json: { subcontractorId },
    });
    expect(denied.status).toBe(403);
    expect((await portal.apiAt(A(), '/api/portal/session')).status).toBe(200);
    const admin = await signInAt(B(), 'admin@demo.test');
    const revoked = await admin.browser.apiAt(B(), '/api/portal/sessions/revoke', {
      method: 'POST',
      csrf: admin.csrf,
      json: { subcontractorId },
    });
    expect(revoked.status).toBe(200);
    expect(await read(revoked)).toEqual({ revoked: 1, linksExpired: 0 });

    pastTheReplicaCache();
    expect((await portal.apiAt(A(), '/api/portal/session')).status).toBe(401);
    expect((await portal.apiAt(B(), '/api/portal/session')).status).toBe(401);
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
          (await startTestBff(harness.baseUrl, { SESSION_SECRET: secret, SIGNIN_RATE_LIMIT_PER_MINUTE: '3' }))
            .bff,
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
