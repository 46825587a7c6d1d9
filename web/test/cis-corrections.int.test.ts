// Browser journey of corrections after the fact (issue 13, ADR 0037) with the business clock and the browser's clock
// at 10 November 2026: the invoice form's rough edges (a default invoice date of today, clear messages for `abc` and
// `1000.005` and no nonsense preview meanwhile, Enter in a date picker not submitting the form); a payment into the
// month ending 5 November 2026, whose return is submitted, warns and then goes through (no day after today offered);
// the issued statement of that month shows "Changed since issued", the corrected statement is issued by email and
// the old one stays; the return shows the change and its amendment is declared and submitted; a paid invoice's
// payment date corrected. Debian's Chromium against the real stack.
import type { Locator, Page } from 'playwright-core';
import { ControlledClock } from '@workspace/kit/testing';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  drainJobQueue,
  invoiceBody,
  settingsBody,
} from '@workspace/cis/testing';
import { animationsDone, shots, visible } from './browser.js';
import { dialog, startCisBrowserStack, submitAmendment, until, type CisBrowserStack } from './cis-stack.js';

const clock = new ControlledClock(new Date('2026-11-10T10:00:00Z'));
let stack: CisBrowserStack;
let baseUrl: string;
let admin: string;

/** The month ending 5 November 2026: its return is submitted on the 10th. */
const OCTOBER = '2026-10';

async function call(method: string, path: string, body?: unknown) {
  const result = await stack.harness.call(admin, method, path, body);
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
  return result.body;
}

const drainJobs = () => drainJobQueue(stack.harness);

let subcontractorId = '';
const invoiceIds: Record<string, string> = {};

async function approvedInvoice(number: string) {
  const body = (await call(
    'POST',
    '/invoices',
    invoiceBody(subcontractorId, { invoiceNumber: number, invoiceDate: '2026-10-28' }),
  )) as { invoice: { id: string } };
  await call('POST', `/invoices/${body.invoice.id}/approve`);
  invoiceIds[number] = body.invoice.id;
  return body.invoice.id;
}

async function statementOf(taxMonth: string) {
  const body = (await call('GET', `/statements?taxMonth=${taxMonth}`)) as {
    subcontractors: { subcontractorId: string; statement: { id: string; status: string } | null }[];
  };
  return body.subcontractors.find((group) => group.subcontractorId === subcontractorId)?.statement ?? null;
}

beforeAll(async () => {
  stack = await startCisBrowserStack({ clock });
  baseUrl = stack.baseUrl;
  admin = await stack.harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
  await call('PUT', '/settings', settingsBody({ companyName: 'Corrections Construction Ltd' }));
  const created = (await call('POST', '/subcontractors', {
    type: 'individual',
    name: 'Jo Joiner',
    utr: '1234567890',
    email: 'jo@joiner.test',
    registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
    gdprConsent: true,
  })) as { subcontractor: { id: string } };
  subcontractorId = created.subcontractor.id;
  // Paid on 3 November (the month ending 5 November 2026), its statement issued by print, the return submitted.
  const filed = await approvedInvoice('JO-1');
  await call('POST', `/invoices/${filed}/pay`, { paymentDate: '2026-11-03' });
  await until(
    () => statementOf(OCTOBER),
    (statement) => statement !== null,
    'the statement of JO-1',
  );
  const statement = await statementOf(OCTOBER);
  await call('POST', `/statements/${statement?.id ?? ''}/issue`, { method: 'print' });
  await call('POST', `/returns/${OCTOBER}/compile`);
  // With HMRC's three declarations ticked (what a submit asks for since issue 13).
  await call('POST', `/returns/${OCTOBER}/submit`, {
    declarations: { employmentStatus: true, verification: true, informationCorrect: true },
  });
  await approvedInvoice('JO-2');
  await approvedInvoice('JO-3');
  await call('POST', `/invoices/${invoiceIds['JO-3'] ?? ''}/pay`, { paymentDate: '2026-11-07' });
  await drainJobs();
});

