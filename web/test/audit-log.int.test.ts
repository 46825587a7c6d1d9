// Browser journeys of the audit log (docs/audit.md "The audit screen"): an invoice approved in CIS appears at once on
// an auditor's open audit log (live), named by its approver; the filters narrow it; the CSV export downloads what the
// filters select with its cells neutralised; a crash of the CIS screens is reported through audit_logEvent; Verify
// chain reports an intact chain, then the entry an administrator edited behind the service's back; a user without an
// audit scope has no entry and meets Access Restricted. Debian's Chromium against the real stack (PostgreSQL, Kafka,
// identity with the dev OIDC provider, notification, cis, the audit service consuming cis.events.v1, the bff serving
// the built bundles); one stack for the whole file.
import { readFileSync } from 'node:fs';
import type { Locator, Page, Route } from 'playwright-core';
import { addDays, londonDate } from '@workspace/cis/domain';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  invoiceBody,
  portalTokenOf,
  settingsBody,
  type CisHarness,
} from '@workspace/cis/testing';
import { shots, visible } from './browser.js';
import { auditStackPerFile, type AuditBrowserStack } from './audit-stack.js';
import { choose, until } from './cis-stack.js';

let stack: AuditBrowserStack;
let harness: CisHarness;
let baseUrl: string;
let invoiceId = '';
let subcontractorId = '';
/** The auditor's page: admin@demo.test (the admin role holds every tenant scope, audit.read among them). */
let auditor: Page;

const today = londonDate(new Date());
const ADMIN_UID = '00000000-0000-4000-8000-000000000001';

async function seed(): Promise<void> {
  const token = await harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await harness.call(token, method, path, body);
    if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
    return result.body;
  };
  await call('PUT', '/settings', settingsBody());
  const created = (await call('POST', '/subcontractors', {
    type: 'individual',
    name: 'Alice Mason',
    utr: '1234567890',
    email: 'alice@mason.test',
    registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
    gdprConsent: true,
  })) as { subcontractor: { id: string } };
  subcontractorId = created.subcontractor.id;
  const invoice = (await call(
    'POST',
    '/invoices',
    invoiceBody(created.subcontractor.id, { invoiceNumber: 'INV-AUDIT-1', invoiceDate: addDays(today, -2) }),
  )) as { invoice: { id: string } };
  invoiceId = invoice.invoice.id;
}

auditStackPerFile(async (started) => {
  stack = started;
  ({ harness, baseUrl } = stack);
  await seed();
  auditor = await stack.newPage('admin@demo.test');
});

const rows = (page: Page) => page.locator('[data-testid="audit-log"] .ant-table-tbody tr.ant-table-row');
const rowOf = (page: Page, text: string) => rows(page).filter({ hasText: text });
const cellTexts = async (row: Locator) =>
  (await row.locator('td').allInnerTexts()).map((text) => text.trim());

/** Types into a filter field and commits it with Enter (the list refetches with it, the address keeps it). */
async function filterBy(page: Page, label: string, value: string): Promise<void> {
  const field = page.getByLabel(label);
  await field.fill(value);
  await field.press('Enter');
}

/** The rows' actions once the list shows what `expected` says (it refetches after each filter change). */
async function actionsShown(page: Page, expected: (actions: string[]) => boolean): Promise<string[]> {
  return until(
    async () => {
      if ((await page.locator('[data-testid="audit-log"] .ant-spin-spinning').count()) > 0) return [];
      return Promise.all((await rows(page).all()).map(async (row) => (await cellTexts(row))[2] ?? ''));
    },
    expected,
    'the audit log rows',
  );
}

/** Opens the navigation (the top bar's menu button, the default layout) and answers its entries. */
async function navigationEntries(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const nav = page.getByRole('dialog', { name: 'Workspace' }).getByRole('menu', { name: 'Modules' });
  await visible(nav.getByRole('menuitem').first());
  return (await nav.getByRole('menuitem').allTextContents()).map((text) => text.trim());
}

/** Records `count` client events (cis.export.subcontractors, targets `${prefix}-0`...) through the bff, as the page. */
async function logClientEvents(page: Page, count: number, prefix: string): Promise<void> {
  const statuses = await page.evaluate(
    async ({ count, prefix }) => {
      const session = (await (await fetch('/api/auth/session')).json()) as { csrfToken: string };
      const answers: number[] = [];
      for (let i = 0; i < count; i++) {
        const res = await fetch('/api/audit/client-events', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
          body: JSON.stringify({
            action: 'cis.export.subcontractors',
            targetId: `${prefix}-${i}`,
            payload: {},
          }),
        });
        answers.push(res.status);
      }
      return answers;
    },
    { count, prefix },
  );
  expect(new Set(statuses)).toEqual(new Set([202]));
}

