// Returns by period in the browser (issue 13, ADR 0035), with a controlled clock (the services' and the browser's):
// on the 10th the Returns page opens on the month just ended, due, and a month still in progress cannot be submitted;
// on the 25th last month's unfiled return shows overdue with its £100 penalty on the Returns page and the dashboard;
// marking an earlier month as filed elsewhere clears its overdue status and its alert. Debian's Chromium against the
// real stack; one tenant switched on on 20 September 2026 with one invoice paid on 20 October 2026.
import type { Page } from 'playwright-core';
import { ALL_CIS_SCOPES, CIS_ADMIN_ID, invoiceBody, settingsBody } from '@workspace/cis/testing';
import { ControlledClock } from '@workspace/kit/testing';
import { shots, visible } from './browser.js';
import { choose, cisStackPerFile, dialog, type CisBrowserStack } from './cis-stack.js';

const clock = new ControlledClock(new Date('2026-09-20T10:00:00Z'));
let stack: CisBrowserStack;
let admin: string;

async function call(method: string, path: string, body?: unknown) {
  const result = await stack.harness.call(admin, method, path, body);
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
  return result.body;
}

const at = (instant: string) => {
  clock.set(new Date(instant));
};

cisStackPerFile(
  async (started) => {
    stack = started;
    admin = await stack.harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
    // Switched on on 20 September 2026: the month ending 5 October 2026 is the first to owe a return.
    await call('PUT', '/settings', settingsBody({ warningDays: 3 }));
    at('2026-10-20T10:00:00Z');
    const sub = (await call('POST', '/subcontractors', {
      type: 'individual',
      name: 'Pat Period',
      utr: '1111111111',
      registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
      gdprConsent: true,
    })) as { subcontractor: { id: string } };
    const created = (await call(
      'POST',
      '/invoices',
      invoiceBody(sub.subcontractor.id, { invoiceNumber: 'PER-1', invoiceDate: '2026-10-20' }),
    )) as { invoice: { id: string } };
    await call('POST', '/invoices/approve', { ids: [created.invoice.id] });
    await call('POST', '/invoices/pay', { ids: [created.invoice.id], paymentDate: '2026-10-20' });
  },
  { clock },
);

const openAs = async (path: string): Promise<Page> => {
  const page = await stack.newPage('cis.admin@demo.test');
  await page.goto(`${stack.baseUrl}${path}`);
  return page;
};

/** The history row of a month ('Month ending 5 October 2026'). */
const historyRow = (page: Page, title: string) =>
  page.getByTestId('return-history').locator('tr.ant-table-row', { hasText: title });

describe('the Returns page by period', () => {
  it('on the 10th opens on the month just ended, due; the month in progress cannot be submitted', async () => {
    at('2026-11-10T10:00:00Z');
    const page = await openAs('/cis/returns');
    const card = page.getByTestId('current-return');
    await visible(card.getByText('Return for the month ending 5 November 2026', { exact: true }));
    await visible(
      page
        .getByTestId('period-standing')
        .getByText('The return for the month ending 5 November 2026 is due by 19 November 2026.'),
    );
    // The month in view is not repeated under the history; the month in progress and the one before are there.
    await visible(historyRow(page, 'Month ending 5 December 2026').getByText('Month in progress'));
    await visible(historyRow(page, 'Month ending 5 October 2026').getByText('Overdue'));
    expect(await historyRow(page, 'Month ending 5 November 2026').count()).toBe(0);
    await visible(page.getByTestId('records-notice').getByText('Keep CIS records for at least six years'));
    await page.screenshot({ path: `${shots}/cis-returns-periods-10th.png`, fullPage: true });

    await choose(page, page.getByRole('combobox', { name: 'Tax month' }), 'Month ending 5 December 2026');
    await visible(card.getByText('Return for the month ending 5 December 2026', { exact: true }));
    expect(page.url()).toContain('month=2026-11');
    await visible(
      page
        .getByTestId('period-standing')
        .getByText(
          'The month ending 5 December 2026 has not ended yet: its return can be submitted from 6 December 2026 and is due by 19 December 2026.',
        ),
    );
    await card.getByRole('button', { name: 'Compile Return' }).click();
    await dialog(page, 'Return Compiled Successfully').getByRole('button', { name: 'OK' }).click();
    await expectDisabled(card.getByRole('button', { name: 'Submit Return' }));
    await page.screenshot({ path: `${shots}/cis-returns-periods-in-progress.png`, fullPage: true });
    await page.context().close();
  });

  it('on the 25th shows last month’s unfiled return overdue with its £100 penalty, here and on the dashboard', async () => {
    at('2026-11-25T10:00:00Z');
    const page = await openAs('/cis/returns');
    const card = page.getByTestId('current-return');
    await visible(card.getByText('Return for the month ending 5 November 2026', { exact: true }));
    await visible(
      page
        .getByTestId('period-standing')
        .getByText(
          'The return for the month ending 5 November 2026 was due by 19 November 2026 and is overdue. Late-filing penalty £100.00 as at 25 November 2026; it rises by £200.00 on 20 January 2027 if the return is still not filed.',
        ),
    );
    await visible(historyRow(page, 'Month ending 5 October 2026').getByText('£100.00'));
    await page.screenshot({ path: `${shots}/cis-returns-periods-25th.png`, fullPage: true });

    await page.goto(`${stack.baseUrl}/cis`);
    await visible(
      page.getByText(
        'CIS300 return for the month ending 5 November 2026 overdue since 19 November 2026: late-filing penalty £100.00',
      ),
    );
    await visible(
      page.getByText(
        'CIS300 return for the month ending 5 October 2026 overdue since 19 October 2026: late-filing penalty £100.00',
      ),
    );
    await visible(page.getByText('Portal Pending', { exact: true }));
    await page.screenshot({ path: `${shots}/cis-returns-periods-dashboard.png`, fullPage: true });
    await page.context().close();
  });

  it('marking an earlier month as filed elsewhere clears its overdue status and its alert', async () => {
    at('2026-11-25T10:00:00Z');
    const page = await openAs('/cis/returns');
    const row = historyRow(page, 'Month ending 5 October 2026');
    await row.getByRole('button', { name: 'Mark…' }).click();
    const modal = dialog(page, 'Mark the month ending 5 October 2026');
    await visible(modal);
    await modal.getByLabel('Filed elsewhere').check();
    await modal.getByRole('textbox').fill('Filed by the previous accountant');
    await modal.getByRole('button', { name: 'Mark month' }).click();
    await visible(row.getByText('Filed elsewhere', { exact: true }));
    expect(await row.getByText('£100.00').count()).toBe(0);
    await row.locator('.ant-table-row-expand-icon').click();
    await visible(
      page.getByText('Marked as filed elsewhere by you on 25/11/2026: Filed by the previous accountant'),
    );
    await page.screenshot({ path: `${shots}/cis-returns-periods-marked.png`, fullPage: true });

    await page.goto(`${stack.baseUrl}/cis`);
    await visible(page.getByText(/CIS300 return for the month ending 5 November 2026 overdue/));
    expect(await page.getByText(/month ending 5 October 2026 overdue/).count()).toBe(0);
    await page.context().close();
  });
});

async function expectDisabled(locator: ReturnType<Page['locator']>) {
  await visible(locator);
  expect(await locator.isDisabled()).toBe(true);
}
