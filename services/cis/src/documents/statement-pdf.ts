// The subcontractor's payment and deduction statement (PDS) as a PDF (pdfkit, standard Helvetica, A4).
//
// What HMRC requires of a statement (CISR12160, COG910050; hmrc-cis-notes §1.5), all of which is printed:
//   - the contractor's name and employer's tax reference;
//   - the tax month, in HMRC's wording ('Tax month ending 5 January 2026');
//   - the subcontractor's name and Unique Taxpayer Reference (UTR, in clear);
//   - the verification number, ONLY when the higher (30 %) rate applied;
//   - the gross amount paid (excluding VAT), the cost of materials and the amount deducted.
// That is the subcontractor's copy. The staff copy (`copy: 'staff'`, ADR 0029) is the same statement with the UTR
// masked, marked on every page as not for issue; it is given the masked UTR, never the clear one.
// It also shows the amount liable to deduction, the amount payable (gross − deduction), the invoices the
// statement covers, and the spec's notice that records must be kept for at least 6 years.
//
// The output is deterministic for a given input: the PDF's CreationDate/ModDate come from `generatedAt` and
// pdfkit derives the file ID from them, so rendering the same input twice gives the same bytes.

import PDFDocument from 'pdfkit';

import { formatPounds, taxMonthPeriod, type AddressInput } from '../domain/index.js';
import { formatDateGb, formatDateTimeGb, formatLongDateGb, type DateLike } from './format.js';

export type StatementCisRate = 0 | 20 | 30;

export interface StatementPdfInvoice {
  invoiceNumber: string;
  invoiceDate: DateLike;
  paymentDate: DateLike;
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
}

/** A structured address: the same fields as a subcontractor's address. */
export type StatementAddress = AddressInput;

export interface StatementPdfInput {
  contractor: {
    name: string;
    /** Employer's (PAYE) reference, e.g. '123/AB12345'. */
    employerRef: string;
    accountsOfficeRef?: string | null;
    address?: string | readonly string[] | StatementAddress | null;
  };
  subcontractor: {
    name: string;
    /**
     * The subcontractor's copy: the UTR in clear (10 digits; spaces and a 'K' are tolerated). The staff copy: the
     * UTR as masked for display ('******7890'), never more than 4 digits.
     */
    utr: string;
    /** Printed only when the rate is 30 (HMRC: the verification number appears only at the higher rate). */
    verificationNumber?: string | null;
    rate: StatementCisRate;
  };
  /** The tax month label 'YYYY-MM' (start month). */
  taxMonth: string;
  invoices: readonly StatementPdfInvoice[];
  totals: { grossP: number; materialsP: number; labourP: number; cisDeductionP: number };
  statementId: string;
  /** ISO timestamp; also the PDF's CreationDate (deterministic output). */
  generatedAt: string;
  /** The contractor's statement footer (settings.statementFooter). */
  footer?: string | null;
  /** 'subcontractor' (the default): the statement to issue. 'staff': identifiers masked, marked not for issue. */
  copy?: 'subcontractor' | 'staff';
  /** A corrected statement (issue 13, ADR 0037): the statement it replaces, marked under the header. */
  corrects?: { statementId: string } | null;
}

export const STATEMENT_TITLE = 'Payment and Deduction Statement';
export const STATEMENT_KEEP_NOTICE = 'Keep this statement: you must keep records for at least 6 years.';
/** What marks the staff copy, under the header and in every page's footer. */
export const STAFF_COPY_MARK = 'STAFF COPY: identifiers masked, not for issue';

const RATE_LABELS: Record<StatementCisRate, string> = {
  0: '0% (gross payment status)',
  20: '20% (standard rate, registered)',
  30: '30% (higher rate, unmatched)',
};

const COLOR = {
  brand: '#1f3a5f',
  brandText: '#ffffff',
  brandMuted: '#c8d4e3',
  text: '#1b1f24',
  muted: '#5b6776',
  border: '#cfd7e2',
  panel: '#f3f6fa',
  stripe: '#f7f9fc',
  highlight: '#e7eef7',
  noticeFill: '#fff8e5',
  noticeBorder: '#e3bf5d',
  staffMark: '#b42318',
  correctionMark: '#7a4b00',
} as const;

/** What marks a corrected statement, under the header: the statement it replaces. */
export const correctionMark = (statementId: string) =>
  `CORRECTED STATEMENT: replaces statement ${statementId} issued earlier for this month`;

const PAGE = { margin: 48, bottomMargin: 64, footerY: 806 } as const;

type Doc = PDFKit.PDFDocument;

