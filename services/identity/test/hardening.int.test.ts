import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { DEFAULT_JWKS_COOLDOWN_MS, recordEvent, sha256Hex, startService } from '@workspace/kit';
import { allFakeableBut, eventually, startGroupAtTopicEnd } from '@workspace/kit/testing';
import { cisEvents } from '@workspace/proto';
import { decodeProtectedHeader } from 'jose';
import { startDevIdp } from '../../../deploy/local/dev-idp.js';
import { OidcClients } from '../src/clients/oidc.js';
import { identityConfigSchema } from '../src/config.js';
import { identityService } from '../src/service.js';
import {
  CLIENT,
  createPortalLink,
  INTERNAL_TOKEN,
  REDIRECT_URI,
  acmeSeed,
  demoSeed,
  freePort,
  internalPost,
  putPortalSession as putPortalSessionOf,
  recordCisSubcontractorEvent,
  sessionExists as sessionExistsOf,
  signIn,
  startIdentityHarness,
  startLedgerTrustingIdentity,
  type IdentityHarness,
} from './support.js';

/*
 * identity's hardening against real PostgreSQL and Kafka: signing-key rotation (several keys, retired keys
 * published until their tokens expire, a second replica), the refresh chain's absolute lifetime, the clean-up
 * worker, portal access revoked when cis archives a subcontractor, and the IdP discovery cache.
 */

let harness: IdentityHarness;

/**
 * The signing keys' clock: the real time plus what the tests moved it on by, so a key's activation (60 s after a
 * rotation) or the one-second reload throttle is reached at once, not waited for.
 */
let clockOffsetMs = 0;
const clock = {
  now: () => Date.now() + clockOffsetMs,
  advance: (ms: number) => {
    clockOffsetMs += ms;
  },
};

beforeAll(async () => {
  // A group of this run's own, reading cis's events from here on: the tests publish once and wait for this
  // identity to handle them.
  const portalAccessGroup = `identity-portal-access-test-${randomBytes(4).toString('hex')}`;
  await startGroupAtTopicEnd(portalAccessGroup, cisEvents['cis.subcontractor.archived'].topic);
  harness = await startIdentityHarness({
    config: { PORTAL_ACCESS_CONSUMER_GROUP: portalAccessGroup },
    seams: { now: clock.now },
  });
});

afterAll(async () => {
  await harness.stop();
});

const db = () => harness.service.deps.db;
const context = () => harness.definition.context();
const maintenance = () => harness.definition.maintenance();

interface Session {
  accessToken: string;
  refreshToken: string;
  refreshExpiresIn: number;
}

async function signedIn(tenant: string, email: string): Promise<Session> {
  const password = tenant === 'acme' ? acmeSeed.password : demoSeed.password;
  const result = await signIn(harness, tenant, email, password);
  expect(result.status).toBe(200);
  return result.body as unknown as Session;
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

async function jwksKids(base = harness.baseUrl): Promise<string[]> {
  const body = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
  return body.keys.map((key) => key.kid);
}

const me = (token: string, base = harness.baseUrl) =>
  fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } });

