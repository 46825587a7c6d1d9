import { createHash } from 'node:crypto';
import { HttpProblem, problems, type Knex } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { contractorSender, mailRefused } from '../clients/mailer.js';
import { statementEmailFailures } from './mail-failures.js';
import { InvoiceStore, type InvoiceRecord } from '../db/invoices.store.js';
import { SettingsStore } from '../db/settings.store.js';
import {
  StatementStore,
  type IssueMethod,
  type StatementContents,
  type StatementRecord,
} from '../db/statements.store.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';
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
  statementChangedSinceIssue,
  statementCopyFor,
  statementDeadlineState,
  taxMonthName,
  taxMonthFilePart,
  taxMonthPeriod,
  taxMonthTitle,
  type StatementReader,
} from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { refused } from './problems.js';
import { queueStatementJob, STATEMENT_JOB } from './statement-jobs.js';

/** The statement key: the first 16 characters of a hash of the subcontractor and tax month (cis.md section 9). */
export function statementKey(subcontractorId: string, taxMonth: string): string {
  return createHash('sha256').update(`${subcontractorId}:${taxMonth}`).digest('hex').slice(0, 16);
}

/** A statement that cannot be generated (the spec's message): a 409 for a request, a failed target for a job. */
export class StatementError extends Error {}

/** The invoices and totals a statement covers. */
function contentsOf(invoices: InvoiceRecord[], minimumRate?: number): StatementContents {
  const sum = (pick: (row: InvoiceRecord) => number) => invoices.reduce((total, row) => total + pick(row), 0);
  const rates = invoices.map((row) => row.cisRate);
  return {
    invoiceIds: invoices.map((invoice) => invoice.id),
    invoiceCount: invoices.length,
    grossP: sum((r) => r.grossP),
    materialsP: sum((r) => r.materialsP),
    labourP: sum((r) => r.labourP),
    cisDeductionP: sum((r) => r.cisDeductionP),
    cisRate: minimumRate === undefined ? Math.max(...new Set(rates)) : Math.max(minimumRate, ...rates),
  };
}

async function requireSubcontractor(trx: Knex.Transaction, id: string) {
  const row = await new SubcontractorStore(trx).find(id);
  if (!row) throw problems.notFound('Subcontractor not found');
  return row;
}

/**
 * Generates the statement of one subcontractor for one tax month (cis.md section 4: only if none exists) from
 * the invoices paid in it, and links them to it.
 */
export async function generateStatement(
  deps: CisDeps,
  trx: Knex.Transaction,
  actor: Actor,
  subcontractorId: string,
  taxMonth: string,
): Promise<StatementRecord> {
  const statements = new StatementStore(trx);
  const invoiceStore = new InvoiceStore(trx);
  const subcontractor = await requireSubcontractor(trx, subcontractorId);
  const id = statementKey(subcontractorId, taxMonth);
  if (await statements.find(id))
    throw new StatementError(`Statement already exists for ${subcontractor.name} for this tax month`);
  const invoices = await invoiceStore.paidInMonth(taxMonth, subcontractorId);
  if (invoices.length === 0)
    throw new StatementError(`No paid invoices for ${subcontractor.name} in this tax month`);
  const row = await statements.insertIfAbsent({
    tenantId: actor.tenantId,
    id,
    subcontractorId,
    subcontractorName: subcontractor.name,
    taxMonth,
    ...contentsOf(invoices),
    verificationReference: subcontractor.verificationReference,
    generatedAt: deps.clock.now(),
    generatedBy: actor.userId,
  });
  // Another request or the background job may have made it since the check above: a duplicate, not an error.
  if (!row) throw new StatementError(`Statement already exists for ${subcontractor.name} for this tax month`);
  await invoiceStore.linkToGeneratedStatement(row.invoiceIds, id, actor.userId);
  await deps.audit.write(trx, actor, 'cis.statement.generated', {
    targetType: 'statement',
    targetId: id,
    taxMonth,
    summary: `Statement generated for ${subcontractor.name} (${taxMonthName(taxMonth)})`,
    details: { invoices: invoices.length, cisDeductionP: row.cisDeductionP },
  });
  return row;
}

