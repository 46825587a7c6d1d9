// The product's display formats, shared by every screen (the portal's too): en-GB in the Europe/London time zone,
// 'N/A' for a date that cannot be read, pounds from amounts held in pence (@workspace/rules' money).
import { formatPounds } from '@workspace/rules';

export const LOCALE = 'en-GB';
export const TIME_ZONE = 'Europe/London';
/** What a date that cannot be read shows (the spec's 'Invalid date display'). */
export const NA = 'N/A';

const dateFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const timeFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
});

/** The formatters' settings, for whoever needs to check them. */
export const formatSettings = dateTimeFormat.resolvedOptions();

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'YYYY-MM-DD' (a calendar date, no time zone) or an instant → 'DD/MM/YYYY' in London; unreadable → 'N/A'. */
export function ukDate(value: DateInput): string {
  if (typeof value === 'string') {
    const calendar = CALENDAR_DATE.exec(value);
    if (calendar) {
      const [, year, month, day] = calendar;
      const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
      if (check.getUTCMonth() !== Number(month) - 1) return NA;
      return `${day ?? ''}/${month ?? ''}/${year ?? ''}`;
    }
  }
  const date = toDate(value);
  return date ? dateFormat.format(date) : NA;
}

/** An instant → 'DD/MM/YYYY, HH:MM' (24-hour, London); unreadable → 'N/A'. */
export function ukDateTime(value: DateInput): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : NA;
}

/** An instant → 'HH:MM' (24-hour, London); unreadable → 'N/A'. */
export function ukTime(value: DateInput): string {
  const date = toDate(value);
  return date ? timeFormat.format(date) : NA;
}

/** Today's date in London as 'YYYY-MM-DD'. */
export function todayIso(now: Date = new Date()): string {
  const parts: Record<string, string> = {};
  for (const part of dateFormat.formatToParts(now)) parts[part.type] = part.value;
  return `${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}`;
}

/**
 * Pence (an integer: amounts are held in pence) → pounds: 1234 → '£12.34', 123456 → '£1,234.56', -5 → '-£0.05'.
 * Exact (whole-number arithmetic, no floating point); a missing or broken amount → '£0.00'.
 */
export function pounds(pence: number | null | undefined): string {
  return formatPounds(typeof pence === 'number' && Number.isSafeInteger(pence) ? pence : 0);
}

/** 'paid' → 'Paid'; missing → ''. */
export function capitalise(text: string | null | undefined): string {
  if (!text) return '';
  return text.charAt(0).toUpperCase() + text.slice(1);
}
