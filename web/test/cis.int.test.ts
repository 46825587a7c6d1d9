// Browser journeys of the CIS screens: Debian's Chromium driven by playwright-core against the real stack
// (PostgreSQL, Kafka, identity with the dev OIDC provider, notification with its SMTP sink, the cis service, and
// the bff forwarding /api/cis and serving the built web bundles).
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { bffConfigSchema, startBff, type RunningBff } from '../../bff/src/index.js';
import { londonDate, taxMonthOf } from '../../services/cis/src/domain/index.js';
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

// The journeys below continue from the state the ones above leave: the module configured, Sam Site with INV-1001
// paid (its statement issued by email) and INV-1002 approved, Paula Plaster invited, and this tax month's return
// submitted.
describe('CIS journeys in Chromium: import, Generate All, returns, the portal and analytics', () => {
  let accountant: Page | undefined;
  const today = londonDate(new Date());
  const signedIn = (): Page => {
    if (!accountant) throw new Error('the accountant is not signed in');
    return accountant;
  };
  /** The antd card with this title. */
  const card = (page: Page, cardTitle: string) =>
    page.locator('.ant-card', { has: page.getByText(cardTitle, { exact: true }) });

  beforeAll(async () => {
    // A second subcontractor without a statement this month, verified for gross payment (0 %): its paid
    // invoices queue no statement job, so Generate All has one to make.
    const token = await harness.signInAs('cis.admin@demo.test');
    const created = await harness.call(token, 'POST', '/subcontractors', {
      type: 'individual',
      name: 'Ivy Importer',
      utr: '2325648152',
      registeredAddress: { line1: '2 Mill Lane', city: 'York', postcode: 'YO1 7HH', country: 'GB' },
      gdprConsent: true,
    });
    expect(created.status).toBe(201);
    const id = (created.body.subcontractor as { id: string }).id;
    const verified = await harness.call(token, 'POST', `/subcontractors/${id}/verification`, {
      status: 'gross',
      method: 'online',
      reference: 'V1234567890',
    });
    expect(verified.status).toBe(200);
    accountant = await newPage('accountant@demo.test');
  });

  afterAll(async () => {
    await accountant?.context().close();
  });

  it('the accountant imports a CSV file with valid and invalid rows, sees the errors by row, and bulk approves the drafts', async () => {
    const page = signedIn();
    await page.goto(`${baseUrl}/cis/invoices/import`);
    const csv = [
      'Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge,Description',
      `IMP-001,Paula Plaster,${uk(today)},"2,000.00",500.00,20,No,Plastering`,
      `IMP-BAD1,Nobody Known,${uk(today)},100.00,0,20,No,Unknown subcontractor`,
      `IMP-002,Paula Plaster,${uk(today)},800.00,0,20,No,Skimming`,
      `IMP-BAD2,Paula Plaster,${uk(today)},500.00,600.00,20,No,Materials above gross`,
      `IMP-003,Ivy Importer,${uk(today)},"1,500.00",300.00,20,No,Joinery`,
    ].join('\r\n');
    await page.locator('input[type=file]').setInputFiles({
      name: 'march-invoices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await expectVisible(page, page.getByText('Loaded march-invoices.csv'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const results = page.getByTestId('import-results');
    await expectVisible(page, results.getByText('3 invoice(s) created'));
    await expectVisible(page, results.getByText('2 row(s) had errors'));
    const rowErrors = results.locator('.ant-table-tbody tr');
    expect(await rowErrors.count()).toBe(2);
    await expectVisible(page, rowErrors.nth(0).locator('td').first().getByText('2', { exact: true }));
    await expectVisible(page, rowErrors.nth(0).getByText(/^Unknown subcontractor: /));
    await expectVisible(page, rowErrors.nth(1).locator('td').first().getByText('4', { exact: true }));
    await expectVisible(page, rowErrors.nth(1).getByText('Materials cannot exceed gross amount'));
    await page.screenshot({ path: `${shots}/cis-import-results.png`, fullPage: true });

    await page.goto(`${baseUrl}/cis/invoices`);
    for (const number of ['IMP-001', 'IMP-002', 'IMP-003']) {
      const row = page.locator('tr', { hasText: number });
      await expectVisible(page, row.getByText('Draft'));
      await row.getByRole('checkbox').check();
    }
    await expectVisible(page, page.getByText('3 selected'));
    await page.getByRole('button', { name: 'Approve Selected' }).click();
    await expectVisible(page, page.getByText('3 invoice(s) approved'));
    for (const number of ['IMP-001', 'IMP-002', 'IMP-003'])
      await expectVisible(page, page.locator('tr', { hasText: number }).getByText('Approved'));
    expect(await page.locator('tr', { hasText: 'IMP-BAD' }).count()).toBe(0);
    await page.screenshot({ path: `${shots}/cis-import-approved.png` });
  });

  it('the accountant marks invoices paid, runs Generate All with its progress and counts, and issues by print and by portal', async () => {
    const page = signedIn();
    await page.goto(`${baseUrl}/cis/invoices`);
    for (const number of ['IMP-001', 'IMP-003']) {
      await page.getByRole('button', { name: `Mark ${number} paid` }).click();
      const pay = dialog(page, 'Mark as Paid');
      await pay.getByRole('button', { name: 'Mark Paid' }).click();
      await pay.waitFor({ state: 'detached' });
      await expectVisible(page, page.locator('tr', { hasText: number }).getByText('Paid', { exact: true }));
    }

    // Paying IMP-001 (CIS £300) queued a statement job for Paula; wait until it has made her statement, so that
    // Generate All has exactly Ivy's (0 %, no job queued) to make.
    const paula = page.locator('tr', { hasText: 'Paula Plaster' }).first();
    const ivy = page.locator('tr', { hasText: 'Ivy Importer' }).first();
    for (let attempt = 0; ; attempt++) {
      await page.goto(`${baseUrl}/cis/statements`);
      await expectVisible(page, ivy.getByText('Pending generation'));
      if (await paula.getByText('Generated', { exact: true }).isVisible()) break;
      if (attempt === 10) throw new Error("Paula Plaster's statement was not generated by the job");
      await page.waitForTimeout(500);
    }
    await page.getByRole('button', { name: 'Generate All' }).click();
    await expectVisible(page, page.getByTestId('job-progress').getByText(/Generating statements/));
    await expectVisible(page, page.getByTestId('job-progress').locator('.ant-progress'));
    await page.screenshot({ path: `${shots}/cis-statements-generate-all.png` });
    await expectVisible(page, page.getByText('Generated 1 statement(s), 0 failed'));
    await page.getByTestId('job-progress').waitFor({ state: 'detached' });
    await expectVisible(page, ivy.getByText('Generated', { exact: true }));

    // Print opens the PDF in a new tab.
    const [printed] = await Promise.all([
      page.context().waitForEvent('page'),
      ivy.getByRole('button', { name: 'Print' }).click(),
    ]);
    await printed.close();
    await expectVisible(page, ivy.getByText('Issued (Print)'));
    await paula.getByRole('button', { name: 'Portal' }).click();
    await expectVisible(page, paula.getByText('Issued (Portal)'));
    await page.screenshot({ path: `${shots}/cis-statements-print-portal.png`, fullPage: true });
  });

  it('the accountant unlocks the submitted return for testing, recompiles, submits it and reads its totals in the history', async () => {
    const page = signedIn();
    await page.goto(`${baseUrl}/cis/returns`);
    const current = page.getByTestId('current-return');
    await expectVisible(page, current.locator('.ant-tag', { hasText: 'Locked' }));

    await current.getByRole('button', { name: 'Unlock (Testing)' }).click();
    const confirmUnlock = dialog(page, 'Unlock for Testing');
    await expectVisible(page, confirmUnlock.getByText('This is for testing only. Unlock this return?'));
    await confirmUnlock.getByRole('button', { name: 'Unlock' }).click();
    const unlocked = dialog(page, 'Return Unlocked');
    await expectVisible(
      page,
      unlocked.getByText('Return unlocked for testing. You can now recompile or edit it.'),
    );
    await unlocked.getByRole('button', { name: 'OK' }).click();
    await expectVisible(page, current.locator('.ant-tag', { hasText: 'Draft' }));

    // Sam Site (INV-1001), Paula Plaster (IMP-001) and Ivy Importer (IMP-003) were paid this tax month.
    await current.getByRole('button', { name: 'Recompile' }).click();
    const compiled = dialog(page, 'Return Compiled Successfully');
    await expectVisible(page, compiled.getByText('3 subcontractors included.'));
    await compiled.getByRole('button', { name: 'OK' }).click();
    await expectVisible(page, current.getByText('Return validated successfully'));

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

    // Gross £1,000 + £2,000 + £1,500; materials £200 + £500 + £300; CIS £160 + £300 + £0.
    const history = card(page, 'Historical Returns');
    const row = history.locator('tr.ant-table-row').first();
    await expectVisible(page, row.getByText('£460.00'));
    await row.locator('.ant-table-row-expand-icon').click();
    const expanded = history.locator('tr.ant-table-expanded-row');
    await expectVisible(page, expanded.getByText('Total Gross'));
    await expectVisible(page, expanded.getByText('£4,500.00'));
    await expectVisible(page, expanded.getByText('Total Materials'));
    await expectVisible(page, expanded.getByText('£1,000.00'));
    await expectVisible(page, expanded.getByText('Total CIS'));
    await expectVisible(page, expanded.getByText('£460.00'));
    await page.screenshot({ path: `${shots}/cis-returns-history-expanded.png`, fullPage: true });
  });

  it('a subcontractor invited from the staff app signs in to the portal and submits an invoice, which the accountant rejects', async () => {
    const page = signedIn();
    await page.goto(`${baseUrl}/cis/subcontractors`);
    await page.getByRole('button', { name: 'Invite to Portal' }).click();
    const invite = dialog(page, 'Invite Subcontractor to Portal');
    await invite.getByLabel('Name').fill('Rita Roofer');
    await invite.getByLabel('Email').fill('rita@roofer.test');
    await invite.getByRole('button', { name: 'Create & Send Invite' }).click();
    const created = dialog(page, 'Invitation Created');
    await expectVisible(page, created.getByText('Subcontractor created successfully!'));
    const link = await created.getByLabel('Portal Access Link').inputValue();
    expect(link).toMatch(/\/portal-login\?/);
    await created.getByRole('button', { name: 'Close & Refresh' }).click();

    // The portal, in a context of its own (no staff session).
    const portalContext = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      locale: 'en-GB',
    });
    const portal = await portalContext.newPage();
    // identity builds the link on its PORTAL_LOGIN_URL, which the identity test harness leaves at its default
    // (localhost:8080); the path and query are the link.
    const { pathname, search } = new URL(link);
    await portal.goto(`${baseUrl}${pathname}${search}`);
    await portal.waitForURL(/\/portal\/dashboard$/);
    await expectVisible(portal, portal.getByTestId('portal-subcontractor').getByText('Rita Roofer'));
    const form = portal.getByTestId('portal-invoice-form');
    await form.getByLabel('Invoice number').fill('RR-001');
    await pickDate(form.getByLabel('Invoice date'), today);
    await form.getByLabel('Description').fill('Re-roofing, 4 Elm Road');
    await form.getByLabel('Gross amount (£)').fill('1000');
    await form.getByLabel('Materials (£)').fill('1200');
    await form.getByRole('button', { name: 'Submit Invoice' }).click();
    // The service's field error lands under the field.
    await expectVisible(portal, form.getByText('Materials cannot exceed gross amount'));
    await portal.screenshot({ path: `${shots}/cis-portal-invoice-error.png`, fullPage: true });
    await form.getByLabel('Materials (£)').fill('700');
    await form.getByText('Materials cannot exceed gross amount').waitFor({ state: 'detached' });
    await form.getByLabel('Materials justification').fill('Tiles, battens and membrane supplied');
    await form.getByRole('button', { name: 'Submit Invoice' }).click();
    await expectVisible(portal, form.getByText(/^Invoice RR-001 submitted\./));
    const portalRow = card(portal, 'Invoices').locator('tr', { hasText: 'RR-001' });
    await expectVisible(portal, portalRow.getByText('Portal Pending'));
    await expectVisible(portal, portalRow.getByText('£1,000.00'));
    await portal.screenshot({ path: `${shots}/cis-portal-invoice-submitted.png`, fullPage: true });
    await portalContext.close();

    await page.goto(`${baseUrl}/cis/invoices`);
    const row = page.locator('tr', { hasText: 'RR-001' });
    await expectVisible(page, row.getByText('Portal', { exact: true }));
    await expectVisible(page, row.getByText('Portal Pending'));
    await expectVisible(page, row.getByText('Rita Roofer'));
    await page.screenshot({ path: `${shots}/cis-invoices-portal-pending.png` });
    await row.getByRole('button', { name: 'Reject RR-001' }).click();
    const reject = dialog(page, 'Reject Invoice');
    await expectVisible(page, reject.getByText('Reject this portal-submitted invoice?'));
    // The page reloads after a rejection.
    await Promise.all([page.waitForEvent('load'), reject.getByRole('button', { name: 'Reject' }).click()]);
    await expectVisible(page, page.locator('tr', { hasText: 'RR-001' }).getByText('Cancelled'));
  });

  it('the analytics show the paid amounts per tax month and per subcontractor', async () => {
    const page = signedIn();
    await page.goto(`${baseUrl}/cis/analytics`);
    const byMonth = card(page, 'Gross, Materials and CIS Deductions by Tax Month');
    await expectVisible(page, byMonth.locator('.recharts-bar-rectangle').first());
    await expectVisible(page, byMonth.getByText(taxMonthOf(today)).first());
    const bySub = card(page, 'By Subcontractor');
    await expectVisible(page, bySub.locator('.recharts-bar-rectangle').first());
    const expected: [string, string, string][] = [
      ['Paula Plaster', '£2,000.00', '£300.00'],
      ['Ivy Importer', '£1,500.00', '£0.00'],
      ['Sam Site', '£1,000.00', '£160.00'],
    ];
    const rows = bySub.locator('.ant-table-tbody tr.ant-table-row');
    expect(await rows.count()).toBe(3);
    for (const [index, [name, gross, cis]] of expected.entries()) {
      const row = rows.nth(index);
      await expectVisible(page, row.getByText(name));
      await expectVisible(page, row.getByText(gross));
      await expectVisible(page, row.getByText(cis));
    }
    // Unpaid (IMP-002, INV-1002) and cancelled (RR-001) invoices are not counted.
    expect(await bySub.getByText('Rita Roofer').count()).toBe(0);
    await page.screenshot({ path: `${shots}/cis-analytics.png`, fullPage: true });
  });
});
