// Browser journeys of the CIS screens: Debian's Chromium driven by playwright-core against the real stack
// (PostgreSQL, Kafka, identity with the dev OIDC provider, notification with its SMTP sink, the cis service, and
// the bff forwarding /api/cis and serving the built web bundles).
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { bffConfigSchema, startBff, type RunningBff } from '../../bff/src/index.js';
import { londonDate } from '../../services/cis/src/domain/index.js';
import { startCisHarness, type CisHarness } from '../../services/cis/test/support.js';
import { demoSeed, freePort, INTERNAL_TOKEN } from '../../services/identity/test/support.js';

const distDir = fileURLToPath(new URL('../dist', import.meta.url));
const shots = fileURLToPath(new URL('../../test-results/screenshots', import.meta.url));

let harness: CisHarness;
let bff: RunningBff;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  if (!existsSync(`${distDir}/index.html`)) {
    throw new Error(
      'web/dist is missing: build the web bundles first (npm run build -w @workspace/web; make test does it).',
    );
  }
  mkdirSync(shots, { recursive: true });
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  harness = await startCisHarness({ publicUrl: baseUrl });
  bff = await startBff(
    bffConfigSchema.parse({
      PORT: String(port),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      IDENTITY_URL: harness.identity.baseUrl,
      INTERNAL_API_TOKEN: INTERNAL_TOKEN,
      PUBLIC_URL: baseUrl,
      SESSION_SECRET: 'browser-test-session-secret-0123456789abcdef',
      STATIC_DIR: distDir,
      DEFAULT_TENANT: 'demo',
      CIS_URL: harness.cisUrl,
    }),
  );
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser.close();
  await bff.shutdown();
  await harness.stop();
});

