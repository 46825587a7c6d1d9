import type { Migration } from '@workspace/kit';

/**
 * Signature requests a signer declined (when and why), the list of requests a user sent (by creator), and the
 * sibling lookups of folders (slug clash, move): docs/drive.md "Signatures" and "Folders", ADR 0048.
 */
export const signaturesAndFolders: Migration = {
  name: '007_signatures_and_folders',
  async up(knex) {
    await knex.schema.alterTable('sign_tasks', (table) => {
      table.timestamp('declined_at', { useTz: true });
      table.text('decline_reason');
      table.index(['tenant_id', 'created_by_uid', 'status']);
    });
    await knex.schema.alterTable('folders', (table) => {
      table.index(['tenant_id', 'drive_id', 'parent_id']);
    });
    await knex.raw(`CREATE INDEX folders_ancestors ON folders USING gin (ancestors)`);
  },
  async down(knex) {
    await knex.raw(`DROP INDEX IF EXISTS folders_ancestors`);
    await knex.schema.alterTable('folders', (table) => {
      table.dropIndex(['tenant_id', 'drive_id', 'parent_id']);
    });
    await knex.schema.alterTable('sign_tasks', (table) => {
      table.dropIndex(['tenant_id', 'created_by_uid', 'status']);
      table.dropColumn('declined_at');
      table.dropColumn('decline_reason');
    });
  },
};
