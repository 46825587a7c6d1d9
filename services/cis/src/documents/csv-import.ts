// The invoice import (spec §5 'Bulk import'): parseInvoiceCsv reads a file (BOM tolerated, header row names the
// columns, values trimmed, blank lines skipped). Rows are numbered from 1 = the first data row after the header
// (blank lines are not counted); `line` is the physical line in the file (header = line 1) for the user's editor.

import { parse } from 'csv-parse/sync';

import { IMPORT_LIMIT_MESSAGES, IMPORT_LIMITS, poundsToPence } from '../domain/index.js';
import { csvFile, toCsv, type CsvFile } from './csv-export.js';

export const INVOICE_IMPORT_COLUMNS = [
  'Invoice Number',
  'Subcontractor',
  'Invoice Date',
  'Gross',
  'Materials',
  'VAT Rate',
  'Reverse Charge',
  'Description',
  'Materials Justification',
] as const;

/** The import template's header line (no BOM, no line ending). */
export const invoiceImportTemplate = INVOICE_IMPORT_COLUMNS.join(',');

/** The downloadable template: BOM, header, one example row, CRLF. */
export function invoiceImportTemplateCsv(): CsvFile {
  return csvFile(
    'cis-invoice-import-template.csv',
    toCsv(INVOICE_IMPORT_COLUMNS, [
      ['INV-001', 'J Smith Builders', '19/06/2026', '1,250.00', '250.00', '20', 'No', 'Groundworks', ''],
    ]),
  );
}

export type ImportField =
  | 'invoiceNumber'
  | 'subcontractorRef'
  | 'invoiceDate'
  | 'gross'
  | 'materials'
  | 'vatRate'
  | 'reverseCharge'
  | 'description'
  | 'materialsJustification';

/** Header aliases, compared after dropping '(…)' hints, case and anything not a letter or digit. */
const HEADER_ALIASES: Record<string, ImportField> = {
  invoicenumber: 'invoiceNumber',
  invoiceno: 'invoiceNumber',
  invoice: 'invoiceNumber',
  number: 'invoiceNumber',
  subcontractor: 'subcontractorRef',
  subcontractorname: 'subcontractorRef',
  subcontractorid: 'subcontractorRef',
  subcontractorref: 'subcontractorRef',
  invoicedate: 'invoiceDate',
  date: 'invoiceDate',
  gross: 'gross',
  grossamount: 'gross',
  materials: 'materials',
  materialsamount: 'materials',
  costofmaterials: 'materials',
  vatrate: 'vatRate',
  vat: 'vatRate',
  reversecharge: 'reverseCharge',
  description: 'description',
  materialsjustification: 'materialsJustification',
  justification: 'materialsJustification',
};

const REQUIRED_COLUMNS: readonly ImportField[] = [
  'invoiceNumber',
  'subcontractorRef',
  'invoiceDate',
  'gross',
];
const FIELD_TITLES: Record<ImportField, string> = {
  invoiceNumber: 'Invoice Number',
  subcontractorRef: 'Subcontractor',
  invoiceDate: 'Invoice Date',
  gross: 'Gross',
  materials: 'Materials',
  vatRate: 'VAT Rate',
  reverseCharge: 'Reverse Charge',
  description: 'Description',
  materialsJustification: 'Materials Justification',
};

/**
 * '(…)' hints in a header cell. Linear: `[^()]*` stops at the next '(', so each character is scanned from at most one
 * starting '(' (the review's `\([^)]*\)` still rescans to the end from every '(' of a cell with no ')': quadratic).
 */
const HEADER_HINT = /\([^()]*\)/g;

