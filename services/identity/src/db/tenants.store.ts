import type { Knex } from '@workspace/kit';
import type { REGIONS, STORAGE_TIERS } from '../domain/tenant.js';

export type ColourVariation = 'default' | 'lighter' | 'darker' | 'muted';

export interface TenantModule {
  id: string;
  enabled: boolean;
  config: Record<string, unknown>;
}

export interface Tenant {
  id: string;
  name: string;
  region: (typeof REGIONS)[number];
  branding: {
    accentColor?: string;
    accentHsl?: string;
    successColor?: string;
    successVariation?: ColourVariation;
    successSaturation?: number;
    successLightness?: number;
    dangerColor?: string;
    dangerVariation?: ColourVariation;
    dangerSaturation?: number;
    dangerLightness?: number;
  };
  modules: TenantModule[];
  storageTier: (typeof STORAGE_TIERS)[number];
  entitlements: string[];
  /** The permission whitelist: scopes the tenant's users may hold; null = every non-system scope. */
  availableScopes: string[] | null;
  idp: { issuer: string; clientId: string; clientSecretSealed: string } | null;
}

interface TenantRow {
  tenant_id: string;
  name: string;
  region: Tenant['region'];
  branding: Tenant['branding'];
  modules: TenantModule[];
  storage_tier: Tenant['storageTier'];
  entitlements: string[];
  available_scopes: string[] | null;
  idp: Tenant['idp'];
}

const toTenant = (row: TenantRow): Tenant => ({
  id: row.tenant_id,
  name: row.name,
  region: row.region,
  branding: row.branding,
  modules: row.modules,
  storageTier: row.storage_tier,
  entitlements: row.entitlements,
  availableScopes: row.available_scopes,
  idp: row.idp,
});

/** The tenant record: settings, branding, modules, the permission whitelist and the footer (table `tenants`). */
export class TenantStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async tenant(tenantId: string): Promise<Tenant | undefined> {
    const row = await this.trx<TenantRow>('tenants').where({ tenant_id: tenantId }).first();
    return row ? toTenant(row) : undefined;
  }

  async createTenant(tenant: Omit<Tenant, 'idp'> & { idp?: Tenant['idp'] }): Promise<void> {
    await this.trx('tenants').insert({
      tenant_id: tenant.id,
      name: tenant.name,
      region: tenant.region,
      branding: JSON.stringify(tenant.branding),
      modules: JSON.stringify(tenant.modules),
      storage_tier: tenant.storageTier,
      entitlements: tenant.entitlements,
      available_scopes: tenant.availableScopes,
      idp: tenant.idp ? JSON.stringify(tenant.idp) : null,
    });
  }

  async updateTenant(
    tenantId: string,
    changes: Partial<Pick<Tenant, 'name' | 'branding' | 'modules' | 'entitlements' | 'storageTier'>>,
  ): Promise<void> {
    await this.trx('tenants')
      .where({ tenant_id: tenantId })
      .update({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.branding === undefined ? {} : { branding: JSON.stringify(changes.branding) }),
        ...(changes.modules === undefined ? {} : { modules: JSON.stringify(changes.modules) }),
        ...(changes.entitlements === undefined ? {} : { entitlements: changes.entitlements }),
        ...(changes.storageTier === undefined ? {} : { storage_tier: changes.storageTier }),
        updated_at: this.trx.fn.now(),
      });
  }

  async setAvailableScopes(tenantId: string, scopes: string[] | null): Promise<void> {
    await this.trx('tenants')
      .where({ tenant_id: tenantId })
      .update({ available_scopes: scopes, updated_at: this.trx.fn.now() });
  }

  /** The footer settings as saved (any keys); undefined when none were ever saved. */
  async footer(tenantId: string): Promise<Record<string, unknown> | undefined> {
    const row: { footer: Record<string, unknown> | null } | undefined = await this.trx('tenants')
      .where({ tenant_id: tenantId })
      .first('footer');
    return row?.footer ?? undefined;
  }

  async saveFooter(tenantId: string, footer: Record<string, unknown>): Promise<void> {
    await this.trx('tenants')
      .where({ tenant_id: tenantId })
      .update({ footer: JSON.stringify(footer), updated_at: this.trx.fn.now() });
  }
}
