// Display helpers: amounts as pounds with pence, dates and instants in en-GB (Europe/London), 'N/A' for a date
// that cannot be read.
import { badgeColour, formatPounds, type BadgeColour } from './domain';

export const NA = 'N/A';

/** Pence → '£1,234.56'; a missing or broken amount → '£0.00'. */
export function pounds(pence: number | null | undefined): string {
  return typeof pence === 'number' && Number.isSafeInteger(pence) ? formatPounds(pence) : formatPounds(0);
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' or an ISO instant → 'DD/MM/YYYY'; anything unreadable → 'N/A'. */
export function ukDate(value: string | null | undefined): string {
  if (!value) return NA;
  const calendar = CALENDAR_DATE.exec(value);
  if (calendar) {
    const [, year, month, day] = calendar;
    const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    if (check.getUTCMonth() !== Number(month) - 1) return NA;
    return `${day ?? ''}/${month ?? ''}/${year ?? ''}`;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? NA : dateFormat.format(date);
}

/** An ISO instant → 'DD/MM/YYYY, HH:MM' (Europe/London); unreadable → 'N/A'. */
export function ukDateTime(value: string | null | undefined): string {
  if (!value) return NA;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? NA : dateTimeFormat.format(date);
}

/** Today's date in Europe/London as 'YYYY-MM-DD' (payment date default). */
export function todayIso(): string {
  const parts: Record<string, string> = {};
  for (const part of dateFormat.formatToParts(new Date())) parts[part.type] = part.value;
  return `${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}`;
}

const antdColours: Record<BadgeColour, string> = {
  green: 'green',
  blue: 'blue',
  grey: 'default',
  purple: 'purple',
  red: 'red',
};

/** The spec's badge colours (paid green, approved blue, draft grey, submitted purple, other red) as antd Tag colours. */
export function tagColour(status: string | null | undefined): string {
  return antdColours[badgeColour(status)];
}

export function capitalise(text: string | null | undefined): string {
  if (!text) return '';
  return text.charAt(0).toUpperCase() + text.slice(1);
}
