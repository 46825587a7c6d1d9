import { enableTenantIsolation, type Migration } from '@workspace/kit';

/**
 * The public site's project requests (the spec's sendProjectRequest). A visitor belongs to no tenant: requests, and
 * the e-mails to the sales inbox they queue, live under the site's own partition (`SITE_TENANT`, '_site', which no
 * tenant id can be: those start with a letter or digit), under the same forced row-level security as everything
 * else here. The visitor's name, address, company and message are stored only sealed (NOTIFICATION_ENCRYPTION_KEYS);
 * `email_id` is the e-mail to the sales inbox queued in the same transaction.
 */
export const projectRequests: Migration = {
  name: '005_project_requests',
  async up(knex) {
    await knex.schema.createTable('project_requests', (table) => {
      table.uuid('request_id').primary();
      table.text('tenant_id').notNullable();
      /** { requestId, name, email, company, message } sealed with FieldCipher. */
      table.text('content_sealed').notNullable();
      // Null once that e-mail's record has passed its retention (EMAIL_RETENTION_DAYS) and was purged.
      table.uuid('email_id').references('email_id').inTable('emails').onDelete('SET NULL');
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw('CREATE INDEX project_requests_created_at ON project_requests (created_at)');
    await enableTenantIsolation(knex, 'project_requests');
  },
  async down(knex) {
    await knex.schema.dropTable('project_requests');
  },
};
