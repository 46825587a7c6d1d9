import type { Migration } from '@workspace/kit';

/**
 * Share links (ADR 0047): when a share's expiry was recorded (SHARE_EXPIRED / SHARE_LINK_EXPIRED are written once,
 * by the first read after expiresAt passes), and who last changed its settings.
 */
export const shareLinks: Migration = {
  name: '006_share_links',
  async up(knex) {
    await knex.schema.alterTable('shares', (table) => {
      table.timestamp('expiry_recorded_at', { useTz: true });
      table.text('updated_by');
    });
  },
  async down(knex) {
    await knex.schema.alterTable('shares', (table) => {
      table.dropColumn('expiry_recorded_at');
      table.dropColumn('updated_by');
    });
  },
};
