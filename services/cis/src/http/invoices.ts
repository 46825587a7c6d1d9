import { randomUUID } from 'node:crypto';
import { ApiRouter, HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { z } from 'zod';
import { JOB_CHANNEL, type CisContext } from '../context.js';
import { invoicesCsv } from '../documents/csv-export.js';
import { invoiceImportTemplate, parseImportRow, parseInvoiceCsv } from '../documents/csv-import.js';
import {
  calculateInvoice,
  currentTaxMonth,
  invoiceActions,
  invoiceStatusLabel,
  invoiceTransition,
  londonDate,
  normaliseInvoiceStatus,
  previousTaxMonth,
  taxMonthOf,
  taxMonthPeriod,
  validateInvoiceInput,
  type InvoiceAction,
} from '../domain/index.js';
import {
  assertValid,
  batchResult,
  dateOnly,
  idParam,
  idsBody,
  iso,
  looseObject,
  refused,
  sendCsv,
  type BatchResult,
} from './common.js';
import type { SubcontractorRow } from './subcontractors.js';

export interface InvoiceRow {
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
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
  deleted_at: Date | null;
}

export function invoiceView(row: InvoiceRow) {
  return {
    id: row.id,
    invoiceNumber: row.invoice_number,
    subcontractorId: row.subcontractor_id,
    subcontractorName: row.subcontractor_name,
    status: normaliseInvoiceStatus(row.status),
    statusLabel: invoiceStatusLabel(row.status),
    source: row.source,
    invoiceDate: dateOnly(row.invoice_date),
    receivedDate: dateOnly(row.received_date),
    paymentDate: dateOnly(row.payment_date),
    taxMonth: row.tax_month,
    description: row.description,
    vatRate: row.vat_rate,
    reverseCharge: row.reverse_charge,
    materialsJustification: row.materials_justification,
    amounts: {
      grossP: row.gross_p,
      materialsP: row.materials_p,
      materialsPercentage: Number(row.materials_percentage),
      labourP: row.labour_p,
      cisDeductionP: row.cis_deduction_p,
      vatBaseP: row.vat_base_p,
      vatAmountP: row.vat_amount_p,
      grossTotalP: row.gross_total_p,
      netPaymentP: row.net_payment_p,
    },
    cisRate: row.cis_rate,
    verificationSnapshot: { rate: row.cis_rate, reference: row.verification_reference },
    statement: {
      required: row.statement_required,
      requestedAt: iso(row.statement_requested_at),
      requestedBy: row.statement_requested_by,
      issuedAt: iso(row.statement_issued_at),
      issuedMethod: row.statement_issued_method,
      statementId: row.statement_id,
    },
    piiMasked: { utrMasked: row.utr_masked, ninoMasked: row.nino_masked },
    approvedAt: iso(row.approved_at),
    approvedBy: row.approved_by,
    lockedAt: iso(row.locked_at),
    paidAt: iso(row.paid_at),
    paidBy: row.paid_by,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    actions: invoiceActions(row.status),
  };
}

export const invoiceInput = z.object({
  invoiceNumber: z.string().max(200),
  subcontractorId: z.string().max(64),
  invoiceDate: z.string().max(30),
  receivedDate: z.iso.date().nullable().optional(),
  description: z.string().max(2000).default(''),
  grossP: z.number(),
  materialsP: z.number(),
  vatRate: z.number(),
  reverseCharge: z.boolean().default(false),
  materialsJustification: z.string().max(2000).default(''),
});
export type InvoiceInput = z.infer<typeof invoiceInput>;

export const listQuery = z.object({
  search: z.string().max(100).optional(),
  status: z.enum(['all', 'draft', 'portal_draft', 'approved', 'paid', 'cancelled']).default('all'),
  period: z.enum(['all', 'current', 'previous', 'quarter', 'year']).default('all'),
  subcontractorId: z.uuid().optional(),
  taxMonth: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});
export type InvoiceListQuery = z.infer<typeof listQuery>;

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
export function applyListFilters(builder: Knex.QueryBuilder, query: InvoiceListQuery, today = new Date()) {
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
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    void builder.where((w) => {
      void w.whereILike('invoice_number', like).orWhereILike('subcontractor_name', like);
    });
  }
  return builder;
}

