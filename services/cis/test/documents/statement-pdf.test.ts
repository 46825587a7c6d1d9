import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { PDFParse } from 'pdf-parse';

import {
  STATEMENT_KEEP_NOTICE,
  renderStatementPdf,
  renderStatementPdfs,
  type StatementPdfInput,
} from '../../src/documents/statement-pdf.js';

const OUT_DIR = join(process.cwd(), 'test-results', 'documents');

async function textOf(buffer: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(buffer) });
  try {
    const { text } = await parser.getText();
    return text;
  } finally {
    await parser.destroy();
  }
}

async function infoOf(buffer: Buffer): Promise<Record<string, unknown>> {
  const parser = new PDFParse({ data: new Uint8Array(buffer) });
  try {
    const result = await parser.getInfo();
    return result.info as Record<string, unknown>;
  } finally {
    await parser.destroy();
  }
}

function statement(overrides: Partial<StatementPdfInput> = {}): StatementPdfInput {
  return {
    contractor: {
      name: 'Acme Construction Ltd',
      employerRef: '123/AB12345',
      accountsOfficeRef: '123PA00012345',
      address: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
    },
    subcontractor: { name: 'John Smith', utr: '1234567890', verificationNumber: null, rate: 20 },
    taxMonth: '2025-12',
    invoices: [
      {
        invoiceNumber: 'INV-1001',
        invoiceDate: '2025-12-08',
        paymentDate: '2025-12-19',
        grossP: 156799,
        materialsP: 26799,
        cisDeductionP: 26000,
      },
      {
        invoiceNumber: 'INV-1002',
        invoiceDate: '2025-12-20',
        paymentDate: '2026-01-02',
        grossP: 100000,
        materialsP: 10000,
        cisDeductionP: 18000,
      },
    ],
    totals: { grossP: 256799, materialsP: 36799, labourP: 220000, cisDeductionP: 44000 },
    statementId: 'ST-2025-12-0001',
    generatedAt: '2026-01-09T10:30:00.000Z',
    footer: 'Acme Construction Ltd, registered in England 01234567.',
    ...overrides,
  };
}

describe('renderStatementPdf', () => {
  it('renders a PDF carrying everything HMRC requires of a payment and deduction statement', async () => {
    const pdf = await renderStatementPdf(statement());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(join(OUT_DIR, 'statement-sample.pdf'), pdf);

    const text = await textOf(pdf);
    for (const required of [
      'Payment and Deduction Statement',
      'Acme Construction Ltd', // contractor name
      '123/AB12345', // employer's reference
      'Tax month ending 5 January 2026',
      'John Smith', // subcontractor name
      '1234567890', // subcontractor UTR in clear
      'Gross amount paid (excluding VAT)',
      '£2,567.99',
      'Less cost of materials',
      '£367.99',
      'Amount deducted',
      '£440.00',
      'Amount payable',
      '£2,127.99', // gross − deduction
      'INV-1001',
      'INV-1002',
      '08/12/2025', // invoice date, en-GB
      '02/01/2026', // payment date, en-GB
      '£1,567.99',
      STATEMENT_KEEP_NOTICE,
      'at least 6 years',
      'ST-2025-12-0001',
      'Generated 09/01/2026 10:30',
      'Acme Construction Ltd, registered in England 01234567.',
    ]) {
      expect(text).toContain(required);
    }
    expect(text).not.toContain('Verification number');
  });

  it('shows the verification number at the higher (30%) rate', async () => {
    const pdf = await renderStatementPdf(
      statement({
        subcontractor: { name: 'Jane Doe', utr: '2234567890', verificationNumber: 'V1234567890AB', rate: 30 },
        totals: { grossP: 256799, materialsP: 36799, labourP: 220000, cisDeductionP: 66000 },
      }),
    );
    const text = await textOf(pdf);
    expect(text).toContain('Verification number');
    expect(text).toContain('V1234567890AB');
    expect(text).toContain('30%');
    expect(text).toContain('£660.00');
  });

  it('does NOT show the verification number at 20% even when one is stored', async () => {
    const pdf = await renderStatementPdf(
      statement({
        subcontractor: { name: 'Jane Doe', utr: '2234567890', verificationNumber: 'V1234567890AB', rate: 20 },
      }),
    );
    const text = await textOf(pdf);
    expect(text).not.toContain('V1234567890AB');
    expect(text).not.toContain('Verification number');
  });

  it('is deterministic for a given input and sets the document metadata', async () => {
    const [first, second] = await renderStatementPdfs([statement(), statement()]);
    expect(first?.equals(second!)).toBe(true);
    const info = await infoOf(first!);
    expect(info.Author).toBe('Acme Construction Ltd');
    expect(String(info.Title)).toContain('Payment and Deduction Statement');
    expect(String(info.CreationDate)).toContain('20260109103000');
  });

  it('paginates a long invoice table with a footer on every page', async () => {
    const invoices = Array.from({ length: 90 }, (_, index) => ({
      invoiceNumber: `INV-${String(index + 1).padStart(4, '0')}`,
      invoiceDate: '2025-12-08',
      paymentDate: '2025-12-19',
      grossP: 10000,
      materialsP: 0,
      cisDeductionP: 2000,
    }));
    const pdf = await renderStatementPdf(
      statement({
        invoices,
        totals: { grossP: 900000, materialsP: 0, labourP: 900000, cisDeductionP: 180000 },
      }),
    );
    const text = await textOf(pdf);
    expect(text).toContain('INV-0001');
    expect(text).toContain('INV-0090');
    expect(text).toContain('Invoices included (continued)');
    expect(text).toMatch(/Page 1 of [2-9]/);
    expect(text).toContain(STATEMENT_KEEP_NOTICE);
  });

  it('refuses a statement without a valid subcontractor UTR', async () => {
    await expect(
      renderStatementPdf(statement({ subcontractor: { name: 'X', utr: '12345', rate: 20 } })),
    ).rejects.toThrow(/UTR/);
  });

  // How fast is measured by `make bench` (services/cis/bench/cis.bench.ts), never asserted here.
  it('renders a batch of statements, one document each, in the order given', async () => {
    const names = ['Ann Able', 'Ben Baker', 'Cat Cole'];
    const pdfs = await renderStatementPdfs(
      names.map((name) => statement({ subcontractor: { name, utr: '1234567890', rate: 20 } })),
    );
    expect(pdfs).toHaveLength(3);
    for (const [index, pdf] of pdfs.entries()) {
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = await textOf(pdf);
      expect(names.filter((name) => text.includes(name))).toEqual([names[index]]);
    }
  });
});
