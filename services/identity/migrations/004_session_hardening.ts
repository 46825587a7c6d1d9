import type { Migration } from '@workspace/kit';

/**
 * Hardening of identity's sessions and keys (docs/identity.md "Keys, sessions and clean-up"):
 * - `signing_keys.published_until`: a key that stopped signing (`retired_at`) stays in the JWKS until then (the
 *   longest token it can have signed has expired); null = still signing or not yet retired.
 * - `refresh_sessions.absolute_expires_at`: the end of the whole rotation chain that started at a sign-in; no
 *   rotation goes past it. Rows from before this migration end 30 days after it.
 * - The clean-up worker deletes expired refresh sessions and portal links of every tenant. Both tables keep their
 *   tenant isolation; two more policies let a transaction that sets `app.cleanup = 'on'` see and delete rows that
 *   have expired, and nothing else.
 * - `bff_sessions`: the bff's browser sessions (ADR 0025), shared by every bff replica. A platform table like
 *   `signing_keys` (a session is looked up by the hash of its cookie before its tenant is known); the value is
 *   sealed by the bff, identity keeps only its kind, tenant and subject in clear (to revoke a subcontractor's
 *   portal sessions) and its expiry.
 */
export const sessionHardening: Migration = {
  name: '004_session_hardening',
  async up(knex) {
    await knex.raw('ALTER TABLE signing_keys ADD COLUMN published_until timestamptz');
    await knex.raw(
      'UPDATE signing_keys SET published_until = retired_at WHERE retired_at IS NOT NULL AND published_until IS NULL',
    );

    // A default rather than an UPDATE: the migration role is under the tables' forced row-level security too.
    await knex.raw(
      `ALTER TABLE refresh_sessions ADD COLUMN absolute_expires_at timestamptz NOT NULL DEFAULT (now() + interval '30 days')`,
    );
    await knex.raw('ALTER TABLE refresh_sessions ALTER COLUMN absolute_expires_at DROP DEFAULT');
    await knex.raw('CREATE INDEX refresh_sessions_expires_at ON refresh_sessions (expires_at)');
    await knex.raw('CREATE INDEX portal_links_expires_at ON portal_links (expires_at)');
    for (const table of ['refresh_sessions', 'portal_links']) {
      for (const command of ['SELECT', 'DELETE']) {
        await knex.raw(`
          CREATE POLICY expired_cleanup_${command.toLowerCase()} ON ${table} FOR ${command}
            USING (current_setting('app.cleanup', true) = 'on' AND expires_at < now())`);
      }
    }

    await knex.schema.createTable('bff_sessions', (table) => {
      table.text('session_key').primary();
      table.text('kind').notNullable();
      table.text('tenant_id').notNullable();
      table.text('subject').notNullable();
      table.text('value_sealed').notNullable();
      table.timestamp('expires_at', { useTz: true }).notNullable();
      table.timestamp('lease_until', { useTz: true });
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.index(['tenant_id', 'kind', 'subject']);
      table.index(['expires_at']);
    });
    await knex.raw(
      `ALTER TABLE bff_sessions ADD CONSTRAINT bff_sessions_kind CHECK (kind IN ('staff', 'portal'))`,
    );
  },
  async down(knex) {
    await knex.schema.dropTable('bff_sessions');
    for (const table of ['refresh_sessions', 'portal_links']) {
      for (const command of ['select', 'delete']) {
        await knex.raw(`DROP POLICY expired_cleanup_${command} ON ${table}`);
      }
    }
    await knex.raw('DROP INDEX portal_links_expires_at');
    await knex.raw('DROP INDEX refresh_sessions_expires_at');
    await knex.raw('ALTER TABLE refresh_sessions DROP COLUMN absolute_expires_at');
    await knex.raw('ALTER TABLE signing_keys DROP COLUMN published_until');
  },
};
