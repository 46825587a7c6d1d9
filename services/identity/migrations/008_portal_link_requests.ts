import type { Migration } from '@workspace/kit';

/**
 * `portal_link_requests`: a returning subcontractor's requests for a fresh portal sign-in link (ADR 0055), queued so
 * the bff answers at once and the same for every address. A platform table like `bff_sessions`: the worker claims a
 * request before it runs under its tenant. The address is sealed with IDENTITY_ENCRYPTION_KEYS and the row is
 * deleted once handled (sent or not), so no address is kept.
 */
export const portalLinkRequests: Migration = {
  name: '008_portal_link_requests',
  async up(knex) {
    await knex.schema.createTable('portal_link_requests', (table) => {
      table.uuid('request_id').primary();
      table.text('tenant_id').notNullable();
      table.text('email_sealed').notNullable();
      table.integer('attempts').notNullable().defaultTo(0);
      table.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.index(['next_attempt_at']);
    });
  },
  async down(knex) {
    await knex.schema.dropTable('portal_link_requests');
  },
};
