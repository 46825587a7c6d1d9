import type { Migration } from '@workspace/kit';

/**
 * A portal invoice staff reject becomes `rejected`, its own status beside `cancelled` (issue 13): the reason, who
 * rejected it and when are kept with it, for staff and for the subcontractor in the portal. Like a cancelled one, a
 * rejected invoice frees its number, so the subcontractor can submit the corrected invoice under the same number.
 */
export const invoiceRejection: Migration = {
  name: '007_invoice_rejection',
  async up(knex) {
    await knex.raw(`ALTER TABLE invoices
      ADD COLUMN rejection_reason text,
      ADD COLUMN rejected_at timestamptz,
      ADD COLUMN rejected_by text`);
    await knex.raw('ALTER TABLE invoices DROP CONSTRAINT invoices_status');
    await knex.raw(
      `ALTER TABLE invoices ADD CONSTRAINT invoices_status CHECK (status IN ('draft', 'portal_draft', 'approved', 'paid', 'cancelled', 'rejected'))`,
    );
    await knex.raw(
      `ALTER TABLE invoices ADD CONSTRAINT invoices_rejection_reason CHECK ((status = 'rejected') = (rejection_reason IS NOT NULL))`,
    );
    await knex.raw('DROP INDEX invoices_number_per_subcontractor');
    await knex.raw(
      `CREATE UNIQUE INDEX invoices_number_per_subcontractor ON invoices (tenant_id, subcontractor_id, lower(invoice_number))
       WHERE deleted_at IS NULL AND status NOT IN ('cancelled', 'rejected')`,
    );
  },
  async down(knex) {
    await knex.raw(`UPDATE invoices SET status = 'cancelled', cancelled_at = rejected_at, cancelled_by = rejected_by
      WHERE status = 'rejected'`);
    await knex.raw('DROP INDEX invoices_number_per_subcontractor');
    await knex.raw(
      `CREATE UNIQUE INDEX invoices_number_per_subcontractor ON invoices (tenant_id, subcontractor_id, lower(invoice_number))
       WHERE deleted_at IS NULL AND status <> 'cancelled'`,
    );
    await knex.raw('ALTER TABLE invoices DROP CONSTRAINT invoices_rejection_reason');
    await knex.raw('ALTER TABLE invoices DROP CONSTRAINT invoices_status');
    await knex.raw(
      `ALTER TABLE invoices ADD CONSTRAINT invoices_status CHECK (status IN ('draft', 'portal_draft', 'approved', 'paid', 'cancelled'))`,
    );
    await knex.raw(
      'ALTER TABLE invoices DROP COLUMN rejection_reason, DROP COLUMN rejected_at, DROP COLUMN rejected_by',
    );
  },
};
