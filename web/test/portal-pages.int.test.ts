// Issue 15, the subcontractor portal's pages in Chromium (workspace.md "Subcontractor portal shell"; docs/portal.md):
// each route is a page of its own with the header (contractor and subcontractor names, Log out); the session is kept
// locally in the browser (a reload and a new tab keep it, Log out ends it); a portal session opening a staff page is
// sent to its dashboard; the portal has the staff app's font; the invoices, statements, tax-year and profile pages
// show the subcontractor's own data (a rejected invoice with its reason, masked UTR and NINO, their rate) and the
// profile saves what they may change. Screenshots: portal-pages-*.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ControlledClock } from '@workspace/kit/testing';
import {
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  portalTokenOf,
  settingsBody,
  type CisHarness,
} from '@workspace/cis/testing';
import { shots, styleOf, visible } from './browser.js';
import { cisStackPerFile } from './cis-stack.js';
import {
  DESKTOP,
  expectHeader,
  expectNoSidewaysOverflow,
  inviteLink,
  openPortal,
  openPortalPage,
  PHONE,
  PORTAL_PAGES,
} from './portal-support.js';

let harness: CisHarness;
let browser: Browser;
let baseUrl: string;
let staff: Page;
let admin: string;
let ritaId: string;
let context: BrowserContext | undefined;
let portal: Page;
let contractor: string;

const RITA = 'Rita Roofing';
const REASON = 'The materials figure does not match the receipts.';
const SESSION_KEY = 'workspace.portal.session';

// The 20th of November 2026 (tax month 6 November – 5 December 2026, tax year 2026-27).
const clock = new ControlledClock(new Date('2026-11-20T10:00:00Z'));

/** A staff invoice for Rita, approved and paid on the date. */
async function paid(invoiceNumber: string, paymentDate: string, grossP: number) {
  const created = await harness.call(
    admin,
    'POST',
    '/invoices',
    invoiceBody(ritaId, { invoiceNumber, invoiceDate: paymentDate, grossP, materialsP: 20_000 }),
  );
  if (created.status !== 201) throw new Error(`${invoiceNumber}: ${created.status} ${created.text}`);
  const id = (created.body.invoice as { id: string }).id;
  expect((await harness.call(admin, 'POST', '/invoices/approve', { ids: [id] })).status).toBe(200);
  await drainJobQueue(harness);
  const payment = await harness.call(admin, 'POST', '/invoices/pay', { ids: [id], paymentDate });
  if (payment.status !== 200) throw new Error(`${invoiceNumber}: ${payment.status} ${payment.text}`);
  await drainJobQueue(harness);
}

/** Issues Rita's statement of the month through the portal. */
async function issue(taxMonth: string) {
  const page = await harness.call(admin, 'GET', `/statements?taxMonth=${taxMonth}`);
  const group = (
    page.body.subcontractors as { subcontractorId: string; statement: { id: string } | null }[]
  ).find((g) => g.subcontractorId === ritaId);
  const issued = await harness.call(admin, 'POST', `/statements/${group?.statement?.id}/issue`, {
    method: 'portal',
  });
  expect(issued.status).toBe(200);
}

/** What the browser keeps of the portal session (run in the page). */
const storedSession = (page: Page) =>
  page.evaluate(
    (key) =>
      (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
        key,
      ),
    SESSION_KEY,
  );

