import { plural } from '@workspace/rules';
import { randomUUID } from 'node:crypto';
import { HttpProblem, isUniqueViolation, problems } from '@workspace/kit';
import { z } from 'zod';
import type { CisDeps } from '../cis-deps.js';
import { invoicesCsv, type InvoiceCsvSource } from '../documents/csv-export.js';
import { dateOnly } from '../domain/timestamps.js';
import {
  InvoiceStore,
  type InvoiceFields,
  type InvoiceFilters,
  type InvoiceRecord,
} from '../db/invoices.store.js';
import { SubcontractorStore, type SubcontractorRecord } from '../db/subcontractors.store.js';
import {
  calculateInvoice,
  currentTaxMonth,
  EXPORT_ROWS_MAX,
  exportTooLarge,
  invoiceTransition,
  normaliseInvoiceStatus,
  validateInvoiceInput,
} from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { assertValid, refused } from './problems.js';

/** An invoice as the create and edit forms (and the portal, and an import row) send it. */
export interface InvoiceInput {
  invoiceNumber: string;
  subcontractorId: string;
  invoiceDate: string;
  receivedDate?: string | null | undefined;
  description: string;
  grossP: number;
  materialsP: number;
  vatRate: number;
  reverseCharge: boolean;
  materialsJustification: string;
}

export const DUPLICATE_NUMBER = 'Invoice number already exists for this subcontractor';

const COUNT_CAP = 10_000;
const SEARCH_COUNT_CAP = 1_000;

/** The validated amounts of an invoice for a subcontractor (the CIS rate is the subcontractor's verification). */
function amountsFor(input: InvoiceInput, subcontractor: Pick<SubcontractorRecord, 'verificationRate'>) {
  assertValid(validateInvoiceInput(input));
  const amounts = calculateInvoice({
    grossP: input.grossP,
    materialsP: input.materialsP,
    cisRate: subcontractor.verificationRate,
    vatRate: input.vatRate,
    reverseCharge: input.reverseCharge,
  });
  if (amounts.errors.length > 0) throw problems.badRequest(amounts.errors.join('; '));
  return amounts;
}

/** What an invoice stores of its input, its subcontractor and its calculated amounts. */
export function invoiceFields(
  input: InvoiceInput,
  subcontractor: SubcontractorRecord,
  amounts: ReturnType<typeof calculateInvoice>,
): InvoiceFields {
  return {
    invoiceNumber: input.invoiceNumber.trim(),
    subcontractorId: subcontractor.id,
    subcontractorName: subcontractor.name,
    invoiceDate: input.invoiceDate,
    receivedDate: input.receivedDate ?? null,
    description: input.description,
    vatRate: input.vatRate,
    reverseCharge: input.reverseCharge,
    materialsJustification: input.materialsJustification.trim(),
    verificationReference: subcontractor.verificationReference,
    utrMasked: subcontractor.utrMasked,
    ninoMasked: subcontractor.ninoMasked,
    grossP: amounts.grossP,
    materialsP: amounts.materialsP,
    materialsPercentage: amounts.materialsPercentage,
    labourP: amounts.labourP,
    cisDeductionP: amounts.cisDeductionP,
    vatBaseP: amounts.vatBaseP,
    vatAmountP: amounts.vatAmountP,
    grossTotalP: amounts.grossTotalP,
    netPaymentP: amounts.netPaymentP,
    cisRate: subcontractor.verificationRate,
  };
}

/** The subcontractor a new invoice is for: it must exist, live, and not be archived. */
async function usableSubcontractor(
  subcontractors: SubcontractorStore,
  id: string,
): Promise<SubcontractorRecord> {
  const row = z.uuid().safeParse(id).success ? await subcontractors.find(id) : undefined;
  if (!row)
    throw problems.validation([{ field: 'body.subcontractorId', message: 'Subcontractor is required' }]);
  if (row.archived)
    throw problems.validation([
      { field: 'body.subcontractorId', message: 'Archived subcontractors cannot be used for new invoices' },
    ]);
  return row;
}

/** A unique-index refusal is the spec's duplicate-number message. */
async function refusingDuplicates<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw refused(DUPLICATE_NUMBER, 'duplicate');
    throw error;
  }
}

/**
 * Records an invoice: a staff draft, or a subcontractor's own submission from the portal ('portal_draft', shown as
 * 'Portal Pending', which staff approve or reject).
 */
export function createInvoice(
  deps: CisDeps,
  actor: Actor,
  input: InvoiceInput,
  source: 'staff' | 'portal',
): Promise<{ invoice: InvoiceRecord; warnings: string[] }> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    assertValid(validateInvoiceInput(input));
    const subcontractor = await usableSubcontractor(new SubcontractorStore(trx), input.subcontractorId);
    const amounts = amountsFor(input, subcontractor);
    const id = randomUUID();
    return refusingDuplicates(async () => {
      const row = await new InvoiceStore(trx).insert({
        id,
        tenantId: actor.tenantId,
        ...invoiceFields(input, subcontractor, amounts),
        status: source === 'portal' ? 'portal_draft' : 'draft',
        source,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
      await deps.audit.write(trx, actor, 'cis.invoice.created', {
        targetType: 'invoice',
        targetId: id,
        summary: `Invoice ${row.invoiceNumber} (${row.subcontractorName}) ${source === 'portal' ? 'submitted through the portal' : 'recorded'}`,
        details: {
          grossP: row.grossP,
          cisDeductionP: row.cisDeductionP,
          source,
          invoiceNumber: row.invoiceNumber,
        },
      });
      await deps.invoiceChanges.changed(trx, actor.tenantId, [id], 'created');
      return { invoice: row, warnings: amounts.warnings };
    });
  });
}

