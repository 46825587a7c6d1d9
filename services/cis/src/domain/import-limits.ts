/**
 * What one invoice import may hold (security review M1): the file, a row (a record, in characters, its values together) and
 * a header cell; and how many data rows. A file over any of them is refused whole, before anything is imported.
 * The row allows the longest invoice a form accepts (description and justification 2,000 characters each).
 */
export const IMPORT_LIMITS = {
  /** UTF-8 bytes of the whole file: 5 MB. */
  fileBytes: 5 * 1024 * 1024,
  recordCharacters: 10_000,
  headerCellCharacters: 200,
  rows: 50_000,
} as const;

const count = (n: number) => n.toLocaleString('en-GB');

/** The refusals of a file over a limit (one message each, naming the limit). */
export const IMPORT_LIMIT_MESSAGES = {
  fileTooLarge: (bytes: number) =>
    `The file is too large: ${(Math.ceil((bytes * 10) / (1024 * 1024)) / 10).toFixed(1)} MB (at most ${IMPORT_LIMITS.fileBytes / (1024 * 1024)} MB per file)`,
  rowTooLong: (line: number) =>
    `Line ${count(line)} is too long (at most ${count(IMPORT_LIMITS.recordCharacters)} characters per row)`,
  headerCellTooLong: (column: number) =>
    `Column ${column} of the header is too long (at most ${IMPORT_LIMITS.headerCellCharacters} characters per column name)`,
  tooManyRows: (rows: number, maxRows: number) =>
    `Too many rows: ${count(rows)} (at most ${count(maxRows)} per file)`,
};

/**
 * The JSON body that carries the largest file, the cis service's body limit: JSON at most doubles a CSV's text (a
 * quote, CR, LF, tab or backslash becomes two characters; other text is sent as it is; control characters, which
 * no CSV needs, would take six), plus the envelope.
 */
export const IMPORT_BODY_BYTES = 2 * IMPORT_LIMITS.fileBytes + 64 * 1024;
