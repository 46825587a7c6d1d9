// Browser journeys of the documents that carry clear identifiers (security review H1; ADR 0029): the demo
// accountant (may issue statements and submit returns, may not unmask) downloads the staff copy of a statement (UTR
// masked, marked not for issue), prints a statement for issue and gets the subcontractor's copy with the full UTR,
// and finds the CIS300 download disabled with the reason; the administrator (who may unmask) downloads the CIS300
// document. Debian's Chromium against the real stack (web/test/cis-stack.ts), seeded through the API.
import { readFileSync } from 'node:fs';
import { PDFParse } from 'pdf-parse';
import type { Page } from 'playwright-core';
import { currentTaxMonth, londonDate, taxMonthFilePart } from '@workspace/cis/domain';
import { ALL_CIS_SCOPES, CIS_ADMIN_ID, DECLARED, invoiceBody, settingsBody } from '@workspace/cis/testing';
import { shots, visible } from './browser.js';
import { onceTheMonthHasEnded, startCisBrowserStack, until, type CisBrowserStack } from './cis-stack.js';

let stack: CisBrowserStack;
let baseUrl: string;
let admin: string;
let returnId = '';

const today = londonDate(new Date());
const current = currentTaxMonth();
const FILED_UTR = '1234567890';
const PRINTED_UTR = '2325648152';
const STAFF_MARK = 'STAFF COPY: identifiers masked, not for issue';

async function call(method: string, path: string, body?: unknown) {
  const result = await stack.harness.call(admin, method, path, body);
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
  return result.body;
}

/** A subcontractor with an invoice paid today and its statement of this tax month generated: both ids. */
async function paidSubcontractor(name: string, utr: string): Promise<{ id: string; statementId: string }> {
  const created = (await call('POST', '/subcontractors', {
    type: 'individual',
    name,
    utr,
    registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
    gdprConsent: true,
  })) as { subcontractor: { id: string } };
  const id = created.subcontractor.id;
  const invoice = (await call(
    'POST',
    '/invoices',
    invoiceBody(id, { invoiceNumber: `${name.slice(0, 3).toUpperCase()}-1`, invoiceDate: today }),
  )) as { invoice: { id: string } };
  await call('POST', '/invoices/approve', { ids: [invoice.invoice.id] });
  // Pip is paid after this month's return was submitted: confirmed past the warning (issue 13).
  await call('POST', `/invoices/${invoice.invoice.id}/pay`, {
    paymentDate: today,
    confirmSubmittedReturn: true,
  });
  // The payment's job may already have generated it (409).
  await stack.harness.call(admin, 'POST', '/statements/generate', { subcontractorId: id, taxMonth: current });
  const month = (await call('GET', `/statements?taxMonth=${current}`)) as {
    subcontractors: { subcontractorId: string; statement: { id: string } | null }[];
  };
  const statementId = month.subcontractors.find((group) => group.subcontractorId === id)?.statement?.id;
  if (!statementId) throw new Error(`no statement for ${name}`);
  return { id, statementId };
}

/** The text a PDF's pages carry. */
async function pdfText(bytes: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text.replace(/\s+/g, ' ');
  } finally {
    await parser.destroy();
  }
}

/**
 * The statement PDF a click opens in a new tab, as this session gets it: the tab's request is awaited, the tab
 * closed (Chromium's viewer may request the document again), and the same URL read with the page's cookies.
 */
async function openedPdf(page: Page, click: () => Promise<void>): Promise<string> {
  const [tab, response] = await Promise.all([
    page.context().waitForEvent('page'),
    page
      .context()
      .waitForEvent('response', (candidate) =>
        /\/api\/cis\/statements\/[0-9a-f]{16}\/pdf$/.test(candidate.url()),
      ),
    click(),
  ]);
  expect(response.status()).toBe(200);
  await tab.close();
  const fetched = await page.request.get(response.url());
  expect(fetched.headers()['content-type']).toContain('application/pdf');
  return pdfText(await fetched.body());
}

