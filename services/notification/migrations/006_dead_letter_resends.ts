import type { Migration } from '@workspace/kit';

/**
 * Resending a dead letter (docs/notifications.md "Resending a dead letter"): the sender's module puts a failed
 * e-mail back on the delivery queue from its stored, still sealed content, with fresh retries.
 * - `resent_at`, `resent_by`: when the last resend was asked for, and by whom (the person's uid the module gave).
 * - `resend_count`: how many times it was resent.
 * `dead_lettered_at` keeps the time it last failed for good; a resend that fails again sets it anew.
 */
export const deadLetterResends: Migration = {
  name: '006_dead_letter_resends',
  async up(knex) {
    await knex.raw(
      `ALTER TABLE emails ADD COLUMN resent_at timestamptz, ADD COLUMN resent_by text,
         ADD COLUMN resend_count integer NOT NULL DEFAULT 0`,
    );
  },
  async down(knex) {
    await knex.raw(
      'ALTER TABLE emails DROP COLUMN resend_count, DROP COLUMN resent_by, DROP COLUMN resent_at',
    );
  },
};
