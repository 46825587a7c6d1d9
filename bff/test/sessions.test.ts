import { HttpProblem, createLogger } from '@workspace/kit';
import type { SignInResult, Tokens } from '../src/identity-client.js';
import { MemorySessionStore } from '../src/session-store.js';
import {
  REFRESH_MARGIN_MS,
  SESSION_ENDED,
  StaffSessions,
  sessionEndsAt,
  sessionKeyer,
  type StaffSession,
} from '../src/sessions.js';

const logger = createLogger({ name: 'test', level: 'silent' });

const signIn: SignInResult = {
  accessToken: 'access-1',
  expiresIn: 300,
  refreshToken: 'demo.refresh-1',
  refreshExpiresIn: 8 * 3600,
  scopes: ['notes.view'],
  user: {
    uid: 'u1',
    email: 'a@demo.test',
    firstName: 'A',
    lastName: 'B',
    displayName: 'A B',
    username: null,
    role: 'standard',
    status: 'active',
    themePreference: {},
    profilePhotoUrl: null,
    teamIds: [],
    siteIds: [],
    bundleIds: [],
  },
  tenant: {
    id: 'demo',
    name: 'Demo',
    region: 'uk',
    branding: {},
    modules: [],
    storageTier: 'free',
    entitlements: [],
  },
};

/** Stands in for identity's refresh endpoint (rotation: each call issues the next pair). */
function fakeIdentity() {
  let issued = 1;
  const calls: string[] = [];
  let refuse = false;
  return {
    calls,
    refuseFromNowOn: () => {
      refuse = true;
    },
    refresh: async (refreshToken: string): Promise<Tokens> => {
      calls.push(refreshToken);
      // Answers a turn of the event loop later, so calls made together overlap.
      await new Promise((resolve) => setImmediate(resolve));
      if (refuse)
        throw new HttpProblem(401, 'unauthorized', 'The session has expired. Please sign in again.');
      issued += 1;
      return {
        accessToken: `access-${issued}`,
        expiresIn: 300,
        refreshToken: `demo.refresh-${issued}`,
        refreshExpiresIn: 8 * 3600,
        scopes: ['notes.view', `scope-${issued}`],
      };
    },
  };
}

