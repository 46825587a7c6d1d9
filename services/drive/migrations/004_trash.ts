import { enableTenantIsolation, type Migration } from '@workspace/kit';

/**
 * Trash, purge, references and the sweep (docs/drive.md "Trash, purge, references and the sweep", ADR 0045):
 * - `files.released_bytes`: what a soft delete released from the quota (FREE_SPACE_ON_SOFT_DELETE), so a restore
 *   takes back exactly that and a purge releases only the rest, whatever the flag says by then. NULL: nothing
 *   released (the file still counts).
 * - The one-name rule covers live files only: a trashed file no longer holds its name (a restore into a taken name
 *   gets the next free one, ' (2)').
 * - `object_removals`: the object keys a purge committed to removing, until the object store confirms. Keys and ids
 *   only, no tenant isolation (like cis's job_queue), so the removal worker finds them across tenants.
 * - `file_ref_intents`: the module reference a registered file should have had when writing it failed
 *   (FILE_REF_WRITE_FAILED); repair-refs recreates it from here.
 * - The sweep's reads across tenants: owner-only SELECT policies on `files` and `file_versions` and two
 *   SECURITY DEFINER functions owned by the schema owner (the runtime role cannot become it), returning paths and
 *   ids only, as identity's 007 does for its clean-up.
 */
export const trashSchema: Migration = {
  name: '004_trash',
  async up(knex) {
    const { rows } = await knex.raw<{ rows: { schema: string; owner: string }[] }>(
      'SELECT current_schema() AS schema, current_user AS owner',
    );
    const { schema, owner } = rows[0] ?? { schema: '', owner: '' };

    await knex.schema.alterTable('files', (table) => {
      table.bigInteger('released_bytes');
    });
    await knex.raw('DROP INDEX files_name');
    await knex.raw(
      `CREATE UNIQUE INDEX files_name ON files (tenant_id, drive_id, library_id,
        coalesce(folder_id, '00000000-0000-0000-0000-000000000000'::uuid), name_lower) WHERE status = 'active'`,
    );
    await knex.raw(`CREATE INDEX files_trashed ON files (tenant_id, binned_at) WHERE status = 'trashed'`);
    await knex.raw(`CREATE INDEX files_orphaned ON files (tenant_id, drive_id) WHERE orphaned_ref`);
    await knex.raw(`CREATE INDEX file_refs_file ON file_refs (tenant_id, file_id)`);
    await knex.raw(`ALTER TABLE file_refs ADD CONSTRAINT file_refs_module_id CHECK (module_id <> '')`);
    await knex.raw(`ALTER TABLE file_refs ADD CONSTRAINT file_refs_entity_id CHECK (entity_id <> '')`);

    await knex.schema.createTable('object_removals', (table) => {
      table.bigIncrements('id');
      table.text('tenant_id').notNullable();
      table.text('object_key').notNullable();
      table.uuid('file_id');
      table.integer('attempts').notNullable().defaultTo(0);
      table.timestamp('next_attempt_at', { useTz: true }).notNullable();
      table.text('last_error');
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.index(['next_attempt_at']);
    });

    await knex.schema.createTable('file_ref_intents', (table) => {
      table.text('tenant_id').notNullable();
      table.uuid('file_id').notNullable().references('files.id').onDelete('CASCADE');
      table.text('module_id').notNullable();
      table.text('entity_id').notNullable();
      table.text('reference_type').notNullable().defaultTo('attachment');
      table.jsonb('metadata').notNullable().defaultTo('{}');
      table.text('last_error').notNullable().defaultTo('');
      table.integer('attempts').notNullable().defaultTo(1);
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.primary(['file_id', 'module_id', 'entity_id', 'reference_type']);
    });
    await enableTenantIsolation(knex, 'file_ref_intents');

    for (const table of ['files', 'file_versions']) {
      await knex.raw(`CREATE POLICY owner_sweep_select ON ?? FOR SELECT TO ?? USING (true)`, [table, owner]);
    }
    await knex.raw(`CREATE INDEX file_versions_path ON file_versions (storage_path COLLATE "C")`);
    // Every version's object key after `after` (byte order, as the object store lists keys), with its file's tenant
    // and content flag; one tenant's when `only_tenant` is set.
    await knex.raw(
      `CREATE FUNCTION drive_sweep_versions(after text, page_size integer, only_tenant text)
         RETURNS TABLE (storage_path text, file_id uuid, tenant_id text, version integer, created_at timestamptz,
                        content_flag text)
         LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
           SELECT v.storage_path, v.file_id, v.tenant_id, v.version, v.created_at, f.content_flag
             FROM ??.file_versions v JOIN ??.files f ON f.id = v.file_id
            WHERE v.storage_path COLLATE "C" > after
              AND (only_tenant IS NULL OR v.tenant_id = only_tenant)
            ORDER BY v.storage_path COLLATE "C"
            LIMIT page_size
         $$`,
      [schema, schema],
    );
    // Which of these file ids have a record (thumbnail keys carry no tenant).
    await knex.raw(
      `CREATE FUNCTION drive_sweep_known_files(ids uuid[])
         RETURNS SETOF uuid
         LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
           SELECT id FROM ??.files WHERE id = ANY(ids)
         $$`,
      [schema],
    );
  },
  async down(knex) {
    await knex.raw('DROP FUNCTION drive_sweep_known_files(uuid[])');
    await knex.raw('DROP FUNCTION drive_sweep_versions(text, integer, text)');
    await knex.raw('DROP INDEX file_versions_path');
    for (const table of ['files', 'file_versions']) {
      await knex.raw(`DROP POLICY owner_sweep_select ON ??`, [table]);
    }
    await knex.schema.dropTable('file_ref_intents');
    await knex.schema.dropTable('object_removals');
    await knex.raw('ALTER TABLE file_refs DROP CONSTRAINT file_refs_entity_id');
    await knex.raw('ALTER TABLE file_refs DROP CONSTRAINT file_refs_module_id');
    await knex.raw('DROP INDEX file_refs_file');
    await knex.raw('DROP INDEX files_orphaned');
    await knex.raw('DROP INDEX files_trashed');
    await knex.raw('DROP INDEX files_name');
    await knex.raw(
      `CREATE UNIQUE INDEX files_name ON files (tenant_id, drive_id, library_id,
        coalesce(folder_id, '00000000-0000-0000-0000-000000000000'::uuid), name_lower)`,
    );
    await knex.schema.alterTable('files', (table) => {
      table.dropColumn('released_bytes');
    });
  },
};
