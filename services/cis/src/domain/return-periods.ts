// Returns by period (issue 13): every tax month since the module was switched on is filed, due or overdue (or
// marked as not this product's to file), with its filing deadline and the late-filing penalty the contractor is
// exposed to. HMRC's rules: hmrc-cis-notes §1.4 (deadlines), §1.7 (nil returns mandatory from 6 April 2026) and
// §1.8 (Schedule 55 FA 2009 penalties). Pure: "today" is a parameter ('YYYY-MM-DD', Europe/London).

import {
  addDays,
  formatLongDate,
  parseIsoDate,
  previousTaxMonth,
  taxMonthName,
  taxMonthOf,
  taxMonthPeriod,
} from './tax-month.js';

/** The first tax month for which a nil return is mandatory: 6 April–5 May 2026 (hmrc-cis-notes §1.7). */
export const NIL_RETURNS_MANDATORY_FROM = '2026-04';

/** Why a month needs no return from this product, as the user marked it (who and when are audited). */
export const PERIOD_MARK_REASONS = ['filed_elsewhere', 'before_product', 'inactive'] as const;
export type PeriodMarkReason = (typeof PERIOD_MARK_REASONS)[number];

export const PERIOD_STATUSES = [
  'filed',
  'filed_elsewhere',
  'before_product',
  'inactive',
  'not_required',
  'in_progress',
  'due',
  'overdue',
] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number];

/** How each status reads on a screen. */
export const PERIOD_STATUS_TEXT: Record<PeriodStatus, string> = {
  filed: 'Submitted',
  filed_elsewhere: 'Filed elsewhere',
  before_product: 'Before this product',
  inactive: 'HMRC told of inactivity',
  not_required: 'No return needed',
  in_progress: 'Month in progress',
  due: 'Due',
  overdue: 'Overdue',
};

/** Statuses that need nothing more from the user for the month's return. */
const SETTLED: readonly PeriodStatus[] = [
  'filed',
  'filed_elsewhere',
  'before_product',
  'inactive',
  'not_required',
];

