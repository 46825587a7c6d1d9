// The invoice import's limits (security review M1): a file, a row, a header cell and the number of rows each have a
// cap, checked before any header cell is matched; a file over one is refused whole with a message naming the limit.
import { importFieldOf, invoiceImportTemplate, parseInvoiceCsv } from '../../src/documents/csv-import.js';
import { IMPORT_BODY_BYTES, IMPORT_LIMITS } from '../../src/domain/index.js';

const row = 'INV-1,J Smith,19/06/2026,100.00,0,20,No,Work,';

describe('the invoice import limits', () => {
  it('are 5 MB a file, 10,000 characters a row, 200 a column name and 50,000 rows; the body carries the largest file', () => {
    expect(IMPORT_LIMITS).toEqual({
      fileBytes: 5 * 1024 * 1024,
      recordCharacters: 10_000,
      headerCellCharacters: 200,
      rows: 50_000,
    });
    // The worst a CSV's text becomes in JSON: every character a quote or a line ending, each escaped to two.
    const worst = JSON.stringify({ csv: '"\r\n'.repeat(Math.floor(IMPORT_LIMITS.fileBytes / 3)) });
    expect(Buffer.byteLength(worst)).toBeLessThanOrEqual(IMPORT_BODY_BYTES);
  });

  it('refuses a header of 100,000 "(" (quadratic under the old hint pattern) before any regex runs, and a long column name', () => {
    const parens = parseInvoiceCsv(`${'('.repeat(100_000)}\r\n${row}\r\n`);
    expect(parens).toEqual({
      rows: [],
      rowNumbers: [],
      errors: [{ row: null, line: 1, message: 'Line 1 is too long (at most 10,000 characters per row)' }],
    });
    // One cell over 200 characters in an otherwise good header: refused before the cells are matched.
    const longCell = parseInvoiceCsv(`${invoiceImportTemplate},${'('.repeat(201)}\r\n${row},x\r\n`);
    expect(longCell).toEqual({
      rows: [],
      rowNumbers: [],
      errors: [
        {
          row: null,
          line: 1,
          message: 'Column 10 of the header is too long (at most 200 characters per column name)',
        },
      ],
    });
    // 200 characters is still a column name (an unknown one, ignored).
    const atCap = parseInvoiceCsv(`${invoiceImportTemplate},${'('.repeat(200)}\r\n${row},x\r\n`);
    expect(atCap.errors).toEqual([]);
    expect(atCap.rows).toHaveLength(1);
  });

  it('matches "(…)" hints with a linear pattern, and never looks up a cell over the cap', () => {
    expect(importFieldOf('Subcontractor (name or id)')).toBe('subcontractorRef');
    expect(importFieldOf('Gross (£) (incl. materials)')).toBe('gross');
    expect(importFieldOf('(Gross')).toBe('gross');
    expect(importFieldOf('Gross)')).toBe('gross');
    // 'Gross' is the key once the hints go: a cell over 200 characters is no column, whatever it holds.
    expect(importFieldOf(`Gross ${'(x)'.repeat(70)}`)).toBeNull();
    expect(importFieldOf(`Gross ${'(x)'.repeat(60)}`)).toBe('gross');
  });

  it('refuses a file over 5 MB without parsing it', () => {
    const big = `${invoiceImportTemplate}\r\n${`${row}\r\n`.repeat(Math.ceil((IMPORT_LIMITS.fileBytes + 1) / (row.length + 2)))}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(IMPORT_LIMITS.fileBytes);
    expect(parseInvoiceCsv(big)).toEqual({
      rows: [],
      rowNumbers: [],
      errors: [{ row: null, message: 'The file is too large: 5.1 MB (at most 5 MB per file)' }],
    });
    // Counted in UTF-8 bytes: 5 MB of '£' (two bytes each) is 2.5 M characters and over the cap.
    const pounds = `${invoiceImportTemplate}\r\n${'£'.repeat(IMPORT_LIMITS.fileBytes / 2)}`;
    expect(parseInvoiceCsv(pounds).errors[0]?.message).toBe(
      'The file is too large: 5.1 MB (at most 5 MB per file)',
    );
  });

  it('refuses a row over 10,000 characters, naming its line, and imports none of the file', () => {
    const long = parseInvoiceCsv(
      `${invoiceImportTemplate}\r\n${row}\r\n${row.replace('Work', 'w'.repeat(10_000))}\r\n${row}\r\n`,
    );
    expect(long).toEqual({
      rows: [],
      rowNumbers: [],
      errors: [{ row: null, line: 3, message: 'Line 3 is too long (at most 10,000 characters per row)' }],
    });
    // The longest invoice the form takes (2,000 characters of description and of justification) fits.
    const longest = row.replace('Work,', `${'d'.repeat(2000)},${'j'.repeat(2000)}`);
    expect(parseInvoiceCsv(`${invoiceImportTemplate}\r\n${longest}\r\n`).rows).toHaveLength(1);
  });

  it('refuses more than 50,000 rows, counting them', () => {
    const rows = IMPORT_LIMITS.rows + 1;
    expect(parseInvoiceCsv(`${invoiceImportTemplate}\r\n${`${row}\r\n`.repeat(rows)}`)).toEqual({
      rows: [],
      rowNumbers: [],
      errors: [{ row: null, message: 'Too many rows: 50,001 (at most 50,000 per file)' }],
    });
    expect(
      parseInvoiceCsv(`${invoiceImportTemplate}\r\n${`${row}\r\n`.repeat(IMPORT_LIMITS.rows)}`).rows,
    ).toHaveLength(IMPORT_LIMITS.rows);
  });
});
