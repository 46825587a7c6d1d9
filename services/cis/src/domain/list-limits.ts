// How many rows a list or an export answers at most (security review L9): each bound is far above what the spec's
// screens show for a real contractor, so only an unbounded read is refused or paged.

/** The most rows one CSV export (invoices, subcontractors) holds; a larger one is refused, asking for filters. */
export const EXPORT_ROWS_MAX = 100_000;

/** The subcontractor list's page size, at most and by default (the list screen shows every subcontractor). */
export const SUBCONTRACTOR_PAGE_MAX = 1_000;

/** The portal's issued statements: the newest 120 (ten years of tax months; HMRC asks for six kept). */
export const PORTAL_STATEMENTS_MAX = 120;

/** The refusal of an export over EXPORT_ROWS_MAX (422 `too_many_rows`). */
export const exportTooLarge = (what: string) =>
  `Too many ${what} to export: more than ${EXPORT_ROWS_MAX.toLocaleString('en-GB')} match the filters (at most ${EXPORT_ROWS_MAX.toLocaleString('en-GB')} per file). Narrow the filters and export again.`;
