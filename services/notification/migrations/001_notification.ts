import { enableTenantIsolation, type Migration } from '@workspace/kit';

export const notificationSchema: Migration = {
  name: '001_notification',
  async up(knex) {
    await knex.schema.createTable('emails', (table) => {
      table.uuid('email_id').primary();
      table.text('tenant_id').notNullable();
      table.text('idempotency_key');
      /** SHA-256 of the request, so a key reused for a different e-mail is refused rather than ignored. */
      table.text('request_hash').notNullable();
      table.text('category');
      table.text('from_address').notNullable();
      table.specificType('to_addresses', 'text[]').notNullable();
      table.specificType('cc_addresses', 'text[]').notNullable().defaultTo('{}');
      table.text('reply_to');
      table.text('subject').notNullable();
      table.text('text_body').notNullable();
      table.text('html_body');
      table.text('status').notNullable();
      table.integer('attempts').notNullable().defaultTo(0);
      /** The last send error, described without credentials. */
      table.text('last_error');
      table.timestamp('next_attempt_at', { useTz: true });
      /** Set before the first attempt and kept across retries, so a receiver can recognise a repeat. */
      table.text('message_id').notNullable();
      table.timestamp('sent_at', { useTz: true });
      table.timestamps(true, true);
    });
    await knex.raw(
      `ALTER TABLE emails ADD CONSTRAINT emails_status CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'retrying'))`,
    );
    await knex.raw(
      'CREATE UNIQUE INDEX emails_idempotency ON emails (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL',
    );
    await enableTenantIsolation(knex, 'emails');

    await knex.schema.createTable('email_attachments', (table) => {
      table.uuid('email_id').notNullable().references('email_id').inTable('emails').onDelete('CASCADE');
      table.integer('position').notNullable();
      table.text('tenant_id').notNullable();
      table.text('filename').notNullable();
      table.text('content_type').notNullable();
      table.binary('content').notNullable();
      table.integer('size').notNullable();
      table.primary(['email_id', 'position']);
    });
    await enableTenantIsolation(knex, 'email_attachments');

    // The retry worker's queue: which e-mail is due when, across tenants (so, like the outbox, without row-level
    // security; it holds ids only). Workers claim rows with FOR UPDATE SKIP LOCKED and push `due_at` out by a
    // lease while they work, so replicas never send the same e-mail at once and a crashed worker's claim lapses.
    await knex.schema.createTable('delivery_queue', (table) => {
      table.uuid('email_id').primary().references('email_id').inTable('emails').onDelete('CASCADE');
      table.text('tenant_id').notNullable();
      table.timestamp('due_at', { useTz: true }).notNullable();
    });
    await knex.raw('CREATE INDEX delivery_queue_due ON delivery_queue (due_at)');
  },
  async down(knex) {
    await knex.schema.dropTable('delivery_queue');
    await knex.schema.dropTable('email_attachments');
    await knex.schema.dropTable('emails');
  },
};
