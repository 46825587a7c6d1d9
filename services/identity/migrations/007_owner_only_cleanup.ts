import type { Migration } from '@workspace/kit';

const CLEANUP_TABLES = ['refresh_sessions', 'portal_links'] as const;

/**
 * No row-level-security bypass keyed on a setting the runtime role can set itself (security review L13):
 * - `user_keys_backfill_select/update` (005) are dropped. The backfill they served ran at every start of the
 *   releases since 005 (`backfillUserKeys`), so every user has a key pair by now; the migration refuses to drop them
 *   while a user without one remains, naming the remedy.
 * - `expired_cleanup_select/delete` (004, keyed on `app.cleanup`) are replaced by the same policies for the schema
 *   owner only (`TO` the role running this migration), and a `SECURITY DEFINER` function owned by it,
 *   `delete_expired_sessions_and_links()`, is the one way the runtime role deletes expired rows of every tenant:
 *   exactly the clean-up's two deletes, with a fixed `search_path`. The runtime role cannot become the owner, so
 *   no setting it sets shows it another tenant's rows.
 */
export const ownerOnlyCleanup: Migration = {
  name: '007_owner_only_cleanup',
  async up(knex) {
    const { rows } = await knex.raw<{ rows: { schema: string; owner: string }[] }>(
      'SELECT current_schema() AS schema, current_user AS owner',
    );
    const { schema, owner } = rows[0] ?? { schema: '', owner: '' };

    // The backfill policies still stand here: with them, this transaction sees every tenant's users.
    await knex.raw("SELECT set_config('app.user_keys_backfill', 'on', true)");
    const keyless = await knex.raw<{ rows: { count: number }[] }>(
      'SELECT count(*)::int AS count FROM users WHERE public_key IS NULL',
    );
    const count = keyless.rows[0]?.count ?? 0;
    if (count > 0) {
      throw new Error(
        `${count} user(s) have no key pair yet: start the release before this one once (its identity gives them ` +
          'one at start), then run the migrate step again',
      );
    }
    await knex.raw("SELECT set_config('app.user_keys_backfill', '', true)");
    await knex.raw('DROP POLICY user_keys_backfill_update ON users');
    await knex.raw('DROP POLICY user_keys_backfill_select ON users');

    for (const table of CLEANUP_TABLES) {
      for (const command of ['select', 'delete']) {
        await knex.raw(`DROP POLICY expired_cleanup_${command} ON ${table}`);
        await knex.raw(
          `CREATE POLICY owner_expired_cleanup_${command} ON ${table} FOR ${command.toUpperCase()} TO ?? USING (expires_at < now())`,
          [owner],
        );
      }
    }
    await knex.raw(
      `CREATE FUNCTION delete_expired_sessions_and_links(OUT refresh_sessions integer, OUT portal_links integer)
         LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
       BEGIN
         DELETE FROM ??.refresh_sessions WHERE expires_at < now();
         GET DIAGNOSTICS refresh_sessions = ROW_COUNT;
         DELETE FROM ??.portal_links WHERE expires_at < now();
         GET DIAGNOSTICS portal_links = ROW_COUNT;
       END $$`,
      [schema, schema],
    );
  },
  async down(knex) {
    await knex.raw('DROP FUNCTION delete_expired_sessions_and_links()');
    for (const table of CLEANUP_TABLES) {
      for (const command of ['select', 'delete']) {
        await knex.raw(`DROP POLICY owner_expired_cleanup_${command} ON ${table}`);
        await knex.raw(`
          CREATE POLICY expired_cleanup_${command} ON ${table} FOR ${command.toUpperCase()}
            USING (current_setting('app.cleanup', true) = 'on' AND expires_at < now())`);
      }
    }
    await knex.raw(`
      CREATE POLICY user_keys_backfill_select ON users FOR SELECT
        USING (current_setting('app.user_keys_backfill', true) = 'on')`);
    await knex.raw(`
      CREATE POLICY user_keys_backfill_update ON users FOR UPDATE
        USING (current_setting('app.user_keys_backfill', true) = 'on' AND public_key IS NULL)
        WITH CHECK (current_setting('app.user_keys_backfill', true) = 'on' AND public_key IS NOT NULL)`);
  },
};