/** Maps a header cell ('Subcontractor (name or id)') to its import field, or null for an unknown column. */
export function importFieldOf(header: string): ImportField | null {
  if (header.length > IMPORT_LIMITS.headerCellCharacters) return null;
  const key = header
    .replace(HEADER_HINT, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return HEADER_ALIASES[key] ?? null;
}

export interface ImportError {
  /** 1-based data row (the first row after the header is 1); null for a file-level problem. */
  row: number | null;
  /** Physical line in the file (the header is line 1), when known. */
  line?: number;
  message: string;
}

export interface ParsedInvoiceCsv {
  /** One record per data row, keyed by import field (ImportField), values trimmed. */
  rows: Record<string, string>[];
  /** Rows (1-based data row numbers) as they appear, aligned with `rows`. */
  rowNumbers: number[];
  errors: ImportError[];
}

export interface ParseInvoiceCsvOptions {
  /** Refuse files with more data rows than this (default IMPORT_LIMITS.rows, 50,000). */
  maxRows?: number;
}

const refused = (error: ImportError): ParsedInvoiceCsv => ({ rows: [], rowNumbers: [], errors: [error] });

/** csv-parse's refusal of a record over `max_record_size`, with the line it reached. */
function recordTooLong(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  if (error.code !== 'CSV_MAX_RECORD_SIZE') return undefined;
  return 'lines' in error && typeof error.lines === 'number' ? error.lines : 0;
}

/**
 * Parses an invoice import file. Unknown columns are ignored; missing required columns (Invoice Number,
 * Subcontractor, Invoice Date, Gross) are a file-level error. A row with the wrong number of cells is
 * reported and left out. Validate each row with parseImportRow.
 */
export function parseInvoiceCsv(text: string, options: ParseInvoiceCsvOptions = {}): ParsedInvoiceCsv {
  const maxRows = options.maxRows ?? IMPORT_LIMITS.rows;
  const errors: ImportError[] = [];
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > IMPORT_LIMITS.fileBytes)
    return refused({ row: null, message: IMPORT_LIMIT_MESSAGES.fileTooLarge(bytes) });
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
      max_record_size: IMPORT_LIMITS.recordCharacters,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const line = recordTooLong(error);
    if (line !== undefined)
      return refused({
        row: null,
        ...(line ? { line } : {}),
        message: IMPORT_LIMIT_MESSAGES.rowTooLong(line),
      });
    const message = error instanceof Error ? error.message : String(error);
    return refused({ row: null, message: `The file is not valid CSV: ${message}` });
  }

  const [head, ...data] = records;
  if (!head) return refused({ row: null, message: 'The file is empty' });
  // Before any header cell is matched against the aliases.
  const longCell = head.record.findIndex((title) => title.length > IMPORT_LIMITS.headerCellCharacters);
  if (longCell >= 0)
    return refused({
      row: null,
      line: head.info.lines,
      message: IMPORT_LIMIT_MESSAGES.headerCellTooLong(longCell + 1),
    });
  const fields = head.record.map(importFieldOf);
  const seen = new Set<ImportField>();
  head.record.forEach((title, index) => {
    const field = fields[index];
    if (!field) return;
    if (seen.has(field))
      errors.push({ row: null, line: head.info.lines, message: `Duplicate column: ${title}` });
    seen.add(field);
  });
  for (const field of REQUIRED_COLUMNS) {
    if (!seen.has(field))
      errors.push({ row: null, line: head.info.lines, message: `Missing column: ${FIELD_TITLES[field]}` });
  }
  if (errors.length > 0) return { rows: [], rowNumbers: [], errors };
  if (data.length > maxRows)
    return refused({ row: null, message: IMPORT_LIMIT_MESSAGES.tooManyRows(data.length, maxRows) });

  const rows: Record<string, string>[] = [];
  const rowNumbers: number[] = [];
  data.forEach(({ record, info }, index) => {
    const row = index + 1;
    if (record.length !== fields.length) {
      errors.push({
        row,
        line: info.lines,
        message: `Row ${row}: expected ${fields.length} values, found ${record.length}`,
      });
      return;
    }
    const out: Record<string, string> = {};
    record.forEach((value, column) => {
      const field = fields[column];
      if (field) out[field] = value;
    });
    rows.push(out);
    rowNumbers.push(row);
  });
  return { rows, rowNumbers, errors };
}

export interface ImportRowValue {
  invoiceNumber: string;
  subcontractorRef: string;
  /** 'YYYY-MM-DD'. */
  invoiceDate: string;
  grossP: number;
  materialsP: number;
  vatRate: 0 | 5 | 20;
  reverseCharge: boolean;
  description: string;
  materialsJustification: string;
}

