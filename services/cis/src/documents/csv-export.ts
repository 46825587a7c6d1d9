// CSV exports (spec §7: invoices, subcontractors, a return).
//
// Output format, for Excel and for safety:
//   - UTF-8 with a byte-order mark (U+FEFF first) so Excel on Windows reads '£', accents and so on as UTF-8
//     instead of the ANSI code page; CRLF record delimiters (RFC 4180, what Excel writes); fields quoted only
//     when they contain a comma, a quote or a line break.
//   - Formula neutralisation (OWASP "CSV injection"): a text cell starting with '=', '+', '-', '@', a tab or
//     a carriage return gets a leading single quote, so a spreadsheet shows it as text instead of running
//     it. Plain numbers are left alone, including negatives: a cell that is exactly an optional '-', digits
//     and an optional decimal part ('-12.50', '-3') stays a number; '-1+2', '-2E5', '+44…' are neutralised.

import { stringify } from 'csv-stringify/sync';

import {
  invoiceStatusLabel,
  isTaxMonthLabel,
  maskNino,
  maskUtr,
  penceToPounds,
  taxMonthFilePart,
} from '../domain/index.js';
import { formatDateGb, isoDateLondon, type DateLike } from './format.js';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export const CSV_BOM = '\uFEFF';

export interface CsvFile {
  filename: string;
  contentType: typeof CSV_CONTENT_TYPE;
  /** The file text, starting with the UTF-8 BOM, CRLF line endings. */
  content: string;
}

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

export function csvFile(filename: string, content: string): CsvFile {
  return { filename, contentType: CSV_CONTENT_TYPE, content };
}

/** Safe for a Content-Disposition file name: letters, digits, '.', '_' and '-' only. */
function safeFilePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'export';
}

const pounds = (pence: number | null | undefined): string =>
  typeof pence === 'number' && Number.isSafeInteger(pence) ? penceToPounds(pence) : '';

// ---------------------------------------------------------------------------------------------------------
// Exports.

export const INVOICE_CSV_COLUMNS = [
  'Invoice Number',
  'Subcontractor',
  'Date',
  'Gross',
  'Materials',
  'CIS',
  'Net',
  'Status',
] as const;

export interface InvoiceCsvSource {
  invoiceNumber: string;
  subcontractorName?: string | null;
  invoiceDate?: DateLike;
  status?: string | null;
  amounts: { grossP: number; materialsP: number; cisDeductionP: number; netPaymentP: number };
}

/** Invoices export: file cis-invoices-{yyyy-mm-dd}.csv; amounts in pounds '1234.56'; dates DD/MM/YYYY. */
export function invoicesCsv(invoices: readonly InvoiceCsvSource[], now: Date = new Date()): CsvFile {
  const rows = invoices.map((invoice) => [
    invoice.invoiceNumber,
    invoice.subcontractorName ?? '',
    formatDateGb(invoice.invoiceDate) ?? '',
    pounds(invoice.amounts.grossP),
    pounds(invoice.amounts.materialsP),
    pounds(invoice.amounts.cisDeductionP),
    pounds(invoice.amounts.netPaymentP),
    invoiceStatusLabel(invoice.status),
  ]);
  return csvFile(`cis-invoices-${isoDateLondon(now)}.csv`, toCsv(INVOICE_CSV_COLUMNS, rows));
}

export const SUBCONTRACTOR_CSV_COLUMNS = [
  'Name',
  'Type',
  'UTR',
  'NINO',
  'Email',
  'Phone',
  'Status',
  'Verification Rate',
] as const;

export interface SubcontractorCsvSource {
  name: string;
  type?: string | null;
  /** Clear or already masked; the export always masks it. */
  utr?: string | null;
  utrMasked?: string | null;
  nino?: string | null;
  ninoMasked?: string | null;
  email?: string | null;
  phone?: string | null;
  active?: boolean | null;
  archived?: boolean | null;
  verification?: { rate?: number | null } | null;
}

const TYPE_LABELS: Record<string, string> = {
  individual: 'Individual',
  company: 'Company',
  partnership: 'Partnership',
};

/** Subcontractors export: file cis-subcontractors-{yyyy-mm-dd}.csv; UTR and NINO masked, never clear. */
export function subcontractorsCsv(subs: readonly SubcontractorCsvSource[], now: Date = new Date()): CsvFile {
  const rows = subs.map((sub) => {
    const archived = sub.archived === true || sub.active === false;
    const rate = sub.verification?.rate;
    return [
      sub.name,
      TYPE_LABELS[sub.type ?? ''] ?? sub.type ?? '',
      maskUtr(sub.utr ?? sub.utrMasked),
      maskNino(sub.nino ?? sub.ninoMasked),
      sub.email ?? '',
      sub.phone ?? '',
      archived ? 'Archived' : 'Active',
      typeof rate === 'number' ? `${rate}%` : '',
    ];
  });
  return csvFile(`cis-subcontractors-${isoDateLondon(now)}.csv`, toCsv(SUBCONTRACTOR_CSV_COLUMNS, rows));
}

export const RETURN_CSV_COLUMNS = [
  'Subcontractor',
  'UTR',
  'NINO',
  'Gross',
  'Materials',
  'CIS Deducted',
  'CIS Rate',
  'Invoices',
] as const;

export interface ReturnCsvSource {
  id?: string | null;
  period?: { label?: string | null } | null;
  lines: readonly {
    subcontractorId?: string;
    name: string;
    utrMasked?: string | null;
    ninoMasked?: string | null;
    grossP: number;
    materialsP: number;
    cisDeductedP: number;
    cisRate: number;
    invoiceCount: number;
  }[];
}

/**
 * A return's lines: file cis-return-{id}.csv (the tax month label when there is no id); identifiers masked, unless
 * `clear` gives a line's subcontractor's opened UTR and NINO (for a holder of cis.pii.unmask, audited by the caller).
 */
export function returnCsv(
  ret: ReturnCsvSource,
  clear?: ReadonlyMap<string, { utr: string; nino: string }>,
): CsvFile {
  const rows = ret.lines.map((line) => {
    const opened = line.subcontractorId ? clear?.get(line.subcontractorId) : undefined;
    return [
      line.name,
      opened ? opened.utr : maskUtr(line.utrMasked),
      opened ? opened.nino : maskNino(line.ninoMasked),
      pounds(line.grossP),
      pounds(line.materialsP),
      pounds(line.cisDeductedP),
      `${line.cisRate}%`,
      line.invoiceCount,
    ];
  });
  return csvFile(`cis-return-${safeFilePart(returnFileKey(ret))}.csv`, toCsv(RETURN_CSV_COLUMNS, rows));
}

/**
 * A return's file name part: its month as HMRC names it ('month-ending-2026-01-05'), with an amendment's own suffix
 * ('-AMD-1767225600000'); an id that names no month is kept (made safe by the caller).
 */
function returnFileKey(ret: ReturnCsvSource): string {
  const key = ret.id ?? ret.period?.label ?? 'return';
  const month = key.slice(0, 7);
  return isTaxMonthLabel(month) && (key.length === 7 || key[7] === '-')
    ? `${taxMonthFilePart(month)}${key.slice(7)}`
    : key;
}
