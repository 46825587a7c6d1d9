import { plural } from '@workspace/rules';
import { HttpProblem, problems, type Knex } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore, type InvoiceRecord, type InvoiceStateChange } from '../db/invoices.store.js';
import { ReturnStore } from '../db/returns.store.js';
import {
  correctionRefusedMessage,
  invoiceTransition,
  londonDate,
  PAYMENT_DATE_MESSAGES,
  paymentDateError,
  RETURN_SUBMITTED_CODE,
  submittedMonthWarning,
  taxMonthName,
  taxMonthOf,
  type InvoiceAction,
  type SubmittedMonthChange,
} from '../domain/index.js';
import { dateOnly } from '../domain/timestamps.js';
import type { Actor } from '../events/audit.js';
import { refused, type BatchResult } from './problems.js';
import { queueStatementJob } from './statement-jobs.js';
import { refreshStatement } from './statements.js';

/** What a change that may reach a submitted month's return carries: whether the user confirmed the warning. */
export interface SubmittedMonthConsent {
  confirmSubmittedReturn?: boolean | undefined;
}

export type SingleInvoiceAction = Exclude<InvoiceAction, 'edit' | 'delete'>;
export type BulkInvoiceAction = keyof typeof BATCH_CAUSES;

const AUDIT_ACTIONS = {
  approve: 'cis.invoice.approved',
  reject: 'cis.invoice.rejected',
  pay: 'cis.invoice.paid',
  cancel: 'cis.invoice.cancelled',
} as const;

const PAST_TENSE: Record<SingleInvoiceAction | 'delete', string> = {
  approve: 'approved',
  reject: 'rejected',
  pay: 'marked paid',
  cancel: 'cancelled',
  delete: 'deleted',
};

/** The cause a whole failing batch answers with (cis.md section 8, verbatim). */
const BATCH_CAUSES = {
  approve: 'Batch approval failed',
  pay: 'Batch payment marking failed',
  delete: 'Batch delete failed',
} as const;

function auditAction(action: SingleInvoiceAction | 'delete', single: boolean) {
  if (action === 'delete') return 'cis.invoice.bulk.delete';
  if (single) return AUDIT_ACTIONS[action];
  if (action === 'approve') return 'cis.invoice.bulk.approve';
  if (action === 'pay') return 'cis.invoice.bulk.pay';
  return AUDIT_ACTIONS[action];
}

/** What `action` writes to an invoice (cis.md section 4), and whether it needs its statement generated. */
function stateChange(
  row: InvoiceRecord,
  action: SingleInvoiceAction | 'delete',
  to: string,
  stamp: { now: Date; userId: string; paymentDate: string; reason?: string | undefined },
): { change: InvoiceStateChange; needsStatement: boolean } {
  const { now, userId, paymentDate } = stamp;
  const change: InvoiceStateChange = { updatedAt: now, updatedBy: userId };
  let needsStatement = false;
  if (action !== 'delete') change.status = to;
  if (action === 'approve') {
    Object.assign(change, { approvedAt: now, approvedBy: userId, lockedAt: now });
    if (row.cisDeductionP > 0) {
      Object.assign(change, {
        statementRequired: true,
        statementRequestedAt: now,
        statementRequestedBy: userId,
      });
      needsStatement = true;
    }
  }
  if (action === 'pay') {
    Object.assign(change, { paymentDate, taxMonth: taxMonthOf(paymentDate), paidAt: now, paidBy: userId });
    if (row.statementRequired && !row.statementIssuedAt) needsStatement = true;
  }
  if (action === 'cancel') Object.assign(change, { cancelledAt: now, cancelledBy: userId });
  if (action === 'reject')
    Object.assign(change, { rejectedAt: now, rejectedBy: userId, rejectionReason: stamp.reason });
  if (action === 'delete') Object.assign(change, { deletedAt: now, deletedBy: userId, archived: true });
  return { change, needsStatement };
}

/** Today in London by the business clock ('YYYY-MM-DD'). */
const todayOf = (deps: CisDeps) => londonDate(deps.clock.now());

/** A payment date after today (by the business clock) or not a date is refused, naming the field. */
function assertPaymentDate(deps: CisDeps, paymentDate: string): void {
  const error = paymentDateError(paymentDate, todayOf(deps));
  if (error) throw problems.validation([{ field: 'body.paymentDate', message: error }]);
}

/** Of the tax months, those whose return is submitted (its latest record locked; an amendment in progress is not). */
async function submittedMonths(trx: Knex.Transaction, months: Iterable<string>): Promise<string[]> {
  const returns = new ReturnStore(trx);
  const submitted: string[] = [];
  for (const month of [...new Set(months)].sort()) {
    const latest = await returns.latest(month);
    if (latest?.locked) submitted.push(month);
  }
  return submitted;
}