/** Generates one statement for a request: a refusal is a 409 with the spec's message. */
export function generateStatementNow(
  deps: CisDeps,
  actor: Actor,
  subcontractorId: string,
  taxMonth: string,
): Promise<StatementRecord> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    try {
      return await generateStatement(deps, trx, actor, subcontractorId, taxMonth);
    } catch (error) {
      if (error instanceof StatementError) throw refused(error.message);
      throw error;
    }
  });
}

export const STATEMENT_CORRECTION_MESSAGES = {
  notIssued: 'Only an issued statement can be corrected',
  superseded: 'This statement has been replaced by a corrected statement',
  unchanged: 'This statement has not changed since it was issued',
} as const;

/**
 * A corrected statement for an issued one whose month changed since it was issued (issue 13): a new statement of
 * the invoices paid in the month now, generated to be issued like any other (the subcontractor gets its PDF); the
 * old one stays on record, pointing at its correction.
 */
export function correctStatement(deps: CisDeps, actor: Actor, id: string): Promise<StatementRecord> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const statements = new StatementStore(trx);
    const old = await statements.lock(id);
    if (!old) throw problems.notFound('Statement not found');
    if (old.supersededBy) throw refused(STATEMENT_CORRECTION_MESSAGES.superseded);
    if (old.status !== 'issued') throw refused(STATEMENT_CORRECTION_MESSAGES.notIssued);
    const invoiceStore = new InvoiceStore(trx);
    const invoices = await invoiceStore.paidInMonth(old.taxMonth, old.subcontractorId);
    if (!statementChangedSinceIssue(old, invoices)) throw refused(STATEMENT_CORRECTION_MESSAGES.unchanged);
    const subcontractor = await requireSubcontractor(trx, old.subcontractorId);
    const version = old.version + 1;
    const correctedId = statementKey(old.subcontractorId, `${old.taxMonth}:v${version}`);
    const now = deps.clock.now();
    // The old one first: one current statement per subcontractor and month.
    await statements.markSuperseded(old.id, { id: correctedId, at: now, userId: actor.userId });
    const row = await statements.insertIfAbsent({
      tenantId: actor.tenantId,
      id: correctedId,
      subcontractorId: old.subcontractorId,
      subcontractorName: subcontractor.name,
      taxMonth: old.taxMonth,
      ...contentsOf(invoices, 0),
      verificationReference: subcontractor.verificationReference,
      generatedAt: now,
      generatedBy: actor.userId,
      version,
      supersedes: old.id,
    });
    if (!row) throw refused(STATEMENT_CORRECTION_MESSAGES.superseded);
    await invoiceStore.linkToGeneratedStatement(row.invoiceIds, row.id, actor.userId);
    await deps.audit.write(trx, actor, 'cis.statement.corrected', {
      targetType: 'statement',
      targetId: row.id,
      taxMonth: row.taxMonth,
      summary: `Corrected statement generated for ${row.subcontractorName} (${taxMonthName(row.taxMonth)})`,
      details: {
        supersedes: old.id,
        version,
        invoices: row.invoiceCount,
        cisDeductionP: row.cisDeductionP,
        previousCisDeductionP: old.cisDeductionP,
      },
    });
    return row;
  });
}

/**
 * Brings a generated (not yet issued) statement up to date with the invoices paid in its month since it was
 * generated (removed when none is paid there any more); an issued statement is never changed: it shows as changed
 * since issue and a corrected statement replaces it. Returns true when it changed.
 */
export async function refreshStatement(
  trx: Knex.Transaction,
  actorId: string,
  subcontractorId: string,
  taxMonth: string,
): Promise<boolean> {
  const statements = new StatementStore(trx);
  const invoiceStore = new InvoiceStore(trx);
  const existing = await statements.lockOf(subcontractorId, taxMonth);
  if (existing?.status !== 'generated') return false;
  const invoices = await invoiceStore.paidInMonth(taxMonth, subcontractorId);
  const ids = invoices.map((invoice) => invoice.id);
  if (ids.length === existing.invoiceIds.length && ids.every((id) => existing.invoiceIds.includes(id)))
    return false;
  if (ids.length === 0) {
    await statements.deleteGenerated(existing.id);
    return true;
  }
  await statements.updateContents(existing.id, contentsOf(invoices, 0), actorId);
  await invoiceStore.linkToStatement(ids, existing.id);
  return true;
}

