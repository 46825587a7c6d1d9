import type { Knex, Migration } from '@workspace/kit';

/**
 * One subcontractor per person (issue 13, ADR 0039).
 * - `utr_hash`, `nino_hash`, `crn_hash`: keyed hashes (HMAC, CIS_IDENTIFIER_HASH_KEY) of the normalised UTR, NINO
 *   and company number beside the sealed values, unique per tenant among live (not deleted, not archived) records
 *   through partial unique indexes: the final guard when two creates race.
 * - `known_duplicate`: a record that already shared an identifier with an earlier live record when the hashes were
 *   first filled in. It stays out of the unique indexes (they could not be built otherwise) until it is merged or
 *   archived; every record created or edited from now on is checked.
 * - `details_incomplete`: a subcontractor made by Invite to Portal, until its address and GDPR consent are filled in.
 * - `merged_into`, `archive_note`: a duplicate merged into the record kept, archived with a note saying so.
 * - The migration has no hash key, so existing records get their hashes when cis starts (`fillIdentityHashes`): it
 *   lists their tenants in `identity_hash_backlog` (tenant ids only, no tenant isolation, like
 *   `cis300_seal_backlog`), reading across tenants only inside this transaction, FORCE ROW LEVEL SECURITY lifted and
 *   put back.
 */
export const subcontractorIdentity: Migration = {
  name: '008_subcontractor_identity',
  async up(knex) {
    await knex.schema.alterTable('subcontractors', (table) => {
      table.text('utr_hash');
      table.text('nino_hash');
      table.text('crn_hash');
      table.boolean('known_duplicate').notNullable().defaultTo(false);
      table.boolean('details_incomplete').notNullable().defaultTo(false);
      table.uuid('merged_into').references('id').inTable('subcontractors');
      table.text('archive_note').notNullable().defaultTo('');
    });
    for (const kind of ['utr', 'nino', 'crn'])
      await knex.raw(
        `CREATE UNIQUE INDEX subcontractors_unique_${kind} ON subcontractors (tenant_id, ${kind}_hash)
         WHERE ${kind}_hash IS NOT NULL AND deleted_at IS NULL AND NOT archived AND NOT known_duplicate`,
      );
    await knex.raw(
      `CREATE INDEX subcontractors_by_email ON subcontractors (tenant_id, lower(email))
       WHERE deleted_at IS NULL AND email <> ''`,
    );
    await knex.schema.createTable('identity_hash_backlog', (table) => {
      table.text('tenant_id').primary();
    });
    await queueIdentityHashes(knex);
  },
  async down(knex) {
    await knex.schema.dropTable('identity_hash_backlog');
    await knex.raw('DROP INDEX subcontractors_by_email');
    for (const kind of ['utr', 'nino', 'crn']) await knex.raw(`DROP INDEX subcontractors_unique_${kind}`);
    await knex.schema.alterTable('subcontractors', (table) => {
      for (const column of [
        'utr_hash',
        'nino_hash',
        'crn_hash',
        'known_duplicate',
        'details_incomplete',
        'merged_into',
        'archive_note',
      ])
        table.dropColumn(column);
    });
  },
};

/** Lists the tenants with subcontractors holding an identifier (as the schema owner, in its transaction). */
export async function queueIdentityHashes(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE subcontractors NO FORCE ROW LEVEL SECURITY');
  await knex.raw(`
    INSERT INTO identity_hash_backlog (tenant_id)
    SELECT DISTINCT tenant_id FROM subcontractors
    WHERE utr_enc IS NOT NULL OR nino_enc IS NOT NULL OR company_number <> ''
    ON CONFLICT DO NOTHING`);
  await knex.raw('ALTER TABLE subcontractors FORCE ROW LEVEL SECURITY');
}