async function signIn(page: Page, email: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Organisation').fill('demo');
  await page.getByRole('button', { name: 'Continue' }).click();
  // The dev IdP's own sign-in page.
  await page.waitForURL(/\/interaction\//);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(demoSeed.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === baseUrl && !url.pathname.startsWith('/login'));
}

async function newPage(email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

async function expectVisible(_page: Page, locator: ReturnType<Page['locator']>) {
  await locator.waitFor({ state: 'visible', timeout: 15_000 });
}

/** Picks an option of an antd Select: open it, then click the option (antd renders them in a portal). */
async function choose(page: Page, field: ReturnType<Page['locator']>, option: string) {
  await field.click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY' (what the date fields show and take). */
const uk = (iso: string) => iso.split('-').reverse().join('/');

/** Types a date into an antd DatePicker (DD/MM/YYYY) and confirms it. */
async function pickDate(field: ReturnType<Page['locator']>, iso: string) {
  await field.click();
  await field.fill(uk(iso));
  await field.press('Enter');
}

/** The antd modal dialog with this title (confirm dialogs and result dialogs alike). */
const dialog = (page: Page, title: string) =>
  page.locator('.ant-modal:visible', { has: page.getByText(title, { exact: true }) });

describe('CIS screens in Chromium', () => {
  it('the CIS admin finds the setup prompt, configures the module and sees the stored UTR masked', async () => {
    const page = await newPage('cis.admin@demo.test');
    await page.goto(`${baseUrl}/cis`);
    await expectVisible(page, page.getByText('CIS Module Setup Required'));
    await expectVisible(page, page.getByRole('button', { name: 'Configure Settings' }));
    await page.screenshot({ path: `${shots}/cis-dashboard-setup-required.png` });

    await page.getByRole('button', { name: 'Configure Settings' }).click();
    await page.waitForURL(/\/cis\/settings$/);
    const settings = page.getByTestId('cis-settings-form');
    await expectVisible(page, settings);
    // A bad employer reference is refused under its field, and the error clears as the user edits.
    await settings.getByLabel('Company name').fill('Demo Construction Ltd');
    await settings.getByLabel('Employer reference').fill('12/AB');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectVisible(page, settings.getByText('Invalid format (e.g., 123/AB12345)'));
    await settings.getByLabel('Employer reference').fill('123/AB12345');
    await settings.getByText('Invalid format (e.g., 123/AB12345)').waitFor({ state: 'detached' });
    await settings.getByLabel('Accounts office reference').fill('123PA00012345');
    await settings.getByLabel('Contractor UTR').fill('2325648152');
    await settings.getByLabel('Module active').click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectVisible(page, page.getByText('Settings Saved'));
    await expectVisible(page, page.getByText('Your CIS settings have been saved successfully.'));
    expect(await settings.getByLabel('Contractor UTR').inputValue()).toBe('');
    await expectVisible(page, settings.getByText(/Stored: .*8152/));
    await page.screenshot({ path: `${shots}/cis-settings-saved.png`, fullPage: true });

    await page.goto(`${baseUrl}/cis`);
    await expectVisible(page, page.getByText('Tax Month Overview'));
    await expectVisible(page, page.getByText('Recent Activity'));
    await expectVisible(page, page.getByText('CIS settings updated'));
    await page.context().close();
  });

  it('the accountant adds a subcontractor, records, approves and pays an invoice, issues the statement, opens its PDF and submits the return', async () => {
    const page = await newPage('accountant@demo.test');
    const today = londonDate(new Date());

    // Subcontractors: the empty state, then the form with field errors that clear as the user types.
    await page.goto(`${baseUrl}/cis/subcontractors`);
    await expectVisible(page, page.getByText('No subcontractors found'));
    await expectVisible(page, page.getByText('Get started by adding a new subcontractor'));
    await page.getByRole('button', { name: 'New Subcontractor' }).click();
    await page.waitForURL(/\/cis\/subcontractors\/new$/);
    const form = page.getByTestId('subcontractor-form');
    await page.getByRole('button', { name: 'Create Subcontractor' }).click();
    await expectVisible(page, form.getByText('Name is required'));
    await expectVisible(page, form.getByText('Valid UTR required (10 digits)'));
    await expectVisible(page, form.getByText('GDPR consent is required'));
    await page.screenshot({ path: `${shots}/cis-subcontractor-form-errors.png`, fullPage: true });
    await form.getByLabel('Name', { exact: true }).fill('Sam Site');
    await form.getByText('Name is required').waitFor({ state: 'detached' });
    await form.getByLabel('UTR', { exact: true }).fill('1234567890');
    await form.getByLabel('NINO').fill('AB123456C');
    await form.getByLabel('Email').fill('sam@site.test');
    await form.getByLabel('Registered address line 1').fill('1 High Street');
    await form.getByLabel('Registered city').fill('Leeds');
    await form.getByLabel('Registered postcode').fill('LS1 1AA');
    await form.getByLabel('GDPR consent').click();
    await page.getByRole('button', { name: 'Create Subcontractor' }).click();
    await page.waitForURL(/\/cis\/subcontractors$/);
    const row = page.locator('tr', { hasText: 'Sam Site' });
    await expectVisible(page, row);
    await expectVisible(page, row.getByText('20% - Standard'));
    await expectVisible(page, row.getByText('Active'));
    await page.screenshot({ path: `${shots}/cis-subcontractors-list.png` });

    // An invoice, with the live preview of the calculation.
    await page.goto(`${baseUrl}/cis/invoices`);
    await expectVisible(page, page.getByText('No invoices found'));
    await page.getByRole('button', { name: 'New Invoice' }).click();
    await page.waitForURL(/\/cis\/invoices\/new$/);
    const invoiceForm = page.getByTestId('invoice-form');
    await invoiceForm.getByLabel('Invoice number').fill('INV-1001');
    await choose(page, invoiceForm.getByLabel('Subcontractor'), 'Sam Site');
    await pickDate(invoiceForm.getByLabel('Invoice date'), today);
    await invoiceForm.getByLabel('Gross amount (£)').fill('1000');
    await invoiceForm.getByLabel('Materials (£)').fill('200');
    // Labour £800 at 20% = £160 deducted; VAT 20% of £1,000 = £200; net £1,000 + £200 − £160.
    await expectVisible(page, page.getByTestId('preview-net').getByText('£1,040.00'));
    await page.screenshot({ path: `${shots}/cis-invoice-form-preview.png`, fullPage: true });
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    await page.waitForURL(/\/cis\/invoices\/[0-9a-f-]{36}$/);
    await expectVisible(page, page.getByText('Invoice INV-1001'));
    await expectVisible(page, page.locator('.ant-tag', { hasText: 'Draft' }));

    await page.getByRole('button', { name: 'Approve' }).click();
    await expectVisible(page, page.getByText('Invoice approved'));
    await expectVisible(page, page.locator('.ant-tag', { hasText: 'Approved' }));
    await expectVisible(page, page.getByText('Statement pending'));
    await page.getByRole('button', { name: 'Mark Paid' }).click();
    const pay = dialog(page, 'Mark as Paid');
    expect(await pay.getByLabel('Payment date').inputValue()).toBe(uk(today));
    await pay.getByRole('button', { name: 'Mark Paid' }).click();
    await expectVisible(page, page.getByText('Invoice marked as paid'));
    await expectVisible(page, page.locator('.ant-tag', { hasText: 'Paid' }));
    await page.screenshot({ path: `${shots}/cis-invoice-paid.png`, fullPage: true });

    await page.goto(`${baseUrl}/cis/invoices`);
    const invoiceRow = page.locator('tr', { hasText: 'INV-1001' });
    await expectVisible(page, invoiceRow);
    await expectVisible(page, invoiceRow.getByText('£160.00'));
    await expectVisible(page, invoiceRow.getByText('Statement pending'));
    await page.screenshot({ path: `${shots}/cis-invoices-list.png` });

    // Statements: generate, issue by email, open the PDF.
    await page.goto(`${baseUrl}/cis/statements`);
    const statementRow = page.locator('tr', { hasText: 'Sam Site' }).first();
    await expectVisible(page, statementRow);
    // Approving queued the statement job; if it has not generated the statement yet, generate it here.
    const generate = statementRow.getByRole('button', { name: 'Generate', exact: true });
    await expectVisible(page, generate.or(statementRow.getByText('Generated', { exact: true })));
    if (await generate.isVisible()) {
      await generate.click();
      await expectVisible(page, page.getByText('Statement generated for Sam Site'));
    }
    await statementRow.getByRole('button', { name: 'Email' }).click();
    await expectVisible(page, statementRow.getByText(/Issued \(Email\)/));
    await page.screenshot({ path: `${shots}/cis-statements-issued.png` });
    // The PDF opens in a new tab (whether Chromium shows it or saves it, the tab requests it from the bff).
    const [pdfRequest] = await Promise.all([
      page
        .context()
        .waitForEvent('request', (request) =>
          /\/api\/cis\/statements\/[0-9a-f]{16}\/pdf$/.test(request.url()),
        ),
      statementRow.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    const pdf = await page.request.get(pdfRequest.url());
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Returns: compile, validated, submit after the confirmation.
    await page.goto(`${baseUrl}/cis/returns`);
    const current = page.getByTestId('current-return');
    await expectVisible(page, current.getByText('No return compiled for this tax month'));
    await current.getByRole('button', { name: 'Compile Return' }).click();
    const compiled = dialog(page, 'Return Compiled Successfully');
    await expectVisible(page, compiled.getByText('1 subcontractors included.'));
    await compiled.getByRole('button', { name: 'OK' }).click();
    await expectVisible(page, current.getByText('Return validated successfully'));
    await page.screenshot({ path: `${shots}/cis-return-compiled.png`, fullPage: true });
    await current.getByRole('button', { name: 'Submit Return' }).click();
    const confirmSubmit = dialog(page, 'Submit Return');
    await expectVisible(
      page,
      confirmSubmit.getByText(
        'Are you sure you want to submit this return? It will be locked after submission.',
      ),
    );
    await confirmSubmit.getByRole('button', { name: 'Submit' }).click();
    const submitted = dialog(page, 'Return Submitted');
    await expectVisible(page, submitted.getByText('Return submitted successfully'));
    await submitted.getByRole('button', { name: 'OK' }).click();
    await expectVisible(page, current.locator('.ant-tag', { hasText: 'Locked' }));
    await expectVisible(page, page.locator('tr', { hasText: 'Tax month ending' }).first());
    await page.screenshot({ path: `${shots}/cis-return-submitted.png`, fullPage: true });
    await page.context().close();
  });

  it('the accountant invites a subcontractor to the portal and copies the link', async () => {
    const page = await newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/subcontractors`);
    await page.getByRole('button', { name: 'Invite to Portal' }).click();
    const invite = dialog(page, 'Invite Subcontractor to Portal');
    await invite.getByRole('button', { name: 'Create & Send Invite' }).click();
    await expectVisible(page, invite.getByText('Name and email are required'));
    await invite.getByLabel('Name').fill('Paula Plaster');
    await invite.getByLabel('Email').fill('paula@plaster.test');
    await invite.getByLabel('UTR').fill('98765432109999');
    expect(await invite.getByLabel('UTR').inputValue()).toBe('9876543210');
    await invite.getByRole('button', { name: 'Create & Send Invite' }).click();
    const created = dialog(page, 'Invitation Created');
    await expectVisible(page, created.getByText('Subcontractor created successfully!'));
    await expectVisible(page, created.getByText('Portal Access Link (expires in 15 minutes)'));
    expect(await created.getByLabel('Portal Access Link').inputValue()).toMatch(/\/portal-login\?/);
    await created.getByRole('button', { name: 'Copy Link to Clipboard' }).click();
    await expectVisible(page, page.getByText('Link copied to clipboard!'));
    await page.screenshot({ path: `${shots}/cis-invite-created.png` });
    await created.getByRole('button', { name: 'Close & Refresh' }).click();
    await expectVisible(page, page.locator('tr', { hasText: 'Paula Plaster' }));
    await page.context().close();
  });

  it('refreshes an open invoice list live, exports CSV, and unmasks a UTR only for a user allowed to', async () => {
    const admin = await newPage('cis.admin@demo.test');
    const accountant = await newPage('accountant@demo.test');
    const today = londonDate(new Date());

    // Unmask: the CIS admin holds cis.pii.unmask.
    await admin.goto(`${baseUrl}/cis/subcontractors`);
    await admin.getByRole('link', { name: 'Sam Site' }).click();
    await expectVisible(admin, admin.getByTestId('utr-value').getByText('******7890'));
    await admin.getByRole('button', { name: 'Show' }).click();
    await expectVisible(admin, admin.getByTestId('utr-value').getByText('1234567890'));
    await admin.screenshot({ path: `${shots}/cis-subcontractor-detail-unmasked.png`, fullPage: true });

    // The admin's invoice list stays open while the accountant records and approves an invoice.
    await admin.goto(`${baseUrl}/cis/invoices`);
    await expectVisible(admin, admin.locator('tr', { hasText: 'INV-1001' }));
    await admin.waitForTimeout(1000); // the EventSource connects
    await accountant.goto(`${baseUrl}/cis/invoices/new`);
    const invoiceForm = accountant.getByTestId('invoice-form');
    await invoiceForm.getByLabel('Invoice number').fill('INV-1002');
    await choose(accountant, invoiceForm.getByLabel('Subcontractor'), 'Sam Site');
    await pickDate(invoiceForm.getByLabel('Invoice date'), today);
    await invoiceForm.getByLabel('Gross amount (£)').fill('500');
    await invoiceForm.getByLabel('Materials (£)').fill('350');
    await expectVisible(
      accountant,
      accountant.getByText('High materials percentage (70%) - please verify this is correct'),
    );
    await invoiceForm.getByLabel('Materials justification').fill('Steel beams supplied by the subcontractor');
    await accountant.getByRole('button', { name: 'Create Invoice' }).click();
    await accountant.waitForURL(/\/cis\/invoices\/[0-9a-f-]{36}$/);
    const liveRow = admin.locator('tr', { hasText: 'INV-1002' });
    await expectVisible(admin, liveRow.getByText('Draft'));
    await expectVisible(admin, liveRow.getByLabel('High materials percentage'));
    await accountant.getByRole('button', { name: 'Approve' }).click();
    await expectVisible(accountant, accountant.getByText('Invoice approved'));
    await expectVisible(admin, liveRow.getByText('Approved'));
    await admin.screenshot({ path: `${shots}/cis-invoices-live-update.png` });

    // Export CSV downloads the bff's file.
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cis-invoices-\d{4}-\d{2}-\d{2}\.csv$/);

    await accountant.goto(`${baseUrl}/cis`);
    await expectVisible(accountant, accountant.getByText('Active Subcontractors'));
    await expectVisible(accountant, accountant.getByText('Quick Actions'));
    await expectVisible(accountant, accountant.getByText(/Invoice INV-1002 .* approved/));
    await accountant.screenshot({ path: `${shots}/cis-dashboard.png`, fullPage: true });
    await admin.context().close();
    await accountant.context().close();
  });

  it('shows a user without CIS scopes the Access Restricted page, and the clerk no write actions', async () => {
    const viewer = await newPage('viewer@demo.test');
    await viewer.goto(`${baseUrl}/cis/invoices`);
    await expectVisible(viewer, viewer.getByText('Access Restricted'));
    await expectVisible(viewer, viewer.getByText("You don't have permission to use the CIS module"));
    await expectVisible(viewer, viewer.getByText('Need Access?'));
    await viewer.screenshot({ path: `${shots}/cis-viewer-access-restricted.png` });
    await viewer.context().close();

    const clerk = await newPage('clerk@demo.test');
    await clerk.goto(`${baseUrl}/cis/invoices`);
    await expectVisible(clerk, clerk.locator('tr', { hasText: 'INV-1001' }));
    expect(await clerk.getByRole('button', { name: 'New Invoice' }).count()).toBe(0);
    expect(await clerk.locator('.ant-table-selection-column').count()).toBe(0);
    await clerk.goto(`${baseUrl}/cis/settings`);
    await expectVisible(clerk, clerk.getByText("You don't have permission to manage CIS settings."));
    await clerk.context().close();
  });
});