/** Queues the generation of every missing statement of a tax month (progress on /jobs/:id). */
export function queueGenerateAll(deps: CisDeps, actor: Actor, taxMonth: string) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const id = await queueStatementJob(trx, actor, { taxMonth, reason: 'generate-all' });
    return { id, type: STATEMENT_JOB, status: 'pending' as const, progress: 0 };
  });
}

/**
 * Everything the PDF needs. The subcontractor's copy carries the UTR in clear (a statement must); the staff copy
 * (ADR 0029) carries the masked UTR, and its sealed value is never opened.
 */
export async function statementPdfInput(
  deps: Pick<CisDeps, 'sealed'>,
  trx: Knex.Transaction,
  tenantId: string,
  row: StatementRecord,
  copy: StatementPdfInput['copy'] = 'subcontractor',
): Promise<StatementPdfInput> {
  const settings = await new SettingsStore(trx).load(tenantId);
  const subcontractor = await new SubcontractorStore(trx).findAny(row.subcontractorId);
  const invoices = await new InvoiceStore(trx).ofStatement(row.invoiceIds);
  return {
    contractor: {
      name: settings.companyName || tenantId,
      employerRef: settings.employerRef,
      accountsOfficeRef: settings.accountsOfficeRef,
    },
    subcontractor: {
      name: row.subcontractorName,
      utr:
        copy === 'staff' ? (subcontractor?.utrMasked ?? '') : deps.sealed.open(subcontractor?.utrEnc ?? null),
      verificationNumber: row.verificationReference || null,
      rate: row.cisRate as StatementCisRate,
    },
    taxMonth: row.taxMonth,
    invoices: invoices.map((invoice) => ({
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.invoiceDate,
      paymentDate: invoice.paymentDate,
      grossP: invoice.grossP,
      materialsP: invoice.materialsP,
      cisDeductionP: invoice.cisDeductionP,
    })),
    totals: {
      grossP: row.grossP,
      materialsP: row.materialsP,
      labourP: row.labourP,
      cisDeductionP: row.cisDeductionP,
    },
    statementId: row.id,
    generatedAt: row.generatedAt.toISOString(),
    ...(settings.statementFooter ? { footer: settings.statementFooter } : {}),
    copy,
    ...(row.supersedes ? { corrects: { statementId: row.supersedes } } : {}),
  };
}

/** Records that a copy with the full UTR left cis (never the UTR itself: ids only). */
function auditFullCopy(
  deps: CisDeps,
  trx: Knex.Transaction,
  actor: Actor,
  row: StatementRecord,
  basis: 'unmask' | 'print-issue' | 'portal',
) {
  return deps.audit.write(trx, actor, 'cis.statement.downloaded', {
    targetType: 'statement',
    targetId: row.id,
    taxMonth: row.taxMonth,
    summary: `Statement for ${row.subcontractorName} downloaded with the full UTR`,
    details: { copy: 'subcontractor', basis },
  });
}

/**
 * A statement as the member of staff may have it (ADR 0029): the subcontractor's copy for a holder of
 * cis.pii.unmask or for the issuer who issued it by print, audited; otherwise the staff copy, UTR masked.
 */
export async function statementPdf(deps: CisDeps, reader: Actor & StatementReader, id: string) {
  return deps.inTenant(reader.tenantId, async (trx) => {
    const row = await new StatementStore(trx).find(id);
    if (!row) throw problems.notFound('Statement not found');
    const copy = statementCopyFor(reader, row);
    const input = await statementPdfInput(deps, trx, reader.tenantId, row, copy.copy);
    // Rendered inside the transaction: a copy that fails to render leaves no audit entry behind.
    const pdf = await renderStatementPdf(input);
    if (copy.copy === 'subcontractor') await auditFullCopy(deps, trx, reader, row, copy.basis);
    return { taxMonth: row.taxMonth, copy: copy.copy, pdf };
  });
}

