// In-memory caches with a time to live and a least-recently-used bound (the workspace spec §9 "Permission caches",
// "General cache" and "Avatar cache"), on the lru-cache package. The policy, and how each preset's constants read
// the spec, are in docs/caches.md.

import { LRUCache } from 'lru-cache';

/** Milliseconds on a monotonic clock. Tests replace it (or use jest's fake timers, which this default follows). */
export interface CacheClock {
  now(): number;
}

/** Anything but null and undefined (what lru-cache stores). */
export type Cacheable = object | string | number | bigint | boolean | symbol;

const monotonicClock: CacheClock = { now: () => performance.timeOrigin + performance.now() };

export interface CacheOptions<K, V> {
  /** For logs and metrics. */
  name: string;
  /** How long an entry is served after it was set; a read does not extend it. */
  ttlMs: number;
  /** At most this many entries; setting one more evicts the least recently used (read or written) entry. */
  maxEntries: number;
  /** Optional bound on the entries' total size (bytes, by `sizeOf`); least recently used entries go first. */
  maxBytes?: number;
  /** The size of an entry in bytes; default `approximateSize`. Used only with `maxBytes`. */
  sizeOf?: (value: V, key: K) => number;
  clock?: CacheClock;
}

/** A rough size in bytes of a cached value: bytes for buffers, two per character of text or JSON otherwise. */
export function approximateSize(value: unknown): number {
  if (value instanceof Uint8Array) return Math.max(1, value.byteLength);
  if (typeof value === 'string') return Math.max(1, value.length * 2);
  try {
    const json = JSON.stringify(value) as string | undefined; // undefined for a function
    return Math.max(1, (json === undefined ? 0 : json.length) * 2);
  } catch {
    return 1;
  }
}

/**
 * A cache whose entries expire `ttlMs` after they were set and which holds at most `maxEntries` (and, when set,
 * `maxBytes`); beyond a bound the least recently used entries are evicted. Expired entries are never served; they
 * are dropped when read, by `purgeExpired`, or when they are the least recently used.
 */
export class TtlLruCache<K extends Cacheable, V extends Cacheable> {
  private readonly lru: LRUCache<K, V>;
  private readonly loading = new Map<K, Promise<V>>();

  constructor(readonly options: CacheOptions<K, V>) {
    if (!(options.ttlMs > 0) || !(options.maxEntries > 0))
      throw new Error(`cache ${options.name}: ttlMs and maxEntries must be positive`);
    const sizeOf = options.sizeOf ?? ((value: V) => approximateSize(value));
    this.lru = new LRUCache<K, V>({
      max: options.maxEntries,
      ttl: options.ttlMs,
      // Read the clock on every check (no 1 ms debounce timer per read), so expiry is exact.
      ttlResolution: 0,
      updateAgeOnGet: false,
      allowStale: false,
      perf: options.clock ?? monotonicClock,
      ...(options.maxBytes
        ? {
            maxSize: options.maxBytes,
            sizeCalculation: (value: V, key: K) => Math.max(1, Math.ceil(sizeOf(value, key))),
          }
        : {}),
    });
  }

  get(key: K): V | undefined {
    const value = this.lru.get(key);
    if (value === undefined || this.lru.getRemainingTTL(key) > 0) return value;
    // Exactly `ttlMs` old: expired (lru-cache counts an entry stale only once it is older than its TTL).
    this.lru.delete(key);
    return undefined;
  }

  has(key: K): boolean {
    return this.lru.has(key) && this.lru.getRemainingTTL(key) > 0;
  }

  /** Stores `value` for `ttlMs` (default: the cache's); an entry larger than `maxBytes` is not stored. */
  set(key: K, value: V, ttlMs?: number): this {
    this.lru.set(key, value, ttlMs === undefined ? undefined : { ttl: ttlMs });
    return this;
  }

  delete(key: K): boolean {
    return this.lru.delete(key);
  }

  /** Deletes every entry whose key matches (e.g. all of one tenant's); returns how many went. */
  deleteWhere(matches: (key: K) => boolean): number {
    let deleted = 0;
    for (const key of [...this.lru.keys()]) if (matches(key) && this.lru.delete(key)) deleted++;
    return deleted;
  }

  clear(): void {
    this.lru.clear();
  }

  /** Drops expired entries now (a periodic clean-up); returns how many were dropped. */
  purgeExpired(): number {
    const before = this.lru.size;
    this.lru.purgeStale();
    return before - this.lru.size;
  }

  /** Entries held (expired ones not yet dropped included). */
  get size(): number {
    return this.lru.size;
  }

  /** Total size in bytes of the entries held (0 unless `maxBytes` is set). */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** Milliseconds until `key` expires (0 when absent). */
  remainingTtl(key: K): number {
    return Math.max(0, this.lru.has(key) ? this.lru.getRemainingTTL(key) : 0);
  }

  /**
   * The cached value, or `load`'s result cached; concurrent callers for one key share one load. A failed load is
   * not cached.
   */
  async getOrLoad(key: K, load: () => Promise<V>, ttlMs?: number): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const loaded = (async () => {
      try {
        const value = await load();
        this.set(key, value, ttlMs);
        return value;
      } finally {
        this.loading.delete(key);
      }
    })();
    this.loading.set(key, loaded);
    return loaded;
  }
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The spec's cache constants (§9). Where the spec gives no entry bound, one is chosen so memory stays bounded
 * (marked "chosen"); eviction beyond any bound is least recently used (the spec does not show it).
 */
