import { camelise, containing, snakeise, type Camelised } from '@workspace/kit';
import type { Knex } from '@workspace/kit';
import { currentTaxMonth, previousTaxMonth, taxMonthPeriod, type InvoiceAmounts } from '../domain/index.js';

interface InvoiceRow {
  id: string;
  tenant_id: string;
  invoice_number: string;
  subcontractor_id: string;
  subcontractor_name: string;
  status: string;
  source: string;
  invoice_date: string;
  received_date: string | null;
  payment_date: string | null;
  tax_month: string | null;
  description: string;
  vat_rate: number;
  reverse_charge: boolean;
  materials_justification: string;
  gross_p: number;
  materials_p: number;
  materials_percentage: string;
  labour_p: number;
  cis_deduction_p: number;
  vat_base_p: number;
  vat_amount_p: number;
  gross_total_p: number;
  net_payment_p: number;
  cis_rate: number;
  verification_reference: string;
  utr_masked: string;
  nino_masked: string;
  statement_required: boolean;
  statement_requested_at: Date | null;
  statement_requested_by: string | null;
  statement_issued_at: Date | null;
  statement_issued_method: string | null;
  statement_id: string | null;
  approved_at: Date | null;
  approved_by: string | null;
  locked_at: Date | null;
  paid_at: Date | null;
  paid_by: string | null;
  rejection_reason: string | null;
  rejected_at: Date | null;
  rejected_by: string | null;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
  deleted_at: Date | null;
}

export type InvoiceRecord = Camelised<InvoiceRow>;

/** The columns an invoice's own fields and amounts write (a new invoice, an edit, an import row). */
export interface InvoiceFields extends StoredAmounts {
  invoiceNumber: string;
  subcontractorId: string;
  subcontractorName: string;
  invoiceDate: string;
  receivedDate: string | null;
  description: string;
  vatRate: number;
  reverseCharge: boolean;
  materialsJustification: string;
  verificationReference: string;
  utrMasked: string;
  ninoMasked: string;
  cisRate: number;
}

/** The calculated amounts an invoice stores: all but the reverse-charge VAT and the messages. */
type StoredAmounts = Omit<InvoiceAmounts, 'reverseChargeVatP' | 'errors' | 'warnings'>;

export interface NewInvoice extends InvoiceFields {
  id: string;
  tenantId: string;
  status: 'draft' | 'portal_draft';
  source: 'staff' | 'portal' | 'import';
  createdBy: string;
  updatedBy: string;
  createdAt?: Date;
  updatedAt?: Date;
}

/** What a state transition writes (cis.md section 4): the status and its stamps. */
export interface InvoiceStateChange {
  updatedAt: Date;
  updatedBy: string;
  status?: string;
  approvedAt?: Date;
  approvedBy?: string;
  lockedAt?: Date;
  statementRequired?: boolean;
  statementRequestedAt?: Date;
  statementRequestedBy?: string;
  paymentDate?: string;
  taxMonth?: string;
  paidAt?: Date;
  paidBy?: string;
  cancelledAt?: Date;
  cancelledBy?: string;
  rejectionReason?: string;
  rejectedAt?: Date;
  rejectedBy?: string;
  deletedAt?: Date;
  deletedBy?: string;
  archived?: boolean;
  /** A payment date corrected into another month: the old month's statement no longer covers it. */
  statementId?: string | null;
  statementIssuedAt?: Date | null;
  statementIssuedMethod?: string | null;
}

/** The list filters of cis.md section 5 'Filters and search'. */
export interface InvoiceFilters {
  search?: string | undefined;
  status: 'all' | 'draft' | 'portal_draft' | 'approved' | 'paid' | 'cancelled' | 'rejected';
  period: 'all' | 'current' | 'previous' | 'quarter' | 'year';
  subcontractorId?: string | undefined;
  taxMonth?: string | undefined;
}

export interface InvoiceSummary {
  total: number;
  draft: number;
  approved: number;
  thisMonthCisP: number;
  pendingStatements: number;
}