export async function requireInvoice(trx: Knex.Transaction, id: string, lock = false): Promise<InvoiceRow> {
  const query = trx<InvoiceRow>('invoices').where({ id }).whereNull('deleted_at');
  const row = await (lock ? query.forUpdate() : query).first();
  if (!row) throw problems.notFound('Invoice not found');
  return row;
}

/** The validated amounts of an invoice for a subcontractor (the CIS rate is the subcontractor's verification). */
function amountsFor(input: InvoiceInput, subcontractor: Pick<SubcontractorRow, 'verification_rate'>) {
  const errors = validateInvoiceInput(input);
  assertValid(errors);
  const amounts = calculateInvoice({
    grossP: input.grossP,
    materialsP: input.materialsP,
    cisRate: subcontractor.verification_rate,
    vatRate: input.vatRate,
    reverseCharge: input.reverseCharge,
  });
  if (amounts.errors.length > 0) throw problems.badRequest(amounts.errors.join('; '));
  return amounts;
}

function amountColumns(amounts: ReturnType<typeof calculateInvoice>, cisRate: number) {
  return {
    gross_p: amounts.grossP,
    materials_p: amounts.materialsP,
    materials_percentage: amounts.materialsPercentage,
    labour_p: amounts.labourP,
    cis_deduction_p: amounts.cisDeductionP,
    vat_base_p: amounts.vatBaseP,
    vat_amount_p: amounts.vatAmountP,
    gross_total_p: amounts.grossTotalP,
    net_payment_p: amounts.netPaymentP,
    cis_rate: cisRate,
  };
}

async function usableSubcontractor(trx: Knex.Transaction, id: string): Promise<SubcontractorRow> {
  const row = z.uuid().safeParse(id).success
    ? await trx<SubcontractorRow>('subcontractors').where({ id }).whereNull('deleted_at').first()
    : undefined;
  if (!row)
    throw problems.validation([{ field: 'body.subcontractorId', message: 'Subcontractor is required' }]);
  if (row.archived)
    throw problems.validation([
      { field: 'body.subcontractorId', message: 'Archived subcontractors cannot be used for new invoices' },
    ]);
  return row;
}

const DUPLICATE_NUMBER = 'Invoice number already exists for this subcontractor';

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

/** Queues the statement-generation job (cis.md section 4: on approval when the deduction is above 0). */
export async function queueStatementJob(
  trx: Knex.Transaction,
  tenantId: string,
  actorId: string,
  payload: { invoiceIds?: string[]; taxMonth?: string; reason: string },
): Promise<string> {
  const id = randomUUID();
  await trx('jobs').insert({
    id,
    tenant_id: tenantId,
    type: 'statements.generate',
    status: 'pending',
    progress: 0,
    payload: JSON.stringify(payload),
    performed_by: actorId,
  });
  await trx('job_queue').insert({ job_id: id, tenant_id: tenantId });
  await trx.raw('SELECT pg_notify(?, ?)', [JOB_CHANNEL, id]);
  return id;
}

type SingleAction = Exclude<InvoiceAction, 'edit' | 'delete'>;

const auditActions = {
  approve: 'cis.invoice.approved',
  reject: 'cis.invoice.rejected',
  pay: 'cis.invoice.paid',
  cancel: 'cis.invoice.cancelled',
} as const;

const actionScopes: Record<SingleAction, string> = {
  approve: 'cis.inv.approve',
  reject: 'cis.inv.approve',
  pay: 'cis.inv.pay',
  cancel: 'cis.inv.write',
};

const pastTense: Record<SingleAction | 'delete', string> = {
  approve: 'approved',
  reject: 'rejected',
  pay: 'marked paid',
  cancel: 'cancelled',
  delete: 'deleted',
};

/** The cause a whole failing batch answers with (cis.md section 8, verbatim). */
const batchCauses = {
  approve: 'Batch approval failed',
  pay: 'Batch payment marking failed',
  delete: 'Batch delete failed',
} as const;

