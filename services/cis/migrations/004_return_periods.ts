import { enableTenantIsolation, type Migration } from '@workspace/kit';

/**
 * Returns by period (issue 13, ADR 0035).
 * - `settings.active_since`: the business date the module was first switched on, from which every tax month owes a
 *   return. `created_at` cannot say it: settings are created with the defaults on first read, active or not, and
 *   stamped by the database's clock rather than the business clock. Settings already active take the London date
 *   they were created (the best that is known); the owner reads across tenants only inside this transaction, with
 *   FORCE ROW LEVEL SECURITY lifted and put back, as in 003.
 * - `return_period_marks`: months the user marked as filed elsewhere, before this product, or covered by an
 *   inactivity notice to HMRC, with who marked them and when (also in the audit trail).
 */
export const returnPeriods: Migration = {
  name: '004_return_periods',
  async up(knex) {
    await knex.raw('ALTER TABLE settings ADD COLUMN active_since date');
    await knex.raw('ALTER TABLE settings NO FORCE ROW LEVEL SECURITY');
    await knex.raw(
      `UPDATE settings SET active_since = (created_at AT TIME ZONE 'Europe/London')::date WHERE active`,
    );
    await knex.raw('ALTER TABLE settings FORCE ROW LEVEL SECURITY');

    await knex.schema.createTable('return_period_marks', (table) => {
      table.text('tenant_id').notNullable();
      table.text('tax_month').notNullable();
      table.text('reason').notNullable();
      table.text('note').notNullable().defaultTo('');
      table.text('marked_by').notNullable();
      table.timestamp('marked_at', { useTz: true }).notNullable();
      table.primary(['tenant_id', 'tax_month']);
    });
    await knex.raw(
      `ALTER TABLE return_period_marks ADD CONSTRAINT return_period_marks_reason CHECK (reason IN ('filed_elsewhere', 'before_product', 'inactive'))`,
    );
    await enableTenantIsolation(knex, 'return_period_marks');
  },
  async down(knex) {
    await knex.schema.dropTable('return_period_marks');
    await knex.raw('ALTER TABLE settings DROP COLUMN active_since');
  },
};