beforeAll(async () => {
  stack = await startCisBrowserStack();
  baseUrl = stack.baseUrl;
  admin = await stack.harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
  await call(
    'PUT',
    '/settings',
    settingsBody({ companyName: 'Documents Construction Ltd', emailReplyTo: '' }),
  );
  // Fay's statement is issued and this month's return submitted; Pip's statement waits to be printed.
  const fay = await paidSubcontractor('Fay Filed', FILED_UTR);
  await call('POST', `/statements/${fay.statementId}/issue`, { method: 'portal' });
  const compiled = (await call('POST', `/returns/${current}/compile`)) as { return: { id: string } };
  returnId = compiled.return.id;
  // Issue 13: a return is submitted once its month has ended.
  await onceTheMonthHasEnded(stack.harness, () =>
    call('POST', `/returns/${encodeURIComponent(returnId)}/submit`, DECLARED),
  );
  await paidSubcontractor('Pip Printer', PRINTED_UTR);
});

afterAll(async () => {
  await stack.stop();
});

describe('documents carrying identifiers', () => {
  it('the accountant, who may not unmask, downloads the staff copy, prints the subcontractor’s copy for issue, and may not download the CIS300 document', async () => {
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/statements`);
    const pipRow = page.locator('tr.ant-table-row', { hasText: 'Pip Printer' });
    await visible(pipRow);

    const download = pipRow.getByRole('button', { name: 'Download PDF' });
    await download.hover();
    await visible(
      page.getByText('Staff copy: UTR masked, not for issue. Print gives the copy to hand over.'),
    );
    const staffCopy = await openedPdf(page, () => download.click());
    expect(staffCopy).toContain('Pip Printer');
    expect(staffCopy).toContain('******8152');
    expect(staffCopy).toContain(STAFF_MARK);
    expect(staffCopy).not.toContain(PRINTED_UTR);

    const printed = await openedPdf(page, () => pipRow.getByRole('button', { name: 'Print' }).click());
    await visible(page.getByText('Statement issued to Pip Printer by print'));
    expect(printed).toContain(PRINTED_UTR);
    expect(printed).not.toContain(STAFF_MARK);
    await until(
      () => pipRow.locator('.ant-tag').allTextContents(),
      (tags) => tags.includes('Issued (Print)'),
      'the row to show the print issue',
    );
    await page.screenshot({ path: `${shots}/cis-documents-statements-printed.png`, fullPage: true });

    await page.goto(`${baseUrl}/cis/returns`);
    const card = page.getByTestId('current-return');
    const xml = card.getByRole('button', { name: 'Download CIS300 XML' });
    await visible(xml);
    expect(await xml.isDisabled()).toBe(true);
    // The reason is the disabled button's tooltip. The card may still be re-rendering as the month's figures arrive,
    // so the pointer moves off and back onto the button until the tooltip shows (no waiting on a clock); a hover that
    // finds the button moved by that re-render (outside the viewport) is tried again the same way.
    const reason = page.getByText(
      'The CIS300 document carries every UTR and NINO in clear: downloading it needs the permission to see unmasked identifiers',
    );
    for (let attempt = 0; attempt < 5 && !(await reason.isVisible()); attempt += 1) {
      await page.mouse.move(0, 0);
      await xml.hover({ force: true, timeout: 5_000 }).catch(() => undefined);
      await reason.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
    }
    await visible(reason);
    await page.screenshot({ path: `${shots}/cis-documents-returns-accountant.png`, fullPage: true });
    await page.context().close();
  });

  it('the administrator, who may unmask, downloads the CIS300 document with the UTRs HMRC needs', async () => {
    const page = await stack.newPage('admin@demo.test');
    await page.goto(`${baseUrl}/cis/returns`);
    const xml = page.getByTestId('current-return').getByRole('button', { name: 'Download CIS300 XML' });
    await visible(xml);
    expect(await xml.isEnabled()).toBe(true);
    const [file] = await Promise.all([page.waitForEvent('download'), xml.click()]);
    // Named for the period as HMRC names it (issue 13).
    expect(file.suggestedFilename()).toBe(`cis300-${taxMonthFilePart(returnId)}.xml`);
    const text = readFileSync(await file.path(), 'utf8');
    expect(text).toContain('<IRenvelope');
    expect(text).toContain(`<UTR>${FILED_UTR}</UTR>`);
    await page.context().close();
  });
});