export function invoiceRoutes(context: CisContext): ApiRouter {
  /**
   * Applies one action to invoices in one transaction: each is checked against the state machine, the valid ones
   * change, every other id is reported with its reason; one audit entry (a bulk one for several ids).
   */
  const apply = (
    ctx: RequestContext,
    ids: string[],
    action: SingleAction | 'delete',
    options: { paymentDate?: string } = {},
  ): Promise<BatchResult & { rows: InvoiceRow[] }> =>
    context.inTenant(ctx.tenantId, async (trx) => {
      const rows = await trx<InvoiceRow>('invoices').whereIn('id', ids).whereNull('deleted_at').forUpdate();
      const byId = new Map(rows.map((row) => [row.id, row]));
      const failed: BatchResult['failed'] = [];
      const now = new Date();
      const paymentDate = options.paymentDate ?? londonDate(now);
      const statementInvoices: string[] = [];
      // Rows that take the same change are updated together: one statement per distinct change, not per row.
      const groups = new Map<string, { update: Record<string, unknown>; ids: string[] }>();
      for (const id of ids) {
        const row = byId.get(id);
        if (!row) {
          failed.push({ id, error: 'Invoice not found' });
          continue;
        }
        const transition = invoiceTransition(row.status, action);
        if (!transition.ok) {
          failed.push({ id, error: transition.error });
          continue;
        }
        const update: Record<string, unknown> = { updated_at: now, updated_by: ctx.userId };
        if (action !== 'delete') update.status = transition.to;
        if (action === 'approve') {
          Object.assign(update, { approved_at: now, approved_by: ctx.userId, locked_at: now });
          if (row.cis_deduction_p > 0) {
            Object.assign(update, {
              statement_required: true,
              statement_requested_at: now,
              statement_requested_by: ctx.userId,
            });
            statementInvoices.push(id);
          }
        }
        if (action === 'pay') {
          Object.assign(update, {
            payment_date: paymentDate,
            tax_month: taxMonthOf(paymentDate),
            paid_at: now,
            paid_by: ctx.userId,
          });
          if (row.statement_required && !row.statement_issued_at) statementInvoices.push(id);
        }
        if (action === 'cancel' || action === 'reject')
          Object.assign(update, { cancelled_at: now, cancelled_by: ctx.userId });
        if (action === 'delete')
          Object.assign(update, { deleted_at: now, deleted_by: ctx.userId, archived: true });
        const key = JSON.stringify(update);
        const group = groups.get(key) ?? { update, ids: [] };
        group.ids.push(id);
        groups.set(key, group);
      }
      const changed: InvoiceRow[] = [];
      for (const group of groups.values()) {
        const saved = await trx<InvoiceRow>('invoices')
          .whereIn('id', group.ids)
          .update(group.update)
          .returning('*');
        changed.push(...saved);
      }
      const order = new Map(ids.map((id, index) => [id, index]));
      changed.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      if (statementInvoices.length > 0)
        await queueStatementJob(trx, ctx.tenantId, ctx.userId, {
          invoiceIds: statementInvoices,
          reason: action === 'approve' ? 'approved' : 'paid',
        });
      const single = ids.length === 1;
      const first = changed[0];
      await context.audit(
        trx,
        ctx.tenantId,
        ctx.userId,
        single
          ? action === 'delete'
            ? 'cis.invoice.bulk.delete'
            : auditActions[action]
          : action === 'approve'
            ? 'cis.invoice.bulk.approve'
            : action === 'pay'
              ? 'cis.invoice.bulk.pay'
              : action === 'delete'
                ? 'cis.invoice.bulk.delete'
                : auditActions[action],
        {
          targetType: 'invoice',
          ...(single ? { targetId: ids[0] } : {}),
          targetIds: ids,
          succeeded: changed.length,
          failed: failed.length,
          summary:
            single && first
              ? `Invoice ${first.invoice_number} (${first.subcontractor_name}) ${pastTense[action]}`
              : `${changed.length} invoices ${pastTense[action]}${failed.length ? `, ${failed.length} failed` : ''}`,
          ...(action === 'pay' ? { taxMonth: taxMonthOf(paymentDate) } : {}),
        },
      );
      await context.invoiceChanged(
        trx,
        ctx.tenantId,
        changed.map((row) => row.id),
        action,
      );
      return { succeeded: changed.map((row) => row.id), failed, rows: changed };
    });

  /**
   * A bulk write: ids the state machine refuses come back in `failed`; a batch that fails as a whole (the
   * database refusing the transaction) answers 500 with the spec's cause (cis.md section 8), the error logged.
   */
  const batch = async (
    ctx: RequestContext,
    ids: string[],
    action: keyof typeof batchCauses,
    options: { paymentDate?: string } = {},
  ): Promise<BatchResult> => {
    try {
      const { succeeded, failed } = await apply(ctx, ids, action, options);
      return { succeeded, failed };
    } catch (error) {
      if (error instanceof HttpProblem) throw error;
      context.logger.error(
        { err: error, action, count: ids.length, tenantId: ctx.tenantId },
        batchCauses[action],
      );
      throw new HttpProblem(500, 'batch_failed', batchCauses[action]);
    }
  };

  const single = async (ctx: RequestContext, id: string, action: SingleAction, paymentDate?: string) => {
    const result = await apply(ctx, [id], action, paymentDate ? { paymentDate } : {});
    const failure = result.failed[0];
    if (failure)
      throw failure.error === 'Invoice not found' ? problems.notFound(failure.error) : refused(failure.error);
    const row = result.rows[0];
    if (!row) throw problems.notFound('Invoice not found');
    return { invoice: invoiceView(row) };
  };

  const router = new ApiRouter()
    .route({
      method: 'get',
      path: '/invoices',
      summary: 'Invoices (invoice date descending; soft-deleted never) with the five summary cards',
      scopes: ['cis.inv.read'],
      request: { query: listQuery },
      responses: {
        200: {
          description: 'A page of invoices',
          schema: z.object({
            items: z.array(looseObject),
            total: z.number(),
            /** True when more than `total` invoices match: the count stops there (10,000; 1,000 with a search). */
            totalCapped: z.boolean(),
            page: z.number(),
            pageSize: z.number(),
            summary: z.object({
              total: z.number(),
              draft: z.number(),
              approved: z.number(),
              thisMonthCisP: z.number(),
              pendingStatements: z.number(),
            }),
          }),
        },
      },
      handler: ({ ctx, query }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const offset = (query.page - 1) * query.pageSize;
          // One connection per transaction: the queries run one after another.
          const rows = (await applyListFilters(trx<InvoiceRow>('invoices').select('*'), query)
            .orderBy([
              { column: 'invoice_date', order: 'desc' },
              { column: 'created_at', order: 'desc' },
              { column: 'id', order: 'desc' },
            ])
            .limit(query.pageSize)
            .offset(offset)) as InvoiceRow[];
          // Counting stops at a cap (10,000; 1,000 for a search, whose matches are read row by row): beyond it
          // the list says "10,000+" rather than read every match.
          const cap = query.search?.trim() ? SEARCH_COUNT_CAP : COUNT_CAP;
          const filters = { ...query, page: undefined, pageSize: undefined };
          const capped = await context.cachedInvoiceFigure(
            ctx.tenantId,
            `count:${JSON.stringify(filters)}`,
            () =>
              trx
                .from(
                  applyListFilters(trx('invoices').select(trx.raw('1')), query)
                    .limit(cap + 1)
                    .as('matches'),
                )
                .count<{ count: number }[]>('* as count')
                .first(),
          );
          const summary = await context.cachedInvoiceFigure(ctx.tenantId, 'summary', () =>
            invoiceSummary(trx),
          );
          const counted = { count: Math.min(capped?.count ?? 0, cap) };
          const totalCapped = (capped?.count ?? 0) > cap;
          return {
            items: rows.map(invoiceView),
            total: counted.count,
            totalCapped,
            page: query.page,
            pageSize: query.pageSize,
            summary,
          };
        }),
    })
    .route({
      method: 'get',
      path: '/invoices/export.csv',
      summary: 'Invoices as CSV (cis-invoices-{date}.csv; formula-like cells neutralised)',
      scopes: ['cis.inv.read', 'cis.io.export'],
      request: { query: listQuery.omit({ page: true, pageSize: true }) },
      responses: { 200: { description: 'text/csv' } },
      handler: async ({ ctx, query, res }) => {
        const { content, filename } = await context.inTenant(ctx.tenantId, async (trx) => {
          const rows = (await applyListFilters(trx<InvoiceRow>('invoices').select('*'), {
            ...query,
            page: 1,
            pageSize: 1,
          }).orderBy([
            { column: 'invoice_date', order: 'desc' },
            { column: 'created_at', order: 'desc' },
          ])) as InvoiceRow[];
          const built = invoicesCsv(rows.map(invoiceView));
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.export.invoices', {
            targetType: 'export',
            summary: `${rows.length} invoices exported to CSV`,
            details: { resource: 'invoices', format: 'csv', count: rows.length },
          });
          return built;
        });
        sendCsv(res, filename, content);
      },
    })
    .route({
      method: 'get',
      path: '/invoices/import/template.csv',
      summary: 'The invoice import template (header row)',
      scopes: ['cis.io.import'],
      responses: { 200: { description: 'text/csv' } },
      handler: ({ res }) => {
        sendCsv(res, 'cis-invoice-import-template.csv', `${invoiceImportTemplate}\r\n`);
        return Promise.resolve();
      },
    })
    .route({
      method: 'get',
      path: '/invoices/:id',
      summary: 'One invoice',
      scopes: ['cis.inv.read'],
      request: { params: idParam },
      responses: { 200: { description: 'The invoice', schema: z.object({ invoice: looseObject }) } },
      handler: ({ ctx, params }) =>
        context.inTenant(ctx.tenantId, async (trx) => ({
          invoice: invoiceView(await requireInvoice(trx, params.id)),
        })),
    })
    .route({
      method: 'post',
      path: '/invoices',
      summary: 'Record an invoice (draft); amounts calculated from the subcontractor’s verified rate',
      scopes: ['cis.inv.write'],
      status: 201,
      request: { body: invoiceInput },
      responses: {
        201: {
          description: 'Created',
          schema: z.object({ invoice: looseObject, warnings: z.array(z.string()) }),
        },
      },
      handler: ({ ctx, body }) => createInvoice(context, ctx, body, 'staff'),
    })
    .route({
      method: 'put',
      path: '/invoices/:id',
      summary: 'Edit a draft invoice',
      scopes: ['cis.inv.write'],
      request: { params: idParam, body: invoiceInput },
      responses: {
        200: {
          description: 'Saved',
          schema: z.object({ invoice: looseObject, warnings: z.array(z.string()) }),
        },
      },
      handler: ({ ctx, params, body }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const existing = await requireInvoice(trx, params.id, true);
          const transition = invoiceTransition(existing.status, 'edit');
          if (!transition.ok) throw refused(transition.error);
          assertValid(validateInvoiceInput(body));
          const subcontractor =
            body.subcontractorId === existing.subcontractor_id
              ? await trx<SubcontractorRow>('subcontractors').where({ id: existing.subcontractor_id }).first()
              : await usableSubcontractor(trx, body.subcontractorId);
          if (!subcontractor) throw problems.notFound('Subcontractor not found');
          const amounts = amountsFor(body, subcontractor);
          try {
            const [row] = await trx<InvoiceRow>('invoices')
              .where({ id: params.id })
              .update({
                ...invoiceColumns(body, subcontractor),
                ...amountColumns(amounts, subcontractor.verification_rate),
                updated_at: new Date(),
                updated_by: ctx.userId,
              } as Record<string, unknown>)
              .returning('*');
            if (!row) throw problems.notFound('Invoice not found');
            await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.invoice.updated', {
              targetType: 'invoice',
              targetId: row.id,
              summary: `Invoice ${row.invoice_number} (${row.subcontractor_name}) updated`,
            });
            await context.invoiceChanged(trx, ctx.tenantId, [row.id], 'updated');
            return { invoice: invoiceView(row), warnings: amounts.warnings };
          } catch (error) {
            if (isUniqueViolation(error)) throw refused(DUPLICATE_NUMBER, 'duplicate');
            throw error;
          }
        }),
    });

  for (const action of ['approve', 'reject', 'cancel'] as const) {
    router.route({
      method: 'post',
      path: `/invoices/:id/${action}`,
      summary: `${action[0]?.toUpperCase() ?? ''}${action.slice(1)} an invoice`,
      scopes: [actionScopes[action]],
      request: { params: idParam },
      responses: { 200: { description: 'The invoice', schema: z.object({ invoice: looseObject }) } },
      handler: ({ ctx, params }) => single(ctx, params.id, action),
    });
  }

  return router
    .route({
      method: 'post',
      path: '/invoices/:id/pay',
      summary: 'Mark an approved invoice paid; the payment date (default today) sets its tax month',
      scopes: ['cis.inv.pay'],
      request: { params: idParam, body: z.object({ paymentDate: z.iso.date().optional() }) },
      responses: { 200: { description: 'The invoice', schema: z.object({ invoice: looseObject }) } },
      handler: ({ ctx, params, body }) => single(ctx, params.id, 'pay', body.paymentDate),
    })
    .route({
      method: 'post',
      path: '/invoices/approve',
      summary: 'Approve invoices in bulk (one bulk audit entry)',
      scopes: ['cis.inv.approve'],
      request: { body: idsBody },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: async ({ ctx, body }) => {
        return batch(ctx, body.ids, 'approve');
      },
    })
    .route({
      method: 'post',
      path: '/invoices/pay',
      summary: 'Mark invoices paid in bulk',
      scopes: ['cis.inv.pay'],
      request: { body: idsBody.extend({ paymentDate: z.iso.date().optional() }) },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: async ({ ctx, body }) => {
        return batch(ctx, body.ids, 'pay', body.paymentDate ? { paymentDate: body.paymentDate } : {});
      },
    })
    .route({
      method: 'post',
      path: '/invoices/delete',
      summary: 'Soft-delete invoices (deletedAt set, archived; never listed again)',
      scopes: ['cis.inv.write'],
      request: { body: idsBody },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: async ({ ctx, body }) => {
        return batch(ctx, body.ids, 'delete');
      },
    })
    .route({
      method: 'post',
      path: '/invoices/import',
      summary:
        'Import invoices from CSV: each row validated; valid rows created, invalid ones reported by row',
      scopes: ['cis.io.import', 'cis.inv.write'],
      request: { body: z.object({ csv: z.string().min(1).max(20_000_000) }) },
      responses: {
        200: {
          description: 'Created ids and the failed rows (1-based data row numbers)',
          schema: z.object({
            created: z.array(z.string()),
            failed: z.array(z.object({ index: z.number(), errors: z.array(z.string()) })),
          }),
        },
      },
      handler: ({ ctx, body }) => importInvoices(context, ctx, body.csv),
    });
}

