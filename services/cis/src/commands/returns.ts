import { HttpProblem, problems, type Knex } from '@workspace/kit';
import { declarationIssues, declaredForReturn, type CisDeclarations } from '@workspace/rules';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { ReturnStore, type ReturnRecord } from '../db/returns.store.js';
import { SettingsStore } from '../db/settings.store.js';
import { StatementStore } from '../db/statements.store.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';
import { buildCis300Envelope, computeIrMark } from '../documents/cis300-xml.js';
import { returnCsv } from '../documents/csv-export.js';
import {
  amendmentId,
  compileReturnLines,
  returnChangesSince,
  returnTransition,
  londonDate,
  settingsReadyIssues,
  submitTooEarly,
  taxMonthInSentence,
  taxMonthOf,
  taxMonthPeriod,
  validateReturn,
} from '../domain/index.js';
import { iso } from '../domain/timestamps.js';
import type { Actor } from '../events/audit.js';
import { fieldProblem, refused } from './problems.js';

/** A return's period (cis.md section 3): the tax month's dates and labels, with its taxMonth. */
const returnPeriod = (taxMonth: string) => ({ ...taxMonthPeriod(taxMonth), taxMonth });

/** The validity check of a stored return. */
export const returnValidation = (row: Pick<ReturnRecord, 'taxMonth' | 'status' | 'totals' | 'lines'>) =>
  validateReturn({ taxMonth: row.taxMonth, status: row.status, totals: row.totals, lines: row.lines });

async function requireReturn(trx: Knex.Transaction, id: string, lock = false): Promise<ReturnRecord> {
  const row = await new ReturnStore(trx).find(id, { lock });
  if (!row) throw problems.notFound('Return not found');
  return row;
}

/** Lines and totals of a tax month from its paid invoices (HMRC: by payment date) and issued statements. */
async function compileMonth(trx: Knex.Transaction, taxMonth: string) {
  const invoices = await new InvoiceStore(trx).paidForReturn(taxMonth);
  const subIds = [...new Set(invoices.map((invoice) => invoice.subcontractorId))];
  const [subs, statements] = await Promise.all([
    new SubcontractorStore(trx).byIds(subIds),
    new StatementStore(trx).ofMonthFor(taxMonth, subIds),
  ]);
  return compileReturnLines({
    taxMonth,
    invoices: invoices.map((invoice) => ({
      id: invoice.id,
      subcontractorId: invoice.subcontractorId,
      subcontractorName: invoice.subcontractorName,
      grossP: invoice.grossP,
      materialsP: invoice.materialsP,
      cisDeductionP: invoice.cisDeductionP,
      cisRate: invoice.cisRate,
      verificationSnapshot: { rate: invoice.cisRate, reference: invoice.verificationReference },
    })),
    subcontractors: new Map(
      subs.map((sub) => [
        sub.id,
        {
          name: sub.name,
          utrMasked: sub.utrMasked,
          ninoMasked: sub.ninoMasked,
          verificationReference: sub.verificationReference,
          rate: sub.verificationRate,
        },
      ]),
    ),
    statements: new Map(
      statements.map((statement) => [statement.subcontractorId, iso(statement.issuedAt)] as const),
    ),
  });
}

/**
 * The CIS300 document of a return with the declarations as they were given: clear identifiers are read only here,
 * at submission.
 */
async function cis300(
  deps: CisDeps,
  trx: Knex.Transaction,
  tenantId: string,
  row: ReturnRecord,
  declared: CisDeclarations,
) {
  const settings = await new SettingsStore(trx).load(tenantId);
  const subs = await new SubcontractorStore(trx).byIds(row.lines.map((line) => line.subcontractorId));
  const byId = new Map(subs.map((sub) => [sub.id, sub]));
  const xml = buildCis300Envelope({
    contractor: {
      utr: deps.sealed.open(settings.utrEnc),
      accountsOfficeRef: settings.accountsOfficeRef,
      employerRef: settings.employerRef,
    },
    periodEnd: row.period.periodEnd,
    nil: row.lines.length === 0,
    lines: row.lines.map((line) => {
      const sub = byId.get(line.subcontractorId);
      return {
        name: line.name,
        type: sub?.type ?? 'individual',
        utr: deps.sealed.open(sub?.utrEnc ?? null) || null,
        crn: sub?.companyNumber || null,
        nino: deps.sealed.open(sub?.ninoEnc ?? null) || null,
        verificationNumber: line.cisRate === 30 ? line.verificationRef || null : null,
        unmatchedRate: line.cisRate === 30,
        totalPaymentsP: line.grossP,
        costOfMaterialsP: line.materialsP,
        totalDeductedP: line.cisDeductedP,
      };
    }),
    declarations: {
      employmentStatus: declared.employmentStatus === true,
      verification: declared.verification === true,
      informationCorrect: declared.informationCorrect === true,
    },
    inactivity: declared.inactivity === true,
  });
  return { xml, irMark: computeIrMark(xml) };
}

