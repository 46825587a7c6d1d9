// The file list's display rules (drive.md §2, §9): sizes in base 1024, the Owner and Shared columns' texts, the
// toolbar's storage left, and the page-size check. Pure: no React.
import { GIB, MAX_PAGE_SIZE } from '@workspace/drive/domain';

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** Bytes in base 1024 with the spec's units: 0 → '0 B', 1536 → '1.5 kB', 5 MiB → '5 MB'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
  return `${text} ${UNITS[unit] ?? 'TB'}`;
}

/** The Owner column: 'You' for the current user, else the owner's name (or id when it has none). */
export function ownerLabel(file: { ownerId: string; ownerName?: string | null }, userId: string): string {
  if (file.ownerId === userId) return 'You';
  return file.ownerName?.trim() || file.ownerId;
}

/** The Shared column: '{n} people' when shared with named users, else 'Shared' or 'Private'. */
export function sharedLabel(file: { visibility: string; sharedWith?: readonly string[] }): string {
  const people = file.sharedWith?.length ?? 0;
  if (people > 0) return `${people} people`;
  return file.visibility === 'shared' ? 'Shared' : 'Private';
}

/** The toolbar's remaining storage: (cap − used) in whole GiB, floored, never below 0. */
export function remainingGb(capBytes: number, usedBytes: number): number {
  return Math.max(0, Math.floor((capBytes - usedBytes) / GIB));
}

/** A page-size change is taken only when above 0 and not above the maximum. */
export function acceptPageSize(requested: number, current: number, max = MAX_PAGE_SIZE): number {
  return Number.isInteger(requested) && requested > 0 && requested <= max ? requested : current;
}
