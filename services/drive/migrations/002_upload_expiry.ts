import type { Migration } from '@workspace/kit';

/**
 * The queue of upload grants to clean up when they expire (workers/upload-cleanup.worker.ts). Like cis's job queue it
 * has no row-level security: the worker claims due rows of every tenant (FOR UPDATE SKIP LOCKED, so replicas share
 * the work) and then reads the grant itself in that tenant's transaction. A row holds ids and a time, nothing else.
 */
export const uploadExpiry: Migration = {
  name: '002_upload_expiry',
  async up(knex) {
    await knex.schema.createTable('upload_expiry', (table) => {
      table.uuid('upload_id').primary();
      table.text('tenant_id').notNullable();
      table.timestamp('expires_at', { useTz: true }).notNullable();
    });
    await knex.raw('CREATE INDEX upload_expiry_due ON upload_expiry (expires_at)');
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('upload_expiry');
  },
};
