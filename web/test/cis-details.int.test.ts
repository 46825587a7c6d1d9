// Browser journeys of the CIS details the other journeys leave unchecked: the invite modal's marks, buttons and
// states, the copied link in the clipboard, the link refused on its second use, a portal invoice approved, the
// staff's 'Revoke portal access' signing an open portal out, the row invite's fallback error, every field of the
// subcontractor form and its create/edit rules, the subcontractor export, the statements banner, order and PDF
// notice, the returns card and history (every other month, 12 to a page, newest first, expanded, exported), the dashboard's deadline
// alerts, and the invoice list's order, status fallback and VAT rate message. Debian's Chromium against the real
// stack (web/test/cis-stack.ts); one stack and one tenant, seeded through the API, for the whole file.
import { readFileSync } from 'node:fs';
import { PDFParse } from 'pdf-parse';
import type { Download, Locator, Page, Route } from 'playwright-core';
import {
  addDays,
  currentTaxMonth,
  daysBetween,
  deadlineAlerts,
  londonDate,
  previousTaxMonth,
  taxMonthPeriod,
  taxMonthFilePart,
  taxMonthTitle,
} from '@workspace/cis/domain';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  DECLARED,
  freshIdentifiers,
  invoiceBody,
  settingsBody,
} from '@workspace/cis/testing';
import { shots, visible } from './browser.js';
import { choose, dialog, optionsOf, startCisBrowserStack, until, type CisBrowserStack } from './cis-stack.js';

let stack: CisBrowserStack;
let baseUrl: string;
let admin: string;

const today = londonDate(new Date());
const current = currentTaxMonth();
const previous = previousTaxMonth(current);
const WARNING_DAYS = 30;
const STATEMENT_DEADLINE_DAYS = 14;

async function call(method: string, path: string, body?: unknown) {
  const result = await stack.harness.call(admin, method, path, body);
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
  return result.body;
}

const address = { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' };

async function subcontractor(name: string, extra: Record<string, unknown> = {}, rate?: 'gross' | 'standard') {
  const body = (await call('POST', '/subcontractors', {
    type: 'individual',
    name,
    // Identifiers of its own: an active subcontractor's are unique in the tenant (ADR 0039).
    ...freshIdentifiers(),
    registeredAddress: address,
    gdprConsent: true,
    ...extra,
  })) as { subcontractor: { id: string } };
  const id = body.subcontractor.id;
  if (rate)
    await call('POST', `/subcontractors/${id}/verification`, {
      status: rate,
      method: 'online',
      reference: 'V1234567890',
    });
  return id;
}

async function invoice(
  number: string,
  subcontractorId: string,
  invoiceDate: string,
  grossP = 100000,
  materialsP = 20000,
) {
  const body = (await call(
    'POST',
    '/invoices',
    invoiceBody(subcontractorId, { invoiceNumber: number, invoiceDate, grossP, materialsP }),
  )) as { invoice: { id: string } };
  return body.invoice.id;
}

/** Generates the subcontractor's statement of the month unless the approval's job already has (409). */
async function ensureStatement(subcontractorId: string, taxMonth: string) {
  const result = await stack.harness.call(admin, 'POST', '/statements/generate', {
    subcontractorId,
    taxMonth,
  });
  if (result.status !== 200 && result.status !== 201 && result.status !== 409)
    throw new Error(`generate statement: ${result.status} ${result.text}`);
}

async function statementId(subcontractorId: string, taxMonth: string): Promise<string> {
  const body = (await call('GET', `/statements?taxMonth=${taxMonth}`)) as {
    subcontractors: { subcontractorId: string; statement: { id: string } | null }[];
  };
  const id = body.subcontractors.find((group) => group.subcontractorId === subcontractorId)?.statement?.id;
  if (!id) throw new Error(`no statement for ${subcontractorId} in ${taxMonth}`);
  return id;
}

beforeAll(async () => {
  stack = await startCisBrowserStack();
  baseUrl = stack.baseUrl;
  admin = await stack.harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
  await call(
    'PUT',
    '/settings',
    settingsBody({
      companyName: 'Details Construction Ltd',
      warningDays: WARNING_DAYS,
      statementDeadlineDays: STATEMENT_DEADLINE_DAYS,
      emailFrom: 'statements@demo.test',
      emailReplyTo: '',
    }),
  );
});

afterAll(async () => {
  await stack.stop();
});

const topBar = (page: Page) => page.getByTestId('cis-top-bar');

/** The field error (antd's explain line) with this text, under the fields of this form. */
const fieldError = (form: Locator, message: string) =>
  form.locator('.ant-form-item-explain-error').getByText(message, { exact: true });

/** 'YYYY-MM-DD' → 'DD/MM/YYYY' (what the screens show). */
const uk = (iso: string) => iso.split('-').reverse().join('/');

/** Types a date into an antd DatePicker (DD/MM/YYYY) and confirms it. */
async function pickDate(field: Locator, iso: string) {
  await field.click();
  await field.fill(uk(iso));
  await field.press('Enter');
}

/** The text of a downloaded file (a BOM dropped). */
function downloadedText(path: string): string {
  return readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
}

async function savedText(download: Download): Promise<string> {
  return downloadedText(await download.path());
}

/** The text a PDF's pages carry. */
async function pdfText(bytes: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** The selected option of an antd Select (opened, read, closed again). */
async function selectedOf(page: Page, field: Locator): Promise<string> {
  await field.click();
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option-selected');
  await visible(option);
  const label = (await option.textContent()) ?? '';
  await page.keyboard.press('Escape');
  await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
  return label;
}

/** The content of a pseudo-element (run in the page; the test's TypeScript has no DOM types). */
const pseudoContent = (locator: Locator, pseudo: '::before' | '::after') =>
  locator.evaluate(
    (element, which) =>
      (
        globalThis as unknown as {
          getComputedStyle(e: unknown, p: string): { content: string; display: string };
        }
      ).getComputedStyle(element, which).content,
    pseudo,
  );

/** The page's clipboard text (the context is granted clipboard-read). */
const clipboardText = (page: Page) =>
  page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );

/** A portal page in a context of its own (no staff session), opened on the link's path. */
async function openPortal(link: string): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB' });
  const portal = await context.newPage();
  // identity builds the link on its PORTAL_LOGIN_URL (the harness leaves the default host); path and query are
  // the link.
  const { pathname, search } = new URL(link);
  await portal.goto(`${baseUrl}${pathname}${search}`);
  return portal;
}

