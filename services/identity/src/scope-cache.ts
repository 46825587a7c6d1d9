/**
 * Effective scopes per user, cached with the spec's session TTLs (5 minutes standard, 10 admin, 30 when system
 * scopes are held) and dropped at once for a whole tenant when its role bundles, whitelist or users change.
 */
export class ScopeCache {
  private readonly entries = new Map<string, { scopes: string[]; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  private static key(tenantId: string, uid: string): string {
    return `${tenantId}\u0000${uid}`;
  }

  get(tenantId: string, uid: string): string[] | undefined {
    const key = ScopeCache.key(tenantId, uid);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.scopes;
  }

  set(tenantId: string, uid: string, scopes: string[], ttlMs: number): void {
    this.entries.set(ScopeCache.key(tenantId, uid), { scopes, expiresAt: this.now() + ttlMs });
  }

  invalidateTenant(tenantId: string): void {
    const prefix = `${tenantId}\u0000`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
