import type { Migration } from '@workspace/kit';

/**
 * Each user has a public key (workspace spec §3; ADR 0026): an X25519 key pair per user, the public half in clear
 * (`public_key`, base64url of the 32 raw bytes), the private half only sealed with identity's field cipher
 * (`private_key_sealed`, AES-256-GCM).
 * - New rows must carry both (a CHECK, NOT VALID so that it does not look at the rows that exist now).
 * - Rows that exist now get their keys when identity starts (`backfillUserKeys`): the migration has no access to
 *   the cipher. The table keeps its tenant isolation; two more policies let a transaction that sets
 *   `app.user_keys_backfill = 'on'` read users (an UPDATE's new row must be readable) and give a user without a
 *   key one; they change nothing else.
 */
export const userKeys: Migration = {
  name: '005_user_keys',
  async up(knex) {
    await knex.raw(`
      ALTER TABLE users
        ADD COLUMN public_key text,
        ADD COLUMN private_key_sealed text,
        ADD COLUMN key_created_at timestamptz`);
    await knex.raw(`
      ALTER TABLE users ADD CONSTRAINT users_key_present
        CHECK (public_key IS NOT NULL AND private_key_sealed IS NOT NULL AND key_created_at IS NOT NULL) NOT VALID`);
    await knex.raw(`
      ALTER TABLE users ADD CONSTRAINT users_public_key_shape
        CHECK (public_key IS NULL OR public_key ~ '^[A-Za-z0-9_-]{43}$')`);
    await knex.raw(`
      CREATE POLICY user_keys_backfill_select ON users FOR SELECT
        USING (current_setting('app.user_keys_backfill', true) = 'on')`);
    await knex.raw(`
      CREATE POLICY user_keys_backfill_update ON users FOR UPDATE
        USING (current_setting('app.user_keys_backfill', true) = 'on' AND public_key IS NULL)
        WITH CHECK (current_setting('app.user_keys_backfill', true) = 'on' AND public_key IS NOT NULL)`);
  },
  async down(knex) {
    await knex.raw('DROP POLICY user_keys_backfill_update ON users');
    await knex.raw('DROP POLICY user_keys_backfill_select ON users');
    await knex.raw('ALTER TABLE users DROP CONSTRAINT users_public_key_shape');
    await knex.raw('ALTER TABLE users DROP CONSTRAINT users_key_present');
    await knex.raw(
      'ALTER TABLE users DROP COLUMN key_created_at, DROP COLUMN private_key_sealed, DROP COLUMN public_key',
    );
  },
};
