// The storage summary's arithmetic (drive.md §3 usage stats, §5 remaining space): pure, for the service and the web.
import {
  FALLBACK_CAPACITY_GB,
  GIB,
  TIER_LIMIT_BYTES,
  USAGE_COUNTERS,
  type StorageTier,
  type UsageCounter,
} from './constants.js';

/** The tier's own limit in bytes (custom has none: null). */
export const presetLimitBytes = (tier: StorageTier): number | null =>
  tier === 'custom' ? null : TIER_LIMIT_BYTES[tier];

/** Every usage counter, 0 where nothing was counted. */
export const fullCounters = (byType: Partial<Record<UsageCounter, number>>): Record<UsageCounter, number> =>
  Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, byType[counter] ?? 0])) as Record<
    UsageCounter,
    number
  >;

export interface DayUsage {
  day: string;
  bytesAdded: number;
  bytesRemoved: number;
  filesAdded: number;
  filesRemoved: number;
}

export interface MonthUsage {
  month: string;
  bytesAdded: number;
  bytesRemoved: number;
  filesAdded: number;
  filesRemoved: number;
}

/** Daily rows summed by calendar month ('2026-11'), oldest first. */
export function monthlyUsage(days: readonly DayUsage[]): MonthUsage[] {
  const months = new Map<string, MonthUsage>();
  for (const day of days) {
    const month = day.day.slice(0, 7);
    const total = months.get(month) ?? {
      month,
      bytesAdded: 0,
      bytesRemoved: 0,
      filesAdded: 0,
      filesRemoved: 0,
    };
    total.bytesAdded += day.bytesAdded;
    total.bytesRemoved += day.bytesRemoved;
    total.filesAdded += day.filesAdded;
    total.filesRemoved += day.filesRemoved;
    months.set(month, total);
  }
  return [...months.values()].sort((a, b) => a.month.localeCompare(b.month));
}

/** The capacity when identity cannot say the tier (drive.md §8: the capacity check falls back to 5 GB). */
export const FALLBACK_CAPACITY_BYTES = FALLBACK_CAPACITY_GB * GIB;
