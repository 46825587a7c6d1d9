// Display rules of the share screens (drive.md §9): sizes in base 1024 with the spec's units, and the Share
// Settings dialog's allowed ids (§5: split on commas, trimmed, empties dropped). Pure: no React.

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** Bytes in base 1024 with the spec's units: 0 → '0 B', 1536 → '1.5 kB'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? String(Math.round(value)) : String(Math.round(value * 10) / 10)} ${UNITS[unit] ?? 'TB'}`;
}

/** 'a, ,b' → ['a', 'b']: the allowed user ids of a restricted share as typed. */
export function splitAllowedIds(text: string): string[] {
  return text
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

/** The expiry date picked (a day) as a full timestamp, the end of that day (UTC); null when empty: no expiry. */
export function expiryTimestamp(day: string | null | undefined): string | null {
  if (!day) return null;
  return new Date(`${day}T23:59:59Z`).toISOString();
}

/** The share's public address on this origin (the share's url is its path and query). */
export function publicShareUrl(origin: string, sharePath: string): string {
  return `${origin}${sharePath}`;
}
