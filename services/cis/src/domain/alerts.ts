// Dashboard deadline alerts (spec §2 'CIS dashboard', §4 'Dashboard alerts'): an alert is raised when a
// deadline falls within warningDays. Statements are severity high; filing and payment critical.

import {
  daysBetween,
  formatLongDate,
  isTaxMonthLabel,
  previousTaxMonth,
  taxMonthName,
  taxMonthOf,
  taxMonthPeriod,
} from './tax-month.js';
import { formatPounds } from './money.js';

export type DeadlineKind = 'statements' | 'filing' | 'payment';
export type AlertSeverity = 'high' | 'critical';

export interface DeadlineAlert {
  kind: DeadlineKind;
  /** The tax month the deadline belongs to. */
  label: string;
  /** 'YYYY-MM-DD'. */
  date: string;
  daysRemaining: number;
  severity: AlertSeverity;
  message: string;
}

export interface DeadlineAlertsInput {
  /** Today's Europe/London date, 'YYYY-MM-DD'. */
  today: string;
  /** The tax month to look from; defaults to the one containing today. */
  label?: string;
  /** Days ahead to warn (0–30); 0 alerts on the due day only. */
  warningDays: number;
}

const KIND_TEXT: Record<DeadlineKind, string> = {
  statements: 'Payment and deduction statements',
  filing: 'CIS300 return filing',
  payment: 'CIS payment to HMRC',
};
const SEVERITY: Record<DeadlineKind, AlertSeverity> = {
  statements: 'high',
  filing: 'critical',
  payment: 'critical',
};
const KINDS: readonly DeadlineKind[] = ['statements', 'filing', 'payment'];

function when(days: number): string {
  if (days === 0) return 'due today';
  if (days === 1) return 'due tomorrow';
  return `due in ${days} days`;
}

/**
 * Alerts for deadlines due between today and today + warningDays (inclusive). The deadlines of a tax month
 * fall in the month after it, so both `label` and the month before it are looked at: on 15 June (tax month
 * 2025-06) the 19 and 22 June deadlines of 6 May–5 June (2025-05) are the upcoming ones. Past deadlines are
 * not alerts here (the statements screen shows overdue). Sorted by date, then statements, filing, payment.
 */
export function deadlineAlerts(input: DeadlineAlertsInput): DeadlineAlert[] {
  const label = input.label && isTaxMonthLabel(input.label) ? input.label : taxMonthOf(input.today);
  const warningDays = Math.max(0, Math.floor(input.warningDays));
  const alerts: DeadlineAlert[] = [];
  for (const month of [previousTaxMonth(label), label]) {
    const period = taxMonthPeriod(month);
    for (const kind of KINDS) {
      const date = period.deadlines[kind];
      const daysRemaining = daysBetween(input.today, date);
      if (daysRemaining < 0 || daysRemaining > warningDays) continue;
      alerts.push({
        kind,
        label: month,
        date,
        daysRemaining,
        severity: SEVERITY[kind],
        message: `${KIND_TEXT[kind]} for the ${taxMonthName(month)} ${when(daysRemaining)} (${formatLongDate(date)})`,
      });
    }
  }
  return alerts.sort((a, b) => a.date.localeCompare(b.date) || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
}

export interface PastDeadlinesInput {
  /** Today's Europe/London date, 'YYYY-MM-DD'. */
  today: string;
  /** Months whose return is overdue, with the late-filing penalty as at today (pence). */
  overdueReturns: { label: string; filingDeadline: string; penaltyP: number }[];
  /** Unissued payment and deduction statements per tax month (paid invoices waiting for one). */
  pendingStatements: { taxMonth: string; count: number }[];
}

/**
 * Alerts for deadlines already past (issue 13): each month whose return is overdue (critical, with the late-filing
 * penalty as at today) and each month whose statement deadline passed with statements still unissued (high).
 * Sorted oldest first, like the upcoming ones.
 */
export function pastDeadlineAlerts(input: PastDeadlinesInput): DeadlineAlert[] {
  const alerts: DeadlineAlert[] = [];
  for (const month of input.overdueReturns) {
    const daysRemaining = daysBetween(input.today, month.filingDeadline);
    if (daysRemaining >= 0) continue;
    alerts.push({
      kind: 'filing',
      label: month.label,
      date: month.filingDeadline,
      daysRemaining,
      severity: 'critical',
      message: `CIS300 return for the ${taxMonthName(month.label)} overdue since ${formatLongDate(month.filingDeadline)}: late-filing penalty ${formatPounds(month.penaltyP)}`,
    });
  }
  for (const { taxMonth, count } of input.pendingStatements) {
    if (!isTaxMonthLabel(taxMonth) || count <= 0) continue;
    const date = taxMonthPeriod(taxMonth).deadlines.statements;
    const daysRemaining = daysBetween(input.today, date);
    if (daysRemaining >= 0) continue;
    alerts.push({
      kind: 'statements',
      label: taxMonth,
      date,
      daysRemaining,
      severity: 'high',
      message: `Payment and deduction statements for the ${taxMonthName(taxMonth)} overdue since ${formatLongDate(date)}: ${count} not issued`,
    });
  }
  return alerts.sort((a, b) => a.date.localeCompare(b.date) || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
}