/**
 * A change into months whose returns are submitted goes through only when the request confirms it: otherwise a
 * 409 `return_submitted` with the warning the user reads before going on. Answers the submitted months.
 */
async function confirmSubmittedMonths(
  trx: Knex.Transaction,
  change: SubmittedMonthChange,
  months: Iterable<string>,
  consent: SubmittedMonthConsent,
): Promise<string[]> {
  const submitted = await submittedMonths(trx, months);
  if (submitted.length > 0 && !consent.confirmSubmittedReturn)
    throw new HttpProblem(409, RETURN_SUBMITTED_CODE, submittedMonthWarning(change, submitted));
  return submitted;
}

/** Brings the generated statements of (subcontractor, tax month) pairs up to date with what is paid in them now. */
async function refreshStatementsOf(trx: Knex.Transaction, actorId: string, rows: InvoiceRecord[]) {
  const pairs = new Map<string, { subcontractorId: string; taxMonth: string }>();
  for (const row of rows)
    if (row.taxMonth)
      pairs.set(`${row.subcontractorId}:${row.taxMonth}`, {
        subcontractorId: row.subcontractorId,
        taxMonth: row.taxMonth,
      });
  for (const pair of pairs.values())
    await refreshStatement(trx, actorId, pair.subcontractorId, pair.taxMonth);
}

/**
 * Applies one action to invoices in one transaction: each is checked against the state machine, the valid ones
 * change, every other id is reported with its reason; one audit entry (a bulk one for several ids). Approving
 * an invoice with a deduction, or paying one whose statement is still due, queues the statement job.
 */
export function applyInvoiceAction(
  deps: CisDeps,
  actor: Actor,
  ids: string[],
  action: SingleInvoiceAction | 'delete',
  options: { paymentDate?: string | undefined; reason?: string | undefined } & SubmittedMonthConsent = {},
): Promise<BatchResult & { rows: InvoiceRecord[] }> {
  if (action === 'pay' && options.paymentDate !== undefined) assertPaymentDate(deps, options.paymentDate);
  return deps.inTenant(actor.tenantId, async (trx) => {
    const invoices = new InvoiceStore(trx);
    const rows = await invoices.lockLive(ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const failed: BatchResult['failed'] = [];
    const now = deps.clock.now();
    const paymentDate = options.paymentDate ?? londonDate(now);
    // The months whose return the change reaches: the payment's, or the month a paid invoice being cancelled was in.
    const reached = new Set<string>();
    const statementInvoices: string[] = [];
    // Rows that take the same change are updated together: one statement per distinct change, not per row.
    const groups = new Map<string, { change: InvoiceStateChange; ids: string[] }>();
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
      const { change, needsStatement } = stateChange(row, action, transition.to, {
        now,
        userId: actor.userId,
        paymentDate,
        reason: options.reason,
      });
      if (needsStatement) statementInvoices.push(id);
      if (action === 'pay') reached.add(taxMonthOf(paymentDate));
      if (action === 'cancel' && row.status === 'paid' && row.taxMonth) reached.add(row.taxMonth);
      const key = JSON.stringify(change);
      const group = groups.get(key) ?? { change, ids: [] };
      group.ids.push(id);
      groups.set(key, group);
    }
    const submitted =
      action === 'pay' || action === 'cancel'
        ? await confirmSubmittedMonths(trx, action, reached, options)
        : [];
    const changed: InvoiceRecord[] = [];
    for (const group of groups.values())
      changed.push(...(await invoices.applyStateChange(group.ids, group.change)));
    // A paid invoice cancelled leaves its month's statement (while not issued) without it.
    if (action === 'cancel')
      await refreshStatementsOf(
        trx,
        actor.userId,
        rows.filter((row) => row.status === 'paid' && changed.some((c) => c.id === row.id)),
      );
    const order = new Map(ids.map((id, index) => [id, index]));
    changed.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    if (statementInvoices.length > 0)
      await queueStatementJob(trx, actor, {
        invoiceIds: statementInvoices,
        reason: action === 'approve' ? 'approved' : 'paid',
      });
    const single = ids.length === 1;
    const first = changed[0];
    await deps.audit.write(trx, actor, auditAction(action, single), {
      targetType: 'invoice',
      ...(single ? { targetId: ids[0] } : {}),
      targetIds: ids,
      succeeded: changed.length,
      failed: failed.length,
      summary:
        single && first
          ? `Invoice ${first.invoiceNumber} (${first.subcontractorName}) ${PAST_TENSE[action]}`
          : `${plural(changed.length, 'invoice')} ${PAST_TENSE[action]}${failed.length ? `, ${failed.length} failed` : ''}`,
      ...(action === 'pay' ? { taxMonth: taxMonthOf(paymentDate) } : {}),
      // Confirmed after the warning: the submitted returns this change reaches (they show as changed).
      ...(submitted.length > 0 ? { details: { submittedReturnChanged: submitted.join(',') } } : {}),
    });
    await deps.invoiceChanges.changed(
      trx,
      actor.tenantId,
      changed.map((row) => row.id),
      action,
    );
    return { succeeded: changed.map((row) => row.id), failed, rows: changed };
  });
}

