import type { Migration } from '@workspace/kit';

/**
 * A corrected statement (issue 13, ADR 0037): when an issued statement's month changes after it was issued, a
 * corrected statement is issued and the old one stays on record, pointing at the one that replaced it.
 * - `superseded_by` / `superseded_at` on the old statement; `supersedes` and `version` (1 for the first) on the new.
 * - One current statement per subcontractor and tax month: the unique key becomes a unique index over the statements
 *   not superseded, so the old ones stay beside their correction.
 */
export const correctedStatements: Migration = {
  name: '006_corrected_statements',
  async up(knex) {
    await knex.schema.alterTable('statements', (table) => {
      table.integer('version').notNullable().defaultTo(1);
      table.text('supersedes');
      table.text('superseded_by');
      table.timestamp('superseded_at', { useTz: true });
    });
    await knex.raw(
      'ALTER TABLE statements DROP CONSTRAINT statements_tenant_id_subcontractor_id_tax_month_unique',
    );
    await knex.raw(
      `CREATE UNIQUE INDEX statements_current_per_month ON statements (tenant_id, subcontractor_id, tax_month)
       WHERE superseded_by IS NULL`,
    );
  },
  async down(knex) {
    await knex.raw('DELETE FROM statements WHERE superseded_by IS NOT NULL');
    await knex.raw('DROP INDEX statements_current_per_month');
    await knex.schema.alterTable('statements', (table) => {
      table.unique(['tenant_id', 'subcontractor_id', 'tax_month']);
      table.dropColumns('version', 'supersedes', 'superseded_by', 'superseded_at');
    });
  },
};
