import { HttpProblem, problems, type RequestContext } from '@workspace/kit';
import { addDays, londonDate } from '@workspace/rules';
import { UsageStore } from '../db/usage.store.js';
import {
  DEFAULT_STORAGE_TIER,
  FALLBACK_CAPACITY_BYTES,
  GIB,
  fullCounters,
  monthlyUsage,
  presetLimitBytes,
  remainingWholeGB,
  tierFeatures,
  tierLimitBytes,
  type DayUsage,
  type MonthUsage,
  type StorageTier,
  type TierFeatures,
  type UsageCounter,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import { requireOwnTenant } from './access.js';

/** drive.md §5 and §8: storage info and tier changes need the tenant. */
export const TENANT_ID_REQUIRED = 'Tenant ID is required';

export function requireTenantId(tenantId: string | undefined): void {
  if (tenantId !== undefined && tenantId.trim() === '') {
    throw new HttpProblem(400, 'TENANT_ID_REQUIRED', TENANT_ID_REQUIRED);
  }
}

/** Days of daily usage the summary returns, and months of monthly usage. */
export const DAILY_USAGE_DAYS = 30;
export const MONTHLY_USAGE_MONTHS = 12;

export interface StorageSummary {
  tenantId: string;
  tier: StorageTier;
  /** False when identity could not say the tier: the cap is then the 5 GB fallback. */
  tierKnown: boolean;
  /** The tier's own limit in bytes (custom: none). */
  limit: number | null;
  customLimit: number | null;
  /** The capacity in force: the tier's limit, or the custom limit. */
  cap: number;
  used: number;
  fileCount: number;
  remainingBytes: number;
  /** The toolbar's figure: (cap − used) in GiB, floored, at least 0. */
  remainingGB: number;
  features: TierFeatures;
  byType: Record<UsageCounter, number>;
  lastUpdated: string | null;
  dailyUsage: DayUsage[];
  monthlyUsage: MonthUsage[];
}

/** GET /storage: the tenant's tier, capacity, use, features, per-type counters, daily and monthly usage. */
export async function storageSummary(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  tenantId: string | undefined,
): Promise<StorageSummary> {
  requireTenantId(tenantId);
  requireOwnTenant(ctx, tenantId);
  let tier: StorageTier = DEFAULT_STORAGE_TIER;
  let tierKnown = true;
  try {
    tier = await deps.identity.storageTier(ctx.tenantId, authorization);
  } catch (error) {
    deps.logger.warn(
      { err: error, tenantId: ctx.tenantId },
      'storage tier unknown: the fallback capacity is shown',
    );
    tierKnown = false;
  }
  const today = londonDate(deps.clock.now());
  const monthsFrom = shiftMonth(`${today.slice(0, 7)}-01`, -(MONTHLY_USAGE_MONTHS - 1));
  return deps.inTenant(ctx.tenantId, async (trx) => {
    const store = new UsageStore(trx);
    const usage = await store.get(ctx.tenantId);
    const days = await store.daily(monthsFrom);
    const cap = tierKnown ? tierLimitBytes(tier, usage.customLimit) : FALLBACK_CAPACITY_BYTES;
    const dailyFrom = addDays(today, -(DAILY_USAGE_DAYS - 1));
    return {
      tenantId: ctx.tenantId,
      tier,
      tierKnown,
      limit: presetLimitBytes(tier),
      customLimit: usage.customLimit,
      cap,
      used: usage.used,
      fileCount: usage.fileCount,
      remainingBytes: Math.max(cap - usage.used, 0),
      remainingGB: remainingWholeGB(cap, usage.used),
      features: tierFeatures(tier, usage.customFeatures),
      byType: fullCounters(usage.byType),
      lastUpdated: usage.lastUpdated ? usage.lastUpdated.toISOString() : null,
      dailyUsage: days.filter((day) => day.day >= dailyFrom),
      monthlyUsage: monthlyUsage(days),
    };
  });
}

/** The first day of the month `months` away from `firstOfMonth` ('2026-11-01', -11 → '2025-12-01'). */
function shiftMonth(firstOfMonth: string, months: number): string {
  const [year, month] = firstOfMonth.split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) + months;
  return `${String(Math.floor(index / 12))}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

export interface TrackRequest {
  tenantId?: string | undefined;
  action: 'upload' | 'delete';
  size: number;
  mimeType?: string | undefined;
  fileCountDelta: number;
}

/**
 * POST /storage/track (drive.md §7's fallback when the browser's own usage update failed). The drive accounts usage
 * itself, in the same transaction that registers, versions or purges a file, so there is no browser update to fall
 * back from: a browser's figures are never added (they would count twice, and could be forged). The call is
 * accepted and answers what it did: nothing.
 */
export function trackStorage(ctx: RequestContext, request: TrackRequest) {
  requireTenantId(request.tenantId);
  requireOwnTenant(ctx, request.tenantId);
  return {
    tracked: false as const,
    reason:
      'The drive counts storage itself when a file is registered, versioned or purged; nothing was added.',
  };
}

export interface TierChange {
  tenantId?: string | undefined;
  tier: StorageTier;
  /** The custom tier's limit in GB (GiB); required for custom. */
  customLimitGB?: number | undefined;
  /** The custom tier's optional features (drive.md §9: advanced sharing and analytics "when set"). */
  customFeatures?: { advancedSharing?: boolean | undefined; analytics?: boolean | undefined } | undefined;
}

/**
 * POST /storage/tier (super-administrators): the tier is set in identity's tenant record, the custom limit and
 * features in the drive's storage_usage; audited STORAGE_TIER_CHANGED; answers the new summary.
 */
export async function changeTier(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  request: TierChange,
): Promise<StorageSummary> {
  if (request.tenantId === undefined) throw new HttpProblem(400, 'TENANT_ID_REQUIRED', TENANT_ID_REQUIRED);
  requireTenantId(request.tenantId);
  requireOwnTenant(ctx, request.tenantId);
  const custom = request.tier === 'custom';
  if (custom && request.customLimitGB === undefined) {
    throw problems.badRequest('A custom storage tier needs its limit in GB (customLimitGB).');
  }
  await deps.identity.setStorageTier(ctx.tenantId, authorization, request.tier);
  await deps.inTenant(ctx.tenantId, async (trx) => {
    await new UsageStore(trx).setCustom(ctx.tenantId, {
      customLimit: custom ? (request.customLimitGB ?? 0) * GIB : null,
      customFeatures: custom
        ? {
            advancedSharing: request.customFeatures?.advancedSharing === true,
            analytics: request.customFeatures?.analytics === true,
          }
        : {},
    });
    await deps.audit.write(trx, { tenantId: ctx.tenantId, userId: ctx.userId }, 'STORAGE_TIER_CHANGED', {
      targetType: 'storage',
      targetId: ctx.tenantId,
      details: { tier: request.tier, customLimitGB: custom ? request.customLimitGB : undefined },
    });
  });
  return storageSummary(deps, ctx, authorization, ctx.tenantId);
}