/** One of a subcontractor's issued statements as its PDF: the portal's copy, the subcontractor's own, audited. */
export async function portalStatementPdf(deps: CisDeps, actor: Actor, subcontractorId: string, id: string) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const row = await new StatementStore(trx).findIssued(id, subcontractorId);
    if (!row) throw problems.notFound('Statement not found');
    const pdf = await renderStatementPdf(await statementPdfInput(deps, trx, actor.tenantId, row));
    await auditFullCopy(deps, trx, actor, row, 'portal');
    return { taxMonth: row.taxMonth, pdf };
  });
}

/** Why a statement e-mail was not handed over, in words for the browser (cis.md section 8's '{message}'). */
function mailFailure(error: unknown): string {
  if (mailRefused(error)) return 'the email service refused the email';
  return 'the email service is not available, try again later';
}

/** Emails a statement with its PDF attached; answers whether the mail went (an unreachable mailer is a 503). */
async function emailStatement(
  deps: CisDeps,
  tenantId: string,
  prepared: {
    row: StatementRecord;
    email: string;
    name: string;
    sender: ReturnType<typeof contractorSender>;
  },
  input: StatementPdfInput,
): Promise<{ delivered: boolean; status: string }> {
  const pdf = await renderStatementPdf(input);
  try {
    return await deps.mailer.send({
      tenantId,
      to: prepared.email,
      ...prepared.sender,
      subject: `${prepared.row.supersedes ? 'Corrected payment' : 'Payment'} and deduction statement: ${taxMonthTitle(prepared.row.taxMonth)}`,
      text: [
        `Hello ${prepared.name},`,
        '',
        `Attached is your CIS payment and deduction statement for the ${taxMonthName(prepared.row.taxMonth)} from ${prepared.sender.fromName}.`,
        ...(prepared.row.supersedes
          ? [
              '',
              'It corrects the statement you were sent earlier for this month: keep this one in its place.',
            ]
          : []),
        '',
        'Keep this statement: you must keep records for at least 6 years.',
      ].join('\n'),
      attachments: [
        {
          filename: `cis-statement-${taxMonthFilePart(prepared.row.taxMonth)}-${prepared.row.id}.pdf`,
          contentType: 'application/pdf',
          contentBase64: pdf.toString('base64'),
        },
      ],
      idempotencyKey: `statement:${prepared.row.id}`,
      category: 'cis-statement',
      reference: prepared.row.id,
    });
  } catch (error) {
    // The client's own message names the notification service's internal address: it stays in the log.
    deps.logger.warn({ err: error, statementId: prepared.row.id }, 'statement email not handed over');
    throw new HttpProblem(503, 'unavailable', `Failed to issue statement: ${mailFailure(error)}`);
  }
}

/**
 * Issues a statement by email (its PDF attached), portal or print: the statement and each of its invoices are
 * stamped issued, with one audit entry. An email that is not delivered yet is retried by the notification service.
 */
export async function issueStatement(deps: CisDeps, actor: Actor, id: string, method: IssueMethod) {
  const prepared = await deps.inTenant(actor.tenantId, async (trx) => {
    const row = await new StatementStore(trx).find(id);
    if (!row) throw problems.notFound('Statement not found');
    if (row.supersededBy) throw refused(STATEMENT_CORRECTION_MESSAGES.superseded);
    const subcontractor = await requireSubcontractor(trx, row.subcontractorId);
    if (method === 'email' && !subcontractor.email)
      throw refused(`Failed to issue statement: ${subcontractor.name} has no email address`);
    const settings = await new SettingsStore(trx).load(actor.tenantId);
    return {
      row,
      email: subcontractor.email,
      name: subcontractor.name,
      sender: contractorSender(settings, actor.tenantId),
      pdf: method === 'email' ? await statementPdfInput(deps, trx, actor.tenantId, row) : null,
    };
  });
  const mail =
    method === 'email' && prepared.pdf
      ? await emailStatement(deps, actor.tenantId, prepared, prepared.pdf)
      : null;
  return deps.inTenant(actor.tenantId, async (trx) => {
    const now = deps.clock.now();
    const row = await new StatementStore(trx).markIssued(id, { method, userId: actor.userId, at: now });
    if (!row) throw problems.notFound('Statement not found');
    const stamped = await new InvoiceStore(trx).stampStatementIssued(row.invoiceIds, id, method, now);
    await deps.audit.write(trx, actor, 'cis.statement.sent', {
      targetType: 'statement',
      targetId: id,
      taxMonth: row.taxMonth,
      summary: `Statement for ${row.subcontractorName} issued by ${method}`,
      details: { method, invoices: row.invoiceCount, activity: 'statement.issue' },
    });
    await deps.invoiceChanges.changed(trx, actor.tenantId, stamped, 'statement-issued');
    return { statement: row, mail };
  });
}

