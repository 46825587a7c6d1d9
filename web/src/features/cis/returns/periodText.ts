import type { ReturnPeriod } from '@workspace/cis/contract';
import { formatLongDate, formatPounds, taxMonthName } from '@workspace/rules';
import { ukDate } from '../../../ui/format';

/** The tag colour of a period's status: overdue red, due gold, in progress blue, filed green, marked grey. */
export const PERIOD_STATUS_COLOUR: Record<ReturnPeriod['status'], string> = {
  overdue: 'red',
  due: 'gold',
  in_progress: 'blue',
  filed: 'green',
  filed_elsewhere: 'default',
  before_product: 'default',
  inactive: 'default',
  not_required: 'default',
};

const MARK_TEXT: Record<NonNullable<ReturnPeriod['mark']>['reason'], string> = {
  filed_elsewhere: 'filed elsewhere',
  before_product: 'before this product was used',
  inactive: 'covered by an inactivity notice to HMRC',
};

export const markReasonText = (reason: NonNullable<ReturnPeriod['mark']>['reason']) => MARK_TEXT[reason];

/** What a penalty comes to, and what it rises by next if the return stays unfiled. */
export function penaltyText(period: ReturnPeriod, today: string): string {
  const { totalP, next } = period.penalty;
  const now = `Late-filing penalty ${formatPounds(totalP)} as at ${formatLongDate(today)}`;
  return next
    ? `${now}; it rises by ${formatPounds(next.amountP)} on ${formatLongDate(next.from)} if the return is still not filed.`
    : `${now}.`;
}

/** One line on where a month's return stands, for the month in view. */
export function standingText(period: ReturnPeriod, today: string): string {
  const name = taxMonthName(period.label);
  switch (period.status) {
    case 'overdue':
      return `The return for the ${name} was due by ${formatLongDate(period.filingDeadline)} and is overdue. ${penaltyText(period, today)}`;
    case 'due':
      return `The return for the ${name} is due by ${formatLongDate(period.filingDeadline)}${period.nil ? ': no payments are recorded, so it is a nil return' : ''}.`;
    case 'in_progress':
      return `The ${name} has not ended yet: its return can be submitted from ${formatLongDate(period.submittableFrom)} and is due by ${formatLongDate(period.filingDeadline)}.`;
    case 'not_required':
      return `No payments are recorded in the ${name}, and before 6 April 2026 a month without payments needed no return.`;
    case 'filed':
      return period.penalty.totalP > 0
        ? `The return for the ${name} was submitted after its filing deadline of ${formatLongDate(period.filingDeadline)}: late-filing penalty ${formatPounds(period.penalty.totalP)}.`
        : `The return for the ${name} was submitted (ready to file with HMRC).`;
    default:
      return `The ${name} is marked as ${period.mark ? markReasonText(period.mark.reason) : 'needing no return here'}: no return is owed here.`;
  }
}

/** Months a user may mark: due or overdue (the service checks again). */
export const markable = (period: ReturnPeriod) => ['due', 'overdue'].includes(period.status);

/** Who marked a month and when: the signed-in user is 'you'; the audit trail names anyone else. */
export const markedByText = (mark: NonNullable<ReturnPeriod['mark']>, self: string) =>
  `${mark.markedBy === self ? 'by you' : 'by another user'} on ${ukDate(mark.markedAt)}`;