cisStackPerFile(
  async (stack) => {
    ({ harness, browser, baseUrl } = stack);
    admin = await harness.signInAs('admin@demo.test');
    expect((await harness.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
    ritaId = await createSubcontractor(harness, admin, {
      name: RITA,
      utr: '5555555555',
      nino: 'AB123456C',
      email: 'rita@roofing.test',
    });
    // Paid in the tax year 2025-26 (March 2026), in October and in November 2026; each month's statement issued.
    await paid('RR-MAR', '2026-03-20', 40_000);
    await paid('RR-OCT', '2026-10-20', 50_000);
    await paid('RR-NOV', '2026-11-14', 100_000);
    for (const month of ['2026-03', '2026-10', '2026-11']) await issue(month);
    // Through the portal's API: one invoice rejected with a reason, one waiting for approval.
    const api = await portalTokenOf(harness, admin, ritaId);
    for (const invoiceNumber of ['RR-REJ', 'RR-WAIT']) {
      const submitted = await harness.call(api, 'POST', '/portal/invoices', {
        invoiceNumber,
        invoiceDate: '2026-11-18',
        grossP: 40_000,
        materialsP: 0,
        vatRate: 20,
      });
      expect(submitted.status).toBe(201);
      if (invoiceNumber === 'RR-REJ') {
        const id = (submitted.body.invoice as { id: string }).id;
        expect((await harness.call(admin, 'POST', `/invoices/${id}/reject`, { reason: REASON })).status).toBe(
          200,
        );
      }
    }
    staff = await stack.newPage('admin@demo.test');
    ({ context, page: portal } = await openPortal(
      browser,
      baseUrl,
      await inviteLink(harness, admin, ritaId),
      DESKTOP,
      clock,
    ));
    const session = (await (await portal.request.get(`${baseUrl}/api/portal/session`)).json()) as {
      tenant: { name: string };
    };
    contractor = session.tenant.name;
  },
  { clock },
);

afterAll(async () => {
  await context?.close();
});

describe('the portal’s routes, header and session', () => {
  it('each route is a page of its own, with the contractor’s and subcontractor’s names and Log out in the header', async () => {
    for (const target of PORTAL_PAGES) {
      await portal.goto(`${baseUrl}${target.path}`);
      await visible(portal.getByRole('heading', { name: target.title, level: 2, exact: true }));
      expect(await portal.getByRole('heading', { level: 2 }).count()).toBe(1);
      await expectHeader(portal, contractor, RITA, DESKTOP.width);
      const current = portal.getByTestId('portal-nav').getByRole('link', { name: target.link, exact: true });
      expect(await current.getAttribute('aria-current')).toBe('page');
    }
    // /portal and an unknown portal path open the dashboard.
    for (const path of ['/portal', '/portal/nowhere']) {
      await portal.goto(`${baseUrl}${path}`);
      await portal.waitForURL((url) => url.pathname === '/portal/dashboard');
    }
  });

  it('keeps the session locally in the browser: stored, kept over a reload and in a new tab', async () => {
    const stored = JSON.parse((await storedSession(portal)) ?? 'null') as {
      subcontractorId: string;
      tenant: { name: string };
      expiresAt: string;
    } | null;
    expect(stored).toMatchObject({ subcontractorId: ritaId, tenant: { name: contractor } });
    expect(Date.parse(stored?.expiresAt ?? '')).toBeGreaterThan(clock.now().getTime());
    await portal.goto(`${baseUrl}/portal/invoices`);
    await portal.reload();
    await visible(portal.getByRole('heading', { name: 'Invoices', level: 2 }));
    await expectHeader(portal, contractor, RITA, DESKTOP.width);
    const second = await portal.context().newPage();
    await second.goto(`${baseUrl}/portal/statements`);
    await visible(second.getByRole('heading', { name: 'Statements', level: 2 }));
    await expectHeader(second, contractor, RITA, DESKTOP.width);
    await second.close();
  });

  it('sends a portal session that opens a staff page to its dashboard, showing no staff screen', async () => {
    for (const path of ['/cis/invoices', '/cis/subcontractors', '/drive', '/settings']) {
      await portal.goto(`${baseUrl}${path}`, { waitUntil: 'commit' });
      await portal.waitForURL((url) => url.pathname === '/portal/dashboard');
      await visible(portal.getByRole('heading', { name: 'Dashboard', level: 2 }));
      expect(await portal.getByText('Sign in to Workspace').count()).toBe(0);
    }
    await portal.screenshot({ path: `${shots}/portal-pages-from-staff-page.png` });
  });

  it('uses the staff app’s font', async () => {
    await portal.goto(`${baseUrl}/portal/dashboard`);
    await staff.goto(`${baseUrl}/cis`);
    const portalFont = await styleOf(portal.getByRole('button', { name: 'Log out' }), 'font-family');
    const staffFont = await styleOf(staff.locator('.ant-btn').first(), 'font-family');
    expect(portalFont).toBe(staffFont);
    expect(portalFont).toMatch(/^"?Inter"?,/);
    expect(await styleOf(portal.getByRole('heading', { name: 'Dashboard', level: 2 }), 'font-family')).toBe(
      staffFont,
    );
  });
});

describe('the portal’s pages show the subcontractor’s own records', () => {
  it('dashboard: this tax month’s gross, deduction and net paid, the invoice awaiting approval, the latest statement', async () => {
    await portal.goto(`${baseUrl}/portal/dashboard`);
    await visible(portal.getByTestId('portal-month').getByText('Month ending 5 December 2026'));
    await visible(portal.getByTestId('portal-month-gross').getByText('£1,000.00'));
    await visible(portal.getByTestId('portal-month-deduction').getByText('£160.00'));
    await visible(portal.getByTestId('portal-month-net').getByText('£840.00'));
    const awaiting = portal.getByTestId('portal-awaiting');
    await visible(awaiting.getByText('RR-WAIT'));
    expect(await awaiting.getByText('RR-REJ').count()).toBe(0);
    await visible(portal.getByTestId('portal-latest-statement').getByText('Month ending 5 December 2026'));
    await portal.screenshot({ path: `${shots}/portal-pages-dashboard-desktop.png`, fullPage: true });
  });

  it('invoices: each with its status, payment date and deduction, and the reason one was rejected', async () => {
    await openPortalPage(portal, PORTAL_PAGES[1]);
    const table = portal.locator('.ant-card', { has: portal.getByText('Invoices', { exact: true }) });
    const rejected = table.locator('tr', { hasText: 'RR-REJ' });
    await visible(rejected.locator('.ant-tag', { hasText: 'Rejected' }));
    await visible(rejected.getByTestId('portal-rejection-reason').getByText(`Reason: ${REASON}`));
    const paidRow = table.locator('tr', { hasText: 'RR-OCT' });
    await visible(paidRow.locator('.ant-tag', { hasText: 'Paid' }));
    await visible(paidRow.getByRole('cell', { name: '20/10/2026', exact: true }));
    // £500 gross, £200 materials: 20 % of £300 labour.
    await visible(paidRow.getByText('£60.00', { exact: true }));
    await visible(table.locator('tr', { hasText: 'RR-WAIT' }).getByText('Not paid'));
    await portal.screenshot({ path: `${shots}/portal-pages-invoices-desktop.png`, fullPage: true });
  });

  it('statements: every statement issued to them, each downloadable as its PDF', async () => {
    await openPortalPage(portal, PORTAL_PAGES[2]);
    const rows = portal.locator('.ant-card').locator('tbody tr.ant-table-row');
    await visible(rows.first());
    expect(await rows.count()).toBe(3);
    for (const month of [
      'Month ending 5 April 2026',
      'Month ending 5 November 2026',
      'Month ending 5 December 2026',
    ]) {
      const row = rows.filter({ hasText: month });
      const href = await row.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
      const pdf = await portal.request.get(`${baseUrl}${href}`);
      expect([month, pdf.status(), pdf.headers()['content-type']]).toEqual([month, 200, 'application/pdf']);
    }
    await portal.screenshot({ path: `${shots}/portal-pages-statements-desktop.png`, fullPage: true });
  });

  it('tax year: the year’s payments and deductions by month with its statements, and an earlier year', async () => {
    await openPortalPage(portal, PORTAL_PAGES[3]);
    const year = portal.getByTestId('portal-tax-year');
    await visible(year.getByText('Tax year 2026-27'));
    await visible(year.getByText('06/04/2026 to 05/04/2027'));
    // October £500 + November £1,000 gross; 20 % of £300 + £800 labour deducted.
    await visible(portal.getByTestId('portal-year-gross').getByText('£1,500.00'));
    await visible(portal.getByTestId('portal-year-deduction').getByText('£220.00'));
    await visible(portal.getByTestId('portal-year-net').getByText('£1,280.00'));
    const statements = portal.locator('.ant-card', { hasText: 'Statements for this tax year' });
    await visible(statements.getByText('Month ending 5 November 2026'));
    await visible(statements.getByText('Month ending 5 December 2026'));
    expect(await statements.getByText('Month ending 5 April 2026').count()).toBe(0);
    await portal.screenshot({ path: `${shots}/portal-pages-tax-year-desktop.png`, fullPage: true });

    await year.getByRole('combobox', { name: 'Tax year' }).click();
    await portal.locator('.ant-select-item-option', { hasText: '2025-26' }).click();
    await visible(year.getByText('Tax year 2025-26'));
    await visible(portal.getByTestId('portal-year-gross').getByText('£400.00'));
    await visible(statements.getByText('Month ending 5 April 2026'));
  });

  it('profile: UTR and NINO masked, the verification status and rate; a bad postcode is flagged; saved details stay', async () => {
    await portal.setViewportSize(PHONE);
    await openPortalPage(portal, PORTAL_PAGES[4]);
    const tax = portal.getByTestId('portal-tax-details');
    await visible(tax.getByTestId('portal-utr').getByText('******5555'));
    await visible(tax.getByTestId('portal-nino').getByText('AB******C'));
    expect(await portal.getByText('5555555555').count()).toBe(0);
    await visible(tax.getByTestId('portal-verification').getByText('Standard rate'));
    await visible(tax.getByTestId('portal-rate').getByText('20%'));

    const form = portal.getByTestId('portal-profile-form');
    await form.getByLabel('Mobile').fill('07700 900456');
    await form.getByLabel('City').fill('');
    await form.getByLabel('Postcode').fill('NOT A CODE');
    await form.getByRole('button', { name: 'Save details' }).click();
    await visible(form.getByText('Please correct the highlighted fields.'));
    await visible(form.locator('.ant-form-item-explain-error', { hasText: 'City is required' }));
    await visible(form.locator('.ant-form-item-explain-error', { hasText: /postcode/i }));
    await expectNoSidewaysOverflow(portal);
    await portal.screenshot({ path: `${shots}/portal-pages-profile-error-390.png`, fullPage: true });

    await form.getByLabel('City').fill('York');
    await form.getByLabel('Postcode').fill('yo1 7hh');
    await form.getByRole('button', { name: 'Save details' }).click();
    await visible(form.getByText('Your details have been saved.'));
    expect(await form.getByLabel('Postcode').inputValue()).toBe('YO1 7HH');
    await portal.reload();
    await visible(portal.getByTestId('portal-profile-form'));
    expect(await form.getByLabel('Mobile').inputValue()).toBe('07700 900456');
    expect(await form.getByLabel('City').inputValue()).toBe('York');
    await portal.screenshot({ path: `${shots}/portal-pages-profile-saved-390.png`, fullPage: true });
    // The contractor sees the change.
    const seen = await harness.call(admin, 'GET', `/subcontractors/${ritaId}`);
    expect(seen.body.subcontractor).toMatchObject({
      mobile: '07700 900456',
      registeredAddress: { city: 'York', postcode: 'YO1 7HH' },
      updatedBy: `portal:${ritaId}`,
    });
    await portal.setViewportSize(DESKTOP);
  });
});

describe('logging out', () => {
  it('Log out ends the portal session and forgets it in the browser', async () => {
    await portal.goto(`${baseUrl}/portal/dashboard`);
    await portal.getByTestId('portal-header').getByRole('button', { name: 'Log out' }).click();
    await portal.waitForURL((url) => url.pathname === '/portal-login');
    // The sign-in page says so (issue 15: it used to say "We could not sign you in – This link is not valid").
    await visible(portal.getByText('You have signed out'));
    expect(await portal.getByText('This link is not valid').count()).toBe(0);
    expect(await storedSession(portal)).toBeNull();
    expect((await portal.request.get(`${baseUrl}/api/portal/session`)).status()).toBe(401);
    await portal.goto(`${baseUrl}/portal/invoices`);
    await visible(portal.getByText('Your portal session has ended'));
    expect(await portal.getByTestId('portal-header').count()).toBe(0);
    await portal.screenshot({ path: `${shots}/portal-pages-logged-out.png` });
  });
});
