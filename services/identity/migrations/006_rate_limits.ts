import type { Migration } from '@workspace/kit';

/**
 * `rate_limit_windows`: the sign-in and link-redemption rate limits of every bff replica (docs/identity.md "Rate
 * limits"), one fixed window per bucket and key. A platform table like `bff_sessions` (an attempt is counted before
 * its tenant is known). The bff sends keys as HMACs of the client address or user, so no address is stored here.
 */
export const rateLimits: Migration = {
  name: '006_rate_limits',
  async up(knex) {
    await knex.schema.createTable('rate_limit_windows', (table) => {
      table.text('bucket').notNullable();
      table.text('key').notNullable();
      table.integer('count').notNullable();
      table.timestamp('reset_at', { useTz: true }).notNullable();
      table.primary(['bucket', 'key']);
      table.index(['reset_at']);
    });
  },
  async down(knex) {
    await knex.schema.dropTable('rate_limit_windows');
  },
};
