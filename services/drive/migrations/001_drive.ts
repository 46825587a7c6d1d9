import { enableTenantIsolation, type Knex, type Migration } from '@workspace/kit';

const timestamps = (table: Knex.CreateTableBuilder, knex: Knex) => {
  table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
};

/**
 * The drive's schema (drive.md §3): drives and their members, libraries with their ACL and policies, folders, files
 * with their versions, stars, views and module references, upload grants, shares, signature requests, and the
 * tenant's storage usage. Every table is tenant-scoped under row-level security; sizes are bytes (bigint).
 */
export const driveSchema: Migration = {
  name: '001_drive',
  async up(knex) {
    await knex.schema.createTable('drives', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.text('name').notNullable();
      table.text('type').notNullable();
      table.text('slug').notNullable();
      table.text('owner_id').notNullable();
      table.text('module_id');
      table.text('visibility').notNullable().defaultTo('members');
      table.text('color').notNullable().defaultTo('blue');
      table.text('icon').notNullable().defaultTo('Folder');
      table.text('description').notNullable().defaultTo('');
      table.boolean('allow_external_sharing').notNullable().defaultTo(false);
      table.integer('retention_days');
      table.integer('quota_gb').notNullable().defaultTo(1);
      table.boolean('versioning_enabled').notNullable().defaultTo(true);
      table.integer('max_versions').notNullable().defaultTo(10);
      table.uuid('default_library_id');
      table.text('created_by').notNullable();
      timestamps(table, knex);
      table.timestamp('deleted_at', { useTz: true });
    });
    await knex.raw(
      `ALTER TABLE drives ADD CONSTRAINT drives_type CHECK (type IN ('personal', 'shared', 'module', 'custom'))`,
    );
    await knex.raw(
      `ALTER TABLE drives ADD CONSTRAINT drives_visibility CHECK (visibility IN ('members', 'tenant'))`,
    );
    await knex.raw(
      `CREATE UNIQUE INDEX drives_module ON drives (tenant_id, module_id) WHERE module_id IS NOT NULL AND deleted_at IS NULL`,
    );
    await knex.raw(
      `CREATE UNIQUE INDEX drives_personal ON drives (tenant_id, owner_id) WHERE type = 'personal' AND deleted_at IS NULL`,
    );
    await enableTenantIsolation(knex, 'drives');

    await knex.schema.createTable('drive_members', (table) => {
      table.text('tenant_id').notNullable();
      table.uuid('drive_id').notNullable().references('drives.id').onDelete('CASCADE');
      table.text('user_id').notNullable();
      table.text('role').notNullable();
      table.text('display_name').notNullable().defaultTo('');
      table.timestamp('added_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.text('added_by').notNullable();
      table.primary(['drive_id', 'user_id']);
      table.index(['tenant_id', 'user_id']);
    });
    await knex.raw(
      `ALTER TABLE drive_members ADD CONSTRAINT drive_members_role CHECK (role IN ('owner', 'manager', 'contributor'))`,
    );
    await enableTenantIsolation(knex, 'drive_members');

    await knex.schema.createTable('libraries', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.uuid('drive_id').notNullable().references('drives.id');
      table.text('name').notNullable();
      table.text('description').notNullable().defaultTo('');
      table.text('kind').notNullable().defaultTo('library');
      table.text('context_module_key');
      table.text('context_entity_type');
      table.text('context_entity_id');
      table.text('context_entity_name');
      table.specificType('member_ids', 'text[]').notNullable().defaultTo('{}');
      table.boolean('visible_in_drive_ui').notNullable().defaultTo(true);
      table.specificType('read_scopes', 'text[]').notNullable();
      table.specificType('write_scopes', 'text[]').notNullable();
      table.specificType('delete_scopes', 'text[]').notNullable();
      table.specificType('share_scopes', 'text[]').notNullable();
      table.boolean('read_only').notNullable().defaultTo(false);
      table.boolean('legal_hold').notNullable().defaultTo(false);
      table.boolean('share_allowed').notNullable().defaultTo(true);
      table.text('delete_policy').notNullable().defaultTo('none');
      table.specificType('allowed_extensions', 'text[]').notNullable().defaultTo('{}');
      table.integer('max_file_size_mb');
      table.boolean('external_allowed').notNullable().defaultTo(true);
      table.boolean('require_watermark').notNullable().defaultTo(false);
      table.boolean('require_record').notNullable().defaultTo(false);
      table.text('created_by').notNullable();
      timestamps(table, knex);
      table.timestamp('deleted_at', { useTz: true });
      table.index(['tenant_id', 'drive_id']);
    });
    await knex.raw(
      `ALTER TABLE libraries ADD CONSTRAINT libraries_kind CHECK (kind IN ('library', 'context'))`,
    );
    await knex.raw(
      `ALTER TABLE libraries ADD CONSTRAINT libraries_delete_policy CHECK (delete_policy IN ('none', 'ownerOnly', 'managerOnly', 'twoPerson'))`,
    );
    await knex.raw(
      `CREATE UNIQUE INDEX libraries_context ON libraries (tenant_id, context_module_key, context_entity_type, context_entity_id)
        WHERE kind = 'context' AND deleted_at IS NULL`,
    );
    await enableTenantIsolation(knex, 'libraries');

    await knex.schema.createTable('folders', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.uuid('drive_id').notNullable().references('drives.id');
      table.uuid('library_id').references('libraries.id');
      table.uuid('parent_id').references('folders.id');
      table.specificType('ancestors', 'uuid[]').notNullable().defaultTo('{}');
      table.text('slug').notNullable();
      table.text('name').notNullable();
      table.text('color').notNullable().defaultTo('primary');
      table.text('type').notNullable().defaultTo('folder');
      table.integer('file_count').notNullable().defaultTo(0);
      table.bigInteger('total_size').notNullable().defaultTo(0);
      table.text('created_by').notNullable();
      timestamps(table, knex);
      table.index(['tenant_id', 'drive_id', 'created_at']);
    });
    await knex.raw(`ALTER TABLE folders ADD CONSTRAINT folders_type CHECK (type IN ('folder', 'module'))`);
    await knex.raw(
      `CREATE UNIQUE INDEX folders_slug ON folders (tenant_id, drive_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), slug)`,
    );
    await enableTenantIsolation(knex, 'folders');

    await knex.schema.createTable('files', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.uuid('drive_id').notNullable().references('drives.id');
      table.uuid('library_id').notNullable().references('libraries.id');
      table.uuid('folder_id').references('folders.id').onDelete('SET NULL');
      table.text('name').notNullable();
      table.text('name_lower').notNullable();
      table.text('ext').notNullable().defaultTo('');
      table.text('mime_type').notNullable();
      table.text('type_class').notNullable();
      table.bigInteger('size').notNullable();
      table.text('checksum').notNullable();
      table.integer('version').notNullable().defaultTo(1);
      table.integer('versions_count').notNullable().defaultTo(1);
      table.text('storage_path').notNullable();
      table.text('status').notNullable().defaultTo('active');
      table.timestamp('binned_at', { useTz: true });
      table.text('binned_by');
      table.text('scan_status').notNullable().defaultTo('pending');
      /** What content sniffing found when it differs from what the name claims (docs/drive.md). */
      table.text('content_flag');
      table.text('owner_id').notNullable();
      table.text('owner_name').notNullable().defaultTo('');
      table.text('visibility').notNullable().defaultTo('private');
      table.specificType('allowed_uids', 'text[]').notNullable().defaultTo('{}');
      table.specificType('shared_with', 'text[]').notNullable().defaultTo('{}');
      table.boolean('orphaned_ref').notNullable().defaultTo(false);
      table.boolean('signed').notNullable().defaultTo(false);
      table.text('thumbnail_path');
      table.text('created_by').notNullable();
      table.text('updated_by').notNullable();
      timestamps(table, knex);
    });
    await knex.raw(`ALTER TABLE files ADD CONSTRAINT files_status CHECK (status IN ('active', 'trashed'))`);
    await knex.raw(
      `ALTER TABLE files ADD CONSTRAINT files_visibility CHECK (visibility IN ('shared', 'private', 'restricted'))`,
    );
    await knex.raw(
      `ALTER TABLE files ADD CONSTRAINT files_name_length CHECK (char_length(name) BETWEEN 1 AND 255)`,
    );
    // One name per drive, library and folder among files not purged (a restored file keeps its name).
    await knex.raw(
      `CREATE UNIQUE INDEX files_name ON files (tenant_id, drive_id, library_id,
        coalesce(folder_id, '00000000-0000-0000-0000-000000000000'::uuid), name_lower)`,
    );
    // The file list: newest first within a drive, and across the tenant.
    await knex.raw(
      `CREATE INDEX files_drive_created ON files (tenant_id, drive_id, status, created_at DESC, id DESC)`,
    );
    await knex.raw(
      `CREATE INDEX files_tenant_created ON files (tenant_id, status, created_at DESC, id DESC)`,
    );
    await knex.raw(`CREATE INDEX files_owner ON files (tenant_id, owner_id, status, created_at DESC)`);
    await knex.raw(`CREATE INDEX files_folder ON files (tenant_id, folder_id) WHERE folder_id IS NOT NULL`);
    await knex.raw(`CREATE INDEX files_name_trgm ON files USING gin (name_lower public.gin_trgm_ops)`);
    await enableTenantIsolation(knex, 'files');

    await knex.schema.createTable('file_versions', (table) => {
      table.text('tenant_id').notNullable();
      table.uuid('file_id').notNullable().references('files.id').onDelete('CASCADE');
      table.integer('version').notNullable();
      table.text('storage_path').notNullable();
      table.bigInteger('size').notNullable();
      table.text('checksum').notNullable();
      table.text('mime_type').notNullable();
      table.text('note').notNullable().defaultTo('');
      table.text('created_by').notNullable();
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.primary(['file_id', 'version']);
    });
    await enableTenantIsolation(knex, 'file_versions');

    await knex.schema.createTable('file_stars', (table) => {
      table.text('tenant_id').notNullable();
      table.uuid('file_id').notNullable().references('files.id').onDelete('CASCADE');
      table.text('user_id').notNullable();
      table.timestamp('starred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.primary(['file_id', 'user_id']);
      table.index(['tenant_id', 'user_id', 'starred_at']);
    });
    await enableTenantIsolation(knex, 'file_stars');

    await knex.schema.createTable('file_views', (table) => {
      table.text('tenant_id').notNullable();
      table.uuid('file_id').notNullable().references('files.id').onDelete('CASCADE');
      table.text('user_id').notNullable();
      table.timestamp('viewed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.primary(['file_id', 'user_id']);
      table.index(['tenant_id', 'user_id', 'viewed_at']);
    });
    await enableTenantIsolation(knex, 'file_views');

    await knex.schema.createTable('file_refs', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.uuid('file_id').notNullable();
      table.text('module_id').notNullable();
      table.text('entity_id').notNullable();
      table.text('reference_type').notNullable().defaultTo('attachment');
      table.jsonb('metadata').notNullable().defaultTo('{}');
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.unique(['tenant_id', 'file_id', 'module_id', 'entity_id', 'reference_type']);
      table.index(['tenant_id', 'module_id', 'entity_id']);
    });
    await enableTenantIsolation(knex, 'file_refs');

    // An upload granted to a browser: the object key it may write, the multipart upload, until registered.
    await knex.schema.createTable('uploads', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.uuid('file_id').notNullable();
      /** Set when the upload is a new version of this existing file. */
      table.boolean('new_version').notNullable().defaultTo(false);
      table.uuid('drive_id').notNullable();
      table.uuid('library_id').notNullable();
      table.uuid('folder_id');
      table.text('name').notNullable();
      table.bigInteger('size').notNullable();
      table.text('mime_type').notNullable();
      table.text('object_key').notNullable();
      table.text('multipart_id').notNullable();
      table.integer('part_size').notNullable();
      table.integer('part_count').notNullable();
      table.boolean('require_signatures').notNullable().defaultTo(false);
      table.text('status').notNullable().defaultTo('granted');
      table.text('created_by').notNullable();
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('expires_at', { useTz: true }).notNullable();
      table.index(['status', 'expires_at']);
    });
    await knex.raw(
      `ALTER TABLE uploads ADD CONSTRAINT uploads_status CHECK (status IN ('granted', 'registered', 'aborted'))`,
    );
    await enableTenantIsolation(knex, 'uploads');

    await knex.schema.createTable('shares', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.text('name').notNullable();
      table.uuid('library_id').notNullable().references('libraries.id');
      table.text('visibility').notNullable().defaultTo('restricted');
      table.specificType('allowed_uids', 'text[]').notNullable().defaultTo('{}');
      table.boolean('allow_download').notNullable().defaultTo(true);
      table.boolean('watermark').notNullable().defaultTo(false);
      table.timestamp('expires_at', { useTz: true });
      /** scrypt hash of the passcode, when the link needs one. */
      table.text('passcode_hash');
      table.integer('passcode_failures').notNullable().defaultTo(0);
      table.timestamp('revoked_at', { useTz: true });
      table.text('revoked_by');
      table.text('revoke_reason');
      table.text('created_by').notNullable();
      timestamps(table, knex);
      table.index(['tenant_id', 'updated_at']);
    });
    await knex.raw(
      `ALTER TABLE shares ADD CONSTRAINT shares_visibility CHECK (visibility IN ('tenant', 'public', 'restricted'))`,
    );
    await enableTenantIsolation(knex, 'shares');

    await knex.schema.createTable('share_files', (table) => {
      table.text('tenant_id').notNullable();
      table.uuid('share_id').notNullable().references('shares.id').onDelete('CASCADE');
      table.uuid('file_id').notNullable();
      table.primary(['share_id', 'file_id']);
      table.index(['tenant_id', 'file_id']);
    });
    await enableTenantIsolation(knex, 'share_files');

    await knex.schema.createTable('sign_tasks', (table) => {
      table.uuid('id').primary();
      table.text('tenant_id').notNullable();
      table.uuid('file_id').notNullable().references('files.id').onDelete('CASCADE');
      table.text('assigned_to_uid').notNullable();
      table.text('created_by_uid').notNullable();
      table.text('status').notNullable().defaultTo('pending');
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('signed_at', { useTz: true });
      table.text('signature_path');
      table.integer('signed_version');
      table.text('hash_before');
      table.text('hash_after');
      table.index(['tenant_id', 'assigned_to_uid', 'status']);
    });
    await knex.raw(
      `ALTER TABLE sign_tasks ADD CONSTRAINT sign_tasks_status CHECK (status IN ('pending', 'signed', 'declined'))`,
    );
    await knex.raw(
      `CREATE UNIQUE INDEX sign_tasks_one_pending ON sign_tasks (tenant_id, file_id, assigned_to_uid) WHERE status = 'pending'`,
    );
    await enableTenantIsolation(knex, 'sign_tasks');

    // The tenant's storage: its custom limit and feature switches, and what it uses (bytes by type class).
    await knex.schema.createTable('storage_usage', (table) => {
      table.text('tenant_id').primary();
      table.bigInteger('used').notNullable().defaultTo(0);
      table.integer('file_count').notNullable().defaultTo(0);
      table.jsonb('by_type').notNullable().defaultTo('{}');
      table.bigInteger('custom_limit');
      table.jsonb('custom_features').notNullable().defaultTo('{}');
      timestamps(table, knex);
    });
    await enableTenantIsolation(knex, 'storage_usage');

    await knex.schema.createTable('storage_usage_daily', (table) => {
      table.text('tenant_id').notNullable();
      table.date('day').notNullable();
      table.bigInteger('bytes_added').notNullable().defaultTo(0);
      table.bigInteger('bytes_removed').notNullable().defaultTo(0);
      table.integer('files_added').notNullable().defaultTo(0);
      table.integer('files_removed').notNullable().defaultTo(0);
      table.primary(['tenant_id', 'day']);
    });
    await enableTenantIsolation(knex, 'storage_usage_daily');

    // Idempotency keys of mutations: a repeated key answers the first result.
    await knex.schema.createTable('idempotency_keys', (table) => {
      table.text('tenant_id').notNullable();
      table.text('key').notNullable();
      table.text('operation').notNullable();
      table.integer('status').notNullable();
      table.jsonb('response').notNullable();
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.primary(['tenant_id', 'key']);
    });
    await enableTenantIsolation(knex, 'idempotency_keys');
  },
  async down(knex) {
    for (const table of [
      'idempotency_keys',
      'storage_usage_daily',
      'storage_usage',
      'sign_tasks',
      'share_files',
      'shares',
      'uploads',
      'file_refs',
      'file_views',
      'file_stars',
      'file_versions',
      'files',
      'folders',
      'libraries',
      'drive_members',
      'drives',
    ]) {
      await knex.schema.dropTableIfExists(table);
    }
  },
};
