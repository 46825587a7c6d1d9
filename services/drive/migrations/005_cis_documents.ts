import { enableTenantIsolation, type Migration } from '@workspace/kit';

/**
 * The CIS documents filed into the CIS drive (ADR 0046): which cis document (a statement, or a return's submission)
 * became which drive file, so a repeated event stores nothing twice. A return submitted again after an unlock is a
 * new submission (another `submission_ref`) of the same return: a new version of its file.
 */
export const cisDocuments: Migration = {
  name: '005_cis_documents',
  async up(knex) {
    await knex.schema.createTable('cis_documents', (table) => {
      table.text('tenant_id').notNullable();
      /** statement or return */
      table.text('kind').notNullable();
      /** The statement's or the return's id in cis. */
      table.text('cis_id').notNullable();
      /** Which version of the document: the statement id (an issued statement never changes), a return's IRmark. */
      table.text('submission_ref').notNullable();
      table.uuid('file_id').notNullable().references('files.id').onDelete('CASCADE');
      table.integer('file_version').notNullable();
      table.text('tax_month').notNullable();
      table.timestamp('filed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      table.primary(['tenant_id', 'kind', 'cis_id', 'submission_ref']);
      table.index(['tenant_id', 'file_id']);
    });
    await knex.raw(
      `ALTER TABLE cis_documents ADD CONSTRAINT cis_documents_kind CHECK (kind IN ('statement', 'return'))`,
    );
    await enableTenantIsolation(knex, 'cis_documents');
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('cis_documents');
  },
};
