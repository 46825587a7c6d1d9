import type { TenantStores } from '../db/stores.js';
import type { Tenant } from '../db/tenants.store.js';
import type { User } from '../db/users.store.js';
import { computeEffectiveScopes, scopeCacheTtlMs } from '../domain/index.js';
import type { ScopeCache } from '../scope-cache.js';

/** The user's effective scopes: cached per the spec's TTLs, recomputed after any change to their inputs. */
export async function effectiveScopes(
  scopeCache: ScopeCache,
  stores: TenantStores,
  tenant: Tenant,
  user: User,
): Promise<string[]> {
  const cached = scopeCache.get(tenant.id, user.uid);
  if (cached) return cached;
  const bundles = await stores.bundles.bundles();
  const byId = new Map(bundles.map((bundle) => [bundle.id, bundle.scopes]));
  const scopes = computeEffectiveScopes({
    role: user.role,
    superAdmin: user.superAdmin,
    bundleScopes: user.bundleIds.map((id) => byId.get(id) ?? []),
    availableScopes: tenant.availableScopes ? new Set(tenant.availableScopes) : null,
  });
  scopeCache.set(tenant.id, user.uid, scopes, scopeCacheTtlMs({ role: user.role, scopes }));
  return scopes;
}
