import type { Migration } from '@workspace/kit';

/**
 * A PDF uploaded with 'Require signatures' on is awaiting signature until it is signed (docs/drive.md "Require
 * signatures on upload"): the flag the upload grant carried, kept on the file.
 */
export const signatureRequired: Migration = {
  name: '009_signature_required',
  async up(knex) {
    await knex.schema.alterTable('files', (table) => {
      table.boolean('signature_required').notNullable().defaultTo(false);
    });
  },
  async down(knex) {
    await knex.schema.alterTable('files', (table) => {
      table.dropColumn('signature_required');
    });
  },
};
