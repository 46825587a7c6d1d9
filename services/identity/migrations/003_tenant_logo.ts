import { enableTenantIsolation, type Migration } from '@workspace/kit';

/**
 * The tenant's logo: a text logo (at most 30 characters) or an image (PNG, JPEG or GIF, at most 2 MB, its type
 * taken from its content). One row per tenant, none = no logo. A table of its own, so reading the tenant row never
 * drags the image along; tenant-isolated like every identity table.
 */
export const tenantLogo: Migration = {
  name: '003_tenant_logo',
  async up(knex) {
    await knex.schema.createTable('tenant_logos', (table) => {
      table.text('tenant_id').primary().references('tenant_id').inTable('tenants').onDelete('CASCADE');
      table.text('kind').notNullable();
      table.text('text');
      table.text('content_type');
      table.binary('image');
      table.integer('byte_size');
      table.text('sha256');
      table.text('updated_by').notNullable();
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw(`
      ALTER TABLE tenant_logos ADD CONSTRAINT tenant_logos_kind CHECK (
        (kind = 'text' AND text IS NOT NULL AND char_length(text) BETWEEN 1 AND 30 AND image IS NULL)
        OR (kind = 'image' AND image IS NOT NULL AND text IS NULL
            AND content_type IN ('image/png', 'image/jpeg', 'image/gif')
            AND octet_length(image) BETWEEN 1 AND 2097152 AND byte_size = octet_length(image))
      )`);
    await enableTenantIsolation(knex, 'tenant_logos');
  },
  async down(knex) {
    await knex.schema.dropTable('tenant_logos');
  },
};