export const CACHE_PRESETS = {
  /** Drive access service permission cache: 90 s (entry bound chosen). */
  driveAccess: { ttlMs: 90 * SECOND, maxEntries: 10_000 },
  /** Scope gate: results kept 10 s, checks made 100 ms after they are first asked for (entry bound chosen). */
  scopeGate: { ttlMs: 10 * SECOND, delayMs: 100, maxEntries: 10_000 },
  /** General permission cache: 1 hour, at most 20 entries in memory. */
  permissions: { ttlMs: HOUR, maxEntries: 20 },
  /** General cache: 15 minutes, at most 200 entries, 100 MB memory. */
  general: { ttlMs: 15 * MINUTE, maxEntries: 200, maxBytes: 100 * 1024 * 1024 },
  /**
   * Session scope cache: 5 minutes standard, 10 admin, 30 with system scopes (the TTL is set per entry; the
   * preset's is the standard one). Entry bound chosen.
   */
  sessionScopes: {
    ttlMs: 5 * MINUTE,
    ttlByKindMs: { standard: 5 * MINUTE, admin: 10 * MINUTE, system: 30 * MINUTE },
    maxEntries: 50_000,
  },
  /** Avatar cache: kept 7 days, cleanup hourly, 5 fetched per batch, 128 px webp at quality 0.85. */
  avatar: {
    ttlMs: 7 * DAY,
    cleanupIntervalMs: HOUR,
    batchSize: 5,
    maxPx: 128,
    webpQuality: 0.85,
    maxEntries: 5_000,
    maxBytes: 64 * 1024 * 1024,
  },
} as const;

export type CachePresetName = keyof typeof CACHE_PRESETS;

/** A cache with one of the spec's presets (`overrides` for a clock or a size function). */
export function presetCache<K extends Cacheable, V extends Cacheable>(
  preset: CachePresetName,
  overrides: Partial<CacheOptions<K, V>> = {},
): TtlLruCache<K, V> {
  const settings = CACHE_PRESETS[preset];
  return new TtlLruCache<K, V>({
    name: preset,
    ttlMs: settings.ttlMs,
    maxEntries: settings.maxEntries,
    ...('maxBytes' in settings ? { maxBytes: settings.maxBytes } : {}),
    ...overrides,
  });
}

export interface ScopeGateOptions {
  /** How long a result is kept; default 10 s (the spec's scope gate). */
  ttlMs?: number;
  /** How long a check waits before it is made, gathering the others asked for meanwhile; default 100 ms. */
  delayMs?: number;
  maxEntries?: number;
  clock?: CacheClock;
}

/**
 * The spec's scope gate ("10 s with a 100 ms delay"): answers "may this subject use this scope?" from a cache
 * kept 10 s; a key not cached is checked 100 ms after it is first asked for, together with every other key asked
 * for in those 100 ms (one call to `check` for a burst, e.g. a page whose many gated parts ask at once), and
 * callers asking for a key already being checked share that check. A failed check is not cached: the next ask
 * starts a new one, again after the delay.
 */
export class ScopeGate {
  private readonly cache: TtlLruCache<string, { allowed: boolean }>;
  private readonly delayMs: number;
  private pending = new Map<string, { resolve: (ok: boolean) => void; reject: (error: unknown) => void }[]>();
  private inFlight = new Map<string, Promise<boolean>>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly check: (keys: string[]) => Promise<Record<string, boolean>>,
    options: ScopeGateOptions = {},
  ) {
    const preset = CACHE_PRESETS.scopeGate;
    this.delayMs = options.delayMs ?? preset.delayMs;
    this.cache = new TtlLruCache({
      name: 'scopeGate',
      ttlMs: options.ttlMs ?? preset.ttlMs,
      maxEntries: options.maxEntries ?? preset.maxEntries,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }

  /** True when `key` (e.g. `${uid}:${scope}`) is allowed; cached results answer at once. */
  allowed(key: string): Promise<boolean> {
    const cached = this.cache.get(key);
    if (cached) return Promise.resolve(cached.allowed);
    const shared = this.inFlight.get(key);
    if (shared) return shared;
    const answer = new Promise<boolean>((resolve, reject) => {
      const waiters = this.pending.get(key) ?? [];
      waiters.push({ resolve, reject });
      this.pending.set(key, waiters);
    });
    this.inFlight.set(key, answer);
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
    return answer;
  }

  /** Forgets every cached result (e.g. after the permission whitelist changed). */
  invalidate(matches: (key: string) => boolean = () => true): void {
    this.cache.deleteWhere(matches);
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    const keys = [...batch.keys()];
    try {
      const results = await this.check(keys);
      for (const key of keys) {
        const allowed = results[key] === true;
        this.cache.set(key, { allowed });
        for (const waiter of batch.get(key) ?? []) waiter.resolve(allowed);
      }
    } catch (error) {
      for (const key of keys) for (const waiter of batch.get(key) ?? []) waiter.reject(error);
    } finally {
      for (const key of keys) this.inFlight.delete(key);
    }
  }
}
