// HMRC tax years (6 April–5 April): the twelve tax months of one, and how people name it. A tax year is keyed by the
// calendar year it starts in (2026 for 6 April 2026–5 April 2027), its tax months by their 'YYYY-MM' label.

import { formatLongDate, taxMonthOf, taxMonthPeriod } from './tax-month.js';

/** The tax year a date (or instant, Europe/London) falls in, by its start year: 5 April 2027 → 2026. */
export function taxYearStartOf(date: Date | string): number {
  return taxMonthPeriod(taxMonthOf(date)).taxYearStart;
}

/** The tax months of a tax year in order: 2026 → '2026-04' (month ending 5 May 2026) … '2027-03'. */
export function taxYearMonths(taxYearStart: number): string[] {
  return Array.from({ length: 12 }, (_, index) => {
    const month = ((index + 3) % 12) + 1;
    const year = index < 9 ? taxYearStart : taxYearStart + 1;
    return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
  });
}

/** HMRC's short name of a tax year: 2026 → '2026-27'. */
export function taxYearName(taxYearStart: number): string {
  return `${taxYearStart}-${String((taxYearStart + 1) % 100).padStart(2, '0')}`;
}

/** The dates a tax year covers: 2026 → { startDate: '2026-04-06', endDate: '2027-04-05' }. */
export function taxYearDates(taxYearStart: number): { startDate: string; endDate: string } {
  return { startDate: `${taxYearStart}-04-06`, endDate: `${taxYearStart + 1}-04-05` };
}

/** A tax year in words: 2026 → '6 April 2026 to 5 April 2027'. */
export function taxYearSpan(taxYearStart: number): string {
  const { startDate, endDate } = taxYearDates(taxYearStart);
  return `${formatLongDate(startDate)} to ${formatLongDate(endDate)}`;
}