/**
 * Records an invoice: a staff draft, or a subcontractor's own submission from the portal ('portal_draft', shown as
 * 'Portal Pending', which staff approve or reject).
 */
export function createInvoice(
  context: CisContext,
  ctx: RequestContext,
  body: InvoiceInput,
  source: 'staff' | 'portal',
) {
  return context.inTenant(ctx.tenantId, async (trx) => {
    assertValid(validateInvoiceInput(body));
    const subcontractor = await usableSubcontractor(trx, body.subcontractorId);
    const amounts = amountsFor(body, subcontractor);
    const id = randomUUID();
    try {
      const [row] = await trx<InvoiceRow>('invoices')
        .insert({
          id,
          tenant_id: ctx.tenantId,
          ...invoiceColumns(body, subcontractor),
          ...amountColumns(amounts, subcontractor.verification_rate),
          status: source === 'portal' ? 'portal_draft' : 'draft',
          source,
          created_by: ctx.userId,
          updated_by: ctx.userId,
        } as Record<string, unknown>)
        .returning('*');
      if (!row) throw new Error('insert returned nothing');
      await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.invoice.created', {
        targetType: 'invoice',
        targetId: id,
        summary: `Invoice ${row.invoice_number} (${row.subcontractor_name}) ${source === 'portal' ? 'submitted through the portal' : 'recorded'}`,
        details: { grossP: row.gross_p, cisDeductionP: row.cis_deduction_p, source },
      });
      await context.invoiceChanged(trx, ctx.tenantId, [id], 'created');
      return { invoice: invoiceView(row), warnings: amounts.warnings };
    } catch (error) {
      if (isUniqueViolation(error)) throw refused(DUPLICATE_NUMBER, 'duplicate');
      throw error;
    }
  });
}

