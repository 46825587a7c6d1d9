/**
 * Where sessions live. Asynchronous so a shared store (PostgreSQL, for several replicas) can replace the memory
 * one without touching its callers; see README.
 */
export interface SessionStore<T> {
  get(key: string): Promise<T | undefined>;
  /** Inserts or replaces; the entry is gone after `expiresAt` (epoch milliseconds). */
  set(key: string, value: T, expiresAt: number): Promise<void>;
  delete(key: string): Promise<void>;
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
