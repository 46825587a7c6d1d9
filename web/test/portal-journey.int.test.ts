// Issue 15, the subcontractor portal's journey in Chromium: the invitation's link signs a subcontractor in to the
// portal on a phone; they submit an invoice (an empty form flags every missing field; the deduction and net are
// previewed before they submit); the contractor's Recent Activity names them as its author '(portal)' and the
// contractor's bell shows the portal invoice; the contractor approves and pays it and issues the statement on the
// staff pages; the subcontractor sees it paid, with its payment date and deduction, and downloads the statement as a
// PDF. Every portal page at 390 px without sideways overflow and with the names whole in the header. Screenshots:
// portal-journey-*.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ControlledClock } from '@workspace/kit/testing';
import { createSubcontractor, drainJobQueue, settingsBody, type CisHarness } from '@workspace/cis/testing';
import { animationsDone, shots, visible } from './browser.js';
import { cisStackPerFile, dialog, until } from './cis-stack.js';
import {
  DESKTOP,
  expectHeader,
  expectNoSidewaysOverflow,
  inviteLink,
  openPortal,
  openPortalPage,
  PHONE,
  pickDate,
  PORTAL_PAGES,
} from './portal-support.js';

let harness: CisHarness;
let browser: Browser;
let baseUrl: string;
let staff: Page;
let admin: string;
let link: string;
let portalContext: BrowserContext;
let portal: Page;
let contractor: string;

const SUBCONTRACTOR = 'Rita Roofing-Fairweather & Daughters Ltd';

// The 20th of November 2026 (tax month 6 November – 5 December 2026): the invoice is dated the 14th, paid today.
const clock = new ControlledClock(new Date('2026-11-20T10:00:00Z'));

cisStackPerFile(
  async (stack) => {
    ({ harness, browser, baseUrl } = stack);
    admin = await harness.signInAs('admin@demo.test');
    const settings = await harness.call(admin, 'PUT', '/settings', settingsBody());
    expect(settings.status).toBe(200);
    const subcontractorId = await createSubcontractor(harness, admin, {
      name: SUBCONTRACTOR,
      utr: '5555555555',
      nino: 'AB123456C',
      email: 'rita@roofing.test',
    });
    link = await inviteLink(harness, admin, subcontractorId);
    staff = await stack.newPage('admin@demo.test');
  },
  { clock, inAppNotifications: true },
);

afterAll(async () => {
  await portalContext.close();
});