describe('the audit log (issue 15)', () => {
  it('an invoice approved in CIS appears at once on the open audit log (live), named by its approver, with its details', async () => {
    await auditor.goto(`${baseUrl}/`);
    expect(await navigationEntries(auditor)).toEqual(['Drive', 'CIS', 'Audit log', 'Settings']);
    await auditor.getByRole('dialog', { name: 'Workspace' }).getByRole('link', { name: 'Audit log' }).click();
    await auditor.waitForURL(`${baseUrl}/audit`);
    await visible(auditor.getByRole('heading', { name: 'Audit log' }));
    await visible(auditor.getByText('Every recorded action in', { exact: false }));

    // Another session approves the draft in CIS while the audit log stays open.
    const approver = await stack.newPage('admin@demo.test');
    await approver.goto(`${baseUrl}/cis/invoices/${invoiceId}`);
    await approver.getByRole('button', { name: 'Approve' }).click();
    await visible(approver.getByText('Invoice approved'));
    await approver.context().close();

    const approved = rowOf(auditor, 'cis.invoice.approved').filter({ hasText: invoiceId });
    await visible(approved);
    const [, time, action, module, actor, target, source] = await cellTexts(approved);
    expect(time).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
    expect(time?.slice(0, 10)).toBe(today.split('-').reverse().join('/'));
    expect({ action, module, actor, target, source }).toEqual({
      action: 'cis.invoice.approved',
      module: 'cis',
      actor: 'Ada Admin',
      target: invoiceId,
      source: 'cis service',
    });
    await auditor.screenshot({ path: `${shots}/audit-log-live-entry.png`, fullPage: true });

    // The row opens to its details: entry number, payload, source event and the chain's hashes.
    await approved.getByRole('button', { name: /expand row/i }).click();
    const details = auditor.locator('.ant-table-expanded-row:visible').first();
    await visible(details.getByText('Previous hash'));
    expect(await details.getByText(/^#\d+$/).count()).toBe(1);
    await auditor.screenshot({ path: `${shots}/audit-log-entry-details.png`, fullPage: true });
  });

  it('further back than page 1, new entries wait behind a notice, and Show newest opens page 1 with them', async () => {
    // More than a page of this user's client events, then page 2 of them.
    await logClientEvents(auditor, 26, 'page-fill');
    await auditor.goto(`${baseUrl}/audit?action=cis.export.subcontractors&actorId=${ADMIN_UID}&page=2`);
    await visible(rowOf(auditor, 'page-fill-0'));
    expect(await rowOf(auditor, 'page-fill-25').count()).toBe(0);
    await logClientEvents(auditor, 1, 'arrived-late');
    const notice = auditor.getByTestId('new-entries');
    // Only what the filters select is counted (other entries of the tenant arrive on the stream too).
    await visible(notice.getByText('1 new entry since this page was loaded', { exact: true }));
    expect(await rowOf(auditor, 'arrived-late-0').count()).toBe(0);
    await auditor.screenshot({ path: `${shots}/audit-log-new-entries-notice.png`, fullPage: true });
    await notice.getByRole('button', { name: 'Show newest' }).click();
    await auditor.waitForURL(`${baseUrl}/audit?action=cis.export.subcontractors&actorId=${ADMIN_UID}`);
    await visible(rowOf(auditor, 'arrived-late-0'));
    expect(await notice.count()).toBe(0);
  });

  it('the filters narrow the list by action, target, actor and date range, and the address keeps them', async () => {
    await auditor.goto(`${baseUrl}/audit`);
    await filterBy(auditor, 'Action filter', 'cis.invoice.approved');
    await auditor.waitForURL(/action=cis\.invoice\.approved/);
    await actionsShown(
      auditor,
      (actions) => actions.length > 0 && actions.every((action) => action === 'cis.invoice.approved'),
    );

    await filterBy(auditor, 'Target filter', invoiceId);
    await auditor.waitForURL(new RegExp(`targetId=${invoiceId}`));
    await actionsShown(auditor, (actions) => actions.join() === 'cis.invoice.approved');

    await choose(auditor, auditor.getByLabel('Actor filter'), 'Ada Admin');
    await auditor.waitForURL(new RegExp(`actorId=${ADMIN_UID}`));
    await actionsShown(auditor, (actions) => actions.join() === 'cis.invoice.approved');
    await auditor.screenshot({ path: `${shots}/audit-log-filtered.png`, fullPage: true });

    // A date range before the approval: nothing; the pickers show the days in UK form.
    await auditor.goto(
      `${baseUrl}/audit?action=cis.invoice.approved&targetId=${invoiceId}&from=2020-01-01&to=2020-01-31`,
    );
    await visible(auditor.getByText('No audit entries found'));
    await visible(auditor.getByText('Try adjusting your filters'));
    expect(await auditor.getByPlaceholder('From').inputValue()).toBe('01/01/2020');
    expect(await auditor.getByPlaceholder('To').inputValue()).toBe('31/01/2020');
    await auditor.screenshot({ path: `${shots}/audit-log-empty-range.png`, fullPage: true });
    // Today's range finds it again.
    await auditor.goto(
      `${baseUrl}/audit?action=cis.invoice.approved&targetId=${invoiceId}&from=${today}&to=${today}`,
    );
    await actionsShown(auditor, (actions) => actions.join() === 'cis.invoice.approved');

    await auditor.getByRole('button', { name: 'Clear filters' }).click();
    await auditor.waitForURL(`${baseUrl}/audit`);
  });

  it('a crash of the CIS screens is reported through audit_logEvent as cis.error (source: the browser)', async () => {
    const page = await stack.newPage('admin@demo.test');
    const malformed = (route: Route) => route.fulfill({ status: 200, json: {} });
    await page.route('**/api/cis/dashboard', malformed);
    const sent = page.waitForResponse('**/api/audit/client-events');
    await page.goto(`${baseUrl}/cis`);
    await visible(page.getByText('Something went wrong in this section. The error has been reported.'));
    expect((await sent).status()).toBe(202);
    await page.context().close();

    await auditor.goto(`${baseUrl}/audit?action=cis.error&actorId=${ADMIN_UID}`);
    const reported = rowOf(auditor, 'cis.error').first();
    await visible(reported);
    const [, , action, module, actor, target, source] = await cellTexts(reported);
    expect({ action, module, actor, target, source }).toEqual({
      action: 'cis.error',
      module: 'cis',
      actor: 'Ada Admin',
      target: '/cis',
      source: 'Browser',
    });
    await auditor.screenshot({ path: `${shots}/audit-log-client-event.png`, fullPage: true });
  });

  it('Export CSV downloads the filtered entries, every cell a spreadsheet could run neutralised', async () => {
    // A client event whose target starts with '=' (what a formula injection looks like), through the bff's audit_logEvent.
    const answer = await auditor.evaluate(async () => {
      const session = (await (await fetch('/api/auth/session')).json()) as { csrfToken: string };
      const res = await fetch('/api/audit/client-events', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({
          action: 'cis.export.invoices',
          targetId: '=HYPERLINK("http://evil.test")',
          payload: { format: 'csv', rows: 3 },
        }),
      });
      return { status: res.status, body: (await res.json()) as { accepted: boolean; id: string } };
    });
    expect(answer.status).toBe(202);
    expect(answer.body.accepted).toBe(true);

    await auditor.goto(`${baseUrl}/audit?action=cis.export.invoices&actorId=${ADMIN_UID}`);
    await visible(rowOf(auditor, '=HYPERLINK'));
    const [download] = await Promise.all([
      auditor.waitForEvent('download'),
      auditor.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    const [header, ...entries] = csv.trim().split(/\r?\n/);
    expect(header).toMatch(/^"?Seq"?,"?Occurred at"?,/);
    expect(entries.length).toBeGreaterThanOrEqual(1);
    // Only what the filters select (this action, this actor), the formula neutralised (a leading apostrophe), never a
    // cell starting with '='.
    for (const line of entries) expect(line).toMatch(/,"?cis\.export\.invoices"?,/);
    expect(csv).not.toContain('cis.invoice.approved');
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv).not.toMatch(/(^|,)"?=HYPERLINK/m);
    await auditor.screenshot({ path: `${shots}/audit-log-export.png`, fullPage: true });
  });

  it('Verify chain reports the chain intact, then the first entry changed behind the service’s back', async () => {
    await auditor.goto(`${baseUrl}/audit`);
    await auditor.getByRole('button', { name: 'Verify chain' }).click();
    const result = auditor.getByTestId('verify-result');
    await visible(result.getByText('Audit chain verified: no entry has been changed, removed or reordered'));
    await auditor.screenshot({ path: `${shots}/audit-log-verified.png`, fullPage: true });

    // Someone with database access rewrites the approval's target: verify names that entry.
    const [edited] = await stack.auditSql<{ seq: string }>(
      `UPDATE audit_entries SET target_id = 'rewritten'
         WHERE tenant_id = 'demo' AND action = 'cis.invoice.approved' AND target_id = $1 RETURNING seq`,
      [invoiceId],
    );
    expect(edited).toBeDefined();
    await result.locator('.ant-alert-close-icon').click();
    await auditor.getByRole('button', { name: 'Verify chain' }).click();
    await visible(result.getByText(`Audit chain broken at entry #${edited?.seq ?? ''}`));
    await auditor.screenshot({ path: `${shots}/audit-log-broken.png`, fullPage: true });
  });

  it('a user without an audit scope has no Audit log entry; /audit shows Access Restricted and the service refuses', async () => {
    const viewer = await stack.newPage('viewer@demo.test');
    expect(await navigationEntries(viewer)).not.toContain('Audit log');
    await viewer.keyboard.press('Escape');
    await viewer.goto(`${baseUrl}/audit`);
    await visible(viewer.getByText('Access Restricted'));
    await visible(viewer.getByText("You don't have permission to view the audit log"));
    await visible(viewer.getByText('audit.read', { exact: true }));
    const status = await viewer.evaluate(async () => (await fetch('/api/audit/entries')).status);
    expect(status).toBe(403);
    await viewer.screenshot({ path: `${shots}/audit-log-access-restricted.png`, fullPage: true });
    await viewer.context().close();
  });

  it('a CIS clerk (cis.audit.read only) reads the CIS entries, without Verify chain (audit.read)', async () => {
    const clerk = await stack.newPage('clerk@demo.test');
    expect(await navigationEntries(clerk)).toContain('Audit log');
    await clerk.keyboard.press('Escape');
    await clerk.goto(`${baseUrl}/audit`);
    await visible(clerk.getByText('The CIS entries of', { exact: false }));
    const modules = await until(
      async () => Promise.all((await rows(clerk).all()).map(async (row) => (await cellTexts(row))[3] ?? '')),
      (shown) => shown.length > 0,
      'the clerk’s rows',
    );
    expect(new Set(modules)).toEqual(new Set(['cis']));
    expect(await clerk.getByRole('button', { name: 'Verify chain' }).count()).toBe(0);
    expect(await clerk.getByRole('button', { name: 'Export CSV' }).count()).toBe(1);
    await clerk.screenshot({ path: `${shots}/audit-log-module-reader.png`, fullPage: true });
    // On a phone (390 px) the page does not scroll sideways: the table scrolls inside its frame.
    await clerk.setViewportSize({ width: 390, height: 844 });
    await visible(rows(clerk).first());
    const widths = await clerk.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
        .document;
      return { page: root.documentElement.scrollWidth };
    });
    expect(widths.page).toBeLessThanOrEqual(390);
    await clerk.screenshot({ path: `${shots}/audit-log-phone.png`, fullPage: true });
    await clerk.context().close();
  });
  it("names the services' own doings System, a subcontractor's portal change Subcontractor (portal), and the deadline notice", async () => {
    // 18 January 2027 (the business clock): a return is due tomorrow and cis's daily deadline scan tells it
    // (cis.deadline.alerted, no person behind it).
    harness.clock.set(new Date('2027-01-18T09:00:00Z'));
    try {
      expect((await harness.definition.deadlineScan().runOnce()).alerted).toBeGreaterThan(0);
    } finally {
      harness.clock.set(new Date());
    }
    // The subcontractor changes their phone in the portal (cis.subcontractor.updated by portal:<their id>).
    const portal = await portalTokenOf(harness, await harness.signInAs('admin@demo.test'), subcontractorId);
    const changed = await harness.call(portal, 'PUT', `/portal/subcontractors/${subcontractorId}`, {
      phone: '07700900123',
      registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA' },
    });
    expect(changed.status).toBe(200);

    await auditor.goto(`${baseUrl}/audit?action=cis.deadline.alerted`);
    await actionsShown(auditor, (shown) => shown.length > 0);
    const notice = await cellTexts(rows(auditor).first());
    expect(notice[2]).toContain('cis.deadline.alerted');
    expect(notice[2]).toContain('CIS deadline notice');
    expect(notice[4]).toBe('System');
    await auditor.screenshot({ path: `${shots}/audit-log-system-actor.png`, fullPage: true });

    await auditor.goto(`${baseUrl}/audit?action=cis.subcontractor.updated&targetId=${subcontractorId}`);
    const updates = await until(
      async () =>
        Promise.all((await rows(auditor).all()).map(async (row) => (await cellTexts(row))[4] ?? '')),
      (actors) => actors.includes('Subcontractor (portal)'),
      'the portal change',
    );
    expect(updates).toContain('Subcontractor (portal)');
    await auditor.screenshot({ path: `${shots}/audit-log-portal-actor.png`, fullPage: true });

    // The action filter offers the notice by its name too, and the actor filter offers System.
    await auditor.goto(`${baseUrl}/audit`);
    await auditor.getByLabel('Action filter').fill('deadline');
    await visible(
      auditor.locator('.ant-select-item-option', { hasText: 'cis.deadline.alerted (CIS deadline notice)' }),
    );
    await auditor.screenshot({ path: `${shots}/audit-log-action-names.png` });
    await auditor.keyboard.press('Escape');
  });
});
