// The audit log's filters as the address holds them (so a filtered view can be bookmarked or shared with a colleague
// who may read it) and as the audit service's query takes them: dates picked in UK form are London days, sent as the
// instants where those days begin and end.
import { TIME_ZONE } from '../../ui/format';

export const AUDIT_PAGE_SIZE = 25;

/** What the address holds: the filters and the page (dates as 'YYYY-MM-DD', London days). */
export interface AuditFilters {
  action: string;
  actorId: string;
  targetId: string;
  from: string;
  to: string;
  page: number;
}

export const FILTER_KEYS = ['action', 'actorId', 'targetId', 'from', 'to'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters of an address's query; anything unreadable is left out. */
export function auditFiltersOf(params: URLSearchParams): AuditFilters {
  const text = (key: string) => (params.get(key) ?? '').trim().slice(0, 200);
  const date = (key: string) => {
    const value = text(key);
    return CALENDAR_DATE.test(value) ? value : '';
  };
  const page = Number(params.get('page'));
  return {
    action: text('action'),
    actorId: text('actorId'),
    targetId: text('targetId'),
    from: date('from'),
    to: date('to'),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

export const isFiltered = (filters: AuditFilters): boolean => FILTER_KEYS.some((key) => filters[key] !== '');

/** London's offset from UTC at an instant, in ms (0 in winter, 3 600 000 in summer). */
function londonOffsetMs(instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant)))
    parts[part.type] = Number(part.value);
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Where a London day ('YYYY-MM-DD') begins, as an ISO instant: '2026-07-01' → '2026-06-30T23:00:00.000Z'. */
export function londonDayStart(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  const midnightUtc = Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1);
  // Clocks change at 01:00 or 02:00, never at midnight: the offset an hour before UTC midnight is the day's start.
  const offset = londonOffsetMs(midnightUtc - londonOffsetMs(midnightUtc));
  return new Date(midnightUtc - offset).toISOString();
}

/** The day after a 'YYYY-MM-DD' date. */
export function nextDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + 1)).toISOString().slice(0, 10);
}

/**
 * The audit service's filters (GET /v1/entries and /v1/entries.csv): from the start of the `from` day up to the
 * start of the day after `to` (exclusive), London time; empty filters left out.
 */
export function auditQueryOf(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.action) query.action = filters.action;
  if (filters.actorId) query.actorId = filters.actorId;
  if (filters.targetId) query.targetId = filters.targetId;
  if (filters.from) query.from = londonDayStart(filters.from);
  if (filters.to) query.to = londonDayStart(nextDay(filters.to));
  return query;
}

/** The CSV export of what the list shows (every page of it): the same filters. */
export function auditCsvUrl(filters: AuditFilters): string {
  const query = new URLSearchParams(auditQueryOf(filters)).toString();
  return `/api/audit/entries.csv${query ? `?${query}` : ''}`;
}

/**
 * Whether a new entry (the live stream's) belongs in the list the filters select: the same action, actor and target,
 * and an occurredAt inside the date range (London days). An entry the stream could not send (undefined) may.
 */
export function entryMatches(
  entry: { action: string; actorId: string; targetId: string; occurredAt: string } | undefined,
  filters: AuditFilters,
): boolean {
  if (!entry) return true;
  if (filters.action && entry.action !== filters.action) return false;
  if (filters.actorId && entry.actorId !== filters.actorId) return false;
  if (filters.targetId && entry.targetId !== filters.targetId) return false;
  const at = Date.parse(entry.occurredAt);
  if (filters.from && at < Date.parse(londonDayStart(filters.from))) return false;
  if (filters.to && at >= Date.parse(londonDayStart(nextDay(filters.to)))) return false;
  return true;
}