describe('the subcontractor portal, from the invitation to the paid invoice and its statement (issue 15)', () => {
  it('the invitation’s link signs the subcontractor in on a phone: the dashboard with both names in the header', async () => {
    ({ context: portalContext, page: portal } = await openPortal(browser, baseUrl, link, PHONE, clock));
    const session = (await (await portal.request.get(`${baseUrl}/api/portal/session`)).json()) as {
      tenant: { name: string };
    };
    contractor = session.tenant.name;
    await visible(portal.getByRole('heading', { name: 'Dashboard', level: 2 }));
    await expectHeader(portal, contractor, SUBCONTRACTOR, PHONE.width);
    await expectNoSidewaysOverflow(portal);
    await portal.screenshot({ path: `${shots}/portal-journey-dashboard-390.png`, fullPage: true });
  });

  it('they submit an invoice: an empty form flags every missing field, the deduction and net are shown before submitting', async () => {
    await openPortalPage(portal, PORTAL_PAGES[1]);
    const form = portal.getByTestId('portal-invoice-form');
    await form.getByRole('button', { name: 'Submit Invoice' }).click();
    for (const message of [
      'Valid invoice number required',
      'Invoice date is required',
      'Invalid gross amount',
    ])
      await visible(form.locator('.ant-form-item-explain-error', { hasText: message }));
    await visible(form.getByText('Please correct the highlighted fields.'));
    await expectNoSidewaysOverflow(portal);
    await portal.screenshot({ path: `${shots}/portal-journey-invoice-empty-390.png`, fullPage: true });

    await form.getByLabel('Invoice number').fill('RR-100');
    await pickDate(form.getByLabel('Invoice date'), '2026-11-14');
    await form.getByLabel('Description').fill('Re-roofing, 4 Elm Road');
    await form.getByLabel('Gross amount (£)').fill('1000');
    await form.getByLabel('Materials (£)').fill('200');
    // Labour £800 at their 20 % = £160 deducted; VAT 20 % of £1,000 = £200; net £1,000 + £200 − £160.
    const preview = form.getByTestId('portal-invoice-preview');
    await visible(preview.getByTestId('portal-preview-deduction').getByText('£160.00'));
    await visible(preview.getByTestId('portal-preview-net').getByText('£1,040.00'));
    // Each flag clears as its field is filled in.
    await form.locator('.ant-form-item-explain-error').first().waitFor({ state: 'detached' });
    await expectNoSidewaysOverflow(portal);
    await portal.screenshot({ path: `${shots}/portal-journey-invoice-preview-390.png`, fullPage: true });

    await form.getByRole('button', { name: 'Submit Invoice' }).click();
    await visible(form.getByText(/^Invoice RR-100 submitted\./));
    const row = portal.getByTestId('portal-invoice').filter({ hasText: 'RR-100' });
    await visible(row.locator('.ant-tag', { hasText: 'Portal Pending' }));
    await visible(row.getByText('Paid: Not paid'));
  });

  it('the contractor’s Recent Activity names the subcontractor who submitted it from the portal', async () => {
    await staff.goto(`${baseUrl}/cis`);
    const recent = staff.locator('.ant-card').filter({
      has: staff.locator('.ant-card-head-title', { hasText: 'Recent Activity' }),
    });
    const entry = recent.locator('.ant-list-item').filter({ hasText: 'Invoice RR-100' });
    await visible(entry.getByText('submitted through the portal', { exact: false }));
    await visible(entry.getByText(`by ${SUBCONTRACTOR} (portal)`, { exact: true }));
    expect(await recent.getByText('by another user').count()).toBe(0);
    await staff.screenshot({ path: `${shots}/portal-journey-staff-activity.png` });
  });

  it('the bell shows the contractor the portal invoice; a click opens it', async () => {
    await staff.goto(`${baseUrl}/cis`);
    const count = staff.getByTestId('notification-count').locator('.ant-scroll-number');
    await until(
      async () =>
        Number((await count.count()) === 0 ? 0 : ((await count.first().getAttribute('title')) ?? '0')),
      (unread) => unread > 0,
      'the bell to count the portal invoice',
      30_000,
    );
    await animationsDone(staff.getByTestId('notification-count'));
    await staff.getByTestId('notification-bell').click();
    const item = staff
      .getByTestId('notification-item')
      .filter({ hasText: 'Portal invoice RR-100 is awaiting your approval' });
    await visible(item);
    await animationsDone(staff.locator('.ant-popover').filter({ has: item }));
    await staff.screenshot({ path: `${shots}/portal-journey-staff-bell.png` });
    await item.getByText('Portal invoice RR-100 is awaiting your approval').click();
    await staff.waitForURL(/\/cis\/invoices\/[0-9a-f-]{36}$/);
    await visible(staff.getByText('RR-100').first());
  });

  it('the contractor approves and pays it and issues the statement on the staff pages', async () => {
    await staff.goto(`${baseUrl}/cis/invoices`);
    const row = staff.locator('tr', { hasText: 'RR-100' });
    await visible(row.getByText('Portal', { exact: true }));
    await visible(row.getByText('Portal Pending', { exact: true }));
    await row.getByRole('button', { name: 'Approve RR-100' }).click();
    await visible(staff.getByText('Invoice RR-100 approved'));
    await row.getByRole('link', { name: 'RR-100' }).click();
    await staff.waitForURL(/\/cis\/invoices\/[0-9a-f-]{36}$/);
    await staff.getByRole('button', { name: 'Mark Paid' }).click();
    const pay = dialog(staff, 'Mark as Paid');
    expect(await pay.getByLabel('Payment date').inputValue()).toBe('20/11/2026');
    await pay.getByRole('button', { name: 'Mark Paid' }).click();
    await visible(staff.getByText('Invoice marked as paid'));
    await staff.screenshot({ path: `${shots}/portal-journey-staff-paid.png` });

    await drainJobQueue(harness);
    await staff.goto(`${baseUrl}/cis/statements`);
    const statement = staff.locator('tr', { hasText: SUBCONTRACTOR }).first();
    await visible(statement.getByText('Generated', { exact: true }));
    await statement.getByRole('button', { name: 'Portal' }).click();
    await visible(statement.getByText('Issued (Portal)'));
    await staff.screenshot({ path: `${shots}/portal-journey-staff-issued.png` });
  });

  it('the subcontractor sees it paid with its date and deduction, and downloads the statement the contractor issued', async () => {
    await portal.reload();
    await openPortalPage(portal, PORTAL_PAGES[1]);
    const row = portal.getByTestId('portal-invoice').filter({ hasText: 'RR-100' });
    await visible(row.locator('.ant-tag', { hasText: 'Paid' }));
    await visible(row.getByText('Paid: 20/11/2026'));
    await visible(row.getByText('Gross £1,000.00 · CIS £160.00 · Net £1,040.00'));
    await expectNoSidewaysOverflow(portal);
    await portal.screenshot({ path: `${shots}/portal-journey-invoice-paid-390.png`, fullPage: true });

    await openPortalPage(portal, PORTAL_PAGES[2]);
    const issued = portal.getByTestId('portal-statement').filter({ hasText: 'Month ending 5 December 2026' });
    await visible(issued.getByText('Gross £1,000.00 · Materials £200.00 · CIS deducted £160.00'));
    const download = issued.getByRole('link', { name: 'Download PDF' });
    const [tab] = await Promise.all([portalContext.waitForEvent('page'), download.click()]);
    const pdf = await portal.request.get(`${baseUrl}${await download.getAttribute('href')}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    expect(tab.url()).toMatch(/\/api\/portal\/cis\/statements\/[0-9a-f]{16}\/pdf$/);
    await tab.close();
    await expectNoSidewaysOverflow(portal);
    await portal.screenshot({ path: `${shots}/portal-journey-statements-390.png`, fullPage: true });

    await openPortalPage(portal, PORTAL_PAGES[0]);
    await visible(portal.getByTestId('portal-month-gross').getByText('£1,000.00'));
    await visible(portal.getByTestId('portal-month-deduction').getByText('£160.00'));
    await visible(portal.getByTestId('portal-month-net').getByText('£840.00'));
    await visible(portal.getByTestId('portal-latest-statement').getByText('Month ending 5 December 2026'));
    await visible(portal.getByTestId('portal-awaiting').getByText('No invoices are waiting for approval.'));
    await portal.screenshot({ path: `${shots}/portal-journey-dashboard-paid-390.png`, fullPage: true });
  });

  it('every portal page fits a phone (390 px) and a desktop without sideways overflow, the names whole', async () => {
    for (const target of PORTAL_PAGES) {
      await openPortalPage(portal, target);
      await expectHeader(portal, contractor, SUBCONTRACTOR, PHONE.width);
      await expectNoSidewaysOverflow(portal);
      await portal.screenshot({
        path: `${shots}/portal-journey-${target.link.replace(' ', '-').toLowerCase()}-390.png`,
        fullPage: true,
      });
    }
    await portal.setViewportSize(DESKTOP);
    for (const target of PORTAL_PAGES) {
      await openPortalPage(portal, target);
      await expectHeader(portal, contractor, SUBCONTRACTOR, DESKTOP.width);
      await expectNoSidewaysOverflow(portal);
      await portal.screenshot({
        path: `${shots}/portal-journey-${target.link.replace(' ', '-').toLowerCase()}-desktop.png`,
        fullPage: true,
      });
    }
  });
});
