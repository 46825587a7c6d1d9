// CSV exports (spec §7: invoices, subcontractors, a return), in the kit's one CSV format (services/kit/src/csv.ts:
// UTF-8 with a BOM, CRLF, and every cell neutralised against formula injection).

import { CSV_CONTENT_TYPE, toCsv } from '@workspace/kit';

import {
  invoiceStatusLabel,
  isTaxMonthLabel,
  maskNino,
  maskUtr,
  penceToPounds,
  taxMonthFilePart,
} from '../domain/index.js';
import { formatDateGb, isoDateLondon, type DateLike } from './format.js';

export { CSV_BOM, CSV_CONTENT_TYPE, neutraliseCell, toCsv } from '@workspace/kit';

export interface CsvFile {
  filename: string;
  contentType: typeof CSV_CONTENT_TYPE;
  /** The file text, starting with the UTF-8 BOM, CRLF line endings. */
  content: string;
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
