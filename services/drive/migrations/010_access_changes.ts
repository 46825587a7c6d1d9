import { migrationSchema, type Migration } from '@workspace/kit';

/** The channel the file-change trigger notifies (workers/file-changes.ts listens); migration 003 names it too. */
const FILE_CHANGES_CHANNEL = 'drive_file_changes';

/** The tables whose rows decide who sees which drive and reads which library (as migration 008). */
const ACCESS_TABLES = ['drives', 'drive_members', 'libraries'] as const;

/**
 * Live lists follow access changes (DRV-387): after every insert, update or delete of `drives`, `drive_members` or
 * `libraries`, by any writer, one NOTIFY per tenant on the file-change channel with `{tenantId, action: 'access'}`
 * (no drive id: the stream sends it to every reader of the tenant, who may not see that drive). The file list's
 * stream then works out again which drives its reader sees, so a member added to a drive while their list is open
 * gets that drive's changes, and the list refetches at once. Delivered on commit, repeats folded.
 */
export const accessChanges: Migration = {
  name: '010_access_changes',
  async up(knex) {
    const schema = await migrationSchema(knex);
    await knex.raw(`
      CREATE FUNCTION access_changes_notify() RETURNS trigger LANGUAGE plpgsql SET search_path = ${schema}, pg_temp AS $$
      DECLARE
        changed text;
      BEGIN
        FOR changed IN
          SELECT DISTINCT tenant_id FROM changed_rows
        LOOP
          PERFORM pg_notify('${FILE_CHANGES_CHANNEL}',
            json_build_object('tenantId', changed, 'action', 'access')::text);
        END LOOP;
        RETURN NULL;
      END $$`);
    for (const table of ACCESS_TABLES) {
      for (const [op, transition] of [
        ['insert', 'NEW TABLE AS changed_rows'],
        ['update', 'NEW TABLE AS changed_rows'],
        ['delete', 'OLD TABLE AS changed_rows'],
      ] as const)
        await knex.raw(`CREATE TRIGGER ${table}_access_${op}_notify AFTER ${op.toUpperCase()} ON ${table}
          REFERENCING ${transition} FOR EACH STATEMENT EXECUTE FUNCTION access_changes_notify()`);
    }
  },
  async down(knex) {
    for (const table of ACCESS_TABLES)
      for (const op of ['insert', 'update', 'delete'])
        await knex.raw(`DROP TRIGGER IF EXISTS ${table}_access_${op}_notify ON ${table}`);
    await knex.raw('DROP FUNCTION IF EXISTS access_changes_notify()');
  },
};