/** A tax month (by default the one in progress), its return (if compiled) and the validity check. */
export function currentReturn(deps: CisDeps, tenantId: string, taxMonth?: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const label = taxMonth ?? taxMonthOf(deps.clock.now());
    return { period: taxMonthPeriod(label), row: await new ReturnStore(trx).latest(label) };
  });
}

/** A page of the return history (every record, tax month descending) and how many there are in all. */
export function returnHistory(deps: CisDeps, tenantId: string, page: { limit: number; offset: number }) {
  return deps.inTenant(tenantId, async (trx) => {
    const returns = new ReturnStore(trx);
    return { rows: await returns.history(page.limit, page.offset), total: await returns.count() };
  });
}

/** The return of a tax month (its latest record), or a 404 with `notFound`. */
export function returnOfMonth(deps: CisDeps, tenantId: string, taxMonth: string, notFound: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const row = await new ReturnStore(trx).latest(taxMonth);
    if (!row) throw problems.notFound(notFound);
    return row;
  });
}

/**
 * A submitted return's CIS300 document, opened, for a holder of cis.pii.unmask (the route checks it): every UTR and
 * NINO in clear, as HMRC receives them, so each download is audited (ids only; ADR 0029).
 */
export function downloadCis300(deps: CisDeps, actor: Actor, id: string) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const row = await requireReturn(trx, id);
    if (!row.cis300XmlEnc) throw problems.notFound('This return has not been submitted');
    const xml = deps.sealed.open(row.cis300XmlEnc);
    await deps.audit.write(trx, actor, 'cis.return.downloaded', {
      targetType: 'return',
      targetId: row.id,
      taxMonth: row.taxMonth,
      summary: `CIS300 document for the ${taxMonthInSentence(row.period)} downloaded`,
      details: { format: 'cis300' },
    });
    return { id: row.id, taxMonth: row.taxMonth, amendment: row.amendmentOf !== null, xml };
  });
}

/** Compiles (or recompiles) the return of a tax month from its paid invoices; nil without lines. */
export function compileReturn(deps: CisDeps, actor: Actor, taxMonth: string) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const returns = new ReturnStore(trx);
    const existing = await returns.latest(taxMonth, { lock: true });
    const compiled = await compileMonth(trx, taxMonth);
    const transition = returnTransition(existing ?? null, existing ? 'recompile' : 'compile', {
      taxMonth,
      lineCount: compiled.lines.length,
    });
    if (!transition.ok) throw refused(transition.error);
    const period = returnPeriod(taxMonth);
    const status = compiled.lines.length === 0 ? 'nil' : existing?.status === 'amended' ? 'amended' : 'draft';
    const check = validateReturn({ taxMonth, status, totals: compiled.totals, lines: compiled.lines });
    const values = {
      status,
      period,
      deadlines: period.deadlines,
      totals: compiled.totals,
      lines: compiled.lines,
      issues: check.issues,
      compiledBy: actor.userId,
      updatedAt: deps.clock.now(),
      updatedBy: actor.userId,
    } as const;
    const row = existing
      ? await returns.update(existing.id, values)
      : await returns.insert({ tenantId: actor.tenantId, id: taxMonth, taxMonth, ...values });
    if (!row) throw new Error('return write returned nothing');
    await deps.audit.write(trx, actor, 'cis.return.compiled', {
      targetType: 'return',
      targetId: row.id,
      taxMonth,
      summary: `Return compiled for the ${taxMonthInSentence(period)}: ${compiled.lines.length} subcontractors`,
      details: { lines: compiled.lines.length, status },
    });
    return { row, validation: check };
  });
}

/**
 * A submit without the declarations its return asks for is refused before anything is read or written: 400 naming
 * each declaration not ticked (`body.declarations.<key>`), the messages joined in the detail.
 */
function assertDeclared(nil: boolean, declarations: CisDeclarations | undefined): void {
  const issues = declarationIssues(nil, declarations);
  const messages = Object.values(issues);
  if (messages.length === 0) return;
  const problem = fieldProblem(
    Object.fromEntries(Object.entries(issues).map(([key, message]) => [`declarations.${key}`, message])),
  );
  throw new HttpProblem(400, 'declarations_required', messages.join('. ') + '.', problem.errors);
}

