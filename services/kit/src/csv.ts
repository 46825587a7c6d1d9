// CSV files the services export (cis's invoices, subcontractors and returns; the audit trail), one format for all:
//   - UTF-8 with a byte-order mark (U+FEFF first) so Excel on Windows reads '£', accents and so on as UTF-8
//     instead of the ANSI code page; CRLF record delimiters (RFC 4180, what Excel writes); fields quoted only
//     when they contain a comma, a quote or a line break.
//   - Formula neutralisation (OWASP "CSV injection"): a text cell starting with '=', '+', '-', '@', a tab or
//     a carriage return gets a leading single quote, so a spreadsheet shows it as text instead of running
//     it. Plain numbers are left alone, including negatives: a cell that is exactly an optional '-', digits
//     and an optional decimal part ('-12.50', '-3') stays a number; '-1+2', '-2E5', '+44…' are neutralised.
import { stringify } from 'csv-stringify/sync';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/** The text of one cell, with a leading "'" when it would start a spreadsheet formula. */
export function neutraliseCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (value instanceof Date) text = Number.isNaN(value.getTime()) ? '' : value.toISOString();
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else text = JSON.stringify(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `'${text}`;
  return text;
}

/** A CSV document: BOM, the header row, then the rows; every cell neutralised; CRLF line endings. */
export function toCsv(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const records = [headers.map(neutraliseCell), ...rows.map((row) => row.map(neutraliseCell))];
  return stringify(records, { bom: true, record_delimiter: 'windows', quoted_empty: false });
}
