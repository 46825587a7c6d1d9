import type { Knex, Migration } from '@workspace/kit';

/**
 * The submitted CIS300 document holds every listed subcontractor's UTR and NINO and the contractor's UTR: it is kept
 * sealed with the field cipher, like the identifier columns (security review H2, ADR 0029).
 * - `cis300_xml_enc` holds it from now on; a CHECK (NOT VALID: the rows there now are not looked at) refuses any new
 *   document in clear in `cis300_xml`, so a replica of the previous version still running refuses to submit rather
 *   than store one.
 * - The migration has no cipher key, so documents stored in clear before it are sealed when cis starts
 *   (`sealStoredCis300`). For that it lists their tenants in `cis300_seal_backlog` (tenant ids only, no tenant
 *   isolation, like `job_queue`): the runtime role, bound to one tenant per transaction, could not find them. The
 *   owner reads across tenants only inside this migration's transaction, with FORCE ROW LEVEL SECURITY lifted and put
 *   back; no policy is left that bypasses isolation.
 * - `cis300_xml` stays, always NULL, until a later migration drops it (docs/runbook.md says when).
 */
export const sealedCis300: Migration = {
  name: '003_sealed_cis300',
  async up(knex) {
    await knex.raw('ALTER TABLE returns ADD COLUMN cis300_xml_enc text');
    await knex.raw(
      'ALTER TABLE returns ADD CONSTRAINT returns_cis300_sealed CHECK (cis300_xml IS NULL) NOT VALID',
    );
    await knex.schema.createTable('cis300_seal_backlog', (table) => {
      table.text('tenant_id').primary();
    });
    await queueUnsealedCis300(knex);
  },
  async down(knex) {
    await knex.schema.dropTable('cis300_seal_backlog');
    await knex.raw('ALTER TABLE returns DROP CONSTRAINT returns_cis300_sealed');
    await knex.raw('ALTER TABLE returns DROP COLUMN cis300_xml_enc');
  },
};

/** Lists the tenants whose returns hold a CIS300 document in clear (as the schema owner, in its transaction). */
export async function queueUnsealedCis300(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE returns NO FORCE ROW LEVEL SECURITY');
  await knex.raw(`
    INSERT INTO cis300_seal_backlog (tenant_id)
    SELECT DISTINCT tenant_id FROM returns WHERE cis300_xml IS NOT NULL
    ON CONFLICT DO NOTHING`);
  await knex.raw('ALTER TABLE returns FORCE ROW LEVEL SECURITY');
}
