import type { Tenant } from './db/store.js';

/** The data of identity.tenant.created / identity.tenant.updated for a tenant as it now stands. */
export function tenantChangedData(
  tenant: Pick<Tenant, 'id' | 'name' | 'region' | 'modules' | 'storageTier' | 'entitlements'>,
) {
  return {
    tenantId: tenant.id,
    name: tenant.name,
    region: tenant.region,
    enabledModules: tenant.modules.filter((module) => module.enabled).map((module) => module.id),
    storageTier: tenant.storageTier,
    entitlements: tenant.entitlements,
  };
}