interface Column {
  key: 'invoiceNumber' | 'invoiceDate' | 'paymentDate' | 'gross' | 'materials' | 'deduction' | 'payable';
  title: string;
  width: number;
  align: 'left' | 'right';
}

/**
 * Fails loudly on input a statement cannot be issued with (the subcontractor's copy must carry a valid UTR), and
 * on a staff copy given more of the UTR than its mask shows.
 */
function checkInput(input: StatementPdfInput): { utr: string } {
  const utr = input.subcontractor.utr.replace(/[\sK]/gi, '');
  if (input.copy === 'staff') {
    if (!/^\**\d{0,4}$/.test(utr))
      throw new RangeError('A staff copy takes the masked UTR (no more than its last 4 digits)');
  } else if (!/^\d{10}$/.test(utr))
    throw new RangeError('A statement needs the subcontractor UTR (10 digits)');
  if (![0, 20, 30].includes(input.subcontractor.rate)) {
    throw new RangeError(`Invalid CIS rate: ${String(input.subcontractor.rate)}`);
  }
  if (Number.isNaN(new Date(input.generatedAt).getTime())) {
    throw new RangeError(`Invalid generatedAt: ${input.generatedAt}`);
  }
  return { utr };
}

function addressLines(address: StatementPdfInput['contractor']['address']): string[] {
  if (!address) return [];
  if (typeof address === 'string') {
    return address
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  }
  if (Array.isArray(address)) return (address as readonly string[]).map((l) => l.trim()).filter(Boolean);
  const a = address as StatementAddress;
  const cityLine = [a.city, a.county].filter(Boolean).join(', ');
  return [a.line1, a.line2, cityLine, a.postcode, a.country && a.country !== 'GB' ? a.country : null]
    .map((line) => (line ?? '').trim())
    .filter(Boolean);
}

/** Shortens `text` with an ellipsis until it fits `width` at the current font. */
function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A label (small, muted) over a value; returns the height used. */
function field(
  doc: Doc,
  x: number,
  y: number,
  width: number,
  label: string,
  value: string,
  bold = false,
): number {
  doc.font('Helvetica').fontSize(8).fillColor(COLOR.muted).text(label, x, y, { width, lineBreak: false });
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(10)
    .fillColor(COLOR.text);
  const height = doc.heightOfString(value, { width });
  doc.text(value, x, y + 11, { width });
  return 11 + height + 8;
}

function fieldHeight(doc: Doc, width: number, value: string, bold = false): number {
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(10)
    .fillColor(COLOR.text);
  return 11 + doc.heightOfString(value, { width }) + 8;
}

function drawHeader(doc: Doc, input: StatementPdfInput, periodLine: string, rangeLine: string): number {
  const width = doc.page.width;
  const rightWidth = 210;
  const right = width - PAGE.margin - rightWidth;
  doc.rect(0, 0, width, 100).fill(COLOR.brand);
  doc.rect(0, 100, width, 4).fill('#3d6b9e');
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .fillColor(COLOR.brandText)
    .text(STATEMENT_TITLE, PAGE.margin, 22, { lineBreak: false });
  doc.fontSize(12).text(periodLine, PAGE.margin, 54, { width: right - PAGE.margin - 12, lineBreak: false });
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(COLOR.brandMuted)
    .text(rangeLine, PAGE.margin, 72, { width: right - PAGE.margin - 12, lineBreak: false });

  doc.font('Helvetica-Bold').fontSize(10).fillColor(COLOR.brandText);
  doc.text(fit(doc, input.contractor.name, rightWidth), right, 54, {
    width: rightWidth,
    align: 'right',
    lineBreak: false,
  });
  doc.font('Helvetica').fontSize(9).fillColor(COLOR.brandMuted);
  doc.text('Construction Industry Scheme', right, 68, {
    width: rightWidth,
    align: 'right',
    lineBreak: false,
  });
  doc.text(fit(doc, `Statement ${input.statementId}`, rightWidth), right, 81, {
    width: rightWidth,
    align: 'right',
    lineBreak: false,
  });
  return 124;
}

/** A band under the header: the staff copy's mark, or a corrected statement's. */
function drawStaffMark(
  doc: Doc,
  top: number,
  text = STAFF_COPY_MARK,
  fill: string = COLOR.staffMark,
): number {
  const width = doc.page.width - PAGE.margin * 2;
  doc.rect(PAGE.margin, top, width, 22).fill(fill);
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .fillColor(COLOR.brandText)
    .text(text, PAGE.margin, top + 6, { width, align: 'center', lineBreak: false });
  return top + 22 + 14;
}

