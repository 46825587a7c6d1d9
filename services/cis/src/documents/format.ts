import { formatLongDate, isIsoDate } from '../domain/index.js';

// Date formatting shared by the document builders (statement PDF, CSV exports). The spec shows dates in UK
// format (locale en-GB, timezone Europe/London). A date-only value ('2026-06-19') is a calendar date and is
// never shifted through a timezone; a timestamp is shown as the London wall-clock date.

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const londonDate = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

const londonDateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

const londonParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

export type DateLike = string | Date | null | undefined;

function toDate(value: DateLike): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '2026-06-19' or a timestamp → '19/06/2026'; null for a missing or invalid value. */
export function formatDateGb(value: DateLike): string | null {
  if (typeof value === 'string') {
    const match = DATE_ONLY.exec(value);
    if (match) {
      const [, year, month, day] = match;
      const check = new Date(`${value}T00:00:00Z`);
      if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== value) return null;
      return `${day}/${month}/${year}`;
    }
  }
  const date = toDate(value);
  return date ? londonDate.format(date) : null;
}

/** '2026-06-19' → '19 June 2026' (a calendar date, no timezone); null when invalid. */
export function formatLongDateGb(value: string): string | null {
  return isIsoDate(value) ? formatLongDate(value) : null;
}

/** A timestamp → '19/06/2026 14:03' (Europe/London); null for a missing or invalid value. */
export function formatDateTimeGb(value: DateLike): string | null {
  const date = toDate(value);
  return date ? londonDateTime.format(date).replace(',', '') : null;
}

/** The London calendar date of a timestamp as 'YYYY-MM-DD' (for file names such as cis-invoices-{date}.csv). */
export function isoDateLondon(value: Date | string = new Date()): string {
  const date = toDate(value);
  if (!date) throw new RangeError(`Invalid date: ${String(value)}`);
  const parts = Object.fromEntries(londonParts.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}`;
}
