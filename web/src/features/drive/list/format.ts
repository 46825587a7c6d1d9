// The file list's display rules (drive.md §2, §9): sizes in base 1024, the Owner column's text, the toolbar's
// storage left, and the page-size check (the Shared column's text is the domain's sharedLabel). Pure: no React.
import { GIB, isPageSizeAllowed } from '@workspace/drive/domain';

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

/** The toolbar's remaining storage: (cap − used) in whole GiB, floored, never below 0. */
export function remainingGb(capBytes: number, usedBytes: number): number {
  return Math.max(0, Math.floor((capBytes - usedBytes) / GIB));
}

/** A page-size change is taken only when above 0 and not above the maximum. */
export function acceptPageSize(requested: number, current: number): number {
  return isPageSizeAllowed(requested) ? requested : current;
}