function drawParties(doc: Doc, input: StatementPdfInput, utr: string, top: number): number {
  const gap = 16;
  const contentWidth = doc.page.width - PAGE.margin * 2;
  const boxWidth = (contentWidth - gap) / 2;
  const inner = boxWidth - 24;

  const contractorFields: [string, string, boolean][] = [
    ['Contractor', input.contractor.name, true],
    ["Employer's reference", input.contractor.employerRef, false],
  ];
  if (input.contractor.accountsOfficeRef) {
    contractorFields.push(['Accounts Office reference', input.contractor.accountsOfficeRef, false]);
  }
  const address = addressLines(input.contractor.address);
  if (address.length > 0) contractorFields.push(['Address', address.join('\n'), false]);

  const subcontractorFields: [string, string, boolean][] = [
    ['Subcontractor', input.subcontractor.name, true],
    ['Unique Taxpayer Reference (UTR)', utr || 'Not recorded', false],
    ['Deduction rate', RATE_LABELS[input.subcontractor.rate], false],
  ];
  if (input.subcontractor.rate === 30) {
    const number = input.subcontractor.verificationNumber?.trim();
    subcontractorFields.push(['Verification number', number ? number : 'Not recorded', false]);
  }

  const heightOf = (fields: [string, string, boolean][]): number =>
    fields.reduce((sum, [, value, bold]) => sum + fieldHeight(doc, inner, value, bold), 0);
  const boxHeight = Math.max(heightOf(contractorFields), heightOf(subcontractorFields)) + 16;

  const columns: [number, [string, string, boolean][]][] = [
    [PAGE.margin, contractorFields],
    [PAGE.margin + boxWidth + gap, subcontractorFields],
  ];
  for (const [x, fields] of columns) {
    doc.roundedRect(x, top, boxWidth, boxHeight, 4).fillAndStroke(COLOR.panel, COLOR.border);
    let y = top + 12;
    for (const [label, value, bold] of fields) y += field(doc, x + 12, y, inner, label, value, bold);
  }
  return top + boxHeight + 20;
}