export const isSettledPeriod = (status: PeriodStatus): boolean => SETTLED.includes(status);

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** The same day `months` calendar months later ('2026-11-19' + 2 → '2027-01-19'); the 31st becomes the last day. */
export function monthsAfter(isoDate: string, months: number): string {
  const parsed = parseIsoDate(isoDate);
  if (!parsed) throw new Error(`Invalid date: ${isoDate}`);
  const index = parsed.year * 12 + parsed.month - 1 + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(Math.min(parsed.day, lastDay))}`;
}

export interface PenaltyStage {
  /** The first day this part of the penalty applies, 'YYYY-MM-DD'. */
  from: string;
  amountP: number;
  reason: string;
}

export interface LateFilingPenalty {
  /** What the contractor is exposed to as at `asOf` (pence). */
  totalP: number;
  /** The parts charged by `asOf`. */
  charged: PenaltyStage[];
  /** The next part, if the return stays unfiled. */
  next: PenaltyStage | null;
}

/** 5% of the deductions on the return, in whole pence (rounded half up). */
const fivePercent = (cisDeductedP: number): number => Math.round((Math.max(0, cisDeductedP) * 5) / 100);

/**
 * HMRC's late-filing penalties for a monthly return (Schedule 55 FA 2009, CH62380; hmrc-cis-notes §1.8), as at
 * `asOf`: £100 the day after the filing deadline; £200 more once it is over 2 months late; at over 6 months the
 * greater of £300 and 5% of the deductions on the return; at over 12 months the same again. The higher 12-month
 * amounts for deliberate withholding (70% / £1,500, 100% / £3,000) and the cap on a new contractor's first returns
 * depend on facts the product does not hold, so they are not modelled (ADR 0035). Nil returns are charged too.
 */
export function lateFilingPenalty(input: {
  filingDeadline: string;
  asOf: string;
  cisDeductedP: number;
}): LateFilingPenalty {
  const percent = Math.max(30_000, fivePercent(input.cisDeductedP));
  const stages: PenaltyStage[] = [
    { from: addDays(input.filingDeadline, 1), amountP: 10_000, reason: 'Return late' },
    { from: addDays(monthsAfter(input.filingDeadline, 2), 1), amountP: 20_000, reason: 'Over 2 months late' },
    {
      from: addDays(monthsAfter(input.filingDeadline, 6), 1),
      amountP: percent,
      reason: 'Over 6 months late',
    },
    {
      from: addDays(monthsAfter(input.filingDeadline, 12), 1),
      amountP: percent,
      reason: 'Over 12 months late',
    },
  ];
  const charged = stages.filter((stage) => stage.from <= input.asOf);
  return {
    totalP: charged.reduce((sum, stage) => sum + stage.amountP, 0),
    charged,
    next: stages.find((stage) => stage.from > input.asOf) ?? null,
  };
}

export interface PeriodFacts {
  /** The tax month, 'YYYY-MM'. */
  label: string;
  /** Today's Europe/London date, 'YYYY-MM-DD'. */
  today: string;
  /** The London date the month's return was first submitted in this product, or null. */
  filedOn: string | null;
  /** What the user marked the month as, or null. */
  mark: PeriodMarkReason | null;
  /** Paid invoices in the month (a month without any owes a nil return). */
  paidInvoices: number;
  /** Deductions of the month (the return's, else its paid invoices'), for the 5% penalty. */
  cisDeductedP: number;
}

export interface PeriodState {
  label: string;
  status: PeriodStatus;
  /** The month has no payments: its return, if one is needed, is a nil return. */
  nil: boolean;
  endDate: string;
  filingDeadline: string;
  /** The first day the return can be submitted (the day after the month ends). */
  submittableFrom: string;
  /** The late-filing penalty as at today (for a return filed late, as at its filing date). */
  penalty: LateFilingPenalty;
}

const NO_PENALTY: LateFilingPenalty = { totalP: 0, charged: [], next: null };

/**
 * Where a month's return stands today. A return submitted here is filed (its penalty as at the day it was filed);
 * a marked month is as marked; a month that has not ended is in progress; before 6 April 2026 a month without
 * payments needs no return; otherwise it is due until its filing deadline, then overdue.
 */
export function periodState(facts: PeriodFacts): PeriodState {
  const period = taxMonthPeriod(facts.label);
  const filingDeadline = period.deadlines.filing;
  const nil = facts.paidInvoices === 0;
  const base = {
    label: facts.label,
    nil,
    endDate: period.endDate,
    filingDeadline,
    submittableFrom: addDays(period.endDate, 1),
  };
  const penaltyAsOf = (asOf: string) =>
    lateFilingPenalty({ filingDeadline, asOf, cisDeductedP: facts.cisDeductedP });
  if (facts.filedOn) return { ...base, status: 'filed', penalty: penaltyAsOf(facts.filedOn) };
  if (facts.mark) return { ...base, status: facts.mark, penalty: NO_PENALTY };
  if (facts.today <= period.endDate) return { ...base, status: 'in_progress', penalty: NO_PENALTY };
  if (nil && facts.label < NIL_RETURNS_MANDATORY_FROM)
    return { ...base, status: 'not_required', penalty: NO_PENALTY };
  if (facts.today <= filingDeadline) return { ...base, status: 'due', penalty: NO_PENALTY };
  return { ...base, status: 'overdue', penalty: penaltyAsOf(facts.today) };
}

/**
 * The return the Returns page opens on: the month just ended while its return is still to file (due or overdue),
 * otherwise the month in progress.
 */
export function dueTaxMonth(today: string, justEnded: PeriodStatus | undefined): string {
  const current = taxMonthOf(today);
  return justEnded === 'due' || justEnded === 'overdue' ? previousTaxMonth(current) : current;
}

/** The tax months from `to` back to `from` (both included), newest first; empty when `from` is after `to`. */
export function taxMonthsBack(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = to; month >= from; month = previousTaxMonth(month)) months.push(month);
  return months;
}

/** Why a return cannot be submitted yet (its month has not ended), or null. */
export function submitTooEarly(label: string, today: string): string | null {
  const { endDate } = taxMonthPeriod(label);
  if (today > endDate) return null;
  return `The return for the ${taxMonthName(label)} cannot be submitted before the month ends: it can be submitted from ${formatLongDate(addDays(endDate, 1))}.`;
}

/** Why a month cannot be marked so, or null. */
export function markRefusal(
  facts: Pick<PeriodFacts, 'label' | 'today' | 'filedOn' | 'paidInvoices'>,
  reason: PeriodMarkReason,
): string | null {
  const name = taxMonthName(facts.label);
  if (facts.filedOn) return `The return for the ${name} was submitted here, so it cannot be marked.`;
  if (reason === 'inactive')
    return facts.paidInvoices > 0
      ? `Payments are recorded in the ${name}, so it cannot be marked as a month HMRC was told of inactivity.`
      : null;
  if (facts.today <= taxMonthPeriod(facts.label).endDate)
    return `The ${name} has not ended yet, so it cannot be marked as ${reason === 'filed_elsewhere' ? 'filed elsewhere' : 'before this product'}.`;
  return null;
}