describe('CIS details in Chromium', () => {
  it('the accountant walks the invite modal (required marks, Cancel, Creating..., a short UTR refused, the link in the clipboard); the link signs in once and is refused the second time; a portal invoice is approved; a failed row invite falls back to its text; Revoke portal access signs the open portal out', async () => {
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/subcontractors`);
    await topBar(page).getByRole('button', { name: 'Invite to Portal' }).click();
    const invite = dialog(page, 'Invite Subcontractor to Portal');
    await visible(invite);

    // Name* and Email* carry antd's required mark; Type and UTR do not.
    const label = (text: string) =>
      invite.locator('.ant-form-item-label label', { hasText: new RegExp(`^${text}$`) });
    for (const text of ['Name', 'Email']) {
      await visible(label(text));
      expect(await label(text).getAttribute('class')).toContain('ant-form-item-required');
      expect(await pseudoContent(label(text), '::before')).toBe('"*"');
    }
    for (const text of ['Type', 'UTR']) {
      await visible(label(text));
      expect(await label(text).getAttribute('class')).not.toContain('ant-form-item-required');
    }

    // The footer: Cancel and Create & Send Invite. Cancel closes the form and creates nothing.
    expect(await invite.locator('.ant-modal-footer button').allTextContents()).toEqual([
      'Cancel',
      'Create & Send Invite',
    ]);
    await invite.getByLabel('Name').fill('Carla Cancelled');
    await invite.getByLabel('Email').fill('carla@cancelled.test');
    await page.screenshot({ path: `${shots}/cis-details-invite-form.png` });
    await invite.getByRole('button', { name: 'Cancel' }).click();
    await invite.waitFor({ state: 'detached' });
    const cancelled = (await call('GET', '/subcontractors?search=Carla')) as { items: unknown[] };
    expect(cancelled.items).toHaveLength(0);

    // The form; a 5-digit UTR is refused with the subcontractor form's message (the issue's L17 supersedes CIS-296's
    // 'no further check'), then 'Creating...' while the call is held, then the created panel.
    await topBar(page).getByRole('button', { name: 'Invite to Portal' }).click();
    await visible(invite);
    expect(await invite.getByLabel('Name').inputValue()).toBe('');
    await invite.getByLabel('Name').fill('Sid Short');
    await invite.getByLabel('Email').fill('sid@short.test');
    await invite.getByLabel('UTR').fill('12345');
    await invite.getByRole('button', { name: 'Create & Send Invite' }).click();
    await visible(invite.getByText('Valid UTR required (10 digits)'));
    await invite.getByLabel('UTR').fill('5432112345');
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route('**/api/cis/subcontractors/invite', hold);
    await invite.getByRole('button', { name: 'Create & Send Invite' }).click();
    await visible(invite.getByRole('button', { name: 'Creating...' }));
    await visible(invite.getByLabel('Name'));
    await page.screenshot({ path: `${shots}/cis-details-invite-creating.png` });
    release();
    const created = dialog(page, 'Invitation Created');
    await visible(created.getByText('Subcontractor created successfully!'));
    await visible(created.getByText('An invitation email has been sent to sid@short.test.', { exact: true }));
    await page.unroute('**/api/cis/subcontractors/invite', hold);
    const sid = (
      (await call('GET', '/subcontractors?search=Sid%20Short')) as {
        items: { id: string; utrMasked: string | null }[];
      }
    ).items;
    expect(sid).toHaveLength(1);
    expect(sid[0]?.utrMasked).toBe('******2345');
    const sidId = sid[0]?.id ?? '';

    // Copy Link to Clipboard: the clipboard holds the link the panel shows.
    const link = await created.getByLabel('Portal Access Link').inputValue();
    expect(link).toMatch(/\/portal-login\?/);
    await created.getByRole('button', { name: 'Copy Link to Clipboard' }).click();
    await visible(page.getByText('Link copied to clipboard!'));
    expect(await clipboardText(page)).toBe(link);
    await page.screenshot({ path: `${shots}/cis-details-invite-created.png` });
    await created.getByRole('button', { name: 'Close & Refresh' }).click();
    await created.waitFor({ state: 'detached' });

    // The link signs Sid in once; the same link in another browser is refused.
    const portal = await openPortal(link);
    await portal.waitForURL(/\/portal\/dashboard$/);
    await visible(portal.getByTestId('portal-subcontractor').getByText('Sid Short'));
    const second = await openPortal(link);
    await visible(second.getByText('We could not sign you in'));
    await visible(second.getByText('This link has already been used. Ask your contractor for a new one.'));
    await second.screenshot({ path: `${shots}/cis-details-link-second-use.png` });
    await second.context().close();

    // Sid submits an invoice; the accountant approves it (portal_draft → approved).
    await portal.getByRole('link', { name: 'Invoices', exact: true }).click();
    await portal.waitForURL(/\/portal\/invoices$/);
    const form = portal.getByTestId('portal-invoice-form');
    await form.getByLabel('Invoice number').fill('SS-001');
    await pickDate(form.getByLabel('Invoice date'), today);
    await form.getByLabel('Description').fill('Guttering, 2 Elm Road');
    await form.getByLabel('Gross amount (£)').fill('400');
    await form.getByRole('button', { name: 'Submit Invoice' }).click();
    await visible(form.getByText(/^Invoice SS-001 submitted\./));
    await page.goto(`${baseUrl}/cis/invoices`);
    const row = page.locator('tr', { hasText: 'SS-001' });
    await visible(row.getByText('Portal Pending', { exact: true }));
    await row.getByRole('button', { name: 'Approve SS-001' }).click();
    await visible(page.getByText('Invoice SS-001 approved'));
    await visible(row.locator('.ant-tag', { hasText: /^Approved$/ }));
    const approved = (await call('GET', `/invoices?search=SS-001`)) as { items: { status: string }[] };
    expect(approved.items.map((item) => item.status)).toEqual(['approved']);

    // The row invite: a failure without text says 'Failed to send invitation' (an empty body, then a problem
    // without a detail).
    await page.goto(`${baseUrl}/cis/subcontractors`);
    const sidRow = page.locator('tr', { hasText: 'Sid Short' });
    for (const body of ['', JSON.stringify({ status: 500, code: 'internal' })]) {
      const failInvite = (route: Route) =>
        route.fulfill({ status: 500, contentType: body ? 'application/problem+json' : 'text/plain', body });
      await page.route('**/api/cis/subcontractors/invite', failInvite);
      const answered = page.waitForResponse((response) =>
        response.url().endsWith('/api/cis/subcontractors/invite'),
      );
      await sidRow.getByRole('button', { name: 'Invite Sid Short to portal' }).click();
      expect((await answered).status()).toBe(500);
      const toast = page.locator('.ant-message-notice', { hasText: 'Failed to send invitation' });
      await visible(toast);
      await page.screenshot({ path: `${shots}/cis-details-row-invite-failed.png` });
      await page.unroute('**/api/cis/subcontractors/invite', failInvite);
      await toast.waitFor({ state: 'detached', timeout: 15_000 });
    }

    // Revoke portal access on the detail: the confirm, the toast; Sid's open portal is signed out on its next call.
    await sidRow.getByRole('link', { name: 'Sid Short' }).click();
    await page.waitForURL(new RegExp(`/cis/subcontractors/${sidId}$`));
    await page.getByRole('button', { name: 'Revoke portal access' }).click();
    const confirmRevoke = dialog(page, 'Revoke portal access');
    await visible(confirmRevoke.getByText(/^Sign Sid Short out of the portal now\?/));
    await page.screenshot({ path: `${shots}/cis-details-revoke-confirm.png` });
    const revoked = page.waitForResponse((response) =>
      response.url().endsWith('/api/portal/sessions/revoke'),
    );
    await confirmRevoke.getByRole('button', { name: 'Revoke' }).click();
    const revokeAnswer = await revoked;
    expect(revokeAnswer.status()).toBe(200);
    expect(((await revokeAnswer.json()) as { revoked: number }).revoked).toBe(1);
    await visible(page.getByText('Portal access revoked'));
    await page.screenshot({ path: `${shots}/cis-details-revoked.png` });

    await form.getByLabel('Invoice number').fill('SS-002');
    await pickDate(form.getByLabel('Invoice date'), today);
    await form.getByLabel('Gross amount (£)').fill('300');
    const nextCall = portal.waitForResponse((response) =>
      response.url().endsWith('/api/portal/cis/invoices'),
    );
    await form.getByRole('button', { name: 'Submit Invoice' }).click();
    // The bff no longer knows the cookie's session: the write answers 401 and the page says the session ended,
    // without a reload; its own session read answers 401 too, so a reload says the same.
    const refused = await nextCall;
    expect(refused.status()).toBe(401);
    await visible(portal.getByText('Your portal session has ended'));
    await portal.screenshot({ path: `${shots}/cis-details-portal-next-call.png`, fullPage: true });
    expect((await portal.request.get(`${baseUrl}/api/portal/session`)).status()).toBe(401);
    await portal.reload();
    await visible(portal.getByText('Your portal session has ended'));
    await portal.screenshot({ path: `${shots}/cis-details-portal-signed-out.png` });
    const invoices = (await call('GET', '/invoices?search=SS-002')) as { items: unknown[] };
    expect(invoices.items).toHaveLength(0);
    await portal.context().close();
    await page.context().close();
  });

  it('the subcontractor form offers every field (type options, NINO for individuals only, both addresses with GB/NI, consents and access), refuses a create without each address part or a company number, saves an individual without NINO and an edit without address or consent; the export is dated and masked; the clerk is not offered Revoke', async () => {
    const alanId = await subcontractor('Alan Able', {
      utr: '1234567890',
      nino: 'AB123456C',
      email: 'alan@able.test',
      phone: '07700900123',
    });
    const page = await stack.newPage('accountant@demo.test');
    await page.goto(`${baseUrl}/cis/subcontractors/new`);
    const form = page.getByTestId('subcontractor-form');
    await visible(form);
    const field = (name: string) => form.getByLabel(name, { exact: true });

    // Type with its three options, Name and UTR; NINO only for an individual, company number only for a company.
    expect(await optionsOf(page, field('Type'))).toEqual(['Individual', 'Company', 'Partnership']);
    expect(await selectedOf(page, field('Type'))).toBe('Individual');
    for (const name of ['Name', 'UTR', 'NINO']) await visible(field(name));
    await choose(page, field('Type'), 'Company');
    await visible(field('Company number'));
    expect(await field('NINO').count()).toBe(0);
    await choose(page, field('Type'), 'Partnership');
    expect(await field('NINO').count()).toBe(0);
    expect(await field('Company number').count()).toBe(0);
    await choose(page, field('Type'), 'Individual');
    await visible(field('NINO'));

    // VAT number, email, phone, mobile; both addresses with their six parts and the GB/NI country.
    for (const name of ['VAT number', 'Email', 'Phone', 'Mobile']) await visible(field(name));
    const parts = ['address line 1', 'address line 2', 'city', 'county', 'postcode', 'country'];
    for (const part of parts) await visible(field(`Registered ${part}`));
    expect(await optionsOf(page, field('Registered country'))).toEqual(['GB', 'NI']);
    expect(await selectedOf(page, field('Registered country'))).toBe('GB');
    expect(await field('Trading address line 1').count()).toBe(0);
    await form.getByRole('switch', { name: 'Trading address same as registered' }).click();
    for (const part of parts) await visible(field(`Trading ${part}`));
    expect(await optionsOf(page, field('Trading country'))).toEqual(['GB', 'NI']);

    // GDPR consent, marketing consent, portal access and active (on by default).
    for (const name of ['GDPR consent', 'Marketing consent', 'Portal access', 'Active'])
      expect(await field(name).getAttribute('role')).toBe('switch');
    expect(await field('Active').isChecked()).toBe(true);
    expect(await field('GDPR consent').isChecked()).toBe(false);
    await page.screenshot({ path: `${shots}/cis-details-subcontractor-form.png`, fullPage: true });

    // An individual without a NINO: each registered address part is required on create, then it saves.
    await field('Name').fill('Nina Nonino');
    await field('UTR').fill('1122334455');
    await field('GDPR consent').click();
    await form.getByRole('switch', { name: 'Trading address same as registered' }).click();
    const required: [string, string, string][] = [
      ['Registered address line 1', '3 Quay Street', 'Address line 1 is required'],
      ['Registered city', 'Hull', 'City is required'],
      ['Registered postcode', 'HU1 1AA', 'Postcode is required'],
    ];
    for (const [name, value] of required) await field(name).fill(value);
    for (const [name, value, message] of required) {
      await field(name).fill('');
      await page.getByRole('button', { name: 'Create Subcontractor' }).click();
      await visible(fieldError(form, message));
      for (const [, , other] of required)
        if (other !== message) expect(await fieldError(form, other).count()).toBe(0);
      await field(name).fill(value);
      await fieldError(form, message).waitFor({ state: 'detached' });
    }
    await page.screenshot({
      path: `${shots}/cis-details-subcontractor-address-required.png`,
      fullPage: true,
    });
    await page.getByRole('button', { name: 'Create Subcontractor' }).click();
    await page.waitForURL(/\/cis\/subcontractors$/);
    await visible(page.locator('tr', { hasText: 'Nina Nonino' }));
    const nina = (
      (await call('GET', '/subcontractors?search=Nina')) as {
        items: { id: string; type: string; ninoMasked: string | null }[];
      }
    ).items;
    expect(nina).toHaveLength(1);
    expect(nina[0]?.type).toBe('individual');
    expect(nina[0]?.ninoMasked ?? '').toBe('');
    const ninaId = nina[0]?.id ?? '';

    // A company needs its number.
    await page.goto(`${baseUrl}/cis/subcontractors/new`);
    await choose(page, field('Type'), 'Company');
    await field('Name').fill('Cora Company Ltd');
    await field('UTR').fill('2233445566');
    for (const [name, value] of required) await field(name).fill(value);
    await field('GDPR consent').click();
    await page.getByRole('button', { name: 'Create Subcontractor' }).click();
    await visible(fieldError(form, 'Valid company number required for companies'));
    await page.screenshot({ path: `${shots}/cis-details-company-number-required.png`, fullPage: true });
    expect(page.url()).toMatch(/\/cis\/subcontractors\/new$/);
    await field('Company number').fill('12345678');
    await fieldError(form, 'Valid company number required for companies').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Create Subcontractor' }).click();
    await page.waitForURL(/\/cis\/subcontractors$/);
    await visible(page.locator('tr', { hasText: 'Cora Company Ltd' }));

    // An edit saves without the registered address and without GDPR consent (required on create only).
    await page.goto(`${baseUrl}/cis/subcontractors/${ninaId}/edit`);
    await until(
      () => field('Name').inputValue(),
      (value) => value === 'Nina Nonino',
      'the loaded record',
    );
    for (const [name] of required) await field(name).fill('');
    await field('GDPR consent').click();
    expect(await field('GDPR consent').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL(/\/cis\/subcontractors$/);
    await visible(page.getByText('Subcontractor updated'));
    const edited = (await call('GET', `/subcontractors/${ninaId}`)) as {
      subcontractor: {
        gdprConsent: boolean;
        registeredAddress: { line1?: string; city?: string; postcode?: string } | null;
      };
    };
    expect(edited.subcontractor.gdprConsent).toBe(false);
    expect(edited.subcontractor.registeredAddress?.line1 ?? '').toBe('');
    expect(edited.subcontractor.registeredAddress?.city ?? '').toBe('');
    expect(edited.subcontractor.registeredAddress?.postcode ?? '').toBe('');

    // The list in name order; the export: cis-subcontractors-{today}.csv with UTR and NINO masked.
    const names = await until(
      () =>
        page
          .locator('.ant-table-tbody tr.ant-table-row td a[href^="/cis/subcontractors/"]')
          .allTextContents(),
      (shown) => ['Alan Able', 'Cora Company Ltd', 'Nina Nonino'].every((name) => shown.includes(name)),
      'the list with the new subcontractors',
    );
    // Sid Short, invited by the first journey, sorts between them when that journey ran.
    expect(names.filter((name) => name !== 'Sid Short')).toEqual([
      'Alan Able',
      'Cora Company Ltd',
      'Nina Nonino',
    ]);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      topBar(page)
        .getByRole('button', { name: /Export$/ })
        .click(),
    ]);
    expect(download.suggestedFilename()).toBe(`cis-subcontractors-${today}.csv`);
    const csv = await savedText(download);
    const lines = csv.split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toBe('Name,Type,UTR,NINO,Email,Phone,Status,Verification Rate');
    const alan = lines.find((line) => line.startsWith('Alan Able,'));
    expect(alan).toContain('******7890');
    expect(alan).toContain('AB******C');
    for (const clear of ['1234567890', 'AB123456C', '1122334455', '2233445566'])
      expect(csv).not.toContain(clear);
    await page.context().close();

    // Revoke portal access is offered with cis.portal.invite only: not to the clerk.
    const clerk = await stack.newPage('clerk@demo.test');
    await clerk.goto(`${baseUrl}/cis/subcontractors/${alanId}`);
    await visible(clerk.getByText('Alan Able').first());
    await visible(clerk.getByRole('button', { name: 'Back to list' }));
    expect(await clerk.getByRole('button', { name: 'Revoke portal access' }).count()).toBe(0);
    await clerk.context().close();
  });

  it('the accountant reads the deadline alerts, the statements banner, order and PDF notice, the current return’s totals and the history of the other 13 months, 12 to a page, newest first, with an expanded row exported', async () => {
    // Hana (20 %): paid last tax month (statement issued, return submitted) and this month; Aaron and Zed (0 %)
    // paid this month, their statements generated Aaron first, then Zed; 12 older nil returns.
    const hanaIds = freshIdentifiers();
    const hana = await subcontractor('Hana Hist', { email: 'hana@hist.test', ...hanaIds }, 'standard');
    const aaron = await subcontractor('Aaron Early', { utr: '2325648152' }, 'gross');
    const zed = await subcontractor('Zed Later', {}, 'gross');
    const previousStart = taxMonthPeriod(previous).startDate;
    const hanaPrevious = await invoice('H-PREV', hana, previousStart);
    await call('POST', '/invoices/approve', { ids: [hanaPrevious] });
    await call('POST', `/invoices/${hanaPrevious}/pay`, { paymentDate: previousStart });
    await ensureStatement(hana, previous);
    await call('POST', `/statements/${await statementId(hana, previous)}/issue`, { method: 'print' });
    const compiled = (await call('POST', `/returns/${previous}/compile`)) as {
      return: { id: string };
      validation: { valid: boolean; issues: string[] };
    };
    expect(compiled.validation).toEqual({ valid: true, issues: [] });
    const previousId = compiled.return.id;
    await call('POST', `/returns/${encodeURIComponent(previousId)}/submit`, DECLARED);
    let label = previous;
    for (let n = 0; n < 12; n++) {
      label = previousTaxMonth(label);
      await call('POST', `/returns/${label}/compile`);
    }
    const hanaNow = await invoice('H-NOW', hana, today);
    const aaronNow = await invoice('A-NOW', aaron, today, 50000, 0);
    const zedNow = await invoice('Z-NOW', zed, today, 50000, 0);
    await call('POST', '/invoices/approve', { ids: [hanaNow, aaronNow, zedNow] });
    await call('POST', '/invoices/pay', { ids: [hanaNow, aaronNow, zedNow], paymentDate: today });
    await ensureStatement(hana, current);
    await call('POST', '/statements/generate', { subcontractorId: aaron, taxMonth: current });
    await call('POST', '/statements/generate', { subcontractorId: zed, taxMonth: current });
    await stack.harness.call(admin, 'POST', `/returns/${current}/compile`);

    const page = await stack.newPage('accountant@demo.test');

    // The dashboard: the deadlines within warningDays (30) as alerts, critical ones as errors.
    await page.goto(`${baseUrl}/cis`);
    const alerts = deadlineAlerts({ today, warningDays: WARNING_DAYS });
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) {
      const shown = page.locator('.ant-alert', { hasText: alert.message });
      await visible(shown);
      expect(await shown.getAttribute('data-severity')).toBe(alert.severity);
      expect(await shown.getAttribute('class')).toContain(
        alert.severity === 'critical' ? 'ant-alert-error' : 'ant-alert-warning',
      );
    }
    await page.screenshot({ path: `${shots}/cis-details-dashboard-alerts.png`, fullPage: true });

    // Statements: the deadline banner of this tax month; the rows by generated date, newest first.
    await page.goto(`${baseUrl}/cis/statements`);
    const period = taxMonthPeriod(current);
    const deadline = addDays(period.endDate, STATEMENT_DEADLINE_DAYS);
    const remaining = daysBetween(today, deadline);
    const days = Math.abs(remaining);
    const plural = days === 1 ? 'day' : 'days';
    const [state, title] =
      remaining < 0
        ? ['overdue', `Statements overdue: they were due on ${uk(deadline)} (${days} ${plural} ago)`]
        : remaining <= 3
          ? ['urgent', `Statements due in ${days} ${plural}: by ${uk(deadline)}`]
          : ['pending', `Statements due by ${uk(deadline)} (${days} ${plural} remaining)`];
    const banner = page.locator(`.ant-alert[data-state="${state}"]`);
    await visible(banner.getByText(title, { exact: true }));
    // The period as HMRC names it (issue 13).
    await visible(banner.getByText(taxMonthTitle(current), { exact: true }));
    const statementRows = page.locator('.ant-table-tbody tr.ant-table-row a[href^="/cis/subcontractors/"]');
    await until(
      () => statementRows.allTextContents(),
      (names) => names.length === 3,
      'the three statement rows',
    );
    expect(await statementRows.allTextContents()).toEqual(['Zed Later', 'Aaron Early', 'Hana Hist']);
    await page.screenshot({ path: `${shots}/cis-details-statements.png`, fullPage: true });

    // Hana's statement PDF (opened in a new tab): the notice to keep records for at least 6 years.
    const hanaRow = page.locator('tr', { hasText: 'Hana Hist' }).first();
    const [pdfResponse] = await Promise.all([
      page
        .context()
        .waitForEvent('response', (response) =>
          /\/api\/cis\/statements\/[0-9a-f]{16}\/pdf$/.test(response.url()),
        ),
      hanaRow.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(pdfResponse.status()).toBe(200);
    // The tab's own answer when Chromium keeps it; else the same document fetched with the page's cookies.
    const fromTab = await pdfResponse.body().catch(() => Buffer.alloc(0));
    const bytes =
      fromTab.subarray(0, 5).toString('latin1') === '%PDF-'
        ? fromTab
        : await (await page.request.get(pdfResponse.url())).body();
    expect(pdfResponse.headers()['content-type']).toContain('application/pdf');
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    expect(text).toContain('Keep this statement: you must keep records for at least 6 years.');
    expect(text).toContain('Hana Hist');

    // Returns: the current card's totals.
    await page.goto(`${baseUrl}/cis/returns`);
    const card = page.getByTestId('current-return');
    /** The content cell next to the label cell (antd's bordered Descriptions). */
    const valueOf = async (name: string) => {
      const labelCell = card.locator('.ant-descriptions-item-label', { hasText: new RegExp(`^${name}$`) });
      await visible(labelCell);
      return (await labelCell.locator('xpath=following-sibling::*[1]').textContent()) ?? '';
    };
    expect(await valueOf('Subcontractors')).toBe('3');
    expect(await valueOf('Total CIS Deducted')).toBe('£160.00');
    expect(await valueOf('Total Gross')).toBe('£2,000.00');

    // History (issue 13): every month but the one in view (this one), newest first, 12 to a page: last month and
    // the 12 before it, the 13th on page two.
    const history = page.getByTestId('return-history');
    const rows = history.locator('tr.ant-table-row');
    await visible(rows.first());
    expect(await rows.count()).toBe(12);
    const expectedLabels = [previous];
    while (expectedLabels.length < 13)
      expectedLabels.push(previousTaxMonth(expectedLabels.at(-1) ?? previous));
    const labels: string[] = [];
    for (let index = 0; index < 12; index++)
      labels.push((await rows.nth(index).locator('td').nth(1).textContent()) ?? '');
    expect(labels).toEqual(expectedLabels.slice(0, 12).map(taxMonthTitle));
    expect(await history.getByText(taxMonthTitle(current), { exact: true }).count()).toBe(0);
    await page.screenshot({ path: `${shots}/cis-details-returns-history.png`, fullPage: true });

    // Last month's row: period, Submitted, its deadline, its penalty, subcontractor count, CIS total and Submitted date.
    const previousRow = rows.nth(0);
    const cells = previousRow.locator('td');
    await visible(cells.nth(2).locator('.ant-tag', { hasText: /^Submitted$/ }));
    // Submitted today: after its filing deadline, HMRC's first £100 penalty (filed late).
    const filing = taxMonthPeriod(previous).deadlines.filing;
    expect(await cells.nth(3).textContent()).toBe(uk(filing));
    expect(await cells.nth(4).textContent()).toBe(today > filing ? '£100.00' : '-');
    expect(await cells.nth(5).textContent()).toBe('1');
    expect(await cells.nth(6).textContent()).toBe('£160.00');
    expect(await cells.nth(7).textContent()).toBe(uk(today));

    // Expanded: the totals and Export CSV, which downloads the return's lines under its id.
    await previousRow.locator('.ant-table-row-expand-icon').click();
    const expanded = history.locator('tr.ant-table-expanded-row');
    await visible(expanded);
    for (const [name, value] of [
      ['Total Gross', '£1,000.00'],
      ['Total Materials', '£200.00'],
      ['Total CIS', '£160.00'],
    ] as const) {
      await visible(expanded.locator('.ant-descriptions-item-label').getByText(name, { exact: true }));
      await visible(expanded.locator('.ant-descriptions-item-content').getByText(value, { exact: true }));
    }
    await page.screenshot({ path: `${shots}/cis-details-returns-expanded.png`, fullPage: true });
    const [returnCsv] = await Promise.all([
      page.waitForEvent('download'),
      expanded.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(returnCsv.suggestedFilename()).toBe(
      `cis-return-${taxMonthFilePart(previousId.slice(0, 7))}${previousId.slice(7).replace(/[^A-Za-z0-9._-]/g, '_')}.csv`,
    );
    const returnLines = (await savedText(returnCsv)).split(/\r?\n/).filter(Boolean);
    expect(returnLines[0]).toBe('Subcontractor,UTR,NINO,Gross,Materials,CIS Deducted,CIS Rate,Invoices');
    expect(returnLines).toHaveLength(2);
    expect(returnLines[1]).toMatch(new RegExp(`^Hana Hist,\\*{6}${hanaIds.utr.slice(-4)},`));

    // Page two: the 13th month.
    await history.locator('.ant-pagination-item-2').click();
    await until(
      () => rows.allTextContents(),
      (texts) => texts.length === 1 && texts[0]?.includes(taxMonthTitle(expectedLabels[12] ?? '')) === true,
      'page two of the history',
    );
    await page.context().close();
  });

  it('the accountant’s invoice list is newest invoice date first; an invoice without a known status shows as a draft; the VAT rate message appears on the import and in the form', async () => {
    const olly = await subcontractor('Olly Order', {}, 'standard');
    // Made in an order that is neither the dates' nor the numbers'.
    await invoice('ORD-OLDEST', olly, addDays(today, -20));
    const newest = await invoice('ORD-NEWEST', olly, addDays(today, -1));
    await invoice('ORD-MIDDLE', olly, addDays(today, -9));
    const page = await stack.newPage('accountant@demo.test');
    const numbers = () =>
      page.locator('.ant-table-tbody tr.ant-table-row td a[href^="/cis/invoices/"]').allTextContents();
    await page.goto(`${baseUrl}/cis/invoices?search=ORD-`);
    await until(numbers, (rows) => rows.length === 3, 'the three ORD invoices');
    expect(await numbers()).toEqual(['ORD-NEWEST', 'ORD-MIDDLE', 'ORD-OLDEST']);

    // A missing and an unknown status both display as Draft, with the draft's actions.
    const withoutStatus = async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { items: Record<string, unknown>[] };
      for (const item of body.items) {
        if (item.invoiceNumber === 'ORD-NEWEST') delete item.status;
        if (item.invoiceNumber === 'ORD-MIDDLE') item.status = 'mystery';
      }
      await route.fulfill({ response, json: body });
    };
    const invoiceList = (url: URL) => url.pathname === '/api/cis/invoices';
    await page.route(invoiceList, withoutStatus);
    await page.goto(`${baseUrl}/cis/invoices?search=ORD-`);
    for (const number of ['ORD-NEWEST', 'ORD-MIDDLE']) {
      const row = page.locator('tr', { hasText: number });
      await visible(row.locator('.ant-tag', { hasText: /^Draft$/ }));
      await visible(row.getByRole('button', { name: `Edit ${number}` }));
      await visible(row.getByRole('button', { name: `Approve ${number}` }));
    }
    await page.screenshot({ path: `${shots}/cis-details-invoice-without-status.png` });
    await page.unroute(invoiceList, withoutStatus);
    const detail = (url: URL) => url.pathname === `/api/cis/invoices/${newest}`;
    const noStatus = async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { invoice: Record<string, unknown> };
      delete body.invoice.status;
      await route.fulfill({ response, json: body });
    };
    await page.route(detail, noStatus);
    await page.goto(`${baseUrl}/cis/invoices/${newest}`);
    await visible(page.getByText('Invoice ORD-NEWEST'));
    await visible(page.locator('.ant-tag', { hasText: /^Draft$/ }));
    await visible(page.getByRole('button', { name: 'Approve' }));
    await visible(page.getByRole('button', { name: 'Edit' }));
    await page.unroute(detail, noStatus);

    // The VAT rate message: an imported row at 17.5 %, and the form with a stored rate it does not offer.
    await page.goto(`${baseUrl}/cis/invoices/import`);
    const csv = [
      'Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge,Description',
      `VAT-BAD,Olly Order,${uk(today)},100.00,0,17.5,No,Odd VAT`,
    ].join('\r\n');
    await page.locator('input[type=file]').setInputFiles({
      name: 'vat.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await visible(page.getByText('Loaded vat.csv'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const results = page.getByTestId('import-results');
    await visible(results.getByText('1 row had errors'));
    await visible(results.getByText('VAT rate must be 0%, 5%, or 20%'));
    await page.screenshot({ path: `${shots}/cis-details-import-vat.png`, fullPage: true });

    const oddRate = async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { invoice: Record<string, unknown> };
      body.invoice.vatRate = 17.5;
      await route.fulfill({ response, json: body });
    };
    await page.route(detail, oddRate);
    await page.goto(`${baseUrl}/cis/invoices/${newest}/edit`);
    const form = page.getByTestId('invoice-form');
    await until(
      () => form.getByLabel('Invoice number').inputValue(),
      (value) => value === 'ORD-NEWEST',
      'the loaded invoice',
    );
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await visible(fieldError(form, 'VAT rate must be 0%, 5%, or 20%'));
    await page.screenshot({ path: `${shots}/cis-details-form-vat.png`, fullPage: true });
    await page.unroute(detail, oddRate);
    await page.context().close();
  });
});