/** Edits a draft invoice (its amounts recalculated; a new subcontractor must be usable for new invoices). */
export function updateInvoice(
  deps: CisDeps,
  actor: Actor,
  id: string,
  input: InvoiceInput,
): Promise<{ invoice: InvoiceRecord; warnings: string[] }> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const invoices = new InvoiceStore(trx);
    const subcontractors = new SubcontractorStore(trx);
    const existing = await requireInvoice(invoices, id, true);
    const transition = invoiceTransition(existing.status, 'edit');
    if (!transition.ok) throw refused(transition.error);
    assertValid(validateInvoiceInput(input));
    const subcontractor =
      input.subcontractorId === existing.subcontractorId
        ? await subcontractors.findAny(existing.subcontractorId)
        : await usableSubcontractor(subcontractors, input.subcontractorId);
    if (!subcontractor) throw problems.notFound('Subcontractor not found');
    const amounts = amountsFor(input, subcontractor);
    return refusingDuplicates(async () => {
      const row = await invoices.update(id, {
        ...invoiceFields(input, subcontractor, amounts),
        updatedAt: deps.clock.now(),
        updatedBy: actor.userId,
      });
      if (!row) throw problems.notFound('Invoice not found');
      await deps.audit.write(trx, actor, 'cis.invoice.updated', {
        targetType: 'invoice',
        targetId: row.id,
        summary: `Invoice ${row.invoiceNumber} (${row.subcontractorName}) updated`,
      });
      await deps.invoiceChanges.changed(trx, actor.tenantId, [row.id], 'updated');
      return { invoice: row, warnings: amounts.warnings };
    });
  });
}

async function requireInvoice(invoices: InvoiceStore, id: string, lock = false): Promise<InvoiceRecord> {
  const row = await invoices.find(id, { lock });
  if (!row) throw problems.notFound('Invoice not found');
  return row;
}

export function readInvoice(deps: CisDeps, tenantId: string, id: string): Promise<InvoiceRecord> {
  return deps.inTenant(tenantId, (trx) => requireInvoice(new InvoiceStore(trx), id));
}

/**
 * A page of the invoice list with the total and the summary cards. Counting stops at a cap (10,000; 1,000 for
 * a search, whose matches are read row by row): beyond it the list says "10,000+" rather than read every match.
 * The count and the cards come from the figure cache, dropped when an invoice of the tenant changes.
 */
export function listInvoices(
  deps: CisDeps,
  tenantId: string,
  query: InvoiceFilters & { page: number; pageSize: number },
) {
  return deps.inTenant(tenantId, async (trx) => {
    const today = deps.clock.now();
    const invoices = new InvoiceStore(trx, today);
    const month = currentTaxMonth(today);
    // One connection per transaction: the queries run one after another.
    const rows = await invoices.list(query, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    const cap = query.search?.trim() ? SEARCH_COUNT_CAP : COUNT_CAP;
    const filters = { ...query, page: undefined, pageSize: undefined };
    const matches = await deps.invoiceFigures.get(tenantId, `count:${month}:${JSON.stringify(filters)}`, () =>
      invoices.countUpTo(query, cap + 1),
    );
    const summary = await deps.invoiceFigures.get(tenantId, `summary:${month}`, () =>
      invoices.summary(month),
    );
    return { rows, total: Math.min(matches, cap), totalCapped: matches > cap, summary };
  });
}

const csvSource = (row: InvoiceRecord): InvoiceCsvSource => ({
  invoiceNumber: row.invoiceNumber,
  subcontractorName: row.subcontractorName,
  invoiceDate: dateOnly(row.invoiceDate),
  status: normaliseInvoiceStatus(row.status),
  amounts: {
    grossP: row.grossP,
    materialsP: row.materialsP,
    cisDeductionP: row.cisDeductionP,
    netPaymentP: row.netPaymentP,
  },
});

/** The invoices the filters match as CSV (an export audit entry); more than EXPORT_ROWS_MAX is refused. */
export function exportInvoices(deps: CisDeps, actor: Actor, query: InvoiceFilters) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const rows = await new InvoiceStore(trx, deps.clock.now()).listAll(query, EXPORT_ROWS_MAX + 1);
    if (rows.length > EXPORT_ROWS_MAX)
      throw new HttpProblem(422, 'too_many_rows', exportTooLarge('invoices'));
    const built = invoicesCsv(rows.map(csvSource), deps.clock.now());
    await deps.audit.write(trx, actor, 'cis.export.invoices', {
      targetType: 'export',
      summary: `${plural(rows.length, 'invoice')} exported to CSV`,
      details: { resource: 'invoices', format: 'csv', count: rows.length },
    });
    return built;
  });
}
