import { TtlLruCache, type CacheClock } from '@workspace/kit';
/**
 * Where sessions live: `IdentitySessionStore` (identity's PostgreSQL, shared by every bff replica; ADR 0025) in
 * the running bff, `MemorySessionStore` in unit tests.
 */
export interface SessionStore<T> {
  get(key: string): Promise<T | undefined>;
  /** Inserts or replaces (and frees the lease); the entry is gone after `expiresAt` (epoch milliseconds). */
  set(key: string, value: T, expiresAt: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * A shared store: take the entry's lease for `ms` (true) unless another holder has it (false); `ms` 0 frees it.
   * Lets one replica at a time refresh a session. A store of one process has none (its callers coordinate).
   */
  lease?(key: string, ms: number): Promise<boolean>;
  close(): void;
}

export interface MemorySessionStoreOptions {
  now?: () => number;
  /** Sessions kept at most; beyond it the oldest is dropped (its user signs in again). */
  maxEntries?: number;
  sweepIntervalMs?: number;
}

/** Sessions of one bff process, in memory: they end when the process does. */
export class MemorySessionStore<T> implements SessionStore<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 200_000;
    this.sweeper = setInterval(() => {
      this.sweep();
    }, options.sweepIntervalMs ?? 60_000);
    this.sweeper.unref();
  }

  get(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(entry?.value);
  }

  set(key: string, value: T, expiresAt: number): Promise<void> {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.sweep();
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt });
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

export interface CachedSessionStoreOptions {
  /** How long a session read from the shared store is served from this replica's memory. */
  ttlMs: number;
  /** Sessions cached at most (least recently used go first). */
  maxEntries?: number;
  now?: () => number;
  /** The clock of the read cache's time to live (the cache's monotonic clock by default); tests move it on. */
  clock?: CacheClock;
}

/**
 * A shared store with a short read cache in front of it, so a burst of requests with one cookie makes one call to
 * the store, not one each. What this replica writes, deletes or leases it sees at once: writes and deletes go to the
 * cache too, and taking (or trying) a lease drops the cached copy, so a refresh always starts from the store's
 * current tokens. What another replica changes (a sign-out there, a revoked portal session) is seen here within
 * `ttlMs` (docs/adr/0025).
 */
export class CachedSessionStore<T extends object> implements SessionStore<T> {
  private readonly cache: TtlLruCache<string, T>;
  private readonly now: () => number;
  /**
   * Bumped by every write, delete and lease here. A read of the shared store caches its answer only if none
   * happened while it was in flight: a slow read that started before a refresh saved new tokens must not put the
   * old ones (a rotated refresh token) back in the cache. One counter for all keys: a read that overlaps another
   * session's write is merely not cached, and nothing grows with the number of sessions.
   */
  private changes = 0;

  constructor(
    private readonly inner: SessionStore<T> & Required<Pick<SessionStore<T>, 'lease'>>,
    options: CachedSessionStoreOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.cache = new TtlLruCache<string, T>({
      name: 'bff-sessions',
      ttlMs: options.ttlMs,
      maxEntries: options.maxEntries ?? 10_000,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }

  async get(key: string): Promise<T | undefined> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const before = this.changes;
    const value = await this.inner.get(key);
    if (value !== undefined && this.changes === before) this.cache.set(key, value);
    return value;
  }

  async set(key: string, value: T, expiresAt: number): Promise<void> {
    this.changed(key);
    await this.inner.set(key, value, expiresAt);
    this.changed(key);
    const left = expiresAt - this.now();
    if (left > 0) this.cache.set(key, value, Math.min(left, this.cache.options.ttlMs));
  }

  async delete(key: string): Promise<void> {
    this.changed(key);
    await this.inner.delete(key);
    this.changed(key);
  }

  async lease(key: string, ms: number): Promise<boolean> {
    this.changed(key);
    try {
      return await this.inner.lease(key, ms);
    } finally {
      this.changed(key);
    }
  }

  /** Drops the cached copy and marks reads in flight as stale. */
  private changed(key: string): void {
    this.cache.delete(key);
    this.changes += 1;
  }

  close(): void {
    this.cache.clear();
    this.inner.close();
  }
}
