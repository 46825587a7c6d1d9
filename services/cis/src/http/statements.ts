import { ApiRouter, HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { z } from 'zod';
import { statementKey, type CisContext } from '../context.js';
import {
  renderStatementPdf,
  type StatementCisRate,
  type StatementPdfInput,
} from '../documents/statement-pdf.js';
import {
  addDays,
  currentTaxMonth,
  daysBetween,
  londonDate,
  statementDeadlineState,
  taxMonthPeriod,
  taxMonthInSentence,
} from '../domain/index.js';
import { iso, looseObject, refused, taxMonthLabel } from './common.js';
import { invoiceView, queueStatementJob, type InvoiceRow } from './invoices.js';
import { loadSettings } from './settings.js';
import { requireSubcontractor, type SubcontractorRow } from './subcontractors.js';

export interface StatementRow {
  tenant_id: string;
  id: string;
  subcontractor_id: string;
  subcontractor_name: string;
  tax_month: string;
  invoice_ids: string[];
  invoice_count: number;
  gross_p: number;
  materials_p: number;
  labour_p: number;
  cis_deduction_p: number;
  cis_rate: number;
  verification_reference: string;
  status: 'generated' | 'issued';
  generated_at: Date;
  generated_by: string;
  issued_at: Date | null;
  issued_method: 'email' | 'portal' | 'print' | null;
  issued_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const statementView = (row: StatementRow) => ({
  id: row.id,
  subcontractorId: row.subcontractor_id,
  subcontractorName: row.subcontractor_name,
  taxMonth: row.tax_month,
  invoiceIds: row.invoice_ids,
  invoiceCount: row.invoice_count,
  totals: {
    grossP: row.gross_p,
    materialsP: row.materials_p,
    labourP: row.labour_p,
    cisDeductionP: row.cis_deduction_p,
  },
  cisRate: row.cis_rate,
  status: row.status,
  generatedAt: iso(row.generated_at),
  generatedBy: row.generated_by,
  issuedAt: iso(row.issued_at),
  issuedMethod: row.issued_method,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** Invoices a statement covers: the subcontractor's invoices paid in the tax month (HMRC: by payment date). */
async function statementInvoices(
  trx: Knex.Transaction,
  taxMonth: string,
  subcontractorId?: string,
): Promise<InvoiceRow[]> {
  let builder = trx<InvoiceRow>('invoices')
    .whereNull('deleted_at')
    .where({ status: 'paid', tax_month: taxMonth });
  if (subcontractorId) builder = builder.where({ subcontractor_id: subcontractorId });
  return builder.orderBy([
    { column: 'payment_date', order: 'asc' },
    { column: 'invoice_number', order: 'asc' },
  ]);
}

export class StatementError extends Error {}

/**
 * Generates the statement of one subcontractor for one tax month (cis.md section 4: only if none exists) from
 * the invoices paid in it, and links them to it.
 */
export async function generateStatement(
  context: CisContext,
  trx: Knex.Transaction,
  tenantId: string,
  actorId: string,
  subcontractorId: string,
  taxMonth: string,
): Promise<StatementRow> {
  const subcontractor = await requireSubcontractor(trx, subcontractorId);
  const id = statementKey(subcontractorId, taxMonth);
  const existing = await trx<StatementRow>('statements').where({ id }).first();
  if (existing)
    throw new StatementError(`Statement already exists for ${subcontractor.name} for this tax month`);
  const invoices = await statementInvoices(trx, taxMonth, subcontractorId);
  if (invoices.length === 0)
    throw new StatementError(`No paid invoices for ${subcontractor.name} in this tax month`);
  const sum = (pick: (row: InvoiceRow) => number) => invoices.reduce((total, row) => total + pick(row), 0);
  const rates = [...new Set(invoices.map((row) => row.cis_rate))];
  const now = new Date();
  const [row] = await trx<StatementRow>('statements')
    .insert({
      tenant_id: tenantId,
      id,
      subcontractor_id: subcontractorId,
      subcontractor_name: subcontractor.name,
      tax_month: taxMonth,
      invoice_ids: invoices.map((invoice) => invoice.id),
      invoice_count: invoices.length,
      gross_p: sum((r) => r.gross_p),
      materials_p: sum((r) => r.materials_p),
      labour_p: sum((r) => r.labour_p),
      cis_deduction_p: sum((r) => r.cis_deduction_p),
      cis_rate: Math.max(...rates),
      verification_reference: subcontractor.verification_reference,
      status: 'generated',
      generated_at: now,
      generated_by: actorId,
      updated_by: actorId,
    } as Record<string, unknown>)
    // Another request or the background job may have made it since the check above: a duplicate, not an error.
    .onConflict()
    .ignore()
    .returning('*');
  if (!row) throw new StatementError(`Statement already exists for ${subcontractor.name} for this tax month`);
  await trx('invoices')
    .whereIn(
      'id',
      invoices.map((invoice) => invoice.id),
    )
    // A statement's invoices are flagged as needing it (approval flags those with a deduction already).
    .update({
      statement_id: id,
      statement_required: true,
      statement_requested_at: trx.raw('coalesce(statement_requested_at, now())'),
      statement_requested_by: trx.raw('coalesce(statement_requested_by, ?)', [actorId]),
    });
  await context.audit(trx, tenantId, actorId, 'cis.statement.generated', {
    targetType: 'statement',
    targetId: id,
    taxMonth,
    summary: `Statement generated for ${subcontractor.name} (${taxMonthPeriod(taxMonth).displayLabel})`,
    details: { invoices: invoices.length, cisDeductionP: row.cis_deduction_p },
  });
  return row;
}

/**
 * Brings a generated (not yet issued) statement up to date with the invoices paid in its month since it was
 * generated; an issued statement is never changed. Returns true when it changed.
 */
export async function refreshStatement(
  trx: Knex.Transaction,
  actorId: string,
  subcontractorId: string,
  taxMonth: string,
): Promise<boolean> {
  const existing = await trx<StatementRow>('statements')
    .where({ subcontractor_id: subcontractorId, tax_month: taxMonth })
    .forUpdate()
    .first();
  if (existing?.status !== 'generated') return false;
  const invoices = await statementInvoices(trx, taxMonth, subcontractorId);
  const ids = invoices.map((invoice) => invoice.id);
  if (ids.length === existing.invoice_ids.length && ids.every((id) => existing.invoice_ids.includes(id)))
    return false;
  const sum = (pick: (row: InvoiceRow) => number) => invoices.reduce((total, row) => total + pick(row), 0);
  await trx('statements')
    .where({ id: existing.id })
    .update({
      invoice_ids: ids,
      invoice_count: ids.length,
      gross_p: sum((r) => r.gross_p),
      materials_p: sum((r) => r.materials_p),
      labour_p: sum((r) => r.labour_p),
      cis_deduction_p: sum((r) => r.cis_deduction_p),
      cis_rate: Math.max(0, ...invoices.map((r) => r.cis_rate)),
      updated_at: new Date(),
      updated_by: actorId,
    });
  await trx('invoices').whereIn('id', ids).update({ statement_id: existing.id });
  return true;
}

async function requireStatement(trx: Knex.Transaction, id: string): Promise<StatementRow> {
  const row = await trx<StatementRow>('statements').where({ id }).first();
  if (!row) throw problems.notFound('Statement not found');
  return row;
}

/** Everything the PDF needs, with the subcontractor's UTR in clear (a statement must carry it). */
export async function statementPdfInput(
  context: CisContext,
  trx: Knex.Transaction,
  tenantId: string,
  row: StatementRow,
): Promise<StatementPdfInput> {
  const settings = await loadSettings(trx, tenantId);
  const subcontractor = await trx<SubcontractorRow>('subcontractors')
    .where({ id: row.subcontractor_id })
    .first();
  const invoices = await trx<InvoiceRow>('invoices').whereIn('id', row.invoice_ids).orderBy('payment_date');
  return {
    contractor: {
      name: settings.company_name || tenantId,
      employerRef: settings.employer_ref,
      accountsOfficeRef: settings.accounts_office_ref,
    },
    subcontractor: {
      name: row.subcontractor_name,
      utr: context.decrypt(subcontractor?.utr_enc ?? null),
      verificationNumber: row.verification_reference || null,
      rate: row.cis_rate as StatementCisRate,
    },
    taxMonth: row.tax_month,
    invoices: invoices.map((invoice) => ({
      invoiceNumber: invoice.invoice_number,
      invoiceDate: invoice.invoice_date,
      paymentDate: invoice.payment_date,
      grossP: invoice.gross_p,
      materialsP: invoice.materials_p,
      cisDeductionP: invoice.cis_deduction_p,
    })),
    totals: {
      grossP: row.gross_p,
      materialsP: row.materials_p,
      labourP: row.labour_p,
      cisDeductionP: row.cis_deduction_p,
    },
    statementId: row.id,
    generatedAt: row.generated_at.toISOString(),
    ...(settings.statement_footer ? { footer: settings.statement_footer } : {}),
  };
}

const statementsQuery = z.object({
  taxMonth: taxMonthLabel.optional(),
  filter: z.enum(['all', 'pending', 'generated', 'issued']).default('all'),
});

export function statementRoutes(context: CisContext): ApiRouter {
  const issue = async (ctx: RequestContext, id: string, method: 'email' | 'portal' | 'print') => {
    const prepared = await context.inTenant(ctx.tenantId, async (trx) => {
      const row = await requireStatement(trx, id);
      const subcontractor = await requireSubcontractor(trx, row.subcontractor_id);
      if (method === 'email' && !subcontractor.email)
        throw refused(`Failed to issue statement: ${subcontractor.name} has no email address`);
      const settings = await loadSettings(trx, ctx.tenantId);
      return {
        row,
        subcontractor,
        settings,
        pdf: method === 'email' ? await statementPdfInput(context, trx, ctx.tenantId, row) : null,
      };
    });
    let mail: { delivered: boolean } | null = null;
    if (method === 'email' && prepared.pdf) {
      const pdf = await renderStatementPdf(prepared.pdf);
      const period = taxMonthPeriod(prepared.row.tax_month);
      try {
        mail = await context.mailer.send({
          tenantId: ctx.tenantId,
          to: prepared.subcontractor.email,
          ...(prepared.settings.email_reply_to ? { replyTo: prepared.settings.email_reply_to } : {}),
          subject: `Payment and deduction statement: ${period.displayLabel}`,
          text: [
            `Hello ${prepared.subcontractor.name},`,
            '',
            `Attached is your CIS payment and deduction statement for the ${taxMonthInSentence(period)} from ${prepared.settings.company_name || ctx.tenantId}.`,
            '',
            'Keep this statement: you must keep records for at least 6 years.',
          ].join('\n'),
          attachments: [
            {
              filename: `cis-statement-${prepared.row.tax_month}-${prepared.row.id}.pdf`,
              contentType: 'application/pdf',
              contentBase64: pdf.toString('base64'),
            },
          ],
          idempotencyKey: `statement:${prepared.row.id}`,
          category: 'cis-statement',
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : 'the email service is unavailable';
        throw new HttpProblem(503, 'unavailable', `Failed to issue statement: ${message}`);
      }
    }
    return context.inTenant(ctx.tenantId, async (trx) => {
      const now = new Date();
      const [row] = await trx<StatementRow>('statements')
        .where({ id })
        .update({
          status: 'issued',
          issued_at: now,
          issued_method: method,
          issued_by: ctx.userId,
          updated_at: now,
          updated_by: ctx.userId,
        } as Record<string, unknown>)
        .returning('*');
      if (!row) throw problems.notFound('Statement not found');
      const stamped = await trx('invoices')
        .whereIn('id', row.invoice_ids)
        .update({ statement_issued_at: now, statement_issued_method: method, statement_id: id })
        .returning('id');
      await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.statement.sent', {
        targetType: 'statement',
        targetId: id,
        taxMonth: row.tax_month,
        summary: `Statement for ${row.subcontractor_name} issued by ${method}`,
        details: { method, invoices: row.invoice_count, activity: 'statement.issue' },
      });
      await context.invoiceChanged(
        trx,
        ctx.tenantId,
        (stamped as { id: string }[]).map((r) => r.id),
        'statement-issued',
      );
      return {
        statement: statementView(row),
        ...(mail ? { emailSent: mail.delivered } : {}),
        ...(mail && !mail.delivered
          ? { warning: 'The email could not be delivered yet; it will be retried automatically.' }
          : {}),
      };
    });
  };

  return new ApiRouter()
    .route({
      method: 'get',
      path: '/statements',
      summary:
        'The statements of a tax month: the deadline, counters and each subcontractor with its invoices',
      scopes: ['cis.inv.read'],
      request: { query: statementsQuery },
      responses: { 200: { description: 'The month', schema: looseObject } },
      handler: ({ ctx, query }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const taxMonth = query.taxMonth ?? currentTaxMonth();
          const period = taxMonthPeriod(taxMonth);
          const settings = await loadSettings(trx, ctx.tenantId);
          const deadlineDate = addDays(period.endDate, settings.statement_deadline_days);
          const daysRemaining = daysBetween(londonDate(new Date()), deadlineDate);
          const [invoices, statements] = await Promise.all([
            statementInvoices(trx, taxMonth),
            trx<StatementRow>('statements').where({ tax_month: taxMonth }).orderBy('generated_at', 'desc'),
          ]);
          const subIds = [
            ...new Set([
              ...invoices.map((i) => i.subcontractor_id),
              ...statements.map((s) => s.subcontractor_id),
            ]),
          ];
          const subs = await trx<SubcontractorRow>('subcontractors').whereIn('id', subIds);
          const subById = new Map(subs.map((s) => [s.id, s]));
          const statementBySub = new Map(statements.map((s) => [s.subcontractor_id, s]));
          const groups = subIds.map((subcontractorId) => {
            const own = invoices.filter((invoice) => invoice.subcontractor_id === subcontractorId);
            const statement = statementBySub.get(subcontractorId) ?? null;
            const sub = subById.get(subcontractorId);
            return {
              subcontractorId,
              name: sub?.name ?? statement?.subcontractor_name ?? '',
              utrMasked: sub?.utr_masked ?? '',
              email: sub?.email ?? '',
              invoices: own.map(invoiceView),
              totals: {
                grossP: own.reduce((t, r) => t + r.gross_p, 0),
                materialsP: own.reduce((t, r) => t + r.materials_p, 0),
                cisDeductionP: own.reduce((t, r) => t + r.cis_deduction_p, 0),
              },
              statement: statement ? statementView(statement) : null,
              state: statement ? statement.status : 'pending',
            };
          });
          groups.sort(
            (a, b) =>
              (b.statement?.generatedAt ?? '').localeCompare(a.statement?.generatedAt ?? '') ||
              a.name.localeCompare(b.name),
          );
          return {
            period,
            deadline: { date: deadlineDate, daysRemaining, state: statementDeadlineState(daysRemaining) },
            counters: {
              totalSubcontractors: groups.length,
              pendingGeneration: groups.filter((g) => g.statement === null).length,
              generated: groups.filter((g) => g.statement?.status === 'generated').length,
              issued: groups.filter((g) => g.statement?.status === 'issued').length,
            },
            subcontractors: groups.filter((g) => query.filter === 'all' || g.state === query.filter),
          };
        }),
    })
    .route({
      method: 'post',
      path: '/statements/generate',
      summary: 'Generate the statement of a subcontractor for a tax month (refused when one exists)',
      scopes: ['cis.stmt.issue'],
      status: 201,
      request: { body: z.object({ subcontractorId: z.uuid(), taxMonth: taxMonthLabel }) },
      responses: { 201: { description: 'The statement', schema: z.object({ statement: looseObject }) } },
      handler: ({ ctx, body }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          try {
            const row = await generateStatement(
              context,
              trx,
              ctx.tenantId,
              ctx.userId,
              body.subcontractorId,
              body.taxMonth,
            );
            return { statement: statementView(row) };
          } catch (error) {
            if (error instanceof StatementError) throw refused(error.message);
            throw error;
          }
        }),
    })
    .route({
      method: 'post',
      path: '/statements/generate-all',
      summary: 'Generate every missing statement of a tax month as a background job (progress on /jobs/:id)',
      scopes: ['cis.stmt.issue'],
      status: 202,
      request: { body: z.object({ taxMonth: taxMonthLabel }) },
      responses: { 202: { description: 'The job', schema: z.object({ job: looseObject }) } },
      handler: ({ ctx, body }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const id = await queueStatementJob(trx, ctx.tenantId, ctx.userId, {
            taxMonth: body.taxMonth,
            reason: 'generate-all',
          });
          return { job: { id, type: 'statements.generate', status: 'pending', progress: 0 } };
        }),
    })
    .route({
      method: 'post',
      path: '/statements/:id/issue',
      summary: 'Issue a statement by email (PDF attached), portal or print; stamps each included invoice',
      scopes: ['cis.stmt.issue'],
      request: {
        params: z.object({ id: z.string().regex(/^[0-9a-f]{16}$/) }),
        body: z.object({ method: z.enum(['email', 'portal', 'print']) }),
      },
      responses: { 200: { description: 'Issued', schema: looseObject } },
      handler: ({ ctx, params, body }) => issue(ctx, params.id, body.method),
    })
    .route({
      method: 'get',
      path: '/statements/:id/pdf',
      summary: 'The statement as a PDF (what HMRC requires of a payment and deduction statement)',
      scopes: ['cis.inv.read'],
      request: { params: z.object({ id: z.string().regex(/^[0-9a-f]{16}$/) }) },
      responses: { 200: { description: 'application/pdf' } },
      handler: async ({ ctx, params, res }) => {
        const input = await context.inTenant(ctx.tenantId, async (trx) =>
          statementPdfInput(context, trx, ctx.tenantId, await requireStatement(trx, params.id)),
        );
        const pdf = await renderStatementPdf(input);
        res
          .status(200)
          .type('application/pdf')
          .set('Content-Disposition', `inline; filename="cis-statement-${input.taxMonth}-${params.id}.pdf"`)
          .set('Cache-Control', 'no-store')
          .send(pdf);
      },
    });
}