/**
 * Submits a valid, unlocked return with the declarations the person submitting ticked (a return with payments:
 * employment status, verification and information correct; a nil return: information correct and optionally
 * inactivity): it is locked, the declarations and the submitter are stored with it and its CIS300 document, which
 * carries them as given, is kept ready to file (this product has no live connection to HMRC's gateway).
 */
export function submitReturn(
  deps: CisDeps,
  actor: Actor,
  id: string,
  declarations: CisDeclarations | undefined,
): Promise<ReturnRecord> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const row = await requireReturn(trx, id, true);
    // Issue 13: no return before its month ends (a locked one still answers 'Return is already locked').
    const tooEarly = row.locked ? null : submitTooEarly(row.taxMonth, londonDate(deps.clock.now()));
    if (tooEarly) throw refused(tooEarly, 'month_not_ended');
    const nil = row.lines.length === 0;
    if (!row.locked) assertDeclared(nil, declarations);
    // Statements issued since the compile count: refresh the lines' statement state before checking.
    const statements = await new StatementStore(trx).ofMonth(row.taxMonth);
    const issued = new Map(statements.map((s) => [s.subcontractorId, iso(s.issuedAt)]));
    const lines = row.lines.map((line) => ({
      ...line,
      statementsIssued: line.statementsIssued || Boolean(issued.get(line.subcontractorId)),
      lastStatementDate: line.lastStatementDate ?? issued.get(line.subcontractorId) ?? null,
    }));
    const settings = await new SettingsStore(trx).load(actor.tenantId);
    const check = validateReturn({ taxMonth: row.taxMonth, status: row.status, totals: row.totals, lines });
    const readiness = settingsReadyIssues({
      companyName: settings.companyName,
      employerRef: settings.employerRef,
      accountsOfficeRef: settings.accountsOfficeRef,
      utr: deps.sealed.open(settings.utrEnc),
    });
    const transition = returnTransition(row, 'submit', {
      validation: { valid: check.valid && readiness.length === 0, issues: [...check.issues, ...readiness] },
    });
    if (!transition.ok) throw refused(transition.error);
    const declared = declaredForReturn(nil, declarations ?? {});
    const { xml, irMark } = await cis300(deps, trx, actor.tenantId, { ...row, lines }, declared);
    const now = deps.clock.now();
    const saved = await new ReturnStore(trx).update(row.id, {
      status: 'submitted',
      locked: true,
      lockedAt: now,
      submittedAt: now,
      // Issue 13 (superseding cis.md section 4's 'system'): the person who declared and submitted the return.
      submittedBy: actor.userId,
      declarations: declared,
      submissionRef: irMark,
      lines,
      issues: [],
      // Sealed at rest like the identifier columns: the document carries every UTR and NINO in clear.
      cis300XmlEnc: deps.sealed.seal(xml),
      updatedAt: now,
      updatedBy: actor.userId,
    });
    if (!saved) throw problems.notFound('Return not found');
    await deps.audit.write(trx, actor, 'cis.return.submitted', {
      targetType: 'return',
      targetId: row.id,
      taxMonth: row.taxMonth,
      summary: `${row.amendmentOf ? 'Amended return' : 'Return'} submitted for the ${taxMonthInSentence(row.period)}`,
      details: {
        lines: lines.length,
        cisDeductedP: row.totals.cisDeductedP,
        activity: 'return.submit',
        nil,
        declarations: Object.keys(declared)
          .filter((key) => declared[key as keyof CisDeclarations])
          .join(','),
        ...(row.amendmentOf ? { amendmentOf: row.amendmentOf } : {}),
      },
    });
    return saved;
  });
}

/**
 * A month's submitted return against its live figures: whether it changed since submission (an invoice paid,
 * changed or cancelled into the month afterwards) and the difference per subcontractor and in total. A month whose
 * return was never submitted answers `submitted: null` and no change.
 */
export function returnChanges(deps: CisDeps, tenantId: string, taxMonth: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const returns = new ReturnStore(trx);
    const submitted = await returns.lastSubmitted(taxMonth);
    const latest = await returns.latest(taxMonth);
    if (!submitted) return { taxMonth, submitted: null, amendment: null, ...returnChangesSince([], []) };
    const live = await compileMonth(trx, taxMonth);
    const amendment = latest && !latest.locked && latest.amendmentOf ? latest : null;
    return { taxMonth, submitted, amendment, ...returnChangesSince(submitted.lines, live.lines) };
  });
}

