import { ApiRouter, problems, type Knex, type RequestContext } from '@workspace/kit';
import { z } from 'zod';
import type { CisContext } from '../context.js';
import { buildCis300Envelope, computeIrMark } from '../documents/cis300-xml.js';
import { returnCsv } from '../documents/csv-export.js';
import {
  amendmentId,
  compileReturnLines,
  currentTaxMonth,
  returnDisplayStatus,
  RETURN_MESSAGES,
  returnTransition,
  settingsReadyIssues,
  taxMonthPeriod,
  validateReturn,
  type ReturnLine,
  type ReturnTotals,
  taxMonthInSentence,
} from '../domain/index.js';
import { iso, looseObject, refused, sendCsv, taxMonthLabelOf } from './common.js';
import type { InvoiceRow } from './invoices.js';
import { loadSettings } from './settings.js';
import type { StatementRow } from './statements.js';
import type { SubcontractorRow } from './subcontractors.js';

interface ReturnRow {
  tenant_id: string;
  id: string;
  tax_month: string;
  status: 'draft' | 'ready' | 'submitted' | 'amended' | 'nil';
  locked: boolean;
  locked_at: Date | null;
  period: ReturnType<typeof returnPeriod>;
  deadlines: ReturnType<typeof taxMonthPeriod>['deadlines'];
  totals: ReturnTotals;
  lines: ReturnLine[];
  issues: string[];
  submission_ref: string | null;
  submitted_at: Date | null;
  submitted_by: string | null;
  amendment_of: string | null;
  compiled_by: string | null;
  cis300_xml: string | null;
  created_at: Date;
  updated_at: Date;
  updated_by: string | null;
}

/** A return's period (cis.md section 3): the tax month's dates and labels, with its taxMonth. */
const returnPeriod = (taxMonth: string) => ({ ...taxMonthPeriod(taxMonth), taxMonth });

/**
 * The tax month of a returns path: a malformed or blank one is the return service's 'Tax month is required'
 * (cis.md section 8), before anything is read or written.
 */
const taxMonthParams = z.object({
  taxMonth: z.string().trim().pipe(taxMonthLabelOf(RETURN_MESSAGES.taxMonthRequired)),
});

