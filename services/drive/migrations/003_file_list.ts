import { migrationSchema, type Migration } from '@workspace/kit';

/** The channel the file-change trigger notifies (workers/file-changes.ts listens). */
const FILE_CHANGES_CHANNEL = 'drive_file_changes';

/**
 * The file list and reading files (docs/drive.md "File list and reading files", ADR 0044):
 * - `file_changes_notify`: after every insert, update or delete of `files`, by any writer, one NOTIFY per tenant
 *   and drive the statement touched ({tenantId, driveId, action}; PostgreSQL folds repeats within a transaction and
 *   delivers on commit). The live list's SSE stream fans these out.
 * - `file_uploaded_view`: a new file counts as opened by whoever added it (a row of `file_views`), so Recent is
 *   "opened or uploaded in the last 30 days" read from one table, and Clear Recent empties it.
 * - `thumbnail_version`: the version a thumbnail was last attempted for (made: `thumbnail_path` set; failed: left
 *   null, logged and not tried again until a new version), and `thumbnails_pending()`, the tenants with images or
 *   PDFs still to do: a SECURITY DEFINER function of the owner answering tenant ids only, so the runtime role gets
 *   no policy that opens other tenants' rows.
 * - Indexes for the list's other sorts, the owner-name search and "shared with me".
 */
export const fileList: Migration = {
  name: '003_file_list',
  async up(knex) {
    const schema = await migrationSchema(knex);

    await knex.raw(`
      CREATE FUNCTION file_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed record;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          FOR changed IN SELECT DISTINCT tenant_id, drive_id FROM new_files LOOP
            PERFORM pg_notify('${FILE_CHANGES_CHANNEL}', json_build_object(
              'tenantId', changed.tenant_id, 'driveId', changed.drive_id, 'action', 'insert')::text);
          END LOOP;
        ELSIF TG_OP = 'UPDATE' THEN
          FOR changed IN SELECT tenant_id, drive_id FROM new_files UNION SELECT tenant_id, drive_id FROM old_files LOOP
            PERFORM pg_notify('${FILE_CHANGES_CHANNEL}', json_build_object(
              'tenantId', changed.tenant_id, 'driveId', changed.drive_id, 'action', 'update')::text);
          END LOOP;
        ELSE
          FOR changed IN SELECT DISTINCT tenant_id, drive_id FROM old_files LOOP
            PERFORM pg_notify('${FILE_CHANGES_CHANNEL}', json_build_object(
              'tenantId', changed.tenant_id, 'driveId', changed.drive_id, 'action', 'delete')::text);
          END LOOP;
        END IF;
        RETURN NULL;
      END $$`);
    await knex.raw(`CREATE TRIGGER files_changed_insert AFTER INSERT ON files
      REFERENCING NEW TABLE AS new_files FOR EACH STATEMENT EXECUTE FUNCTION file_changes_notify()`);
    await knex.raw(`CREATE TRIGGER files_changed_update AFTER UPDATE ON files
      REFERENCING OLD TABLE AS old_files NEW TABLE AS new_files FOR EACH STATEMENT EXECUTE FUNCTION file_changes_notify()`);
    await knex.raw(`CREATE TRIGGER files_changed_delete AFTER DELETE ON files
      REFERENCING OLD TABLE AS old_files FOR EACH STATEMENT EXECUTE FUNCTION file_changes_notify()`);

    await knex.raw(`
      CREATE FUNCTION file_uploaded_view() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO file_views (tenant_id, file_id, user_id, viewed_at)
          SELECT tenant_id, id, created_by, created_at FROM new_files
          ON CONFLICT (file_id, user_id) DO NOTHING;
        RETURN NULL;
      END $$`);
    await knex.raw(`CREATE TRIGGER files_uploaded_view AFTER INSERT ON files
      REFERENCING NEW TABLE AS new_files FOR EACH STATEMENT EXECUTE FUNCTION file_uploaded_view()`);

    await knex.raw('ALTER TABLE files ADD COLUMN thumbnail_version integer');
    await knex.raw(`CREATE INDEX files_thumbnail_pending ON files (tenant_id, created_at)
      WHERE type_class IN ('image', 'pdf') AND status = 'active'
        AND (thumbnail_version IS NULL OR thumbnail_version <> version)`);
    await knex.raw(`
      CREATE POLICY thumbnails_pending ON files FOR SELECT TO CURRENT_USER
        USING (type_class IN ('image', 'pdf') AND status = 'active'
          AND (thumbnail_version IS NULL OR thumbnail_version <> version))`);
    await knex.raw(`
      CREATE FUNCTION thumbnails_pending(max_tenants integer) RETURNS SETOF text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ${schema}, pg_temp AS $$
        SELECT DISTINCT tenant_id FROM ${schema}.files
          WHERE type_class IN ('image', 'pdf') AND status = 'active'
            AND (thumbnail_version IS NULL OR thumbnail_version <> version)
          LIMIT greatest(1, least(max_tenants, 1000))
      $$`);

    // The list's other sorts (walked either way), the owner-name search, and files shared with a user by name.
    await knex.raw(`CREATE INDEX files_tenant_name ON files (tenant_id, status, name_lower, id)`);
    await knex.raw(`CREATE INDEX files_tenant_size ON files (tenant_id, status, size, id)`);
    await knex.raw(`CREATE INDEX files_tenant_updated ON files (tenant_id, status, updated_at, id)`);
    await knex.raw(
      `CREATE INDEX files_owner_name_trgm ON files USING gin (lower(owner_name) public.gin_trgm_ops)`,
    );
    await knex.raw(`CREATE INDEX files_shared_with ON files USING gin (shared_with)`);
    // The Shared view and the shared pill, newest first (the list's own condition, so the planner can use it).
    await knex.raw(`CREATE INDEX files_shared_created ON files (tenant_id, status, created_at DESC, id DESC)
      WHERE (visibility = 'shared' OR cardinality(shared_with) > 0)`);
  },
  async down(knex) {
    for (const index of [
      'files_shared_with',
      'files_shared_created',
      'files_owner_name_trgm',
      'files_tenant_updated',
      'files_tenant_size',
      'files_tenant_name',
      'files_thumbnail_pending',
    ]) {
      await knex.raw(`DROP INDEX IF EXISTS ${index}`);
    }
    await knex.raw('DROP FUNCTION IF EXISTS thumbnails_pending(integer)');
    await knex.raw('DROP POLICY IF EXISTS thumbnails_pending ON files');
    await knex.raw('ALTER TABLE files DROP COLUMN IF EXISTS thumbnail_version');
    await knex.raw('DROP TRIGGER IF EXISTS files_uploaded_view ON files');
    await knex.raw('DROP FUNCTION IF EXISTS file_uploaded_view()');
    for (const trigger of ['files_changed_insert', 'files_changed_update', 'files_changed_delete']) {
      await knex.raw(`DROP TRIGGER IF EXISTS ${trigger} ON files`);
    }
    await knex.raw('DROP FUNCTION IF EXISTS file_changes_notify()');
  },
};
