// Tax months (spec §5 'Tax month', §9; HMRC notes §1.4). A tax month runs from the 6th to the 5th of the
// next month and is labelled 'YYYY-MM' by its START month (6 Dec 2025–5 Jan 2026 = '2025-12'). HMRC itself
// says 'Tax month ending 5 January 2026' (CISR12160) and keys the XML by <PeriodEnd>2026-01-05</PeriodEnd>,
// so a period carries both. Statements and the return are due on the 19th of the month the period ends in,
// electronic payment on the 22nd. Calendar dates are 'YYYY-MM-DD' strings in Europe/London.

export interface TaxMonthDeadlines {
  /** Payment and deduction statements: the 19th of the month ending the period. */
  statements: string;
  /** CIS300 return: the 19th of the month ending the period. */
  filing: string;
  /** Electronic payment: the 22nd of the month ending the period (19th by post, not modelled). */
  payment: string;
}

export interface TaxMonthPeriod {
  /** 'YYYY-MM' of the start month, e.g. '2025-12'. */
  label: string;
  /** HMRC wording, e.g. 'Tax month ending 5 January 2026'. */
  displayLabel: string;
  /** The 6th of the label month, 'YYYY-MM-DD'. */
  startDate: string;
  /** The 5th of the next month, 'YYYY-MM-DD'. */
  endDate: string;
  /** Same as endDate: HMRC's <PeriodEnd>. */
  periodEnd: string;
  /** HMRC tax year (6 April–5 April) as '2025-26'. */
  taxYear: string;
  /** Calendar year the tax year starts in, e.g. 2025 for '2025-26'. */
  taxYearStart: number;
  /** 1..12, where 6 Apr–5 May is 1 and 6 Mar–5 Apr is 12. */
  taxMonthNumber: number;
  deadlines: TaxMonthDeadlines;
}

export const TAX_MONTH_START_DAY = 6;
export const STATEMENT_DUE_DAY = 19;
export const FILING_DUE_DAY = 19;
export const PAYMENT_DUE_DAY = 22;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A tax month label 'YYYY-MM' (the calendar month it starts in). */
export const TAX_MONTH_LABEL_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;
const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// A full ISO 8601 timestamp: date, 'T', time, optional fraction, optional zone.
const ISO_TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const pad2 = (n: number): string => String(n).padStart(2, '0');
const pad4 = (n: number): string => String(n).padStart(4, '0');

function ymd(year: number, month: number, day: number): string {
  return `${pad4(year)}-${pad2(month)}-${pad2(day)}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Parses a calendar date 'YYYY-MM-DD' (a real date) into its parts, or null. */
export function parseIsoDate(value: string): { year: number; month: number; day: number } | null {
  const m = ISO_DATE_RE.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** True for a real calendar date written 'YYYY-MM-DD'. */
export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && parseIsoDate(value) !== null;
}

/** True for a tax month label 'YYYY-MM'. */
export function isTaxMonthLabel(value: unknown): value is string {
  return typeof value === 'string' && TAX_MONTH_LABEL_PATTERN.test(value);
}

let londonFormatter: Intl.DateTimeFormat | undefined;

/** The Europe/London calendar date of an instant, 'YYYY-MM-DD' (handles GMT/BST). */
export function londonDate(date: Date): string {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw new Error('Invalid date');
  londonFormatter ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const parts: Record<string, string> = {};
  for (const part of londonFormatter.formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}`;
}

/**
 * The calendar date a value stands for: a Date or a full ISO timestamp string is an instant, converted to its
 * Europe/London date; a 'YYYY-MM-DD' string is already a calendar date. Throws on anything else.
 */
export function toCalendarDate(value: Date | string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error('Invalid date');
    return londonDate(value);
  }
  if (typeof value !== 'string') throw new Error(`Invalid date: ${String(value)}`);
  const text = value.trim();
  if (ISO_DATE_RE.test(text)) {
    if (!parseIsoDate(text)) throw new Error(`Invalid date: ${value}`);
    return text;
  }
  const timestamp = ISO_TIMESTAMP_RE.exec(text);
  if (timestamp) {
    // Without a zone the wall-clock time is taken as London's own, so the date part is the calendar date.
    if (!timestamp[3]) {
      if (!parseIsoDate(text.slice(0, 10))) throw new Error(`Invalid date: ${value}`);
      return text.slice(0, 10);
    }
    const instant = new Date(text);
    if (Number.isNaN(instant.getTime()) || !parseIsoDate(text.slice(0, 10))) {
      throw new Error(`Invalid date: ${value}`);
    }
    return londonDate(instant);
  }
  throw new Error(`Invalid date: expected 'YYYY-MM-DD' or an ISO timestamp, got '${value}'`);
}

/**
 * The tax month label of a date (spec §5): day 6 or later → that month; days 1–5 → the previous month
 * (1–5 January → December of the previous year).
 */
export function taxMonthOf(date: Date | string): string {
  const parsed = parseIsoDate(toCalendarDate(date));
  if (!parsed) throw new Error(`Invalid date: ${String(date)}`);
  const { year, month, day } = parsed;
  if (day >= TAX_MONTH_START_DAY) return `${pad4(year)}-${pad2(month)}`;
  return month === 1 ? `${pad4(year - 1)}-12` : `${pad4(year)}-${pad2(month - 1)}`;
}

