import { enableTenantIsolation, type Migration } from '@workspace/kit';

/**
 * The audit log (docs/audit.md, ADR 0051): each tenant's append-only, hash-chained entries, the tenant's chain head
 * (locked FOR UPDATE by each append, so seq and prevHash never fork), its signed checkpoints, and the list of tenants
 * with a chain for the scheduled check and the checkpoint worker (ids only).
 */
export const auditSchema: Migration = {
  name: '001_audit',
  async up(knex) {
    await knex.schema.createTable('audit_heads', (table) => {
      table.text('tenant_id').primary();
      table.bigInteger('seq').notNullable();
      table.text('hash').notNullable();
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await enableTenantIsolation(knex, 'audit_heads');

    await knex.schema.createTable('audit_entries', (table) => {
      table.text('tenant_id').notNullable();
      table.bigInteger('seq').notNullable();
      table.uuid('id').notNullable().unique();
      table.text('action').notNullable();
      table.text('module').notNullable();
      table.text('source').notNullable();
      table.text('target_id').notNullable();
      table.text('actor_id').notNullable();
      table.timestamp('occurred_at', { useTz: true }).notNullable();
      table.timestamp('recorded_at', { useTz: true }).notNullable();
      table.text('source_event_id').notNullable();
      table.jsonb('payload').notNullable();
      table.text('prev_hash').notNullable();
      table.text('hash').notNullable();
      table.primary(['tenant_id', 'seq']);
      table.unique(['tenant_id', 'source_event_id']);
    });
    await knex.raw('CREATE INDEX audit_entries_action ON audit_entries (tenant_id, action, seq DESC)');
    await knex.raw('CREATE INDEX audit_entries_actor ON audit_entries (tenant_id, actor_id, seq DESC)');
    await knex.raw('CREATE INDEX audit_entries_target ON audit_entries (tenant_id, target_id, seq DESC)');
    await knex.raw('CREATE INDEX audit_entries_module ON audit_entries (tenant_id, module, seq DESC)');
    await knex.raw('CREATE INDEX audit_entries_occurred ON audit_entries (tenant_id, occurred_at)');
    await enableTenantIsolation(knex, 'audit_entries');
    // Append only: no role that runs through the service may change or remove an entry (the runtime role has data
    // privileges, so the trigger is what refuses it). What bypasses it (a superuser disabling triggers) is what the
    // chain, its check and the checkpoints detect.
    await knex.raw(`
      CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit entries are append-only (% refused)', TG_OP USING ERRCODE = '42501';
      END $$`);
    await knex.raw(`
      CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
        FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`);
    await knex.raw(`
      CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
        FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`);

    await knex.schema.createTable('audit_checkpoints', (table) => {
      table.text('tenant_id').notNullable();
      table.bigInteger('seq').notNullable();
      table.text('hash').notNullable();
      table.timestamp('signed_at', { useTz: true }).notNullable();
      table.text('algorithm').notNullable();
      table.text('key_id').notNullable();
      table.text('signature').notNullable();
      table.primary(['tenant_id', 'seq']);
    });
    await enableTenantIsolation(knex, 'audit_checkpoints');

    // Which tenants have a chain, for the workers that go through every tenant (ids and times only, so, like the
    // outbox, without row-level security).
    await knex.schema.createTable('audit_tenants', (table) => {
      table.text('tenant_id').primary();
      table.timestamp('checked_at', { useTz: true });
      table.timestamp('checkpointed_at', { useTz: true });
    });
  },
  async down(knex) {
    await knex.schema.dropTable('audit_tenants');
    await knex.schema.dropTable('audit_checkpoints');
    await knex.schema.dropTable('audit_entries');
    await knex.raw('DROP FUNCTION audit_entries_append_only()');
    await knex.schema.dropTable('audit_heads');
  },
};
