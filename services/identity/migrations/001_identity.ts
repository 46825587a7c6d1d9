import { enableTenantIsolation, type Migration } from '@workspace/kit';

export const identitySchema: Migration = {
  name: '001_identity',
  async up(knex) {
    await knex.schema.createTable('tenants', (table) => {
      table.text('tenant_id').primary();
      table.text('name').notNullable();
      table.text('region').notNullable().defaultTo('uk');
      table.jsonb('branding').notNullable().defaultTo('{}');
      table.jsonb('modules').notNullable().defaultTo('[]');
      table.text('storage_tier').notNullable().defaultTo('free');
      table.specificType('entitlements', 'text[]').notNullable().defaultTo('{}');
      table.specificType('available_scopes', 'text[]');
      table.jsonb('idp');
      table.timestamps(true, true);
    });
    await knex.raw(
      `ALTER TABLE tenants ADD CONSTRAINT tenants_id_pattern CHECK (tenant_id ~ '^[a-z0-9][a-z0-9_-]*$')`,
    );
    await knex.raw(`ALTER TABLE tenants ADD CONSTRAINT tenants_region CHECK (region IN ('uk', 'eu', 'us'))`);
    await knex.raw(
      `ALTER TABLE tenants ADD CONSTRAINT tenants_storage_tier CHECK (storage_tier IN ('free', 'starter', 'professional', 'enterprise', 'custom'))`,
    );
    await enableTenantIsolation(knex, 'tenants');

    await knex.schema.createTable('users', (table) => {
      table.uuid('uid').primary();
      table.text('tenant_id').notNullable().references('tenant_id').inTable('tenants');
      table.text('email').notNullable();
      table.text('first_name').notNullable().defaultTo('');
      table.text('last_name').notNullable().defaultTo('');
      table.text('display_name').notNullable().defaultTo('');
      table.text('username');
      table.text('role').notNullable().defaultTo('standard');
      table.text('status').notNullable().defaultTo('active');
      table.jsonb('theme_preference').notNullable().defaultTo('{}');
      table.text('profile_photo_url');
      table.specificType('team_ids', 'text[]').notNullable().defaultTo('{}');
      table.specificType('site_ids', 'text[]').notNullable().defaultTo('{}');
      table.specificType('bundle_ids', 'text[]').notNullable().defaultTo('{}');
      table.text('idp_subject');
      table.boolean('super_admin').notNullable().defaultTo(false);
      table.timestamps(true, true);
      table.unique(['tenant_id', 'idp_subject']);
    });
    await knex.raw('CREATE UNIQUE INDEX users_tenant_email ON users (tenant_id, lower(email))');
    await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_role CHECK (role IN ('admin', 'standard'))`);
    await knex.raw(
      `ALTER TABLE users ADD CONSTRAINT users_status CHECK (status IN ('active', 'busy', 'unavailable'))`,
    );
    await enableTenantIsolation(knex, 'users');

    await knex.schema.createTable('role_bundles', (table) => {
      table.text('tenant_id').notNullable().references('tenant_id').inTable('tenants');
      table.text('bundle_id').notNullable();
      table.text('name').notNullable();
      table.specificType('scopes', 'text[]').notNullable().defaultTo('{}');
      table.text('template');
      table.timestamps(true, true);
      table.primary(['tenant_id', 'bundle_id']);
    });
    await enableTenantIsolation(knex, 'role_bundles');

    await knex.schema.createTable('refresh_sessions', (table) => {
      table.uuid('session_id').primary();
      table.text('tenant_id').notNullable();
      table.uuid('uid').notNullable().references('uid').inTable('users');
      table.text('token_hash').notNullable().unique();
      table.timestamp('expires_at', { useTz: true }).notNullable();
      table.timestamp('revoked_at', { useTz: true });
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await enableTenantIsolation(knex, 'refresh_sessions');

    await knex.schema.createTable('portal_links', (table) => {
      table.uuid('link_id').primary();
      table.text('tenant_id').notNullable();
      table.text('subcontractor_id').notNullable();
      table.text('token_hash').notNullable().unique();
      table.timestamp('expires_at', { useTz: true }).notNullable();
      table.timestamp('redeemed_at', { useTz: true });
      table.text('created_by').notNullable();
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await enableTenantIsolation(knex, 'portal_links');

    // Platform table (not tenant data): identity's token signing keys, private halves sealed with AES-256-GCM.
    await knex.schema.createTable('signing_keys', (table) => {
      table.text('kid').primary();
      table.jsonb('public_jwk').notNullable();
      table.text('private_key_sealed').notNullable();
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('retired_at', { useTz: true });
    });
  },
  async down(knex) {
    for (const table of [
      'signing_keys',
      'portal_links',
      'refresh_sessions',
      'role_bundles',
      'users',
      'tenants',
    ]) {
      await knex.schema.dropTable(table);
    }
  },
};
