import type { Knex } from '@workspace/kit';

export interface RoleBundle {
  id: string;
  name: string;
  scopes: string[];
  template: string | null;
}

interface RoleBundleRow {
  bundle_id: string;
  name: string;
  scopes: string[];
  template: string | null;
}

/** The tenant's role bundles (table `role_bundles`). */
export class RoleBundleStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async bundles(): Promise<RoleBundle[]> {
    const rows = await this.trx<RoleBundleRow>('role_bundles').orderBy('bundle_id');
    return rows.map((row) => ({
      id: row.bundle_id,
      name: row.name,
      scopes: row.scopes,
      template: row.template,
    }));
  }

  async upsertBundle(tenantId: string, bundle: RoleBundle): Promise<void> {
    await this.trx('role_bundles')
      .insert({
        tenant_id: tenantId,
        bundle_id: bundle.id,
        name: bundle.name,
        scopes: bundle.scopes,
        template: bundle.template,
      })
      .onConflict(['tenant_id', 'bundle_id'])
      .merge({
        name: bundle.name,
        scopes: bundle.scopes,
        template: bundle.template,
        updated_at: this.trx.fn.now(),
      });
  }
}
