// The drive dialogs' rules (drive.md §5): remaining capacity for a new shared drive, the quota checks.
import { DRIVE_QUOTA_MAX_GB, DRIVE_QUOTA_MIN_GB, FALLBACK_CAPACITY_GB, GIB } from '@workspace/drive/domain';

/**
 * Remaining capacity in whole GB: the tenant's limit minus what is used, floored at 0; when the capacity check
 * failed (no figures), the fallback 5 GB.
 */
export function remainingCapacityGb(storage: { cap: number; used: number } | undefined): number {
  if (!storage) return FALLBACK_CAPACITY_GB;
  return Math.max(0, Math.floor(storage.cap / GIB) - Math.floor(storage.used / GIB));
}

/** The new drive's quota error, if any. */
export function createQuotaError(quotaGb: number, capacityGb: number): string | undefined {
  if (quotaGb > capacityGb) return `Quota exceeds remaining capacity (${capacityGb} GB)`;
  return undefined;
}

/** Edit Drive Settings' checks: name required, quota 1..1000. */
export function editDriveErrors(name: string, quotaGb: number): { name?: string; quota?: string } {
  const errors: { name?: string; quota?: string } = {};
  if (!name.trim()) errors.name = 'Drive name is required';
  if (!Number.isInteger(quotaGb) || quotaGb < DRIVE_QUOTA_MIN_GB || quotaGb > DRIVE_QUOTA_MAX_GB)
    errors.quota = `Quota must be between ${DRIVE_QUOTA_MIN_GB} and ${DRIVE_QUOTA_MAX_GB} GB`;
  return errors;
}