/** 'DD/MM/YYYY' (also D/M/YYYY, '-' or '.' separators) or 'YYYY-MM-DD' → 'YYYY-MM-DD'; null if not a real date. */
export function parseImportDate(value: string): string | null {
  const text = value.trim();
  let year: number;
  let month: number;
  let day: number;
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (match) {
    [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else {
    match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
    if (!match) return null;
    [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  if (year < 1900 || year > 2999) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function parseAmount(
  raw: string,
  messages: { invalid: string; negative: string },
  errors: string[],
): number | null {
  let pence: number;
  try {
    pence = poundsToPence(raw);
  } catch (error) {
    const detail =
      error instanceof Error && /decimal places/.test(error.message) ? ' (at most 2 decimal places)' : '';
    errors.push(`${messages.invalid}: "${raw}"${detail}`);
    return null;
  }
  if (pence < 0) {
    errors.push(messages.negative);
    return null;
  }
  return pence;
}

const YES = new Set(['yes', 'y', 'true', '1']);
const NO = new Set(['no', 'n', 'false', '0', '']);

/**
 * Validates one parsed import row (keys are import fields, or raw header titles). Amounts are parsed exactly
 * ('£1,234.56' → 123456, never through floating point). Defaults: Materials 0, VAT Rate 20, Reverse
 * Charge No. Returns the value only when there are no errors.
 */
export function parseImportRow(row: Record<string, string | undefined>): {
  value?: ImportRowValue;
  errors: string[];
} {
  const get = (field: ImportField): string => {
    if (typeof row[field] === 'string') return row[field].trim();
    for (const [key, value] of Object.entries(row)) {
      if (importFieldOf(key) === field && typeof value === 'string') return value.trim();
    }
    return '';
  };
  const errors: string[] = [];

  const invoiceNumber = get('invoiceNumber');
  if (!invoiceNumber) errors.push('Valid invoice number required');
  else if (invoiceNumber.length > 50) errors.push('Invoice number must be 50 characters or fewer');

  const subcontractorRef = get('subcontractorRef');
  if (!subcontractorRef) errors.push('Subcontractor is required');

  const rawDate = get('invoiceDate');
  let invoiceDate: string | null = null;
  if (!rawDate) errors.push('Invoice date is required');
  else {
    invoiceDate = parseImportDate(rawDate);
    if (!invoiceDate) errors.push(`Invalid invoice date: "${rawDate}" (use DD/MM/YYYY or YYYY-MM-DD)`);
  }

  const rawGross = get('gross');
  let grossP: number | null = null;
  if (!rawGross) errors.push('Gross amount is required');
  else {
    grossP = parseAmount(
      rawGross,
      { invalid: 'Invalid gross amount', negative: 'Gross amount cannot be negative' },
      errors,
    );
  }

  const rawMaterials = get('materials');
  const materialsP = rawMaterials
    ? parseAmount(
        rawMaterials,
        { invalid: 'Invalid materials amount', negative: 'Materials amount cannot be negative' },
        errors,
      )
    : 0;
  if (grossP !== null && materialsP !== null && materialsP > grossP) {
    errors.push('Materials cannot exceed gross amount');
  }

  const rawVat = get('vatRate').replace(/\s*%$/, '');
  let vatRate: 0 | 5 | 20 | null = 20;
  if (rawVat) {
    vatRate = rawVat === '0' ? 0 : rawVat === '5' ? 5 : rawVat === '20' ? 20 : null;
    if (vatRate === null) errors.push('VAT rate must be 0%, 5%, or 20%');
  }

  const rawReverse = get('reverseCharge').toLowerCase();
  const reverseCharge = YES.has(rawReverse) ? true : NO.has(rawReverse) ? false : null;
  if (reverseCharge === null) errors.push('Reverse charge must be Yes or No');

  if (
    errors.length > 0 ||
    invoiceDate === null ||
    grossP === null ||
    materialsP === null ||
    vatRate === null ||
    reverseCharge === null
  ) {
    return { errors };
  }
  return {
    value: {
      invoiceNumber,
      subcontractorRef,
      invoiceDate,
      grossP,
      materialsP,
      vatRate,
      reverseCharge,
      description: get('description'),
      materialsJustification: get('materialsJustification'),
    },
    errors,
  };
}