function invoiceColumns(input: InvoiceInput, subcontractor: SubcontractorRow) {
  return {
    invoice_number: input.invoiceNumber.trim(),
    subcontractor_id: subcontractor.id,
    subcontractor_name: subcontractor.name,
    invoice_date: input.invoiceDate,
    received_date: input.receivedDate ?? null,
    description: input.description,
    vat_rate: input.vatRate,
    reverse_charge: input.reverseCharge,
    materials_justification: input.materialsJustification.trim(),
    verification_reference: subcontractor.verification_reference,
    utr_masked: subcontractor.utr_masked,
    nino_masked: subcontractor.nino_masked,
  };
}

/** The five summary cards of the invoice list (over all of the tenant's invoices). */
export async function invoiceSummary(trx: Knex.Transaction) {
  const month = currentTaxMonth();
  return trx('invoices')
    .whereNull('deleted_at')
    .first<{
      total: number;
      draft: number;
      approved: number;
      thisMonthCisP: number;
      pendingStatements: number;
    }>(
      trx.raw('count(*)::int AS total'),
      trx.raw(`count(*) FILTER (WHERE status = 'draft')::int AS draft`),
      trx.raw(`count(*) FILTER (WHERE status = 'approved')::int AS approved`),
      trx.raw(
        `coalesce(sum(cis_deduction_p) FILTER (WHERE status = 'paid' AND tax_month = ?), 0)::bigint AS "thisMonthCisP"`,
        [month],
      ),
      trx.raw(
        `count(*) FILTER (WHERE status IN ('approved', 'paid') AND statement_required AND statement_issued_at IS NULL)::int AS "pendingStatements"`,
      ),
    );
}

