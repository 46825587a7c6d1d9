import type { Migration } from '@workspace/kit';

/**
 * Trigram indexes for the invoice list's search (a case-insensitive substring of the invoice number or the
 * subcontractor name), so `ILIKE '%…%'` need not read every invoice of a large tenant. pg_trgm is created by
 * the schema provisioning (`extensions: ['pg_trgm']`); where it is missing the search still works, by scanning.
 */
export const invoiceSearch: Migration = {
  name: '002_invoice_search',
  async up(knex) {
    const { rows } = await knex.raw<{ rows: unknown[] }>(
      `SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`,
    );
    if (rows.length === 0) return;
    await knex.raw(
      `CREATE INDEX invoices_search_number ON invoices USING gin (invoice_number public.gin_trgm_ops) WHERE deleted_at IS NULL`,
    );
    await knex.raw(
      `CREATE INDEX invoices_search_subcontractor ON invoices USING gin (subcontractor_name public.gin_trgm_ops) WHERE deleted_at IS NULL`,
    );
  },
  async down(knex) {
    await knex.raw('DROP INDEX IF EXISTS invoices_search_number');
    await knex.raw('DROP INDEX IF EXISTS invoices_search_subcontractor');
  },
};
