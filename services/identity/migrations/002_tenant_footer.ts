import type { Migration } from '@workspace/kit';

/** The tenant's footer settings (shown in the app and portal); {} means the defaults. */
export const tenantFooter: Migration = {
  name: '002_tenant_footer',
  async up(knex) {
    await knex.raw(`ALTER TABLE tenants ADD COLUMN footer jsonb NOT NULL DEFAULT '{}'`);
  },
  async down(knex) {
    await knex.raw('ALTER TABLE tenants DROP COLUMN footer');
  },
};