async function refresh(refreshToken: string, base = harness.baseUrl) {
  const res = await fetch(`${base}/v1/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
    body: JSON.stringify({ refreshToken }),
  });
  return { status: res.status, body: (await res.json()) as Session & { detail?: string } };
}

interface KeyInfo {
  kid: string;
  createdAt: string;
  retiredAt: string | null;
  publishedUntil: string | null;
  activatesAt: string;
  signing: boolean;
}

async function keys(): Promise<KeyInfo[]> {
  const res = await fetch(`${harness.baseUrl}/v1/internal/signing-keys`, {
    headers: { 'x-internal-token': INTERNAL_TOKEN },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: KeyInfo[] }).items;
}

describe('signing-key rotation', () => {
  let ledger: Awaited<ReturnType<typeof startLedgerTrustingIdentity>>;
  const ledgerAccepts = async (token: string) =>
    (
      await fetch(`http://127.0.0.1:${ledger.port}/api/slow?ms=1`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).status;

  beforeAll(async () => {
    // Its JWKS refetch cooldown is 0 here, so no test waits it out; by default it is shorter than the activation.
    ledger = await startLedgerTrustingIdentity(harness, 'ledger-rotation', { jwksCooldownMs: 0 });
  });

  afterAll(async () => {
    await ledger.shutdown();
  });

  it('is refused without the internal token', async () => {
    const res = await fetch(`${harness.baseUrl}/v1/internal/signing-keys/rotate`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      'This endpoint is for the backend-for-frontend only.',
    );
  });

  it("activates a new key only after a service's JWKS refetch cooldown is over (60 s against the kit's 30 s)", () => {
    const activationMs = identityConfigSchema.shape.SIGNING_KEY_ACTIVATION_SECONDS.parse(undefined) * 1000;
    expect(activationMs).toBe(60_000);
    expect(activationMs).toBeGreaterThan(DEFAULT_JWKS_COOLDOWN_MS);
  });

  it('keeps a token signed before a rotation valid after it (identity and a service on the JWKS); new tokens use the new kid', async () => {
    const before = await signedIn('demo', 'admin@demo.test');
    const oldKid = kidOf(before.accessToken);
    expect(await jwksKids()).toEqual([oldKid]);
    // The service fetches and caches the JWKS holding only the old key.
    expect(await ledgerAccepts(before.accessToken)).toBe(200);

    const rotation = await internalPost(harness, '/v1/internal/signing-keys/rotate', {});
    expect(rotation.status).toBe(200);
    const { kid: newKid, retired } = (await rotation.json()) as { kid: string; retired: string[] };
    expect(newKid).not.toBe(oldKid);
    expect(retired).toEqual([oldKid]);

    // The new key is published at once but signs only after SIGNING_KEY_ACTIVATION_SECONDS; meanwhile the old key
    // signs, and its tokens verify everywhere.
    expect(new Set(await jwksKids())).toEqual(new Set([oldKid, newKid]));
    const meanwhile = await refresh(before.refreshToken);
    expect(kidOf(meanwhile.body.accessToken)).toBe(oldKid);
    expect((await me(before.accessToken)).status).toBe(200);
    expect(await ledgerAccepts(meanwhile.body.accessToken)).toBe(200);

    // After the activation (the clock moved past it) a new token names the new key and verifies at identity and at
    // the service, whose JWKS cache predates the rotation (it fetches again on the unknown kid); the token signed
    // before the rotation still verifies.
    clock.advance(60_500);
    const renewed = await refresh(meanwhile.body.refreshToken);
    expect(renewed.status).toBe(200);
    expect(kidOf(renewed.body.accessToken)).toBe(newKid);
    expect((await me(renewed.body.accessToken)).status).toBe(200);
    expect(await ledgerAccepts(renewed.body.accessToken)).toBe(200);
    expect((await me(before.accessToken)).status).toBe(200);
    expect(await ledgerAccepts(before.accessToken)).toBe(200);

    // The old key stays published until the longest token it can have signed (an 8-hour portal token) has expired,
    // plus ten minutes.
    const listed = await keys();
    expect(listed.find((key) => key.signing)?.kid).toBe(newKid);
    const old = listed.find((key) => key.kid === oldKid);
    expect(old?.retiredAt).not.toBeNull();
    const publishedForMs = Date.parse(old?.publishedUntil ?? '') - Date.parse(old?.retiredAt ?? '');
    expect(publishedForMs).toBe((8 * 3600 + 600) * 1000);
  });

  it('lets another replica verify a new key at once and sign with the newest after its maintenance run', async () => {
    const replicaDefinition = identityService(harness.config, { now: clock.now });
    const replica = await startService(replicaDefinition, harness.config);
    const replicaBase = `http://127.0.0.1:${replica.port}`;
    const rotate = async () =>
      (
        (await (
          await internalPost(harness, '/v1/internal/signing-keys/rotate', { immediate: true })
        ).json()) as {
          kid: string;
        }
      ).kid;
    try {
      const session = await signedIn('demo', 'editor@demo.test');
      const first = await rotate();
      // Signed by the first replica with a key the second has not loaded: it reloads the keys on the unknown kid
      // (at most once a second).
      const renewed = await refresh(session.refreshToken);
      expect(kidOf(renewed.body.accessToken)).toBe(first);
      clock.advance(1_100);
      expect((await me(renewed.body.accessToken, replicaBase)).status).toBe(200);

      // Another rotation: until its next maintenance run the second replica signs with the key it has loaded
      // (still published, so its tokens verify everywhere), after it with the newest.
      const second = await rotate();
      const stale = await refresh(renewed.body.refreshToken, replicaBase);
      expect(stale.status).toBe(200);
      expect(kidOf(stale.body.accessToken)).toBe(first);
      expect((await me(stale.body.accessToken)).status).toBe(200);
      await replicaDefinition.maintenance().runOnce();
      const fresh = await refresh(stale.body.refreshToken, replicaBase);
      expect(kidOf(fresh.body.accessToken)).toBe(second);
      expect(new Set(await jwksKids(replicaBase))).toEqual(new Set(await jwksKids()));
    } finally {
      await replica.shutdown();
    }
  });

  it('drops a retired key from the JWKS once its publication has ended, and deletes it', async () => {
    const session = await signedIn('demo', 'viewer@demo.test');
    const oldKid = kidOf(session.accessToken);
    // Immediate: the new key signs at once (a leaked key).
    const rotation = await internalPost(harness, '/v1/internal/signing-keys/rotate', { immediate: true });
    const { kid } = (await rotation.json()) as { kid: string };
    expect(kidOf((await signedIn('demo', 'viewer@demo.test')).accessToken)).toBe(kid);
    // Time passes: every token the old key signed has expired.
    await db()('signing_keys')
      .where({ kid: oldKid })
      .update({ published_until: new Date(Date.now() - 1000) });
    const report = await maintenance().runOnce();
    expect(report.keysPurged).toBeGreaterThanOrEqual(1);
    expect(await jwksKids()).not.toContain(oldKid);
    expect((await keys()).map((key) => key.kid)).not.toContain(oldKid);
    // (This token was never verified, so no verified-token cache holds it.)
    expect((await me(session.accessToken)).status).toBe(401);
  });

  it('rotates on schedule when the signing key is older than SIGNING_KEY_ROTATION_DAYS (30 by default)', async () => {
    const current = (await keys()).find((key) => key.signing);
    expect((await maintenance().runOnce()).rotated).toBeUndefined();
    await db()('signing_keys')
      .where({ kid: current?.kid })
      .update({ created_at: new Date(Date.now() - 31 * 24 * 3600 * 1000) });
    const report = await maintenance().runOnce();
    expect(report.rotated).toBeDefined();
    expect(report.rotated).not.toBe(current?.kid);
    const listed = await keys();
    expect(listed.find((key) => key.kid === current?.kid)?.retiredAt).not.toBeNull();
    expect(await jwksKids()).toEqual(expect.arrayContaining([report.rotated, current?.kid]));
    // Published now, signing after the activation delay (60 s by default).
    const pending = listed.find((key) => key.kid === report.rotated);
    expect(Date.parse(pending?.activatesAt ?? '') - Date.parse(pending?.createdAt ?? '')).toBe(60_000);
    expect(pending?.signing).toBe(false);
    expect(kidOf((await signedIn('demo', 'clerk@demo.test')).accessToken)).toBe(current?.kid);
  });

  it('keeps the private keys sealed at rest', async () => {
    const rows = await db()('signing_keys').select<
      { private_key_sealed: string; public_jwk: Record<string, unknown> }[]
    >('private_key_sealed', 'public_jwk');
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row.private_key_sealed).toMatch(/^v1\.k1\./);
      expect(row.private_key_sealed).not.toContain('PRIVATE KEY');
      expect(row.public_jwk.d).toBeUndefined();
    }
  });
});