/**
 * Amends a submitted return (cis.md section 4): a new record {id}-AMD-{timestamp} pointing at the original, compiled
 * from the month's live figures, to be declared and submitted again (its own CIS300).
 */
export function amendReturn(deps: CisDeps, actor: Actor, id: string): Promise<ReturnRecord> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const row = await requireReturn(trx, id, true);
    const transition = returnTransition(row, 'amend');
    if (!transition.ok) throw refused(transition.error);
    const amendment = amendmentId(row.id, deps.clock.now().getTime());
    const compiled = await compileMonth(trx, row.taxMonth);
    const check = validateReturn({
      taxMonth: row.taxMonth,
      status: 'amended',
      totals: compiled.totals,
      lines: compiled.lines,
    });
    const saved = await new ReturnStore(trx).insert({
      tenantId: actor.tenantId,
      id: amendment,
      taxMonth: row.taxMonth,
      status: 'amended',
      locked: false,
      period: row.period,
      deadlines: row.deadlines,
      totals: compiled.totals,
      lines: compiled.lines,
      issues: check.issues,
      amendmentOf: row.id,
      compiledBy: actor.userId,
      updatedBy: actor.userId,
    });
    await deps.audit.write(trx, actor, 'cis.return.amended', {
      targetType: 'return',
      targetId: amendment,
      taxMonth: row.taxMonth,
      summary: `Amendment started for the ${taxMonthInSentence(row.period)}`,
      details: { amendmentOf: row.id },
    });
    return saved;
  });
}

/** Unlocks a locked return for testing (only where the deployment enables testing tools). */
export function unlockReturn(deps: CisDeps, actor: Actor, id: string): Promise<ReturnRecord> {
  if (!deps.config.CIS_TESTING_TOOLS)
    throw problems.forbidden('Unlocking returns is only available where testing tools are enabled.');
  return deps.inTenant(actor.tenantId, async (trx) => {
    const row = await requireReturn(trx, id, true);
    const transition = returnTransition(row, 'unlock');
    if (!transition.ok) throw refused(transition.error);
    const saved = await new ReturnStore(trx).update(row.id, {
      status: 'draft',
      locked: false,
      lockedAt: null,
      submittedAt: null,
      submittedBy: null,
      submissionRef: null,
      cis300XmlEnc: null,
      declarations: null,
      updatedAt: deps.clock.now(),
      updatedBy: actor.userId,
    });
    if (!saved) throw problems.notFound('Return not found');
    await deps.audit.write(trx, actor, 'cis.return.unlocked', {
      targetType: 'return',
      targetId: row.id,
      taxMonth: row.taxMonth,
      summary: `Return for the ${taxMonthInSentence(row.period)} unlocked for testing`,
    });
    return saved;
  });
}

/**
 * A return as CSV, with an export audit entry; a return without lines is refused. Identifiers are masked, except
 * for a holder of cis.pii.unmask (`unmask`, the route checks the scope): then each line carries its subcontractor's
 * UTR and NINO in clear, so the CSV reconciles with the CIS300, and the unmasking is audited (cis.pii.unmasked, ids
 * only; ADR 0029).
 */
export function exportReturnCsv(deps: CisDeps, actor: Actor, id: string, unmask = false) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const row = await requireReturn(trx, id);
    if (row.lines.length === 0) throw refused('No data to export');
    let clear: Map<string, { utr: string; nino: string }> | undefined;
    if (unmask) {
      const subs = await new SubcontractorStore(trx).byIds(row.lines.map((line) => line.subcontractorId));
      clear = new Map(
        subs.map((sub) => [
          sub.id,
          { utr: deps.sealed.open(sub.utrEnc), nino: deps.sealed.open(sub.ninoEnc) },
        ]),
      );
      await deps.audit.write(trx, actor, 'cis.pii.unmasked', {
        targetType: 'return',
        targetId: row.id,
        taxMonth: row.taxMonth,
        targetIds: subs.map((sub) => sub.id),
        summary: `Identifiers shown unmasked in the CSV of the return for the ${taxMonthInSentence(row.period)}`,
        details: { fields: 'utr,nino', format: 'csv' },
      });
    }
    await deps.audit.write(trx, actor, 'cis.return.exported', {
      targetType: 'return',
      targetId: row.id,
      taxMonth: row.taxMonth,
      summary: `Return for the ${taxMonthInSentence(row.period)} exported to CSV`,
      details: { format: 'csv', lines: row.lines.length, unmasked: Boolean(clear) },
    });
    return returnCsv({ id: row.id, period: row.period, lines: row.lines }, clear);
  });
}
