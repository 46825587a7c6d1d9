import { presetCache, type CacheClock, type TtlLruCache } from '@workspace/kit';

/**
 * Effective scopes per user, cached with the spec's session TTLs (5 minutes standard, 10 admin, 30 when system
 * scopes are held; the TTL is given per entry) and dropped at once for a whole tenant when its role bundles,
 * whitelist or users change. Backed by the kit's TTL + LRU cache (preset `sessionScopes`): beyond its entry bound
 * the least recently used user's scopes are dropped (and recomputed on their next request).
 */
export class ScopeCache {
  private readonly entries: TtlLruCache<string, string[]>;

  constructor(clock?: CacheClock) {
    this.entries = presetCache<string, string[]>('sessionScopes', clock ? { clock } : {});
  }

  private static key(tenantId: string, uid: string): string {
    return `${tenantId}\u0000${uid}`;
  }

  get(tenantId: string, uid: string): string[] | undefined {
    return this.entries.get(ScopeCache.key(tenantId, uid));
  }

  set(tenantId: string, uid: string, scopes: string[], ttlMs: number): void {
    this.entries.set(ScopeCache.key(tenantId, uid), scopes, ttlMs);
  }

  invalidateTenant(tenantId: string): void {
    const prefix = `${tenantId}\u0000`;
    this.entries.deleteWhere((key) => key.startsWith(prefix));
  }
}