const returnView = (row: ReturnRow) => ({
  id: row.id,
  taxMonth: row.tax_month,
  status: row.status,
  displayStatus: returnDisplayStatus(row),
  locked: row.locked,
  lockedAt: iso(row.locked_at),
  period: { ...row.period, taxMonth: row.tax_month },
  deadlines: row.deadlines,
  totals: row.totals,
  lines: row.lines,
  issues: row.issues,
  submissionRef: row.submission_ref,
  submittedAt: iso(row.submitted_at),
  submittedBy: row.submitted_by,
  amendmentOf: row.amendment_of,
  compiledBy: row.compiled_by,
  hasCis300: row.cis300_xml !== null,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** The return of a tax month: its latest record (an amendment supersedes the original). */
async function latestReturn(trx: Knex.Transaction, taxMonth: string, lock = false) {
  const query = trx<ReturnRow>('returns').where({ tax_month: taxMonth }).orderBy('created_at', 'desc');
  return (lock ? query.forUpdate() : query).first();
}

async function requireReturn(trx: Knex.Transaction, id: string, lock = false): Promise<ReturnRow> {
  const query = trx<ReturnRow>('returns').where({ id });
  const row = await (lock ? query.forUpdate() : query).first();
  if (!row) throw problems.notFound('Return not found');
  return row;
}

/** Lines and totals of a tax month from its paid invoices (HMRC: by payment date) and issued statements. */
async function compileMonth(trx: Knex.Transaction, taxMonth: string) {
  const invoices = await trx<InvoiceRow>('invoices')
    .whereNull('deleted_at')
    .where({ status: 'paid', tax_month: taxMonth })
    .select('id', 'subcontractor_id', 'subcontractor_name', 'gross_p', 'materials_p', 'cis_deduction_p', 'cis_rate', 'verification_reference'); // prettier-ignore
  const subIds = [...new Set(invoices.map((invoice) => invoice.subcontractor_id))];
  const [subs, statements] = await Promise.all([
    trx<SubcontractorRow>('subcontractors').whereIn('id', subIds),
    trx<StatementRow>('statements').where({ tax_month: taxMonth }).whereIn('subcontractor_id', subIds),
  ]);
  return compileReturnLines({
    taxMonth,
    invoices: invoices.map((invoice) => ({
      id: invoice.id,
      subcontractorId: invoice.subcontractor_id,
      subcontractorName: invoice.subcontractor_name,
      grossP: invoice.gross_p,
      materialsP: invoice.materials_p,
      cisDeductionP: invoice.cis_deduction_p,
      cisRate: invoice.cis_rate,
      verificationSnapshot: { rate: invoice.cis_rate, reference: invoice.verification_reference },
    })),
    subcontractors: new Map(
      subs.map((sub) => [
        sub.id,
        {
          name: sub.name,
          utrMasked: sub.utr_masked,
          ninoMasked: sub.nino_masked,
          verificationReference: sub.verification_reference,
          rate: sub.verification_rate,
        },
      ]),
    ),
    statements: new Map(
      statements.map((statement) => [statement.subcontractor_id, iso(statement.issued_at)] as const),
    ),
  });
}

const validation = (row: Pick<ReturnRow, 'tax_month' | 'status' | 'totals' | 'lines' | 'period'>) =>
  validateReturn({ taxMonth: row.tax_month, status: row.status, totals: row.totals, lines: row.lines });

export function returnRoutes(context: CisContext): ApiRouter {
  /** The CIS300 document of a return: clear identifiers are read only here, at submission. */
  const cis300 = async (trx: Knex.Transaction, tenantId: string, row: ReturnRow) => {
    const settings = await loadSettings(trx, tenantId);
    const subs = await trx<SubcontractorRow>('subcontractors').whereIn(
      'id',
      row.lines.map((line) => line.subcontractorId),
    );
    const byId = new Map(subs.map((sub) => [sub.id, sub]));
    const xml = buildCis300Envelope({
      contractor: {
        utr: context.decrypt(settings.utr_enc),
        accountsOfficeRef: settings.accounts_office_ref,
        employerRef: settings.employer_ref,
      },
      periodEnd: row.period.periodEnd,
      nil: row.lines.length === 0,
      lines: row.lines.map((line) => {
        const sub = byId.get(line.subcontractorId);
        return {
          name: line.name,
          type: sub?.type ?? 'individual',
          utr: context.decrypt(sub?.utr_enc ?? null) || null,
          crn: sub?.company_number || null,
          nino: context.decrypt(sub?.nino_enc ?? null) || null,
          verificationNumber: line.cisRate === 30 ? line.verificationRef || null : null,
          unmatchedRate: line.cisRate === 30,
          totalPaymentsP: line.grossP,
          costOfMaterialsP: line.materialsP,
          totalDeductedP: line.cisDeductedP,
        };
      }),
      declarations: { employmentStatus: true, verification: true, informationCorrect: true },
    });
    return { xml, irMark: computeIrMark(xml) };
  };

  const compile = (ctx: RequestContext, taxMonth: string) =>
    context.inTenant(ctx.tenantId, async (trx) => {
      const existing = await latestReturn(trx, taxMonth, true);
      const compiled = await compileMonth(trx, taxMonth);
      const transition = returnTransition(existing ?? null, existing ? 'recompile' : 'compile', {
        taxMonth,
        lineCount: compiled.lines.length,
      });
      if (!transition.ok) throw refused(transition.error);
      const period = returnPeriod(taxMonth);
      const status =
        compiled.lines.length === 0 ? 'nil' : existing?.status === 'amended' ? 'amended' : 'draft';
      const check = validateReturn({ taxMonth, status, totals: compiled.totals, lines: compiled.lines });
      const values = {
        status,
        period: JSON.stringify(period),
        deadlines: JSON.stringify(period.deadlines),
        totals: JSON.stringify(compiled.totals),
        lines: JSON.stringify(compiled.lines),
        issues: JSON.stringify(check.issues),
        compiled_by: ctx.userId,
        updated_at: new Date(),
        updated_by: ctx.userId,
      };
      const [row] = existing
        ? await trx<ReturnRow>('returns')
            .where({ id: existing.id })
            .update(values as never)
            .returning('*')
        : await trx<ReturnRow>('returns')
            .insert({ tenant_id: ctx.tenantId, id: taxMonth, tax_month: taxMonth, ...values } as never)
            .returning('*');
      if (!row) throw new Error('return write returned nothing');
      await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.return.compiled', {
        targetType: 'return',
        targetId: row.id,
        taxMonth,
        summary: `Return compiled for the ${taxMonthInSentence(period)}: ${compiled.lines.length} subcontractors`,
        details: { lines: compiled.lines.length, status },
      });
      return { return: returnView(row), validation: check };
    });

  return new ApiRouter()
    .route({
      method: 'get',
      path: '/returns/current',
      summary: 'The current tax month, its return (if compiled) and the validity check',
      scopes: ['cis.inv.read'],
      responses: { 200: { description: 'The current month', schema: looseObject } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const label = currentTaxMonth();
          const row = await latestReturn(trx, label);
          return {
            period: taxMonthPeriod(label),
            return: row ? returnView(row) : null,
            displayStatus: returnDisplayStatus(row ?? null),
            validation: row ? validation(row) : null,
          };
        }),
    })
    .route({
      method: 'get',
      path: '/returns',
      summary: 'Returns, tax month descending (the history keeps the latest 12)',
      scopes: ['cis.inv.read'],
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(12).default(12) }) },
      responses: { 200: { description: 'History', schema: z.object({ items: z.array(looseObject) }) } },
      handler: ({ ctx, query }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const rows = await trx<ReturnRow>('returns')
            .orderBy([
              { column: 'tax_month', order: 'desc' },
              { column: 'created_at', order: 'desc' },
            ])
            .limit(query.limit);
          return { items: rows.map(returnView) };
        }),
    })
    .route({
      method: 'get',
      path: '/returns/:taxMonth',
      summary:
        'The return of a tax month by its label (its latest record: an amendment supersedes the original)',
      scopes: ['cis.inv.read'],
      request: { params: taxMonthParams },
      responses: {
        200: {
          description: 'The return and its validation',
          schema: z.object({ return: looseObject, validation: looseObject }),
        },
      },
      handler: ({ ctx, params }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const row = await latestReturn(trx, params.taxMonth);
          if (!row) throw problems.notFound(RETURN_MESSAGES.notFound);
          return { return: returnView(row), validation: validation(row) };
        }),
    })
    .route({
      method: 'get',
      path: '/returns/:taxMonth/validate',
      summary: 'Validate the return of a tax month (issues[])',
      scopes: ['cis.inv.read'],
      request: { params: taxMonthParams },
      responses: {
        200: { description: 'Issues', schema: z.object({ valid: z.boolean(), issues: z.array(z.string()) }) },
      },
      handler: ({ ctx, params }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const row = await latestReturn(trx, params.taxMonth);
          if (!row) throw problems.notFound('Return not found');
          return validation(row);
        }),
    })
    .route({
      method: 'post',
      path: '/returns/:taxMonth/compile',
      summary: 'Compile (or recompile) the return of a tax month from its paid invoices; nil without lines',
      scopes: ['cis.ret.compile'],
      request: { params: taxMonthParams },
      responses: { 200: { description: 'The return and its validation', schema: looseObject } },
      handler: ({ ctx, params }) => compile(ctx, params.taxMonth),
    })
    .route({
      method: 'post',
      path: '/returns/:id/submit',
      summary: 'Submit a valid, unlocked return: it is locked and its CIS300 document kept',
      scopes: ['cis.ret.submit'],
      request: { params: z.object({ id: z.string().max(80) }) },
      responses: { 200: { description: 'Submitted', schema: z.object({ return: looseObject }) } },
      handler: ({ ctx, params }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const row = await requireReturn(trx, params.id, true);
          // Statements issued since the compile count: refresh the lines' statement state before checking.
          const statements = await trx<StatementRow>('statements').where({ tax_month: row.tax_month });
          const issued = new Map(statements.map((s) => [s.subcontractor_id, iso(s.issued_at)]));
          const lines = row.lines.map((line) => ({
            ...line,
            statementsIssued: line.statementsIssued || Boolean(issued.get(line.subcontractorId)),
            lastStatementDate: line.lastStatementDate ?? issued.get(line.subcontractorId) ?? null,
          }));
          const settings = await loadSettings(trx, ctx.tenantId);
          const check = validateReturn({
            taxMonth: row.tax_month,
            status: row.status,
            totals: row.totals,
            lines,
          });
          const readiness = settingsReadyIssues({
            companyName: settings.company_name,
            employerRef: settings.employer_ref,
            accountsOfficeRef: settings.accounts_office_ref,
            utr: context.decrypt(settings.utr_enc),
          });
          const transition = returnTransition(row, 'submit', {
            validation: {
              valid: check.valid && readiness.length === 0,
              issues: [...check.issues, ...readiness],
            },
          });
          if (!transition.ok) throw refused(transition.error);
          const { xml, irMark } = await cis300(trx, ctx.tenantId, { ...row, lines });
          const now = new Date();
          const [saved] = await trx<ReturnRow>('returns')
            .where({ id: row.id })
            .update({
              status: 'submitted',
              locked: true,
              locked_at: now,
              submitted_at: now,
              // cis.md section 4: the submitter is recorded as 'system' (the person is in the audit entry).
              submitted_by: 'system',
              submission_ref: irMark,
              lines: JSON.stringify(lines),
              issues: JSON.stringify([]),
              cis300_xml: xml,
              updated_at: now,
              updated_by: ctx.userId,
            } as never)
            .returning('*');
          if (!saved) throw problems.notFound('Return not found');
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.return.submitted', {
            targetType: 'return',
            targetId: row.id,
            taxMonth: row.tax_month,
            summary: `Return submitted for the ${taxMonthInSentence(row.period)}`,
            details: {
              lines: lines.length,
              cisDeductedP: row.totals.cisDeductedP,
              activity: 'return.submit',
              nil: lines.length === 0,
            },
          });
          return { return: returnView(saved) };
        }),
    })
    .route({
      method: 'post',
      path: '/returns/:id/amend',
      summary: 'Amend a submitted return: a new record {id}-AMD-{timestamp} pointing at the original',
      scopes: ['cis.ret.submit'],
      status: 201,
      request: { params: z.object({ id: z.string().max(80) }) },
      responses: { 201: { description: 'The amendment', schema: z.object({ return: looseObject }) } },
      handler: ({ ctx, params }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const row = await requireReturn(trx, params.id, true);
          const transition = returnTransition(row, 'amend');
          if (!transition.ok) throw refused(transition.error);
          const id = amendmentId(row.id, Date.now());
          const [saved] = await trx<ReturnRow>('returns')
            .insert({
              tenant_id: ctx.tenantId,
              id,
              tax_month: row.tax_month,
              status: 'amended',
              locked: false,
              period: JSON.stringify(row.period),
              deadlines: JSON.stringify(row.deadlines),
              totals: JSON.stringify(row.totals),
              lines: JSON.stringify(row.lines),
              issues: JSON.stringify([]),
              amendment_of: row.id,
              compiled_by: ctx.userId,
              updated_by: ctx.userId,
            } as never)
            .returning('*');
          if (!saved) throw new Error('insert returned nothing');
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.return.amended', {
            targetType: 'return',
            targetId: id,
            taxMonth: row.tax_month,
            summary: `Amendment started for the ${taxMonthInSentence(row.period)}`,
            details: { amendmentOf: row.id },
          });
          return { return: returnView(saved) };
        }),
    })
    .route({
      method: 'post',
      path: '/returns/:id/unlock',
      summary: 'Unlock a locked return for testing (only where the deployment enables testing tools)',
      scopes: ['cis.ret.submit'],
      request: { params: z.object({ id: z.string().max(80) }) },
      responses: { 200: { description: 'Unlocked', schema: z.object({ return: looseObject }) } },
      handler: ({ ctx, params }) => {
        if (!context.config.CIS_TESTING_TOOLS)
          throw problems.forbidden('Unlocking returns is only available where testing tools are enabled.');
        return context.inTenant(ctx.tenantId, async (trx) => {
          const row = await requireReturn(trx, params.id, true);
          const transition = returnTransition(row, 'unlock');
          if (!transition.ok) throw refused(transition.error);
          const [saved] = await trx<ReturnRow>('returns')
            .where({ id: row.id })
            .update({
              status: 'draft',
              locked: false,
              locked_at: null,
              submitted_at: null,
              submitted_by: null,
              submission_ref: null,
              cis300_xml: null,
              updated_at: new Date(),
              updated_by: ctx.userId,
            })
            .returning('*');
          if (!saved) throw problems.notFound('Return not found');
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.return.unlocked', {
            targetType: 'return',
            targetId: row.id,
            taxMonth: row.tax_month,
            summary: `Return for the ${taxMonthInSentence(row.period)} unlocked for testing`,
          });
          return { return: returnView(saved) };
        });
      },
    })
    .route({
      method: 'get',
      path: '/returns/:id/export.csv',
      summary: 'A return as CSV (identifiers masked)',
      scopes: ['cis.io.export'],
      request: { params: z.object({ id: z.string().max(80) }) },
      responses: { 200: { description: 'text/csv' } },
      handler: async ({ ctx, params, res }) => {
        const built = await context.inTenant(ctx.tenantId, async (trx) => {
          const row = await requireReturn(trx, params.id);
          if (row.lines.length === 0) throw refused('No data to export');
          await context.audit(trx, ctx.tenantId, ctx.userId, 'cis.return.exported', {
            targetType: 'return',
            targetId: row.id,
            taxMonth: row.tax_month,
            summary: `Return for the ${taxMonthInSentence(row.period)} exported to CSV`,
            details: { format: 'csv', lines: row.lines.length },
          });
          return returnCsv(returnView(row));
        });
        sendCsv(res, built.filename, built.content);
      },
    })
    .route({
      method: 'get',
      path: '/returns/:id/cis300.xml',
      summary: "The submitted return's CIS300 document (HMRC's GovTalk XML)",
      scopes: ['cis.ret.submit'],
      request: { params: z.object({ id: z.string().max(80) }) },
      responses: { 200: { description: 'application/xml' } },
      handler: async ({ ctx, params, res }) => {
        const row = await context.inTenant(ctx.tenantId, (trx) => requireReturn(trx, params.id));
        if (!row.cis300_xml) throw problems.notFound('This return has not been submitted');
        res
          .status(200)
          .type('application/xml')
          .set('Content-Disposition', `attachment; filename="cis300-${row.id}.xml"`)
          .set('Cache-Control', 'no-store')
          .send(row.cis300_xml);
      },
    });
}