function setup(idleTimeoutMs = 3600_000, absoluteTimeoutMs = 12 * 3600_000) {
  let now = 10_000_000;
  const identity = fakeIdentity();
  const store = new MemorySessionStore<StaffSession>({ now: () => now });
  const sessions = new StaffSessions({
    store,
    identity,
    keyOf: sessionKeyer('s'.repeat(32), 'staff'),
    now: () => now,
    idleTimeoutMs,
    absoluteTimeoutMs,
    logger,
  });
  return {
    identity,
    store,
    sessions,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('staff sessions', () => {
  it('are stored under an HMAC of the cookie value, never the value itself', async () => {
    const { sessions, store } = setup();
    const { sessionId, session } = await sessions.create(signIn);
    expect(session.key).not.toBe(sessionId);
    expect(await store.get(sessionId)).toBeUndefined();
    expect(await sessions.load(sessionId)).toMatchObject({ uid: 'u1', tenantId: 'demo' });
    expect(await sessions.load('forged')).toBeUndefined();
    store.close();
  });

  it('keep the token while it has more than 30 s left, and renew it once within 30 s, however many ask', async () => {
    const { sessions, identity, advance, store } = setup();
    const { sessionId } = await sessions.create(signIn);
    advance(300_000 - REFRESH_MARGIN_MS - 1);
    const early = await sessions.load(sessionId);
    expect((await sessions.fresh(early!)).accessToken).toBe('access-1');
    expect(identity.calls).toEqual([]);

    advance(1);
    const copies = await Promise.all([1, 2, 3, 4, 5].map(() => sessions.load(sessionId)));
    const renewed = await Promise.all(copies.map((copy) => sessions.fresh(copy!)));
    expect(identity.calls).toEqual(['demo.refresh-1']);
    expect(new Set(renewed.map((session) => session.accessToken))).toEqual(new Set(['access-2']));
    // A stale copy read before the refresh does not refresh again: the store has the new token.
    expect((await sessions.fresh(copies[0]!)).accessToken).toBe('access-2');
    expect(identity.calls).toHaveLength(1);
    expect((await sessions.load(sessionId))?.scopes).toEqual(['notes.view', 'scope-2']);
    store.close();
  });

  it('renew on demand (force) and end when identity refuses the refresh token', async () => {
    const { sessions, identity, store } = setup();
    const { sessionId, session } = await sessions.create(signIn);
    expect((await sessions.fresh(session, { force: true })).refreshToken).toBe('demo.refresh-2');
    identity.refuseFromNowOn();
    await expect(sessions.fresh((await sessions.load(sessionId))!, { force: true })).rejects.toMatchObject({
      status: 401,
      detail: SESSION_ENDED,
    });
    expect(await sessions.load(sessionId)).toBeUndefined();
    store.close();
  });

  it('end after the idle timeout without requests', async () => {
    const { sessions, advance, store } = setup(120_000);
    const { sessionId } = await sessions.create(signIn);
    advance(100_000);
    expect(await sessions.load(sessionId)).toBeDefined();
    advance(119_000);
    expect(await sessions.load(sessionId)).toBeDefined();
    advance(120_000);
    expect(await sessions.load(sessionId)).toBeUndefined();
    store.close();
  });

  it('end at the absolute lifetime from sign-in although used every minute, and renewing the token does not extend it', async () => {
    const { sessions, advance, store, identity } = setup(30 * 60_000, 12 * 3600_000);
    const { sessionId } = await sessions.create(signIn);
    // Used every minute for 12 h less a minute (the access token renewed through identity as it runs out).
    for (let minute = 1; minute < 12 * 60; minute++) {
      advance(60_000);
      const session = await sessions.load(sessionId);
      expect(session).toBeDefined();
      await sessions.fresh(session!);
    }
    expect(identity.calls.length).toBeGreaterThan(100);
    advance(60_000);
    expect(await sessions.load(sessionId)).toBeUndefined();
    // Ended, not only refused: the store no longer holds it.
    expect(store.size).toBe(0);
    store.close();
  });

  it('end after 30 minutes without a request (the idle timeout), counted from the last request', async () => {
    const { sessions, advance, store } = setup(30 * 60_000, 12 * 3600_000);
    const { sessionId } = await sessions.create(signIn);
    advance(20 * 60_000);
    expect(await sessions.load(sessionId)).toBeDefined();
    advance(29 * 60_000);
    expect(await sessions.load(sessionId)).toBeDefined();
    advance(30 * 60_000);
    expect(await sessions.load(sessionId)).toBeUndefined();
    store.close();
  });

  it('check both limits on the session itself, whatever the store still holds (a cached copy, a slow clean-up)', async () => {
    const { sessions, advance, store } = setup(30 * 60_000, 3600_000);
    const { sessionId, session } = await sessions.create(signIn);
    // A store that keeps entries regardless of their expiry (as a replica's read cache may for a moment).
    await store.set(session.key, session, Number.MAX_SAFE_INTEGER);
    advance(30 * 60_000);
    expect(await sessions.load(sessionId)).toBeUndefined();
    const again = await sessions.create(signIn);
    const stale = { ...again.session, lastSeenAt: again.session.createdAt + 2 * 3600_000 };
    await store.set(again.session.key, stale, Number.MAX_SAFE_INTEGER);
    advance(3600_000);
    expect(await sessions.load(again.sessionId)).toBeUndefined();
    store.close();
  });
});

describe('the end of a staff session', () => {
  it('is the earliest of the absolute end, the idle end and the refresh token’s end', () => {
    const limits = { idleTimeoutMs: 30 * 60_000, absoluteTimeoutMs: 12 * 3600_000 };
    const session = { createdAt: 0, lastSeenAt: 11.9 * 3600_000, refreshExpiresAt: 20 * 3600_000 };
    expect(sessionEndsAt(session, limits)).toBe(12 * 3600_000);
    expect(sessionEndsAt({ ...session, lastSeenAt: 3600_000 }, limits)).toBe(3600_000 + 30 * 60_000);
    expect(sessionEndsAt({ ...session, refreshExpiresAt: 5 }, limits)).toBe(5);
  });
});