function drawSummary(doc: Doc, input: StatementPdfInput, top: number): number {
  const { grossP, materialsP, labourP, cisDeductionP } = input.totals;
  const payableP = grossP - cisDeductionP;
  const x = PAGE.margin;
  const width = doc.page.width - PAGE.margin * 2;
  const amountWidth = 130;
  const rows: [string, string, boolean][] = [
    ['Gross amount paid (excluding VAT)', formatPounds(grossP), false],
    ['Less cost of materials', formatPounds(materialsP), false],
    ['Amount liable to deduction (labour)', formatPounds(labourP), false],
    [`Amount deducted (CIS at ${input.subcontractor.rate}%)`, formatPounds(cisDeductionP), false],
    ['Amount payable (gross less deduction, excluding VAT)', formatPounds(payableP), true],
  ];

  doc.font('Helvetica-Bold').fontSize(11).fillColor(COLOR.brand).text('Payment summary', x, top);
  let y = top + 20;
  const rowHeight = 22;
  doc.roundedRect(x, y, width, rowHeight * rows.length, 4).stroke(COLOR.border);
  rows.forEach(([label, amount, strong], index) => {
    const rowY = y + index * rowHeight;
    if (strong) doc.rect(x + 0.5, rowY, width - 1, rowHeight - 0.5).fill(COLOR.highlight);
    if (index > 0) {
      doc
        .moveTo(x, rowY)
        .lineTo(x + width, rowY)
        .lineWidth(0.5)
        .stroke(COLOR.border);
    }
    doc
      .font(strong ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(10)
      .fillColor(COLOR.text)
      .text(label, x + 12, rowY + 7, { width: width - amountWidth - 24, lineBreak: false });
    doc.text(amount, x + width - amountWidth - 12, rowY + 7, {
      width: amountWidth,
      align: 'right',
      lineBreak: false,
    });
  });
  y += rowHeight * rows.length;
  return y + 24;
}

function invoiceColumns(contentWidth: number): Column[] {
  const fixed: Column[] = [
    { key: 'invoiceDate', title: 'Invoice date', width: 66, align: 'left' },
    { key: 'paymentDate', title: 'Paid on', width: 60, align: 'left' },
    { key: 'gross', title: 'Gross', width: 70, align: 'right' },
    { key: 'materials', title: 'Materials', width: 64, align: 'right' },
    { key: 'deduction', title: 'Deducted', width: 62, align: 'right' },
    { key: 'payable', title: 'Payable', width: 68, align: 'right' },
  ];
  const used = fixed.reduce((sum, column) => sum + column.width, 0);
  return [{ key: 'invoiceNumber', title: 'Invoice', width: contentWidth - used, align: 'left' }, ...fixed];
}

function drawTableHeader(doc: Doc, columns: Column[], y: number, title: string): number {
  const x0 = PAGE.margin;
  const width = doc.page.width - PAGE.margin * 2;
  doc.font('Helvetica-Bold').fontSize(11).fillColor(COLOR.brand).text(title, x0, y);
  const headY = y + 20;
  doc.rect(x0, headY, width, 20).fill(COLOR.brand);
  let x = x0;
  doc.font('Helvetica-Bold').fontSize(8.5).fillColor(COLOR.brandText);
  for (const column of columns) {
    doc.text(column.title, x + 6, headY + 6, {
      width: column.width - 12,
      align: column.align,
      lineBreak: false,
    });
    x += column.width;
  }
  return headY + 20;
}

function cellValues(invoice: StatementPdfInvoice): Record<Column['key'], string> {
  return {
    invoiceNumber: invoice.invoiceNumber,
    invoiceDate: formatDateGb(invoice.invoiceDate) ?? 'N/A',
    paymentDate: formatDateGb(invoice.paymentDate) ?? 'Not paid',
    gross: formatPounds(invoice.grossP),
    materials: formatPounds(invoice.materialsP),
    deduction: formatPounds(invoice.cisDeductionP),
    payable: formatPounds(invoice.grossP - invoice.cisDeductionP),
  };
}

function drawRow(
  doc: Doc,
  columns: Column[],
  values: Record<Column['key'], string>,
  y: number,
  height: number,
  options: { fill?: string; bold?: boolean },
): void {
  const width = doc.page.width - PAGE.margin * 2;
  if (options.fill) doc.rect(PAGE.margin, y, width, height).fill(options.fill);
  doc
    .font(options.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(8.5)
    .fillColor(COLOR.text);
  let x = PAGE.margin;
  for (const column of columns) {
    const text = fit(doc, values[column.key], column.width - 12);
    doc.text(text, x + 6, y + (height - 8.5) / 2 + 0.5, {
      width: column.width - 12,
      align: column.align,
      lineBreak: false,
    });
    x += column.width;
  }
}

function bottomLimit(doc: Doc): number {
  return doc.page.height - PAGE.bottomMargin;
}

function drawInvoices(doc: Doc, input: StatementPdfInput, top: number): number {
  const contentWidth = doc.page.width - PAGE.margin * 2;
  const columns = invoiceColumns(contentWidth);
  const rowHeight = 18;
  const count = input.invoices.length;
  let y = drawTableHeader(doc, columns, top, `Invoices included (${count})`);

  input.invoices.forEach((invoice, index) => {
    if (y + rowHeight > bottomLimit(doc)) {
      doc.addPage();
      y = drawTableHeader(doc, columns, PAGE.margin, 'Invoices included (continued)');
    }
    drawRow(doc, columns, cellValues(invoice), y, rowHeight, index % 2 === 1 ? { fill: COLOR.stripe } : {});
    y += rowHeight;
  });
  if (count === 0) {
    doc
      .font('Helvetica-Oblique')
      .fontSize(9)
      .fillColor(COLOR.muted)
      .text('No invoices in this statement.', PAGE.margin + 6, y + 5, { lineBreak: false });
    y += rowHeight;
  }

  if (y + rowHeight + 4 > bottomLimit(doc)) {
    doc.addPage();
    y = PAGE.margin;
  }
  const { grossP, materialsP, cisDeductionP } = input.totals;
  doc
    .moveTo(PAGE.margin, y)
    .lineTo(PAGE.margin + contentWidth, y)
    .lineWidth(1)
    .stroke(COLOR.brand);
  drawRow(
    doc,
    columns,
    {
      invoiceNumber: 'Total',
      invoiceDate: '',
      paymentDate: '',
      gross: formatPounds(grossP),
      materials: formatPounds(materialsP),
      deduction: formatPounds(cisDeductionP),
      payable: formatPounds(grossP - cisDeductionP),
    },
    y,
    rowHeight + 2,
    { fill: COLOR.highlight, bold: true },
  );
  return y + rowHeight + 26;
}

function drawNotice(doc: Doc, input: StatementPdfInput, top: number): number {
  const x = PAGE.margin;
  const width = doc.page.width - PAGE.margin * 2;
  const body =
    'This statement shows the payments made to you and the tax deducted under the Construction Industry ' +
    'Scheme in the tax month shown. The amount deducted has been, or will be, paid to HM Revenue & Customs ' +
    'on your behalf: use this statement to claim it against your tax and National Insurance or, for a ' +
    'company, against its PAYE liabilities.';
  doc.font('Helvetica').fontSize(9);
  const bodyHeight = doc.heightOfString(body, { width: width - 28 });
  const footer = input.footer?.trim();
  const footerHeight = footer
    ? doc.font('Helvetica').fontSize(8.5).heightOfString(footer, { width }) + 14
    : 0;
  const boxHeight = 14 + 14 + bodyHeight + 14;

  let y = top;
  if (y + boxHeight + footerHeight > bottomLimit(doc)) {
    doc.addPage();
    y = PAGE.margin;
  }
  doc.roundedRect(x, y, width, boxHeight, 4).fillAndStroke(COLOR.noticeFill, COLOR.noticeBorder);
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .fillColor(COLOR.text)
    .text(STATEMENT_KEEP_NOTICE, x + 14, y + 12, { width: width - 28 });
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(COLOR.text)
    .text(body, x + 14, y + 28, { width: width - 28 });
  y += boxHeight + 14;

  if (footer) {
    doc.font('Helvetica').fontSize(8.5).fillColor(COLOR.muted).text(footer, x, y, { width });
    y += footerHeight;
  }
  return y;
}

function drawPageFooters(doc: Doc, input: StatementPdfInput): void {
  const range = doc.bufferedPageRange();
  const generated = formatDateTimeGb(input.generatedAt) ?? input.generatedAt;
  const left = `Generated ${generated} · Statement ${input.statementId}${
    input.copy === 'staff' ? ` · ${STAFF_COPY_MARK}` : ''
  }`;
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the bottom margin must not start a new page
    const width = doc.page.width - PAGE.margin * 2;
    doc
      .moveTo(PAGE.margin, PAGE.footerY - 8)
      .lineTo(PAGE.margin + width, PAGE.footerY - 8)
      .lineWidth(0.5)
      .stroke(COLOR.border);
    doc.font('Helvetica').fontSize(7.5).fillColor(COLOR.muted);
    doc.text(fit(doc, left, width - 80), PAGE.margin, PAGE.footerY, { lineBreak: false });
    doc.text(`Page ${index + 1 - range.start} of ${range.count}`, PAGE.margin + width - 80, PAGE.footerY, {
      width: 80,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/** Renders one payment and deduction statement; resolves with the PDF bytes. */
export async function renderStatementPdf(input: StatementPdfInput): Promise<Buffer> {
  const { utr } = checkInput(input);
  const period = taxMonthPeriod(input.taxMonth);
  const created = new Date(input.generatedAt);

  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.margin, bottom: PAGE.bottomMargin, left: PAGE.margin, right: PAGE.margin },
    bufferPages: true,
    compress: true,
    autoFirstPage: true,
    info: {
      Title: `${STATEMENT_TITLE} – ${input.subcontractor.name} – ${period.displayLabel}${
        input.copy === 'staff' ? ' (staff copy)' : ''
      }`,
      Author: input.contractor.name,
      Subject: `Construction Industry Scheme payment and deduction statement, ${period.displayLabel}`,
      Keywords: `CIS, statement, ${input.statementId}`,
      Creator: 'Workspace CIS',
      Producer: 'Workspace CIS (PDFKit)',
      CreationDate: created,
      ModDate: created,
    },
  });

  return await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    doc.on('error', reject);
    try {
      const range = `${formatLongDateGb(period.startDate) ?? period.startDate} to ${
        formatLongDateGb(period.endDate) ?? period.endDate
      }`;
      let y = drawHeader(doc, input, period.displayLabel, range);
      if (input.copy === 'staff') y = drawStaffMark(doc, y - 8);
      if (input.corrects)
        y = drawStaffMark(doc, y - 8, correctionMark(input.corrects.statementId), COLOR.correctionMark);
      y = drawParties(doc, input, utr, y);
      y = drawSummary(doc, input, y);
      y = drawInvoices(doc, input, y);
      drawNotice(doc, input, y);
      drawPageFooters(doc, input);
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/**
 * Renders many statements. pdfkit is synchronous CPU work, so they are rendered one after another (no
 * benefit from interleaving); the result keeps the input order.
 */
export async function renderStatementPdfs(inputs: readonly StatementPdfInput[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const input of inputs) out.push(await renderStatementPdf(input));
  return out;
}
