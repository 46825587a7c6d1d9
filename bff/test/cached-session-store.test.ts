import { jest } from '@jest/globals';
import { CachedSessionStore, MemorySessionStore, type SessionStore } from '../src/session-store.js';

interface Value {
  token: string;
}

/** A shared store as the bff sees identity's: counts reads, has leases. */
class CountingStore implements SessionStore<Value> {
  readonly memory = new MemorySessionStore<Value>();
  reads = 0;
  leases = new Map<string, number>();

  get(key: string) {
    this.reads += 1;
    return this.memory.get(key);
  }
  set(key: string, value: Value, expiresAt: number) {
    this.leases.delete(key);
    return this.memory.set(key, value, expiresAt);
  }
  delete(key: string) {
    return this.memory.delete(key);
  }
  lease(key: string, ms: number) {
    const held = this.leases.get(key);
    if (ms > 0 && held !== undefined && held > Date.now()) return Promise.resolve(false);
    if (ms === 0) this.leases.delete(key);
    else this.leases.set(key, Date.now() + ms);
    return Promise.resolve(true);
  }
  close() {
    this.memory.close();
  }
}

describe('CachedSessionStore (the bff replica’s read cache in front of identity’s session store)', () => {
  let shared: CountingStore;
  let replica: CachedSessionStore<Value>;
  const hour = () => Date.now() + 3_600_000;

  beforeEach(() => {
    jest.useFakeTimers();
    shared = new CountingStore();
    replica = new CachedSessionStore(shared, { ttlMs: 1_000 });
  });

  afterEach(() => {
    replica.close();
    jest.useRealTimers();
  });

  it('serves a burst of reads of one session with one read of the shared store, and reads it again after the TTL', async () => {
    await shared.set('k', { token: 't1' }, hour());
    for (let i = 0; i < 50; i++) expect(await replica.get('k')).toEqual({ token: 't1' });
    expect(shared.reads).toBe(1);
    jest.advanceTimersByTime(999);
    await replica.get('k');
    expect(shared.reads).toBe(1);
    jest.advanceTimersByTime(2);
    await replica.get('k');
    expect(shared.reads).toBe(2);
  });

  it('sees its own writes and deletes at once', async () => {
    await replica.set('k', { token: 't1' }, hour());
    expect(await replica.get('k')).toEqual({ token: 't1' });
    await replica.set('k', { token: 't2' }, hour());
    expect(await replica.get('k')).toEqual({ token: 't2' });
    expect(shared.reads).toBe(0);
    await replica.delete('k');
    expect(await replica.get('k')).toBeUndefined();
    expect(await shared.memory.get('k')).toBeUndefined();
  });

  it('sees another replica’s sign-out within the TTL, not later', async () => {
    const other = new CachedSessionStore(shared, { ttlMs: 1_000 });
    await replica.set('k', { token: 't1' }, hour());
    expect(await other.get('k')).toEqual({ token: 't1' });
    await replica.delete('k');
    jest.advanceTimersByTime(1_001);
    expect(await other.get('k')).toBeUndefined();
    other.close();
  });

  it('drops its copy when it takes (or tries) a lease, so a refresh starts from the shared store’s current tokens', async () => {
    const other = new CachedSessionStore(shared, { ttlMs: 1_000 });
    await replica.set('k', { token: 'old' }, hour());
    expect(await other.get('k')).toEqual({ token: 'old' });
    // The first replica refreshes: the shared store now has new tokens.
    expect(await replica.lease('k', 15_000)).toBe(true);
    await replica.set('k', { token: 'new' }, hour());
    // The other replica's cached copy is old, but once it leases it reads the current one.
    expect(await other.get('k')).toEqual({ token: 'old' });
    expect(await other.lease('k', 15_000)).toBe(true);
    expect(await other.get('k')).toEqual({ token: 'new' });
    other.close();
  });

  it('does not cache what a read started before its own write, delete or lease brought back (a stale copy would reuse a rotated refresh token)', async () => {
    await shared.set('k', { token: 'old' }, hour());
    // A read of the shared store is slow: it answers the old tokens after this replica saved new ones.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowGet = shared.get.bind(shared);
    jest.spyOn(shared, 'get').mockImplementationOnce(async (key: string) => {
      const value = await slowGet(key);
      await gate;
      return value;
    });
    const inFlight = replica.get('k');
    await replica.lease('k', 15_000);
    await replica.set('k', { token: 'new' }, hour());
    release();
    // The slow read answers its caller what it read, but does not replace the newer copy.
    expect(await inFlight).toEqual({ token: 'old' });
    expect(await replica.get('k')).toEqual({ token: 'new' });
  });

  it('never serves a session past its own expiry', async () => {
    await replica.set('k', { token: 't1' }, Date.now() + 300);
    expect(await replica.get('k')).toEqual({ token: 't1' });
    jest.advanceTimersByTime(301);
    expect(await replica.get('k')).toBeUndefined();
  });
});
