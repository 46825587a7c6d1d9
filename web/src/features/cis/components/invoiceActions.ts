import type { Abilities, Invoice } from '@workspace/cis/contract';
import { normaliseInvoiceStatus } from '../domain';

export type InvoiceUiAction = 'view' | 'edit' | 'approve' | 'reject' | 'pay' | 'cancel' | 'delete';

/**
 * What the caller may do with an invoice: the status allows it (the server's `actions` when sent) and the
 * caller's UI flag grants it (edit, cancel, delete: canWrite; approve, reject: canApprove; pay: canPay, the scope the service
 * checks, which the coarse write scope also grants).
 */
export function invoiceAllows(
  invoice: Pick<Invoice, 'status'> & { actions?: Invoice['actions'] },
  action: InvoiceUiAction,
  abilities: Abilities,
): boolean {
  if (action === 'view') return true;
  const status = normaliseInvoiceStatus(invoice.status);
  const byStatus: Record<Exclude<InvoiceUiAction, 'view'>, boolean> = {
    edit: status === 'draft',
    approve: status === 'draft' || status === 'portal_draft',
    reject: status === 'portal_draft',
    pay: status === 'approved',
    cancel: status !== 'cancelled' && status !== 'rejected',
    delete:
      status === 'draft' || status === 'portal_draft' || status === 'cancelled' || status === 'rejected',
  };
  const statusOk = invoice.actions ? invoice.actions.includes(action) : byStatus[action];
  const flag =
    action === 'approve' || action === 'reject'
      ? abilities.canApprove
      : action === 'pay'
        ? abilities.canPay
        : abilities.canWrite;
  return statusOk && flag;
}

/** 'Statement pending': a statement is required and has not been issued (never for a cancelled invoice). */
export function statementPending(
  invoice: Pick<Invoice, 'status'> & { statement: Invoice['statement'] | null },
): boolean {
  return (
    normaliseInvoiceStatus(invoice.status) !== 'cancelled' &&
    Boolean(invoice.statement?.required) &&
    !invoice.statement?.issuedAt
  );
}
