import { HttpProblem, problems } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore, type InvoiceRecord, type InvoiceStateChange } from '../db/invoices.store.js';
import { invoiceTransition, londonDate, taxMonthOf, type InvoiceAction } from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { refused, type BatchResult } from './problems.js';
import { queueStatementJob } from './statement-jobs.js';

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
  stamp: { now: Date; userId: string; paymentDate: string },
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
  if (action === 'cancel' || action === 'reject')
    Object.assign(change, { cancelledAt: now, cancelledBy: userId });
  if (action === 'delete') Object.assign(change, { deletedAt: now, deletedBy: userId, archived: true });
  return { change, needsStatement };
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
  options: { paymentDate?: string } = {},
): Promise<BatchResult & { rows: InvoiceRecord[] }> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const invoices = new InvoiceStore(trx);
    const rows = await invoices.lockLive(ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const failed: BatchResult['failed'] = [];
    const now = deps.clock.now();
    const paymentDate = options.paymentDate ?? londonDate(now);
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
      });
      if (needsStatement) statementInvoices.push(id);
      const key = JSON.stringify(change);
      const group = groups.get(key) ?? { change, ids: [] };
      group.ids.push(id);
      groups.set(key, group);
    }
    const changed: InvoiceRecord[] = [];
    for (const group of groups.values())
      changed.push(...(await invoices.applyStateChange(group.ids, group.change)));
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
          : `${changed.length} invoices ${PAST_TENSE[action]}${failed.length ? `, ${failed.length} failed` : ''}`,
      ...(action === 'pay' ? { taxMonth: taxMonthOf(paymentDate) } : {}),
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
  options: { paymentDate?: string } = {},
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
  paymentDate?: string,
): Promise<InvoiceRecord> {
  const result = await applyInvoiceAction(deps, actor, [id], action, paymentDate ? { paymentDate } : {});
  const failure = result.failed[0];
  if (failure)
    throw failure.error === 'Invoice not found' ? problems.notFound(failure.error) : refused(failure.error);
  const row = result.rows[0];
  if (!row) throw problems.notFound('Invoice not found');
  return row;
}
