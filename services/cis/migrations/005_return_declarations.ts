import type { Migration } from '@workspace/kit';

/**
 * The declarations a submitted return was made with (issue 13; HMRC notes §1.7): employment status, verification
 * and information correct, or for a nil return information correct and the optional inactivity, as the person who
 * submitted it ticked them. Written into the CIS300 as given; `submitted_by` now holds that person's user id.
 * Returns submitted before this change have none (NULL): their documents declared all three as "yes".
 */
export const returnDeclarations: Migration = {
  name: '005_return_declarations',
  async up(knex) {
    await knex.raw('ALTER TABLE returns ADD COLUMN declarations jsonb');
  },
  async down(knex) {
    await knex.raw('ALTER TABLE returns DROP COLUMN declarations');
  },
};
