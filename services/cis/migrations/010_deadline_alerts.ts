import { enableTenantIsolation, type Migration } from '@workspace/kit';

/**
 * The daily deadline scan (issue 15: deadlines as in-app notifications).
 * - `deadline_scan_tenants`: the tenants whose CIS module is active and the London date each was last scanned. Tenant
 *   ids and dates only, no tenant data, so the scan finds its work across tenants and claims it with FOR UPDATE SKIP
 *   LOCKED (no tenant isolation, like `job_queue`). Tenants already active are listed here, reading `settings` across
 *   tenants only inside this transaction, FORCE ROW LEVEL SECURITY lifted and put back, as in 004.
 * - `deadline_alerts`: each deadline told (tax month, deadline kind, due or overdue), so the scan publishes
 *   `cis.deadline.alerted` once per tax month, kind and state however often it runs.
 */
export const deadlineAlerts: Migration = {
  name: '010_deadline_alerts',
  async up(knex) {
    await knex.schema.createTable('deadline_scan_tenants', (table) => {
      table.text('tenant_id').primary();
      table.date('scanned_on');
    });
    await knex.raw('ALTER TABLE settings NO FORCE ROW LEVEL SECURITY');
    await knex.raw(
      'INSERT INTO deadline_scan_tenants (tenant_id) SELECT tenant_id FROM settings WHERE active',
    );
    await knex.raw('ALTER TABLE settings FORCE ROW LEVEL SECURITY');

    await knex.schema.createTable('deadline_alerts', (table) => {
      table.text('tenant_id').notNullable();
      table.text('tax_month').notNullable();
      table.text('kind').notNullable();
      table.text('state').notNullable();
      table.date('due_date').notNullable();
      table.timestamp('alerted_at', { useTz: true }).notNullable();
      table.primary(['tenant_id', 'tax_month', 'kind', 'state']);
    });
    await knex.raw(
      `ALTER TABLE deadline_alerts ADD CONSTRAINT deadline_alerts_kind CHECK (kind IN ('statements', 'filing', 'payment'))`,
    );
    await knex.raw(
      `ALTER TABLE deadline_alerts ADD CONSTRAINT deadline_alerts_state CHECK (state IN ('due', 'overdue'))`,
    );
    await enableTenantIsolation(knex, 'deadline_alerts');
  },
  async down(knex) {
    await knex.schema.dropTable('deadline_alerts');
    await knex.schema.dropTable('deadline_scan_tenants');
  },
};
