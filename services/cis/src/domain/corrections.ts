// Corrections after the fact (issue 13, ADR 0037): payment dates, changes into a month whose return is submitted,
// and statements whose totals changed after they were issued. Pure: "today" is a parameter.

import { isIsoDate, taxMonthName } from './tax-month.js';

export const PAYMENT_DATE_MESSAGES = {
  required: 'Payment date is required',
  invalid: 'Payment date must be a date (YYYY-MM-DD)',
  future: 'Payment date cannot be after today',
  unchanged: 'The payment date is already that date',
  notPaid: 'Only paid invoices have a payment date to correct',
} as const;

/** What is wrong with a payment date (not a date, or after `today`, both 'YYYY-MM-DD' in London), or null. */
export function paymentDateError(paymentDate: string, today: string): string | null {
  if (!paymentDate.trim()) return PAYMENT_DATE_MESSAGES.required;
  if (!isIsoDate(paymentDate)) return PAYMENT_DATE_MESSAGES.invalid;
  return paymentDate > today ? PAYMENT_DATE_MESSAGES.future : null;
}

/** The problem code a change into a submitted month is refused with until the request confirms it. */
export const RETURN_SUBMITTED_CODE = 'return_submitted';

export type SubmittedMonthChange = 'pay' | 'cancel' | 'correct';

const CHANGE_WORDS: Record<SubmittedMonthChange, string> = {
  pay: 'Marking this invoice paid',
  cancel: 'Cancelling this invoice',
  correct: 'Correcting this payment date',
};

function monthsInWords(months: readonly string[]): string {
  const names = months.map((month) => `the ${taxMonthName(month)}`);
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

/**
 * The warning before a change into months whose returns are submitted: what happens if the user goes on (the return
 * shows as changed since submission and needs an amendment).
 */
export function submittedMonthWarning(change: SubmittedMonthChange, months: readonly string[]): string {
  const plural = months.length > 1;
  return (
    `The ${plural ? 'returns' : 'return'} for ${monthsInWords(months)} ${plural ? 'have' : 'has'} already been submitted. ` +
    `${CHANGE_WORDS[change]} changes ${plural ? 'them' : 'it'}: ${plural ? 'each' : 'the return'} will show as ` +
    `changed since submission and will need an amendment.`
  );
}

/**
 * A payment date cannot be corrected once its month's return is submitted: the amendment is started first (the
 * return is then no longer submitted), or the invoice is cancelled and paid again.
 */
export function correctionRefusedMessage(taxMonth: string): string {
  return (
    `The payment date cannot be corrected: the return for the ${taxMonthName(taxMonth)} has been submitted. ` +
    'Start its amendment first.'
  );
}

/** The totals a statement shows, and the invoices it covers. */
export interface StatementFigures {
  invoiceIds: readonly string[];
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
}

/** The invoices paid in a statement's month now. */
export interface PaidInvoiceFigures {
  id: string;
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
}

/**
 * Whether an issued statement no longer matches the invoices paid in its month (one paid, cancelled or moved to
 * another month since it was issued): the subcontractor holds figures that are no longer right.
 */
export function statementChangedSinceIssue(
  statement: StatementFigures,
  paid: readonly PaidInvoiceFigures[],
): boolean {
  const ids = new Set(paid.map((invoice) => invoice.id));
  if (ids.size !== new Set(statement.invoiceIds).size) return true;
  if (statement.invoiceIds.some((id) => !ids.has(id))) return true;
  const sum = (pick: (invoice: PaidInvoiceFigures) => number) =>
    paid.reduce((total, invoice) => total + pick(invoice), 0);
  return (
    sum((i) => i.grossP) !== statement.grossP ||
    sum((i) => i.materialsP) !== statement.materialsP ||
    sum((i) => i.cisDeductionP) !== statement.cisDeductionP
  );
}