export type StatementFilter = 'all' | 'pending' | 'generated' | 'issued';

/**
 * The statements screen of a tax month: the deadline, the counters and each subcontractor with its invoices; an
 * issued statement whose e-mail could not be delivered after its retries carries the failure (ADR 0052).
 */
export async function statementMonth(
  deps: CisDeps,
  tenantId: string,
  query: { taxMonth?: string | undefined; filter: StatementFilter },
) {
  const month = await statementMonthRecords(deps, tenantId, query);
  const emailed = month.subcontractors.flatMap((group) =>
    group.statement?.issuedMethod === 'email' ? [group.statement.id] : [],
  );
  const failures = await statementEmailFailures(deps, tenantId, emailed);
  return {
    ...month,
    subcontractors: month.subcontractors.map((group) => ({
      ...group,
      emailFailure: (group.statement && failures.get(group.statement.id)) ?? null,
    })),
  };
}

function statementMonthRecords(
  deps: CisDeps,
  tenantId: string,
  query: { taxMonth?: string | undefined; filter: StatementFilter },
) {
  return deps.inTenant(tenantId, async (trx) => {
    const now = deps.clock.now();
    const taxMonth = query.taxMonth ?? currentTaxMonth(now);
    const period = taxMonthPeriod(taxMonth);
    const settings = await new SettingsStore(trx).load(tenantId);
    const deadlineDate = addDays(period.endDate, settings.statementDeadlineDays);
    const daysRemaining = daysBetween(londonDate(now), deadlineDate);
    const [invoices, statements] = await Promise.all([
      new InvoiceStore(trx).paidInMonth(taxMonth),
      new StatementStore(trx).ofMonth(taxMonth),
    ]);
    const subIds = [
      ...new Set([...invoices.map((i) => i.subcontractorId), ...statements.map((s) => s.subcontractorId)]),
    ];
    const subs = await new SubcontractorStore(trx).byIds(subIds);
    const subById = new Map(subs.map((s) => [s.id, s]));
    const statementBySub = new Map(statements.map((s) => [s.subcontractorId, s]));
    const groups = subIds.map((subcontractorId) => {
      const own = invoices.filter((invoice) => invoice.subcontractorId === subcontractorId);
      const statement = statementBySub.get(subcontractorId) ?? null;
      const sub = subById.get(subcontractorId);
      return {
        subcontractorId,
        name: sub?.name ?? statement?.subcontractorName ?? '',
        utrMasked: sub?.utrMasked ?? '',
        email: sub?.email ?? '',
        invoices: own,
        totals: {
          grossP: own.reduce((t, r) => t + r.grossP, 0),
          materialsP: own.reduce((t, r) => t + r.materialsP, 0),
          cisDeductionP: own.reduce((t, r) => t + r.cisDeductionP, 0),
        },
        statement,
        state: statement ? statement.status : ('pending' as const),
        // Issued, then an invoice of the month paid, cancelled or moved: the subcontractor's copy is out of date.
        changedSinceIssue: statement?.status === 'issued' && statementChangedSinceIssue(statement, own),
      };
    });
    groups.sort(
      (a, b) =>
        (b.statement?.generatedAt.toISOString() ?? '').localeCompare(
          a.statement?.generatedAt.toISOString() ?? '',
        ) || a.name.localeCompare(b.name),
    );
    return {
      period,
      deadline: { date: deadlineDate, daysRemaining, state: statementDeadlineState(daysRemaining) },
      counters: {
        totalSubcontractors: groups.length,
        pendingGeneration: groups.filter((g) => g.statement === null).length,
        generated: groups.filter((g) => g.statement?.status === 'generated').length,
        issued: groups.filter((g) => g.statement?.status === 'issued').length,
        changedSinceIssue: groups.filter((g) => g.changedSinceIssue).length,
      },
      subcontractors: groups.filter((g) => query.filter === 'all' || g.state === query.filter),
    };
  });
}
