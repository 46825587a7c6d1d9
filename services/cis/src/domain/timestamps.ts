/** A timestamp as ISO 8601 text (null for none). */
export const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** A calendar date as `YYYY-MM-DD` (PostgreSQL's `date` arrives as text; a Date is read in UTC). */
export const dateOnly = (value: string | Date | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  return value.toISOString().slice(0, 10);
};
