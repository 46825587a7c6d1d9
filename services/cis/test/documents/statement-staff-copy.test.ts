// The staff copy of a statement (ADR 0029): the UTR masked, marked not for issue on every page and in its title; a
// staff copy never takes more of the UTR than its mask shows.
import { PDFParse } from 'pdf-parse';
import {
  STAFF_COPY_MARK,
  renderStatementPdf,
  type StatementPdfInput,
} from '../../src/documents/statement-pdf.js';

async function read(buffer: Buffer): Promise<{ text: string; title: string }> {
  const parser = new PDFParse({ data: new Uint8Array(buffer) });
  try {
    const { text } = await parser.getText();
    const { info } = await parser.getInfo();
    return { text, title: String((info as Record<string, unknown>).Title) };
  } finally {
    await parser.destroy();
  }
}

const invoices = Array.from({ length: 60 }, (_, index) => ({
  invoiceNumber: `INV-${1000 + index}`,
  invoiceDate: '2025-12-08',
  paymentDate: '2025-12-19',
  grossP: 10000,
  materialsP: 0,
  cisDeductionP: 2000,
}));

function statement(overrides: Partial<StatementPdfInput> = {}): StatementPdfInput {
  return {
    contractor: { name: 'Acme Construction Ltd', employerRef: '123/AB12345' },
    subcontractor: { name: 'John Smith', utr: '******7890', verificationNumber: null, rate: 20 },
    taxMonth: '2025-12',
    invoices,
    totals: { grossP: 600000, materialsP: 0, labourP: 600000, cisDeductionP: 120000 },
    statementId: 'ST-2025-12-0001',
    generatedAt: '2026-01-09T10:30:00.000Z',
    copy: 'staff',
    ...overrides,
  };
}

describe('the staff copy of a statement', () => {
  it('prints the masked UTR and marks the copy under the header, on every page and in the title', async () => {
    const { text, title } = await read(await renderStatementPdf(statement()));
    expect(text).toContain('******7890');
    const pages = Number(/Page 1 of (\d+)/.exec(text)?.[1]);
    expect(pages).toBeGreaterThan(1);
    // Once under the header and once in each page's footer.
    expect(text.split(STAFF_COPY_MARK)).toHaveLength(1 + 1 + pages);
    expect(title).toContain('(staff copy)');
  });

  it('refuses a clear or partly masked UTR', async () => {
    for (const utr of ['1234567890', '**34567890'])
      await expect(
        renderStatementPdf(statement({ subcontractor: { name: 'John Smith', utr, rate: 20 } })),
      ).rejects.toThrow('A staff copy takes the masked UTR (no more than its last 4 digits)');
  });

  it('is not the subcontractor’s copy: that one carries the full UTR and no mark', async () => {
    const { text, title } = await read(
      await renderStatementPdf(
        statement({
          copy: 'subcontractor',
          subcontractor: { name: 'John Smith', utr: '1234567890', rate: 20 },
        }),
      ),
    );
    expect(text).toContain('1234567890');
    expect(text).not.toContain(STAFF_COPY_MARK);
    expect(title).not.toContain('staff copy');
  });
});
