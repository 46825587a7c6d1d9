import type { Knex } from '@workspace/kit';

/**
 * The tenant's access version (migration 008): raised by a trigger whenever a drive, a member or a library of the
 * tenant changes. The only code reading `access_versions` (only the trigger writes it).
 */
export class AccessVersionStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /**
   * The version of the transaction's tenant ('0' before its first drive), with the tenant the transaction runs as
   * (its row-level-security setting), read in one statement so the cache can check it is filling the right entry.
   */
  async current(): Promise<{ tenantId: string; version: string }> {
    const { rows } = await this.trx.raw<{ rows: { tenant_id: string | null; version: string | null }[] }>(
      `SELECT current_setting('app.tenant_id', true) AS tenant_id,
        (SELECT version::text FROM access_versions
          WHERE tenant_id = current_setting('app.tenant_id', true)) AS version`,
    );
    const row = rows[0];
    return { tenantId: row?.tenant_id ?? '', version: row?.version ?? '0' };
  }
}