export interface InvoiceTotals {
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
  invoices: number;
}

/** What the statement job needs of an invoice to find the (subcontractor, tax month) pairs it covers. */
export interface StatementJobInvoice {
  subcontractorId: string;
  subcontractorName: string;
  taxMonth: string | null;
  status: string;
}

/**
 * A row as its record, field by field: a literal of one fixed shape (not a renamed copy of whatever `select('*')`
 * returned), so the invoice list's 50 records per page are built and read at full speed.
 */
const toRecord = (row: InvoiceRow): InvoiceRecord => ({
  id: row.id,
  tenantId: row.tenant_id,
  invoiceNumber: row.invoice_number,
  subcontractorId: row.subcontractor_id,
  subcontractorName: row.subcontractor_name,
  status: row.status,
  source: row.source,
  invoiceDate: row.invoice_date,
  receivedDate: row.received_date,
  paymentDate: row.payment_date,
  taxMonth: row.tax_month,
  description: row.description,
  vatRate: row.vat_rate,
  reverseCharge: row.reverse_charge,
  materialsJustification: row.materials_justification,
  grossP: row.gross_p,
  materialsP: row.materials_p,
  materialsPercentage: row.materials_percentage,
  labourP: row.labour_p,
  cisDeductionP: row.cis_deduction_p,
  vatBaseP: row.vat_base_p,
  vatAmountP: row.vat_amount_p,
  grossTotalP: row.gross_total_p,
  netPaymentP: row.net_payment_p,
  cisRate: row.cis_rate,
  verificationReference: row.verification_reference,
  utrMasked: row.utr_masked,
  ninoMasked: row.nino_masked,
  statementRequired: row.statement_required,
  statementRequestedAt: row.statement_requested_at,
  statementRequestedBy: row.statement_requested_by,
  statementIssuedAt: row.statement_issued_at,
  statementIssuedMethod: row.statement_issued_method,
  statementId: row.statement_id,
  approvedAt: row.approved_at,
  approvedBy: row.approved_by,
  lockedAt: row.locked_at,
  paidAt: row.paid_at,
  paidBy: row.paid_by,
  rejectionReason: row.rejection_reason,
  rejectedAt: row.rejected_at,
  rejectedBy: row.rejected_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  createdBy: row.created_by,
  updatedBy: row.updated_by,
  deletedAt: row.deleted_at,
});

/** The tax months of the current quarter-of-a-tax-year window and tax year, newest first. */
function monthsBack(label: string, count: number): string[] {
  const months = [label];
  while (months.length < count) months.push(previousTaxMonth(months[months.length - 1] ?? label));
  return months;
}

function taxYearMonths(label: string): string[] {
  const { taxMonthNumber } = taxMonthPeriod(label) as { taxMonthNumber: number };
  return monthsBack(label, taxMonthNumber);
}

/** The list filters of cis.md section 5 'Filters and search' (soft-deleted never listed). */
function applyFilters(builder: Knex.QueryBuilder, query: InvoiceFilters, today: Date) {
  void builder.whereNull('deleted_at');
  if (query.status !== 'all') void builder.where('status', query.status);
  if (query.subcontractorId) void builder.where('subcontractor_id', query.subcontractorId);
  if (query.taxMonth) void builder.where('tax_month', query.taxMonth);
  const current = currentTaxMonth(today);
  if (query.period === 'current') void builder.where('tax_month', current).whereNotNull('payment_date');
  if (query.period === 'previous')
    void builder.where((w) => {
      void w.whereNull('payment_date').orWhere('tax_month', '<>', current);
    });
  if (query.period === 'quarter') void builder.whereIn('tax_month', monthsBack(current, 3));
  if (query.period === 'year') void builder.whereIn('tax_month', taxYearMonths(current));
  const search = query.search?.trim();
  if (search) {
    const like = containing(search);
    void builder.where((w) => {
      void w.whereILike('invoice_number', like).orWhereILike('subcontractor_name', like);
    });
  }
  return builder;
}