afterAll(async () => {
  await stack.stop();
});

/** The field error (antd's explain line) with this text. */
const fieldError = (scope: Locator, message: string) =>
  scope.locator('.ant-form-item-explain-error').getByText(message, { exact: true });

describe('corrections after the fact, in Chromium, on 10 November 2026', () => {
  it('the invoice form: dated today, a clear message for abc and 1000.005 with no preview meanwhile, and Enter in a date picker does not submit', async () => {
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/invoices/new`);
    const form = page.getByTestId('invoice-form');
    const invoiceDate = form.getByLabel('Invoice date');
    await visible(invoiceDate);
    expect(await invoiceDate.inputValue()).toBe('10/11/2026');

    const gross = form.getByLabel('Gross amount (£)');
    const preview = page.getByTestId('invoice-preview');
    await gross.fill('abc');
    await visible(fieldError(form, 'Invalid gross amount'));
    await visible(preview.getByText('The calculation appears once the amounts are valid.'));
    expect(await preview.getByTestId('preview-net').count()).toBe(0);

    await gross.fill('1000.005');
    await visible(fieldError(form, 'Gross amount can have at most 2 decimal places (pence)'));
    expect(await preview.getByTestId('preview-net').count()).toBe(0);
    expect(await preview.textContent()).not.toContain('£');
    await page.screenshot({ path: `${shots}/cis-corrections-invoice-form-invalid.png` });

    await gross.fill('1000');
    await form.getByLabel('Materials (£)').fill('2000');
    await visible(preview.getByText('Materials cannot exceed gross amount'));
    expect(await preview.getByTestId('preview-net').count()).toBe(0);
    await form.getByLabel('Materials (£)').fill('200');
    await visible(preview.getByTestId('preview-net'));
    expect(await preview.getByTestId('preview-net').textContent()).toBe('£1,040.00');
    await page.screenshot({ path: `${shots}/cis-corrections-invoice-form.png` });

    // Enter in the received-date picker takes the typed date and leaves the form unsaved and unchecked.
    const received = form.getByLabel('Received date');
    await received.click();
    await received.fill('09/11/2026');
    await received.press('Enter');
    await received.press('Enter');
    expect(await received.inputValue()).toBe('09/11/2026');
    expect(await fieldError(form, 'Valid invoice number required').count()).toBe(0);
    expect(page.url()).toBe(`${baseUrl}/cis/invoices/new`);
    await page.context().close();
  });

  it('a payment into the submitted month warns, then goes through; no day after today is offered', async () => {
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/invoices/${invoiceIds['JO-2'] ?? ''}`);
    await page.getByRole('button', { name: 'Mark Paid' }).click();
    const pay = dialog(page, 'Mark as Paid');
    const date = pay.getByLabel('Payment date');
    await visible(date);
    expect(await date.inputValue()).toBe('10/11/2026');
    await date.click();
    const calendar = page.locator('.ant-picker-dropdown:visible');
    await visible(calendar);
    const cell = (day: string) => calendar.locator(`td[title="${day}"]`);
    expect(await cell('2026-11-11').getAttribute('class')).toContain('ant-picker-cell-disabled');
    expect(await cell('2026-11-10').getAttribute('class')).not.toContain('ant-picker-cell-disabled');
    await cell('2026-11-04').click();
    expect(await date.inputValue()).toBe('04/11/2026');
    await pay.getByRole('button', { name: 'Mark Paid' }).click();

    const warning = dialog(page, 'Return already submitted');
    await visible(warning);
    expect(await warning.textContent()).toContain(
      'The return for the month ending 5 November 2026 has already been submitted. Marking this invoice paid changes it',
    );
    await animationsDone(warning);
    await page.screenshot({ path: `${shots}/cis-corrections-submitted-month-warning.png` });
    await warning.getByRole('button', { name: 'Go on' }).click();
    await visible(page.getByText('Invoice marked as paid'));
    await visible(page.getByText('04/11/2026 (month ending 5 November 2026)'));
    await page.context().close();
  });

  it('the issued statement of that month shows Changed since issued; the corrected statement is issued by email', async () => {
    await drainJobs();
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/statements`);
    // The month is picked by the name HMRC gives it.
    const picker = page.getByLabel('Tax month');
    await visible(picker);
    await picker.click();
    await page.keyboard.type('5 November 2026');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', {
        hasText: 'Month ending 5 November 2026',
      })
      .click();
    const row = page.locator('tr', { hasText: 'Jo Joiner' });
    await visible(row.getByText('Changed since issued', { exact: true }));
    await visible(page.getByTestId('statements-changed'));
    await page.screenshot({ path: `${shots}/cis-corrections-statement-changed.png` });

    const before = await statementOf(OCTOBER);
    await row.getByRole('button', { name: 'Correct statement' }).click();
    await visible(row.getByText('Corrected statement', { exact: true }));
    await visible(row.getByText('Generated', { exact: true }));
    stack.harness.sink.clear();
    await row.getByRole('button', { name: 'Email' }).click();
    await visible(row.getByText('Issued (Email)', { exact: true }));
    const mail = await until(
      () => Promise.resolve(stack.harness.sink.messages().find((m) => m.to.includes('jo@joiner.test'))),
      (found) => found !== undefined,
      'the corrected statement email',
    );
    expect(mail?.subject).toBe('Corrected payment and deduction statement: Month ending 5 November 2026');
    expect(mail?.attachments[0]?.contentType).toBe('application/pdf');
    expect(await page.getByTestId('statements-changed').count()).toBe(0);
    await page.screenshot({ path: `${shots}/cis-corrections-statement-corrected.png` });
    // The old statement stays on record.
    const old = await stack.harness.call(admin, 'GET', `/statements/${before?.id ?? ''}/pdf`);
    expect(old.status).toBe(200);
    await page.context().close();
  });

  it('the return shows the change since submission, and the amendment is declared and submitted', async () => {
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/returns?month=${OCTOBER}`);
    const current = page.getByTestId('current-return');
    const changes = current.getByTestId('return-changes');
    await visible(
      changes.getByText('Changed since submission: the month ending 5 November 2026', { exact: true }),
    );
    // JO-2, paid past the warning on 4 November: £1,000 gross more for Jo Joiner.
    const jo = changes.locator('tr', { hasText: 'Jo Joiner' });
    await visible(jo.getByText('£1,000.00 → £2,000.00 (+£1,000.00)', { exact: true }));
    await page.screenshot({ path: `${shots}/cis-corrections-return-changed.png`, fullPage: true });

    await changes.getByRole('button', { name: 'Amend return' }).click();
    await dialog(page, 'Amendment started').getByRole('button', { name: 'OK' }).click();
    await submitAmendment(page, current, 'month ending 5 November 2026');
    await visible(
      current
        .getByTestId('submitted-return')
        .getByText(/^Amended return for the month ending 5 November 2026 submitted on 10\/11\/2026/),
    );
    expect(await current.getByTestId('return-changes').count()).toBe(0);
    const filed = (await call('GET', `/returns/${OCTOBER}`)) as {
      return: { amendmentOf: string; totals: { grossP: number } };
    };
    expect(filed.return).toMatchObject({ amendmentOf: OCTOBER, totals: { grossP: 200000 } });
    await page.context().close();
  });

  it('a paid invoice’s payment date is corrected while its month is open', async () => {
    const page: Page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/invoices/${invoiceIds['JO-3'] ?? ''}`);
    await visible(page.getByText('07/11/2026 (month ending 5 December 2026)'));
    await page.getByRole('button', { name: 'Correct payment date' }).click();
    const correct = dialog(page, 'Correct payment date');
    const date = correct.getByLabel('Payment date');
    await date.click();
    await date.fill('08/11/2026');
    await date.press('Enter');
    await correct.getByRole('button', { name: 'Correct' }).click();
    await visible(page.getByText('Payment date corrected'));
    await visible(page.getByText('08/11/2026 (month ending 5 December 2026)'));
    await page.context().close();
  });
});
