// Issue 13, the subcontractor's part, in the browser: HMRC's check-digit warnings beside the contractor's UTR (CIS
// settings) and the subcontractor's UTR and VAT number (the form), saving allowed; a postcode normalised as typed and
// as stored; a new subcontractor shown 'Not verified yet', without Revoke portal access; and a subcontractor's tax
// year, its months named as HMRC names them and its totals to the penny without a cancelled invoice. Debian's
// Chromium against the real stack (PostgreSQL, Kafka, identity, notification, cis, the bff serving the built web).
import type { Locator } from 'playwright-core';
import { ControlledClock } from '@workspace/kit/testing';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  invoiceBody,
  settingsBody,
  type CisHarness,
} from '@workspace/cis/testing';
import { shots, visible } from './browser.js';
import { choose, cisStackPerFile, dialog, type CisBrowserStack } from './cis-stack.js';

let stack: CisBrowserStack;
let harness: CisHarness;
let baseUrl: string;
let admin: string;
let tara = '';

const UTR_WARNING = 'This UTR fails HMRC’s check digit test';
const VAT_WARNING = 'This VAT number fails HMRC’s check digit test';

async function call(method: string, path: string, body?: unknown) {
  const result = await harness.call(admin, method, path, body);
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
  return result.body;
}

/** An invoice created, approved and paid on `date`; answers its id. */
async function paid(number: string, grossP: number, materialsP: number, date: string): Promise<string> {
  const created = await call(
    'POST',
    '/invoices',
    invoiceBody(tara, {
      invoiceNumber: number,
      invoiceDate: date,
      grossP,
      materialsP,
      materialsJustification: materialsP * 100 >= grossP * 60 ? 'Bricks and blocks bought for the job' : '',
    }),
  );
  const id = (created.invoice as { id: string }).id;
  await call('POST', `/invoices/${id}/approve`);
  await call('POST', `/invoices/${id}/pay`, { paymentDate: date });
  return id;
}

cisStackPerFile(
  async (started) => {
    stack = started;
    ({ harness, baseUrl } = stack);
    admin = await harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
    await call('PUT', '/settings', settingsBody({ accountsOfficeRef: '961PF10305739', utr: '5860920998' }));
    tara = (
      (await call('POST', '/subcontractors', {
        type: 'individual',
        name: 'Tara Taxyear',
        utr: '2108834503',
        registeredAddress: { line1: '2 Mill Lane', city: 'York', postcode: 'YO1 7HH', country: 'GB' },
        gdprConsent: true,
      })) as { subcontractor: { id: string } }
    ).subcontractor.id;
    // Tax year 2025-26 (6 April 2025 to 5 April 2026), at the standard 20 % of gross less materials:
    await paid('T-1', 123_457, 23_456, '2025-04-06'); // month ending 5 May 2025: £200.00 deducted
    await paid('T-2', 99_999, 0, '2025-12-04'); // month ending 5 December 2025: £200.00
    await paid('T-3', 20_000, 0, '2026-04-05'); // month ending 5 April 2026: £40.00
    await paid('T-4', 77_777, 0, '2026-04-06'); // 2026-27
    const cancelled = await paid('T-5', 1_000_000, 0, '2025-12-10'); // paid, then cancelled: never counted
    await call('POST', `/invoices/${cancelled}/cancel`);
  },
  { clock: new ControlledClock(new Date('2026-11-10T10:00:00Z')) },
); // the page opens on 2026-27

/** The warning antd shows under a field (warningOnly rules), by its text. */
const fieldWarning = (scope: Locator, text: string) =>
  scope.locator('.ant-form-item-explain-warning', { hasText: text });