/** The tenant's invoices (the transaction's row-level security tenant): the only code touching `invoices`. */
export class InvoiceStore {
  /** `today` is the business clock's (the period filters 'current', 'previous', 'quarter' and 'year' start from it). */
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly today: Date = new Date(),
  ) {}

  /** A live (not soft-deleted) invoice, locked for update when asked. */
  async find(id: string, options: { lock?: boolean } = {}): Promise<InvoiceRecord | undefined> {
    const query = this.trx<InvoiceRow>('invoices').where({ id }).whereNull('deleted_at');
    const row = await (options.lock ? query.forUpdate() : query).first();
    return row ? toRecord(row) : undefined;
  }

  /** The live invoices among `ids`, locked for update (the rows a batch action changes). */
  async lockLive(ids: string[]): Promise<InvoiceRecord[]> {
    const rows = await this.trx<InvoiceRow>('invoices')
      .whereIn('id', ids)
      .whereNull('deleted_at')
      .forUpdate();
    return rows.map(toRecord);
  }

  /** One state change for several invoices at once; answers the changed invoices. */
  async applyStateChange(ids: string[], change: InvoiceStateChange): Promise<InvoiceRecord[]> {
    const rows = await this.trx<InvoiceRow>('invoices')
      .whereIn('id', ids)
      .update(snakeise(change))
      .returning('*');
    return rows.map(toRecord);
  }

  async insert(invoice: NewInvoice): Promise<InvoiceRecord> {
    const [row] = await this.trx<InvoiceRow>('invoices').insert(snakeise(invoice)).returning('*');
    if (!row) throw new Error('insert returned nothing');
    return toRecord(row);
  }

  /** Inserts many invoices in one statement (an import chunk). */
  async insertMany(invoices: NewInvoice[]): Promise<void> {
    if (invoices.length === 0) return;
    await this.trx('invoices').insert(invoices.map((invoice) => snakeise(invoice)));
  }

  async update(
    id: string,
    fields: InvoiceFields & { updatedAt: Date; updatedBy: string },
  ): Promise<InvoiceRecord | undefined> {
    const [row] = await this.trx<InvoiceRow>('invoices')
      .where({ id })
      .update(snakeise(fields))
      .returning('*');
    return row ? toRecord(row) : undefined;
  }

  /** A page of the list (invoice date descending, newest first). */
  async list(query: InvoiceFilters, page: { limit: number; offset: number }): Promise<InvoiceRecord[]> {
    const rows = (await applyFilters(this.trx<InvoiceRow>('invoices').select('*'), query, this.today)
      .orderBy([
        { column: 'invoice_date', order: 'desc' },
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset)) as InvoiceRow[];
    return rows.map(toRecord);
  }

  /** The invoices the filters match (the CSV export), invoice date descending, no more than `limit`. */
  async listAll(query: InvoiceFilters, limit: number): Promise<InvoiceRecord[]> {
    const rows = (await applyFilters(this.trx<InvoiceRow>('invoices').select('*'), query, this.today)
      .orderBy([
        { column: 'invoice_date', order: 'desc' },
        { column: 'created_at', order: 'desc' },
      ])
      .limit(limit)) as InvoiceRow[];
    return rows.map(toRecord);
  }

  /** How many invoices the filters match, counting no further than `limit`. */
  async countUpTo(query: InvoiceFilters, limit: number): Promise<number> {
    const counted = await this.trx
      .from(
        applyFilters(this.trx('invoices').select(this.trx.raw('1')), query, this.today)
          .limit(limit)
          .as('matches'),
      )
      .count<{ count: number }[]>('* as count')
      .first();
    return counted?.count ?? 0;
  }

  /** The five summary cards of the invoice list (over all of the tenant's invoices). */
  async summary(taxMonth: string): Promise<InvoiceSummary> {
    const { trx } = this;
    const row = await trx('invoices')
      .whereNull('deleted_at')
      .first<InvoiceSummary | undefined>(
        trx.raw('count(*)::int AS total'),
        trx.raw(`count(*) FILTER (WHERE status = 'draft')::int AS draft`),
        trx.raw(`count(*) FILTER (WHERE status = 'approved')::int AS approved`),
        trx.raw(
          `coalesce(sum(cis_deduction_p) FILTER (WHERE status = 'paid' AND tax_month = ?), 0)::bigint AS "thisMonthCisP"`,
          [taxMonth],
        ),
        trx.raw(
          `count(*) FILTER (WHERE status IN ('approved', 'paid') AND statement_required AND statement_issued_at IS NULL)::int AS "pendingStatements"`,
        ),
      );
    // An aggregate without GROUP BY answers one row even for no invoices; knex types it as maybe missing.
    return row ?? { total: 0, draft: 0, approved: 0, thisMonthCisP: 0, pendingStatements: 0 };
  }

  /** The dashboard's invoice tiles. */
  async dashboardTiles(taxMonth: string): Promise<{
    draftInvoices: number;
    portalPending: number;
    pendingStatements: number;
    currentMonthCisP: number;
  }> {
    const { trx } = this;
    return trx('invoices')
      .whereNull('deleted_at')
      .first<{
        draftInvoices: number;
        portalPending: number;
        pendingStatements: number;
        currentMonthCisP: number;
      }>(
        trx.raw(`count(*) FILTER (WHERE status = 'draft')::int AS "draftInvoices"`),
        trx.raw(`count(*) FILTER (WHERE status = 'portal_draft')::int AS "portalPending"`),
        trx.raw(
          `count(*) FILTER (WHERE status IN ('approved', 'paid') AND statement_required AND statement_issued_at IS NULL)::int AS "pendingStatements"`,
        ),
        trx.raw(
          `coalesce(sum(cis_deduction_p) FILTER (WHERE status = 'paid' AND tax_month = ?), 0)::bigint AS "currentMonthCisP"`,
          [taxMonth],
        ),
      );
  }

  /** Paid invoices still waiting for their statement, per tax month (the dashboard's past-deadline alerts). */
  async pendingStatementsByMonth(): Promise<{ taxMonth: string; count: number }[]> {
    const rows = await this.trx('invoices')
      .whereNull('deleted_at')
      .where({ status: 'paid', statement_required: true })
      .whereNull('statement_issued_at')
      .whereNotNull('tax_month')
      .groupBy('tax_month')
      .select<{ tax_month: string; count: number }[]>('tax_month', this.trx.raw('count(*)::int AS count'));
    return rows.map((row) => ({ taxMonth: row.tax_month, count: row.count }));
  }

  /** Paid invoices' totals per tax month and for the top 20 subcontractors (by gross) over `taxMonths`. */
  async paidTotals(taxMonths: string[]): Promise<{
    byMonth: (InvoiceTotals & { taxMonth: string })[];
    bySubcontractor: (InvoiceTotals & { subcontractorId: string; subcontractorName: string })[];
  }> {
    const { trx } = this;
    const base = () =>
      trx('invoices').whereNull('deleted_at').where({ status: 'paid' }).whereIn('tax_month', taxMonths);
    const sums = [
      trx.raw('sum(gross_p)::bigint AS "grossP"'),
      trx.raw('sum(materials_p)::bigint AS "materialsP"'),
      trx.raw('sum(cis_deduction_p)::bigint AS "cisDeductionP"'),
      trx.raw('count(*)::int AS invoices'),
    ];
    const [byMonth, bySubcontractor] = await Promise.all([
      base()
        .groupBy('tax_month')
        .select('tax_month', ...sums) as Promise<(InvoiceTotals & { tax_month: string })[]>,
      base()
        .groupBy('subcontractor_id', 'subcontractor_name')
        .select('subcontractor_id', 'subcontractor_name', ...sums)
        .orderBy('grossP', 'desc')
        .limit(20) as Promise<(InvoiceTotals & { subcontractor_id: string; subcontractor_name: string })[]>,
    ]);
    return {
      byMonth: byMonth.map(({ tax_month, ...totals }) => ({ taxMonth: tax_month, ...totals })),
      bySubcontractor: bySubcontractor.map(({ subcontractor_id, subcontractor_name, ...totals }) => ({
        subcontractorId: subcontractor_id,
        subcontractorName: subcontractor_name,
        ...totals,
      })),
    };
  }

  /**
   * One subcontractor's paid invoices summed per tax month over `taxMonths` (HMRC: by payment date), and every tax
   * month they were ever paid in (for the tax-year picker). Cancelled and deleted invoices never count.
   */
  async paidTotalsOfSubcontractor(
    subcontractorId: string,
    taxMonths: string[],
  ): Promise<{ byMonth: (InvoiceTotals & { taxMonth: string })[]; paidMonths: string[] }> {
    const { trx } = this;
    const base = () =>
      trx('invoices').whereNull('deleted_at').where({ status: 'paid', subcontractor_id: subcontractorId });
    const [byMonth, months] = await Promise.all([
      base()
        .whereIn('tax_month', taxMonths)
        .groupBy('tax_month')
        .select(
          'tax_month',
          trx.raw('sum(gross_p)::bigint AS "grossP"'),
          trx.raw('sum(materials_p)::bigint AS "materialsP"'),
          trx.raw('sum(cis_deduction_p)::bigint AS "cisDeductionP"'),
          trx.raw('count(*)::int AS invoices'),
        ) as Promise<(InvoiceTotals & { tax_month: string })[]>,
      base().distinct('tax_month').whereNotNull('tax_month') as Promise<{ tax_month: string }[]>,
    ]);
    return {
      byMonth: byMonth.map(({ tax_month, ...totals }) => ({ taxMonth: tax_month, ...totals })),
      paidMonths: months.map((row) => row.tax_month),
    };
  }

  /** Invoices paid in a tax month (HMRC: by payment date), of one subcontractor when named. */
  async paidInMonth(taxMonth: string, subcontractorId?: string): Promise<InvoiceRecord[]> {
    let builder = this.trx<InvoiceRow>('invoices')
      .whereNull('deleted_at')
      .where({ status: 'paid', tax_month: taxMonth });
    if (subcontractorId) builder = builder.where({ subcontractor_id: subcontractorId });
    const rows = await builder.orderBy([
      { column: 'payment_date', order: 'asc' },
      { column: 'invoice_number', order: 'asc' },
    ]);
    return rows.map(toRecord);
  }

  /** What a return's lines are compiled from: the invoices paid in the tax month. */
  async paidForReturn(taxMonth: string) {
    const rows = await this.trx<InvoiceRow>('invoices')
      .whereNull('deleted_at')
      .where({ status: 'paid', tax_month: taxMonth })
      .select('id', 'subcontractor_id', 'subcontractor_name', 'gross_p', 'materials_p', 'cis_deduction_p', 'cis_rate', 'verification_reference'); // prettier-ignore
    return rows.map((row) => camelise(row));
  }

  /** The invoices of a statement, by payment date (deleted ones too: the statement keeps them). */
  async ofStatement(ids: string[]): Promise<InvoiceRecord[]> {
    const rows = await this.trx<InvoiceRow>('invoices').whereIn('id', ids).orderBy('payment_date');
    return rows.map(toRecord);
  }

  /** A subcontractor's invoices the portal shows (not its drafts), newest first, at most 200. */
  async ofPortal(subcontractorId: string): Promise<InvoiceRecord[]> {
    const rows = await this.trx<InvoiceRow>('invoices')
      .where({ subcontractor_id: subcontractorId })
      .whereNull('deleted_at')
      .whereNot('status', 'draft')
      .orderBy('invoice_date', 'desc')
      .limit(200);
    return rows.map(toRecord);
  }

  /** Links invoices to their (generated) statement and flags them as needing it. */
  async linkToGeneratedStatement(ids: string[], statementId: string, actorId: string): Promise<void> {
    const { trx } = this;
    await trx('invoices')
      .whereIn('id', ids)
      // A statement's invoices are flagged as needing it (approval flags those with a deduction already).
      .update({
        statement_id: statementId,
        statement_required: true,
        statement_requested_at: trx.raw('coalesce(statement_requested_at, now())'),
        statement_requested_by: trx.raw('coalesce(statement_requested_by, ?)', [actorId]),
      });
  }

  async linkToStatement(ids: string[], statementId: string): Promise<void> {
    await this.trx('invoices').whereIn('id', ids).update({ statement_id: statementId });
  }

  /** Stamps a statement's invoices as issued; answers the ids stamped. */
  async stampStatementIssued(
    ids: string[],
    statementId: string,
    method: string,
    issuedAt: Date,
  ): Promise<string[]> {
    const stamped = await this.trx<InvoiceRow>('invoices')
      .whereIn('id', ids)
      .update({ statement_issued_at: issuedAt, statement_issued_method: method, statement_id: statementId })
      .returning('id');
    return stamped.map((row) => row.id);
  }

  /**
   * The approved and paid invoices a statement job covers: those paid in a whole tax month, or the given ones.
   */
  async forStatementJob(target: {
    taxMonth?: string;
    invoiceIds?: string[];
  }): Promise<StatementJobInvoice[]> {
    const base = this.trx<InvoiceRow>('invoices')
      .whereNull('deleted_at')
      .whereIn('status', ['approved', 'paid'])
      .where('cis_deduction_p', '>=', 0);
    const rows = target.taxMonth
      ? await base
          .clone()
          .where({ tax_month: target.taxMonth, status: 'paid' })
          .select('subcontractor_id', 'subcontractor_name', 'tax_month', 'status')
      : await base
          .clone()
          .whereIn('id', target.invoiceIds ?? [])
          .select('subcontractor_id', 'subcontractor_name', 'tax_month', 'status');
    return rows.map((row) => camelise(row));
  }

  /**
   * Of the (subcontractor, lower-cased invoice number) pairs, those a live, not cancelled or rejected invoice uses
   * (looked up per subcontractor through the unique index, not every invoice), as `subcontractorId:number`.
   */
  async takenNumbers(pairs: { subcontractorId: string; number: string }[]): Promise<string[]> {
    const { rows } = await this.trx.raw<{ rows: { subcontractor_id: string; number: string }[] }>(
      `SELECT i.subcontractor_id, lower(i.invoice_number) AS number
         FROM invoices i
         JOIN unnest(?::uuid[], ?::text[]) AS c(subcontractor_id, number)
           ON i.subcontractor_id = c.subcontractor_id AND lower(i.invoice_number) = c.number
        WHERE i.deleted_at IS NULL AND i.status NOT IN ('cancelled', 'rejected')`,
      [pairs.map((pair) => pair.subcontractorId), pairs.map((pair) => pair.number)],
    );
    return rows.map((row) => `${row.subcontractor_id}:${row.number}`);
  }

  /** The invoice numbers both subcontractors use (live, not cancelled): a merge would give one of them twice. */
  async sharedNumbers(fromId: string, toId: string): Promise<string[]> {
    const rows = await this.trx('invoices as a')
      .join('invoices as b', (on) => {
        void on.on(this.trx.raw('lower(a.invoice_number) = lower(b.invoice_number)'));
      })
      .where('a.subcontractor_id', fromId)
      .where('b.subcontractor_id', toId)
      .whereNull('a.deleted_at')
      .whereNull('b.deleted_at')
      .whereNot('a.status', 'cancelled')
      .whereNot('b.status', 'cancelled')
      .distinct<{ invoice_number: string }[]>('a.invoice_number');
    return rows.map((row) => row.invoice_number);
  }

  /** Moves every invoice of one subcontractor to another (a merge of duplicates, ADR 0039); answers how many. */
  async moveToSubcontractor(fromId: string, to: { id: string; name: string }): Promise<number> {
    const { trx } = this;
    return trx('invoices')
      .where({ subcontractor_id: fromId })
      .update({ subcontractor_id: to.id, subcontractor_name: to.name, updated_at: trx.fn.now() });
  }
}