const IMPORT_CHUNK = 1_000;
const COUNT_CAP = 10_000;
const SEARCH_COUNT_CAP = 1_000;

async function importInvoices(context: CisContext, ctx: RequestContext, csv: string) {
  const parsed = parseInvoiceCsv(csv);
  const failed: { index: number; errors: string[] }[] = [];
  for (const error of parsed.errors) {
    const index = error.row ?? 0;
    const entry = failed.find((f) => f.index === index);
    if (entry) entry.errors.push(error.message);
    else failed.push({ index, errors: [error.message] });
  }
  const created: string[] = [];
  await context.inTenant(ctx.tenantId, async (trx) => {
    const subcontractors = await trx<SubcontractorRow>('subcontractors').whereNull('deleted_at');
    const byId = new Map(subcontractors.map((row) => [row.id, row]));
    const byName = new Map<string, SubcontractorRow[]>();
    for (const row of subcontractors) {
      const key = row.name.trim().toLowerCase();
      byName.set(key, [...(byName.get(key) ?? []), row]);
    }
    const matchesOf = (ref: string): SubcontractorRow[] =>
      byId.has(ref) ? [byId.get(ref) as SubcontractorRow] : (byName.get(ref.toLowerCase()) ?? []);
    // Only the numbers this file uses, looked up per subcontractor through the unique index (not every invoice).
    const candidates: { id: string; number: string }[] = [];
    for (const raw of parsed.rows) {
      const { value } = parseImportRow(raw);
      const [only, ...others] = value ? matchesOf(value.subcontractorRef.trim()) : [];
      if (value && only && others.length === 0)
        candidates.push({ id: only.id, number: value.invoiceNumber.trim().toLowerCase() });
    }
    const taken = new Set<string>();
    for (let start = 0; start < candidates.length; start += IMPORT_CHUNK) {
      const chunk = candidates.slice(start, start + IMPORT_CHUNK);
      const { rows } = await trx.raw<{ rows: { subcontractor_id: string; number: string }[] }>(
        `SELECT i.subcontractor_id, lower(i.invoice_number) AS number
           FROM invoices i
           JOIN unnest(?::uuid[], ?::text[]) AS c(subcontractor_id, number)
             ON i.subcontractor_id = c.subcontractor_id AND lower(i.invoice_number) = c.number
          WHERE i.deleted_at IS NULL AND i.status <> 'cancelled'`,
        [chunk.map((c) => c.id), chunk.map((c) => c.number)],
      );
      for (const row of rows) taken.add(`${row.subcontractor_id}:${row.number}`);
    }
    const now = new Date();
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await trx('invoices').insert(batch);
      batch = [];
    };
    for (const [position, raw] of parsed.rows.entries()) {
      const index = parsed.rowNumbers[position] ?? position + 1;
      const { value, errors } = parseImportRow(raw);
      if (!value) {
        failed.push({ index, errors });
        continue;
      }
      const ref = value.subcontractorRef.trim();
      const matches = matchesOf(ref);
      const rowErrors = [...errors];
      const subcontractor = matches.length === 1 ? matches[0] : undefined;
      if (matches.length === 0)
        rowErrors.push(ref ? `Unknown subcontractor: ${ref}` : 'Subcontractor is required');
      else if (matches.length > 1) rowErrors.push(`More than one subcontractor is named ${ref}; use its id`);
      else if (subcontractor?.archived)
        rowErrors.push('Archived subcontractors cannot be used for new invoices');
      const input = {
        invoiceNumber: value.invoiceNumber,
        subcontractorId: subcontractor?.id ?? '',
        invoiceDate: value.invoiceDate,
        description: value.description,
        grossP: value.grossP,
        materialsP: value.materialsP,
        vatRate: value.vatRate,
        reverseCharge: value.reverseCharge,
        materialsJustification: value.materialsJustification,
      };
      const fieldErrors = validateInvoiceInput(input);
      for (const [field, message] of Object.entries(fieldErrors))
        if (!(field === 'subcontractorId' && matches.length !== 1)) rowErrors.push(message);
      if (subcontractor && taken.has(`${subcontractor.id}:${value.invoiceNumber.trim().toLowerCase()}`))
        rowErrors.push(DUPLICATE_NUMBER);
      if (rowErrors.length > 0 || !subcontractor) {
        failed.push({ index, errors: [...new Set(rowErrors)] });
        continue;
      }
      const amounts = calculateInvoice({
        grossP: value.grossP,
        materialsP: value.materialsP,
        cisRate: subcontractor.verification_rate,
        vatRate: value.vatRate,
        reverseCharge: value.reverseCharge,
      });
      if (amounts.errors.length > 0) {
        failed.push({ index, errors: amounts.errors });
        continue;
      }
      const id = randomUUID();
      taken.add(`${subcontractor.id}:${value.invoiceNumber.trim().toLowerCase()}`);
      batch.push({
        id,
        tenant_id: ctx.tenantId,
        ...invoiceColumns({ ...input, receivedDate: null }, subcontractor),
        ...amountColumns(amounts, subcontractor.verification_rate),
        status: 'draft',
        source: 'import',
        created_at: now,
        updated_at: now,
        created_by: ctx.userId,
        updated_by: ctx.userId,
      });
      created.push(id);
      if (batch.length >= IMPORT_CHUNK) await flush();
    }
    await flush();
    failed.sort((a, b) => a.index - b.index);
    await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.import.invoices', {
      targetType: 'import',
      summary: `${created.length} invoices imported${failed.length ? `, ${failed.length} rows refused` : ''}`,
      succeeded: created.length,
      failed: failed.length,
      details: { format: 'csv', rows: parsed.rows.length },
    });
    await context.invoiceChanged(trx, ctx.tenantId, created, 'imported');
  });
  return { created, failed };
}