describe('a subcontractor, from the form to the tax year', () => {
  it("warns beside the contractor's UTR in CIS settings, and saves", async () => {
    const page = await stack.newPage('cis.admin@demo.test');
    await page.goto(`${baseUrl}/cis/settings`);
    const settings = page.getByTestId('cis-settings-form');
    await visible(settings);
    await settings.getByLabel('Contractor UTR').fill('1234567890');
    await visible(fieldWarning(settings, UTR_WARNING));
    await page.screenshot({ path: `${shots}/cis-settings-utr-warning.png`, fullPage: true });
    await settings.getByLabel('Contractor UTR').fill('5860920998');
    await fieldWarning(settings, UTR_WARNING).waitFor({ state: 'detached' });
    await settings.getByLabel('Contractor UTR').fill('1234567890');
    await visible(fieldWarning(settings, UTR_WARNING));
    // A warning, not an error: the save goes ahead, and says what to check.
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await visible(page.getByText('Your CIS settings have been saved successfully.'));
    await visible(page.locator('.ant-notification-notice', { hasText: UTR_WARNING }));
    await visible(settings.getByText(/Stored: .*7890/));
    await call('PUT', '/settings', settingsBody({ accountsOfficeRef: '961PF10305739', utr: '5860920998' }));
    await page.context().close();
  });

  it('warns beside the UTR and VAT number of a new subcontractor, normalises the postcode, and shows it not verified', async () => {
    const page = await stack.newPage('cis.admin@demo.test');
    // The Invite modal's UTR warns the same way.
    await page.goto(`${baseUrl}/cis/subcontractors`);
    await page.getByRole('button', { name: 'Invite to Portal' }).first().click();
    const invite = dialog(page, 'Invite Subcontractor to Portal');
    await invite.getByLabel('UTR').fill('1234567890');
    await visible(invite.getByTestId('invite-utr-warning').getByText(UTR_WARNING, { exact: false }));
    await invite.getByLabel('UTR').fill('5860920998');
    await invite.getByTestId('invite-utr-warning').waitFor({ state: 'detached' });
    await invite.getByRole('button', { name: 'Cancel' }).click();
    await invite.waitFor({ state: 'detached' });

    await page.goto(`${baseUrl}/cis/subcontractors/new`);
    const form = page.getByTestId('subcontractor-form');
    await visible(form);
    const field = (name: string) => form.getByLabel(name, { exact: true });
    await field('Name').fill('Wanda Warning');
    await field('UTR').fill('1234567890');
    await visible(fieldWarning(form, UTR_WARNING));
    await field('VAT number').fill('GB930000200');
    await visible(fieldWarning(form, VAT_WARNING));
    await field('VAT number').fill('GB930000297');
    await fieldWarning(form, VAT_WARNING).waitFor({ state: 'detached' });
    await field('Registered address line 1').fill('10 Downing Street');
    await field('Registered city').fill('London');
    await field('Registered postcode').fill('sw1a2aa');
    await field('Registered city').click(); // the postcode field loses focus
    expect(await field('Registered postcode').inputValue()).toBe('SW1A 2AA');
    await field('GDPR consent').click();
    await page.screenshot({ path: `${shots}/cis-subcontractor-form-warnings.png`, fullPage: true });

    // A malformed postcode is an error under the field.
    await field('Registered postcode').fill('SW1A 2A');
    await page.getByRole('button', { name: 'Create Subcontractor' }).click();
    await visible(
      form.locator('.ant-form-item-explain-error', { hasText: 'Invalid UK postcode (e.g., SW1A 1AA)' }),
    );
    await field('Registered postcode').fill('ec1a1bb');
    await page.getByRole('button', { name: 'Create Subcontractor' }).click();
    await page.waitForURL(/\/cis\/subcontractors$/);
    const row = page.locator('tr', { hasText: 'Wanda Warning' });
    await visible(row.getByText('Not verified yet'));

    await row.getByRole('link', { name: 'Wanda Warning' }).click();
    await page.waitForURL(/\/cis\/subcontractors\/[0-9a-f-]+$/);
    await visible(page.getByText('10 Downing Street, London, EC1A 1BB, GB'));
    await visible(page.getByText('Not verified yet'));
    expect(await page.getByRole('button', { name: 'Revoke portal access' }).count()).toBe(0);
    await page.screenshot({ path: `${shots}/cis-subcontractor-not-verified.png`, fullPage: true });
    await page.context().close();
  });

  it("shows a subcontractor's tax year by HMRC's months, with the totals of their tax return", async () => {
    const page = await stack.newPage('cis.admin@demo.test');
    await page.goto(`${baseUrl}/cis/subcontractors/${tara}`);
    const card = page.getByTestId('subcontractor-tax-year');
    await visible(card);
    await visible(card.getByText('Totals for 2026-27'));
    await choose(page, card.getByLabel('Tax year'), '2025-26');
    await visible(card.getByText('6 April 2025 to 5 April 2026', { exact: false }));
    const totals = card.getByTestId('tax-year-totals');
    await visible(totals.getByText('Totals for 2025-26'));
    const cell = (label: string) =>
      totals.locator('th', { hasText: label }).locator('xpath=following-sibling::td[1]');
    // £1,234.57 + £999.99 + £200.00 gross; £234.56 materials; £200.00 + £200.00 + £40.00 deducted.
    expect(await cell('Gross paid').textContent()).toBe('£2,434.56');
    expect(await cell('Materials').textContent()).toBe('£234.56');
    expect(await cell('CIS deducted').textContent()).toBe('£440.00');
    expect(await cell('Net paid').textContent()).toBe('£1,994.56');
    const monthRow = (name: string) => card.locator('tr', { hasText: name });
    await visible(monthRow('Month ending 5 May 2025').getByText('£1,234.57'));
    await visible(monthRow('Month ending 5 December 2025').getByText('£999.99'));
    await visible(monthRow('Month ending 5 April 2026').getByText('£40.00'));
    expect(await card.locator('tbody tr.ant-table-row').count()).toBe(12);
    await page.screenshot({ path: `${shots}/cis-subcontractor-tax-year.png`, fullPage: true });

    await choose(page, card.getByLabel('Tax year'), '2026-27');
    await visible(totals.getByText('Totals for 2026-27'));
    expect(await cell('Gross paid').textContent()).toBe('£777.77');
    await page.context().close();
  });
});