async function refreshRow(tenant: string, token: string) {
  return context().inTenant(tenant, async (_store, trx) => {
    const row = (await trx('refresh_sessions')
      .where({ token_hash: sha256Hex(token) })
      .first()) as { session_id: string; expires_at: Date; absolute_expires_at: Date } | undefined;
    return row;
  });
}

describe('refresh sessions', () => {
  it('ends a refresh chain at its absolute lifetime (30 days by default) however regularly it is used', async () => {
    // Date stands still (only Date is faked: timers and I/O stay real), so each lifetime is exact.
    const now = Date.now();
    jest.useFakeTimers({ doNotFake: allFakeableBut('Date'), now });
    try {
      await refreshChainEnds(now);
    } finally {
      jest.useRealTimers();
    }
  });

  async function refreshChainEnds(now: number) {
    const session = await signedIn('demo', 'manager@demo.test');
    const first = await refreshRow('demo', session.refreshToken);
    const thirtyDays = 30 * 24 * 3600 * 1000;
    expect(first?.absolute_expires_at.getTime()).toBe(now + thirtyDays);

    // Each rotation keeps the chain's end.
    const rotated = await refresh(session.refreshToken);
    expect(rotated.status).toBe(200);
    const second = await refreshRow('demo', rotated.body.refreshToken);
    expect(second?.absolute_expires_at.getTime()).toBe(first?.absolute_expires_at.getTime());

    // Near the end, a new refresh token lives only until the chain's end (not a full 8 hours).
    await context().inTenant('demo', (_store, trx) =>
      trx('refresh_sessions')
        .where({ session_id: second?.session_id })
        .update({ absolute_expires_at: new Date(now + 120_000) }),
    );
    const shortened = await refresh(rotated.body.refreshToken);
    expect(shortened.status).toBe(200);
    expect(shortened.body.refreshExpiresIn).toBe(120);
    const third = await refreshRow('demo', shortened.body.refreshToken);
    expect(third?.expires_at.getTime()).toBe(now + 120_000);

    // Past the end the chain is refused, although this refresh token itself has not expired.
    await context().inTenant('demo', (_store, trx) =>
      trx('refresh_sessions')
        .where({ session_id: third?.session_id })
        .update({ absolute_expires_at: new Date(now - 1000) }),
    );
    expect(third?.expires_at.getTime()).toBeGreaterThan(now);
    const refused = await refresh(shortened.body.refreshToken);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe('The session has expired. Please sign in again.');
  }

  it('the clean-up deletes expired refresh sessions, portal links and bff sessions of every tenant, and nothing live', async () => {
    const demoExpired = await signedIn('demo', 'accountant@demo.test');
    const demoLive = await signedIn('demo', 'accountant@demo.test');
    const acmeExpired = await signedIn('acme', 'admin@acme.test');
    const admin = await signedIn('demo', 'admin@demo.test');
    const link = async () => {
      const created = await createPortalLink(
        harness,
        admin.accessToken,
        `sub-${randomBytes(4).toString('hex')}`,
      );
      expect(created.status).toBe(201);
      return created.token ?? '';
    };
    const expiredLink = await link();
    const usedExpiredLink = await link();
    const liveLink = await link();
    expect(
      (await internalPost(harness, '/v1/portal/links/redeem', { tenantId: 'demo', token: usedExpiredLink }))
        .status,
    ).toBe(200);

    const past = new Date(Date.now() - 1000);
    for (const [tenant, token] of [
      ['demo', demoExpired.refreshToken],
      ['acme', acmeExpired.refreshToken],
    ] as const) {
      await context().inTenant(tenant, (_store, trx) =>
        trx('refresh_sessions')
          .where({ token_hash: sha256Hex(token) })
          .update({ expires_at: past }),
      );
    }
    await context().inTenant('demo', (_store, trx) =>
      trx('portal_links')
        .whereIn('token_hash', [sha256Hex(expiredLink), sha256Hex(usedExpiredLink)])
        .update({ expires_at: past }),
    );
    const bffKey = (label: string) => `${label}-${randomBytes(16).toString('base64url')}`;
    const expiredBff = bffKey('expired');
    const liveBff = bffKey('live');
    for (const [key, expiresAt] of [
      [expiredBff, Date.now() - 1000],
      [liveBff, Date.now() + 3_600_000],
    ] as const) {
      const put = await fetch(`${harness.baseUrl}/v1/internal/sessions/${key}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
        body: JSON.stringify({ kind: 'staff', tenantId: 'demo', subject: 'u', value: 'sealed', expiresAt }),
      });
      expect(put.status).toBe(204);
    }

    const report = await maintenance().runOnce();
    expect(report.refreshSessionsDeleted).toBeGreaterThanOrEqual(2);
    expect(report.portalLinksDeleted).toBeGreaterThanOrEqual(2);
    expect(report.bffSessionsDeleted).toBeGreaterThanOrEqual(1);

    expect(await refreshRow('demo', demoExpired.refreshToken)).toBeUndefined();
    expect(await refreshRow('acme', acmeExpired.refreshToken)).toBeUndefined();
    expect(await refreshRow('demo', demoLive.refreshToken)).toBeDefined();
    const links = await context().inTenant('demo', (_store, trx) =>
      trx('portal_links')
        .whereIn('token_hash', [expiredLink, usedExpiredLink, liveLink].map(sha256Hex))
        .pluck('token_hash'),
    );
    expect(links).toEqual([sha256Hex(liveLink)]);
    const bffKeys = await db()('bff_sessions')
      .whereIn('session_key', [expiredBff, liveBff])
      .pluck('session_key');
    expect(bffKeys).toEqual([liveBff]);
    // What is left still works.
    expect((await refresh(demoLive.refreshToken)).status).toBe(200);
    expect(
      (await internalPost(harness, '/v1/portal/links/redeem', { tenantId: 'demo', token: liveLink })).status,
    ).toBe(200);
  });
});

describe('portal access', () => {
  const putPortalSession = (tenantId: string, subcontractorId: string) =>
    putPortalSessionOf(harness, tenantId, subcontractorId);
  const sessionExists = (key: string) => sessionExistsOf(harness, key);

  it('ends the portal sessions and unused links of a subcontractor cis archives, in that tenant only', async () => {
    const archived = `sub-${randomBytes(4).toString('hex')}`;
    const other = `sub-${randomBytes(4).toString('hex')}`;
    const archivedSession = await putPortalSession('demo', archived);
    const otherSession = await putPortalSession('demo', other);
    const acmeSession = await putPortalSession('acme', archived);
    const admin = await signedIn('demo', 'admin@demo.test');
    const { token: linkToken } = await createPortalLink(harness, admin.accessToken, archived);

    // cis records the archive in its outbox; here it is recorded in identity's, whose relay publishes it the same
    // way to cis.events.v1, once: this identity's consumer group reads from where the run started.
    await recordCisSubcontractorEvent(harness, 'cis.subcontractor.archived', archived);
    await eventually(
      async () => !(await sessionExists(archivedSession)),
      60_000,
      'the portal session to end',
    );
    expect(await sessionExists(otherSession)).toBe(true);
    expect(await sessionExists(acmeSession)).toBe(true);
    const redeem = await internalPost(harness, '/v1/portal/links/redeem', {
      tenantId: 'demo',
      token: linkToken,
    });
    expect(redeem.status).toBe(410);
    expect(((await redeem.json()) as { detail: string }).detail).toBe(
      'This link has expired. Ask your contractor for a new one.',
    );
  });

  it('ends every subcontractor of a bulk delete', async () => {
    const ids = [`sub-${randomBytes(4).toString('hex')}`, `sub-${randomBytes(4).toString('hex')}`];
    const sessions = await Promise.all(ids.map((id) => putPortalSession('demo', id)));
    await db().transaction((trx) =>
      recordEvent(trx, '/workspace/cis', cisEvents['cis.subcontractor.bulk.delete'], {
        tenantId: 'demo',
        aggregateId: 'bulk',
        data: { actorId: 'cis-admin', targetType: 'subcontractor', targetIds: ids, succeeded: 2 },
      }),
    );
    await eventually(
      async () => (await Promise.all(sessions.map(sessionExists))).every((exists) => !exists),
      60_000,
      'both portal sessions to end',
    );
  });

  it('lets a user with cis.portal.invite revoke explicitly; others are refused', async () => {
    const subcontractor = `sub-${randomBytes(4).toString('hex')}`;
    const session = await putPortalSession('demo', subcontractor);
    const revoke = (token: string) =>
      fetch(`${harness.baseUrl}/v1/portal/sessions/revoke`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subcontractorId: subcontractor }),
      });
    const viewer = await signedIn('demo', 'viewer@demo.test');
    expect((await revoke(viewer.accessToken)).status).toBe(403);
    expect(await sessionExists(session)).toBe(true);
    const admin = await signedIn('demo', 'admin@demo.test');
    const res = await revoke(admin.accessToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revoked: 1, linksExpired: 0 });
    expect(await sessionExists(session)).toBe(false);
  });
});

describe('IdP discovery cache', () => {
  const clientIdOf = async (tenantId: string) => {
    const res = await internalPost(harness, '/v1/auth/authorize', { tenantId, redirectUri: REDIRECT_URI });
    expect(res.status).toBe(200);
    return new URL(((await res.json()) as { authorizationUrl: string }).authorizationUrl).searchParams.get(
      'client_id',
    );
  };
  const setIdp = (idp: Record<string, string> | null) =>
    context().inTenant('acme', (_store, trx) =>
      trx('tenants')
        .where({ tenant_id: 'acme' })
        .update({ idp: idp ? JSON.stringify(idp) : null }),
    );

  it("uses a tenant's changed OIDC client settings at its next sign-in", async () => {
    expect(await clientIdOf('acme')).toBe(CLIENT.clientId);
    try {
      await setIdp({
        issuer: harness.idp.issuer,
        clientId: 'acme-own-client',
        clientSecretSealed: context().cipher.encrypt('acme-secret'),
      });
      expect(await clientIdOf('acme')).toBe('acme-own-client');
      const cached = context().oidc.size;
      // Only the secret changes: a configuration of its own, not the one made with the old secret.
      await setIdp({
        issuer: harness.idp.issuer,
        clientId: 'acme-own-client',
        clientSecretSealed: context().cipher.encrypt('acme-secret-rotated'),
      });
      expect(await clientIdOf('acme')).toBe('acme-own-client');
      expect(context().oidc.size).toBe(cached + 1);
    } finally {
      await setIdp(null);
    }
    expect(await clientIdOf('acme')).toBe(CLIENT.clientId);
    expect(await clientIdOf('demo')).toBe(CLIENT.clientId);
  });

  it('fetches the discovery document again once its time to live has passed (and never caches a failure)', async () => {
    const port = await freePort();
    const settings = { ...CLIENT, issuer: `http://localhost:${port}` };
    const start = () =>
      startDevIdp({ port, clients: [{ ...CLIENT, redirectUris: [REDIRECT_URI] }], accounts: [] });
    let now = 0;
    const clients = new OidcClients(true, 60_000, () => now);
    let idp = await start();
    await clients.authorize(settings, REDIRECT_URI);
    await idp.close();
    // Within the time to live the cached configuration is used: the IdP is not asked.
    now = 59_000;
    await expect(clients.authorize(settings, REDIRECT_URI)).resolves.toMatchObject({
      authorizationUrl: expect.stringContaining(`http://localhost:${port}/`) as unknown,
    });
    // After it, discovery runs again (and fails while the IdP is down; the failure is not kept).
    now = 60_001;
    await expect(clients.authorize(settings, REDIRECT_URI)).rejects.toThrow();
    idp = await start();
    try {
      await expect(clients.authorize(settings, REDIRECT_URI)).resolves.toMatchObject({
        authorizationUrl: expect.stringContaining(`http://localhost:${port}/`) as unknown,
      });
    } finally {
      await idp.close();
    }
  });
});
