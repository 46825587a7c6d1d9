import type { Migration } from '@workspace/kit';

/**
 * A subcontractor's verification method is blank until a verification is recorded (issue 13): a subcontractor
 * created by an invitation took the column's default 'online' and was shown as verified 'Online'. Rows stored before
 * keep their method (whether a user chose it cannot be told from the row).
 */
export const verificationMethodUnset: Migration = {
  name: '009_verification_method_unset',
  async up(knex) {
    await knex.raw("ALTER TABLE subcontractors ALTER COLUMN verification_method SET DEFAULT ''");
  },
  async down(knex) {
    await knex.raw("ALTER TABLE subcontractors ALTER COLUMN verification_method SET DEFAULT 'online'");
  },
};