function parseLabel(label: string): { year: number; month: number } {
  const m = typeof label === 'string' ? TAX_MONTH_LABEL_PATTERN.exec(label) : null;
  if (!m) throw new Error(`Invalid tax month label: expected 'YYYY-MM', got '${label}'`);
  return { year: Number(m[1]), month: Number(m[2]) };
}

function shiftLabel(label: string, months: number): string {
  const { year, month } = parseLabel(label);
  const index = year * 12 + (month - 1) + months;
  return `${pad4(Math.floor(index / 12))}-${pad2((index % 12) + 1)}`;
}

/** The tax month before, e.g. '2025-01' → '2024-12'. */
export function previousTaxMonth(label: string): string {
  return shiftLabel(label, -1);
}

/** The tax month after, e.g. '2025-12' → '2026-01'. */
export function nextTaxMonth(label: string): string {
  return shiftLabel(label, 1);
}

/** The tax month containing `now` (Europe/London). */
export function currentTaxMonth(now: Date = new Date()): string {
  return taxMonthOf(now);
}

/** '2025-12' → 'Tax month ending 5 January 2026' (HMRC wording, CISR12160). */
export function formatTaxMonthEnding(label: string): string {
  const end = parseLabel(nextTaxMonth(label));
  return `Tax month ending 5 ${MONTH_NAMES[end.month - 1] ?? ''} ${end.year}`;
}

/**
 * How people read a period, as HMRC names it: '2026-10' → 'month ending 5 November 2026' (the label key stays
 * 'YYYY-MM', the spec's; screens, pickers, file names and chart axes say this).
 */
export function taxMonthName(label: string): string {
  const end = parseLabel(nextTaxMonth(label));
  return `month ending 5 ${MONTH_NAMES[end.month - 1] ?? ''} ${end.year}`;
}

/** The same, capitalised to start a heading or a table cell: 'Month ending 5 November 2026'. */
export function taxMonthTitle(label: string): string {
  const name = taxMonthName(label);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Where room is short (a chart's axis): '2026-10' → '5 Nov 2026', under a heading that says 'Month ending'. */
export function taxMonthEndShort(label: string): string {
  const end = parseLabel(nextTaxMonth(label));
  return `5 ${(MONTH_NAMES[end.month - 1] ?? '').slice(0, 3)} ${end.year}`;
}

/** A period in a file name: '2026-10' → 'month-ending-2026-11-05' (sorts by date, says which month it is). */
export function taxMonthFilePart(label: string): string {
  const end = parseLabel(nextTaxMonth(label));
  return `month-ending-${ymd(end.year, end.month, 5)}`;
}

/** A period's label inside a sentence: 'tax month ending 5 January 2026' (the month keeps its capital). */
export function taxMonthInSentence(period: { displayLabel: string }): string {
  return period.displayLabel.charAt(0).toLowerCase() + period.displayLabel.slice(1);
}

/** 'YYYY-MM-DD' → '19 June 2025'. */
export function formatLongDate(isoDate: string): string {
  const parsed = parseIsoDate(isoDate);
  if (!parsed) throw new Error(`Invalid date: ${isoDate}`);
  return `${parsed.day} ${MONTH_NAMES[parsed.month - 1] ?? ''} ${parsed.year}`;
}

/** Everything about one tax month: dates, HMRC's label, tax year and deadlines. */
export function taxMonthPeriod(label: string): TaxMonthPeriod {
  const { year, month } = parseLabel(label);
  const end = parseLabel(nextTaxMonth(label));
  const taxYearStart = month >= 4 ? year : year - 1;
  const endDate = ymd(end.year, end.month, 5);
  return {
    label,
    displayLabel: formatTaxMonthEnding(label),
    startDate: ymd(year, month, TAX_MONTH_START_DAY),
    endDate,
    periodEnd: endDate,
    taxYear: `${taxYearStart}-${pad2((taxYearStart + 1) % 100)}`,
    taxYearStart,
    taxMonthNumber: ((month - 4 + 12) % 12) + 1,
    deadlines: {
      statements: ymd(end.year, end.month, STATEMENT_DUE_DAY),
      filing: ymd(end.year, end.month, FILING_DUE_DAY),
      payment: ymd(end.year, end.month, PAYMENT_DUE_DAY),
    },
  };
}

/** True when a calendar date (or instant) falls inside the tax month `label`. */
export function isInTaxMonth(date: Date | string, label: string): boolean {
  return taxMonthOf(date) === label;
}

function dayNumber(isoDate: string): number {
  const parsed = parseIsoDate(isoDate);
  if (!parsed) throw new Error(`Invalid date: expected 'YYYY-MM-DD', got '${isoDate}'`);
  return Date.UTC(parsed.year, parsed.month - 1, parsed.day) / 86_400_000;
}

/** Calendar days from `fromIso` to `toIso` ('YYYY-MM-DD'); negative when `toIso` is earlier. */
export function daysBetween(fromIso: string, toIso: string): number {
  return dayNumber(toIso) - dayNumber(fromIso);
}

/** 'YYYY-MM-DD' plus `days` calendar days. */
export function addDays(isoDate: string, days: number): string {
  const d = new Date((dayNumber(isoDate) + days) * 86_400_000);
  return ymd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}
