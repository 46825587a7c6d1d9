import type { Migration } from '@workspace/kit';

/**
 * Dead letters (docs/notifications.md, ADR 0052): an e-mail that could not be delivered after its retries keeps its
 * content, still sealed, as a dead letter until the retention clean-up deletes its record (EMAIL_RETENTION_DAYS after
 * it failed, as every final e-mail's), and the service that sent it can list its own failures.
 * - `reference`: the sender's own id of what the e-mail is about (a statement, a subcontractor invited), to find it.
 * - `dead_lettered_at`: when it failed for good (older failures have none: their content was already dropped).
 */
export const deadLetters: Migration = {
  name: '004_dead_letters',
  async up(knex) {
    await knex.raw('ALTER TABLE emails ADD COLUMN reference text, ADD COLUMN dead_lettered_at timestamptz');
    await knex.raw(
      `CREATE INDEX emails_by_reference ON emails (tenant_id, category, reference, created_at DESC)
         WHERE reference IS NOT NULL`,
    );
    await knex.raw(
      `CREATE INDEX emails_dead_letters ON emails (tenant_id, category, dead_lettered_at DESC) WHERE status = 'failed'`,
    );
  },
  async down(knex) {
    await knex.raw('DROP INDEX emails_dead_letters');
    await knex.raw('DROP INDEX emails_by_reference');
    await knex.raw('ALTER TABLE emails DROP COLUMN dead_lettered_at, DROP COLUMN reference');
  },
};