/**
 * A bulk write: ids the state machine refuses come back in `failed`; a batch that fails as a whole (the
 * database refusing the transaction) answers 500 with the spec's cause (cis.md section 8), the error logged.
 */
export async function transitionInvoices(
  deps: CisDeps,
  actor: Actor,
  ids: string[],
  action: BulkInvoiceAction,
  options: { paymentDate?: string | undefined } & SubmittedMonthConsent = {},
): Promise<BatchResult> {
  try {
    const { succeeded, failed } = await applyInvoiceAction(deps, actor, ids, action, options);
    return { succeeded, failed };
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    deps.logger.error(
      { err: error, action, count: ids.length, tenantId: actor.tenantId },
      BATCH_CAUSES[action],
    );
    throw new HttpProblem(500, 'batch_failed', BATCH_CAUSES[action]);
  }
}

/** One invoice's transition: a refusal is the state machine's message (404 when the invoice is not there). */
export async function transitionInvoice(
  deps: CisDeps,
  actor: Actor,
  id: string,
  action: SingleInvoiceAction,
  options: { paymentDate?: string | undefined } & SubmittedMonthConsent = {},
): Promise<InvoiceRecord> {
  const result = await applyInvoiceAction(deps, actor, [id], action, options);
  const failure = result.failed[0];
  if (failure)
    throw failure.error === 'Invoice not found' ? problems.notFound(failure.error) : refused(failure.error);
  const row = result.rows[0];
  if (!row) throw problems.notFound('Invoice not found');
  return row;
}

/**
 * Corrects a paid invoice's payment date (issue 13) while its month's return is not submitted; a new date in a
 * month whose return is submitted warns first. Audited with the old and the new date. Moved to another month, the
 * invoice leaves its old month's statement (refreshed while not issued; an issued one shows as changed) and needs
 * the new month's (the statement job generates or refreshes it).
 */
export function correctPaymentDate(
  deps: CisDeps,
  actor: Actor,
  id: string,
  input: { paymentDate: string } & SubmittedMonthConsent,
): Promise<InvoiceRecord> {
  assertPaymentDate(deps, input.paymentDate);
  return deps.inTenant(actor.tenantId, async (trx) => {
    const invoices = new InvoiceStore(trx);
    const row = await invoices.find(id, { lock: true });
    if (!row) throw problems.notFound('Invoice not found');
    if (row.status !== 'paid' || !row.paymentDate || !row.taxMonth)
      throw refused(PAYMENT_DATE_MESSAGES.notPaid);
    const from = dateOnly(row.paymentDate) ?? '';
    if (from === input.paymentDate)
      throw problems.validation([{ field: 'body.paymentDate', message: PAYMENT_DATE_MESSAGES.unchanged }]);
    if ((await submittedMonths(trx, [row.taxMonth])).length > 0)
      throw refused(correctionRefusedMessage(row.taxMonth), 'return_submitted_locked');
    const toMonth = taxMonthOf(input.paymentDate);
    const moved = toMonth !== row.taxMonth;
    const submitted = moved ? await confirmSubmittedMonths(trx, 'correct', [toMonth], input) : [];
    const now = deps.clock.now();
    const [saved] = await invoices.applyStateChange([id], {
      paymentDate: input.paymentDate,
      taxMonth: toMonth,
      updatedAt: now,
      updatedBy: actor.userId,
      // Another month's statement covers it now: none issued for it yet.
      ...(moved ? { statementId: null, statementIssuedAt: null, statementIssuedMethod: null } : {}),
    });
    if (!saved) throw problems.notFound('Invoice not found');
    if (moved) {
      await refreshStatement(trx, actor.userId, row.subcontractorId, row.taxMonth);
      if (row.statementRequired) await queueStatementJob(trx, actor, { invoiceIds: [id], reason: 'paid' });
    }
    await deps.audit.write(trx, actor, 'cis.invoice.payment_date_corrected', {
      targetType: 'invoice',
      targetId: id,
      taxMonth: toMonth,
      summary: `Invoice ${row.invoiceNumber} (${row.subcontractorName}) payment date corrected from ${from} to ${input.paymentDate}`,
      details: {
        from,
        to: input.paymentDate,
        fromTaxMonth: row.taxMonth,
        toTaxMonth: toMonth,
        ...(moved ? { movedTo: taxMonthName(toMonth) } : {}),
        ...(submitted.length > 0 ? { submittedReturnChanged: submitted.join(',') } : {}),
      },
    });
    await deps.invoiceChanges.changed(trx, actor.tenantId, [id], 'payment-date-corrected');
    return saved;
  });
}
