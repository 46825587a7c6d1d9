import { parse } from 'csv-parse/sync';

import {
  CSV_BOM,
  invoicesCsv,
  neutraliseCell,
  returnCsv,
  subcontractorsCsv,
  toCsv,
} from '../../src/documents/csv-export.js';
import {
  INVOICE_IMPORT_COLUMNS,
  importFieldOf,
  invoiceImportTemplate,
  invoiceImportTemplateCsv,
  parseImportDate,
  parseImportRow,
  parseInvoiceCsv,
} from '../../src/documents/csv-import.js';

/** Parses our own output back (BOM stripped) to check cell values. */
function cells(content: string): string[][] {
  const records: string[][] = parse(content, { bom: true });
  return records;
}

describe('toCsv', () => {
  it('starts with a UTF-8 BOM and uses CRLF line endings', () => {
    const csv = toCsv(['A', 'B'], [['1', '£2']]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv).toBe(`${CSV_BOM}A,B\r\n1,£2\r\n`);
    expect(Buffer.from(csv, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('quotes commas, quotes and line breaks', () => {
    const csv = toCsv(['Name'], [['Smith, J'], ['He said "hi"'], ['two\nlines']]);
    expect(csv).toContain('"Smith, J"\r\n');
    expect(csv).toContain('"He said ""hi"""\r\n');
    expect(cells(csv)).toEqual([['Name'], ['Smith, J'], ['He said "hi"'], ['two\nlines']]);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['=HYPERLINK("http://evil","x")', '\'=HYPERLINK("http://evil","x")'],
    ['+44 7700 900123', "'+44 7700 900123"],
    ['-1+2', "'-1+2"],
    ['-2E5', "'-2E5"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', "'\rcmd"],
  ])('neutralises a formula-like cell %j', (input, expected) => {
    expect(neutraliseCell(input)).toBe(expected);
  });

  it.each([
    ['-12.50', '-12.50'],
    ['-3', '-3'],
    ['1234.56', '1234.56'],
    ['Smith & Sons', 'Smith & Sons'],
    ['a=b', 'a=b'],
  ])('leaves a plain value alone %j', (input, expected) => {
    expect(neutraliseCell(input)).toBe(expected);
  });

  it('writes numbers (including negatives), booleans, null and dates', () => {
    expect(neutraliseCell(-12.5)).toBe('-12.5');
    expect(neutraliseCell(3)).toBe('3');
    expect(neutraliseCell(null)).toBe('');
    expect(neutraliseCell(undefined)).toBe('');
    expect(neutraliseCell(true)).toBe('true');
    expect(neutraliseCell(new Date('2026-01-05T00:00:00Z'))).toBe('2026-01-05T00:00:00.000Z');
    expect(neutraliseCell(Number.NaN)).toBe('');
  });

  it('neutralises inside the document too, and the quote survives a round trip', () => {
    const csv = toCsv(['Invoice Number'], [['=cmd|"/c calc"!A0']]);
    expect(cells(csv)[1]).toEqual(['\'=cmd|"/c calc"!A0']);
  });
});

describe('invoicesCsv', () => {
  it('has the spec columns, pounds amounts, en-GB dates, status labels and the dated file name', () => {
    const file = invoicesCsv(
      [
        {
          invoiceNumber: 'INV-1',
          subcontractorName: 'John Smith',
          invoiceDate: '2026-06-19',
          status: 'approved',
          amounts: { grossP: 123456, materialsP: 23456, cisDeductionP: 20000, netPaymentP: 127547 },
        },
        {
          invoiceNumber: '=evil()',
          subcontractorName: 'Portal Co',
          invoiceDate: '2026-01-02T23:30:00Z',
          status: 'portal_draft',
          amounts: { grossP: 5, materialsP: 0, cisDeductionP: 1, netPaymentP: 4 },
        },
        {
          invoiceNumber: 'INV-3',
          subcontractorName: null,
          invoiceDate: 'not a date',
          status: 'weird',
          amounts: { grossP: 0, materialsP: 0, cisDeductionP: 0, netPaymentP: 0 },
        },
      ],
      new Date('2026-06-30T23:30:00Z'),
    );
    expect(file.filename).toBe('cis-invoices-2026-07-01.csv'); // London date (BST)
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    expect(file.content.startsWith(CSV_BOM)).toBe(true);
    expect(cells(file.content)).toEqual([
      ['Invoice Number', 'Subcontractor', 'Date', 'Gross', 'Materials', 'CIS', 'Net', 'Status'],
      ['INV-1', 'John Smith', '19/06/2026', '1234.56', '234.56', '200.00', '1275.47', 'Approved'],
      ["'=evil()", 'Portal Co', '02/01/2026', '0.05', '0.00', '0.01', '0.04', 'Portal Pending'],
      ['INV-3', '', '', '0.00', '0.00', '0.00', '0.00', 'Draft'],
    ]);
  });
});

describe('subcontractorsCsv', () => {
  it('masks UTR and NINO whether given clear or masked', () => {
    const file = subcontractorsCsv(
      [
        {
          name: 'John Smith',
          type: 'individual',
          utr: '1234567890',
          nino: 'AB123456C',
          email: 'john@example.com',
          phone: '07700 900123',
          active: true,
          verification: { rate: 20 },
        },
        {
          name: 'Acme Ltd',
          type: 'company',
          utrMasked: '******7890',
          ninoMasked: null,
          email: null,
          phone: null,
          archived: true,
          verification: { rate: 0 },
        },
      ],
      new Date('2026-01-15T12:00:00Z'),
    );
    expect(file.filename).toBe('cis-subcontractors-2026-01-15.csv');
    const rows = cells(file.content);
    expect(rows[0]).toEqual(['Name', 'Type', 'UTR', 'NINO', 'Email', 'Phone', 'Status', 'Verification Rate']);
    expect(rows[1]).toEqual([
      'John Smith',
      'Individual',
      '******7890',
      'AB******C',
      'john@example.com',
      '07700 900123',
      'Active',
      '20%',
    ]);
    expect(rows[2]).toEqual(['Acme Ltd', 'Company', '******7890', '', '', '', 'Archived', '0%']);
    expect(file.content).not.toContain('1234567890');
    expect(file.content).not.toContain('AB123456C');
  });
});

describe('returnCsv', () => {
  it('has the spec columns and is named with the return id', () => {
    const file = returnCsv({
      id: '2025-12-AMD-1767225600000',
      period: { label: '2025-12' },
      lines: [
        {
          name: 'John Smith',
          utrMasked: '******7890',
          ninoMasked: 'AB******C',
          grossP: 256799,
          materialsP: 36799,
          cisDeductedP: 44000,
          cisRate: 20,
          invoiceCount: 2,
        },
      ],
    });
    expect(file.filename).toBe('cis-return-month-ending-2026-01-05-AMD-1767225600000.csv');
    expect(cells(file.content)).toEqual([
      ['Subcontractor', 'UTR', 'NINO', 'Gross', 'Materials', 'CIS Deducted', 'CIS Rate', 'Invoices'],
      ['John Smith', '******7890', 'AB******C', '2567.99', '367.99', '440.00', '20%', '2'],
    ]);
  });

  it('names the file by the month as HMRC names it, falls back to the tax month and keeps it safe', () => {
    expect(returnCsv({ period: { label: '2025-12' }, lines: [] }).filename).toBe(
      'cis-return-month-ending-2026-01-05.csv',
    );
    expect(returnCsv({ id: '../../etc/passwd', lines: [] }).filename).toBe('cis-return-..-..-etc-passwd.csv');
  });
});

describe('invoice import', () => {
  it('exposes the template header line and a downloadable template', () => {
    expect(invoiceImportTemplate).toBe(
      'Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge,Description,Materials Justification',
    );
    const template = invoiceImportTemplateCsv();
    const parsed = parseInvoiceCsv(template.content);
    expect(parsed.errors).toEqual([]);
    expect(parseImportRow(parsed.rows[0]!).value).toMatchObject({ grossP: 125000, materialsP: 25000 });
  });

  it('maps header variants (with hints in brackets) to import fields', () => {
    expect(importFieldOf('Subcontractor (name or id)')).toBe('subcontractorRef');
    expect(importFieldOf('Invoice Date (DD/MM/YYYY or YYYY-MM-DD)')).toBe('invoiceDate');
    expect(importFieldOf(' invoice number ')).toBe('invoiceNumber');
    expect(importFieldOf('VAT Rate (%)')).toBe('vatRate');
    expect(importFieldOf('Colour')).toBeNull();
  });

  it('parses a BOM-prefixed file with quoted fields, blank lines and extra columns', () => {
    const text =
      `${CSV_BOM}Invoice Number,Subcontractor (name or id),Invoice Date (DD/MM/YYYY or YYYY-MM-DD),Gross,Materials,VAT Rate,Reverse Charge,Description,Materials Justification,Notes\r\n` +
      `INV-1, John Smith ,19/06/2026,"£1,234.56",234.56,20,No,"Groundworks, phase 1",,x\r\n` +
      `\r\n` +
      `INV-2,sub_123,2026-06-20,1000,,5,yes,,,\r\n`;
    const parsed = parseInvoiceCsv(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rowNumbers).toEqual([1, 2]);
    expect(parsed.rows[0]).toEqual({
      invoiceNumber: 'INV-1',
      subcontractorRef: 'John Smith',
      invoiceDate: '19/06/2026',
      gross: '£1,234.56',
      materials: '234.56',
      vatRate: '20',
      reverseCharge: 'No',
      description: 'Groundworks, phase 1',
      materialsJustification: '',
    });
    expect(parseImportRow(parsed.rows[0]!)).toEqual({
      value: {
        invoiceNumber: 'INV-1',
        subcontractorRef: 'John Smith',
        invoiceDate: '2026-06-19',
        grossP: 123456,
        materialsP: 23456,
        vatRate: 20,
        reverseCharge: false,
        description: 'Groundworks, phase 1',
        materialsJustification: '',
      },
      errors: [],
    });
    expect(parseImportRow(parsed.rows[1]!).value).toMatchObject({
      subcontractorRef: 'sub_123',
      invoiceDate: '2026-06-20',
      grossP: 100000,
      materialsP: 0,
      vatRate: 5,
      reverseCharge: true,
    });
  });

  it('reports missing columns, bad CSV, empty files and ragged rows', () => {
    expect(parseInvoiceCsv('Invoice Number,Gross\r\nINV-1,10\r\n').errors).toEqual([
      { row: null, line: 1, message: 'Missing column: Subcontractor' },
      { row: null, line: 1, message: 'Missing column: Invoice Date' },
    ]);
    expect(parseInvoiceCsv('').errors).toEqual([{ row: null, message: 'The file is empty' }]);
    expect(parseInvoiceCsv('a,"b\n').errors[0]?.message).toMatch(/^The file is not valid CSV/);
    const ragged = parseInvoiceCsv(`${invoiceImportTemplate}\r\nINV-1,John,19/06/2026\r\n`);
    expect(ragged.rows).toEqual([]);
    expect(ragged.errors).toEqual([{ row: 1, line: 2, message: 'Row 1: expected 9 values, found 3' }]);
    expect(
      parseInvoiceCsv(`${invoiceImportTemplate}\r\n${'a,b,c,d,e,f,g,h,i\r\n'.repeat(3)}`, { maxRows: 2 })
        .errors,
    ).toEqual([{ row: null, message: 'Too many rows: 3 (at most 2 per file)' }]);
  });

  it('gives a clear message per field', () => {
    const { value, errors } = parseImportRow({
      invoiceNumber: 'X'.repeat(51),
      subcontractorRef: '',
      invoiceDate: '31/02/2026',
      gross: '12.345',
      materials: '-1',
      vatRate: '17.5',
      reverseCharge: 'maybe',
    });
    expect(value).toBeUndefined();
    expect(errors).toEqual([
      'Invoice number must be 50 characters or fewer',
      'Subcontractor is required',
      'Invalid invoice date: "31/02/2026" (use DD/MM/YYYY or YYYY-MM-DD)',
      'Invalid gross amount: "12.345" (at most 2 decimal places)',
      'Materials amount cannot be negative',
      'VAT rate must be 0%, 5%, or 20%',
      'Reverse charge must be Yes or No',
    ]);
    expect(parseImportRow({}).errors).toEqual([
      'Valid invoice number required',
      'Subcontractor is required',
      'Invoice date is required',
      'Gross amount is required',
    ]);
    expect(
      parseImportRow({ invoiceNumber: 'A', subcontractorRef: 'B', invoiceDate: '2026-01-01', gross: 'abc' })
        .errors,
    ).toEqual(['Invalid gross amount: "abc"']);
    expect(
      parseImportRow({ invoiceNumber: 'A', subcontractorRef: 'B', invoiceDate: '2026-01-01', gross: '-5' })
        .errors,
    ).toEqual(['Gross amount cannot be negative']);
    expect(
      parseImportRow({
        invoiceNumber: 'A',
        subcontractorRef: 'B',
        invoiceDate: '2026-01-01',
        gross: '10',
        materials: '11',
      }).errors,
    ).toEqual(['Materials cannot exceed gross amount']);
  });

  it('accepts rows keyed by the raw header titles too', () => {
    const { value } = parseImportRow({
      'Invoice Number': 'INV-9',
      'Subcontractor (name or id)': 'Jane',
      'Invoice Date': '1/2/2026',
      Gross: '£0.29',
    });
    expect(value).toMatchObject({ invoiceNumber: 'INV-9', invoiceDate: '2026-02-01', grossP: 29 });
  });

  it('parses amounts exactly, without floating point', () => {
    const gross = (raw: string): number | undefined =>
      parseImportRow({ invoiceNumber: 'A', subcontractorRef: 'B', invoiceDate: '2026-01-01', gross: raw })
        .value?.grossP;
    expect(gross('1,234.56')).toBe(123456);
    expect(gross('£1,234.56')).toBe(123456);
    expect(gross('0.29')).toBe(29); // 0.29 * 100 = 28.999999999999996 in floating point
    expect(gross('1.1')).toBe(110);
    expect(gross('99999999.99')).toBe(9_999_999_999);
  });

  it('parses import dates strictly', () => {
    expect(parseImportDate('19/06/2026')).toBe('2026-06-19');
    expect(parseImportDate('2026-06-19')).toBe('2026-06-19');
    expect(parseImportDate('9.6.2026')).toBe('2026-06-09');
    expect(parseImportDate('29/02/2025')).toBeNull();
    expect(parseImportDate('06/19/2026')).toBeNull();
    expect(parseImportDate('19 June 2026')).toBeNull();
  });

  // How fast is measured by `make bench` (services/cis/bench/cis.bench.ts), never asserted here.
  it('parses and checks 10,000 rows, each numbered by its line', () => {
    const line = 'INV-{n},John Smith,19/06/2026,"£1,234.56",234.56,20,No,Work,';
    const body = Array.from({ length: 10_000 }, (_, n) => line.replace('{n}', String(n + 1))).join('\r\n');
    const parsed = parseInvoiceCsv(`${INVOICE_IMPORT_COLUMNS.join(',')}\r\n${body}\r\n`);
    const values = parsed.rows.map((row) => parseImportRow(row));
    expect(parsed.errors).toEqual([]);
    expect(values).toHaveLength(10_000);
    expect(values.every((result) => result.errors.length === 0)).toBe(true);
    expect(values.at(-1)?.value).toMatchObject({ invoiceNumber: 'INV-10000', grossP: 123456 });
    expect(parsed.rowNumbers.at(-1)).toBe(10_000);
  });
});
