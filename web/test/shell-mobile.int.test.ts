// Browser journeys of the staff app's first screen and its phone layout (issue 13): the first screen after sign-in
// is a real module page, the navigation offers only the modules this version has, the main pages fit a 390 px
// phone without sideways scrolling and with their titles whole, the demo tenant's Role Permissions panel opens
// without errors and in words, and a first page load asks for what it needs at once. Debian's Chromium driven by
// playwright-core against the CIS stack (identity with the dev OIDC provider, cis, the bff serving web/dist).
import type { Browser, Page, Request, Route } from 'playwright-core';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  createSubcontractor,
  invoiceBody,
  settingsBody,
  type CisHarness,
} from '@workspace/cis/testing';
import { shots, signInThroughPages, visible } from './browser.js';
import { cisStackPerFile } from './cis-stack.js';

let browser: Browser;
let harness: CisHarness;
let baseUrl: string;
const ids: { subcontractor?: string; invoice?: string } = {};

cisStackPerFile(async (stack) => {
  ({ browser, harness, baseUrl } = stack);
  // Something in each list, so the tables have their full width of columns.
  const admin = await harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
  const settings = await harness.call(admin, 'PUT', '/settings', settingsBody());
  if (settings.status !== 200) throw new Error(`settings: ${settings.status} ${settings.text}`);
  const subcontractor = await createSubcontractor(harness, admin, { name: 'Maximilian Longname-Brickworks' });
  const invoice = await harness.call(admin, 'POST', '/invoices', invoiceBody(subcontractor));
  if (invoice.status !== 201) throw new Error(`invoice: ${invoice.status} ${invoice.text}`);
  ids.subcontractor = subcontractor;
  ids.invoice = (invoice.body.invoice as { id: string }).id;
});

const PHONE = { width: 390, height: 844 };

async function signedIn(email: string, viewport = PHONE): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/London' });
  const page = await context.newPage();
  await signInThroughPages(page, baseUrl, email);
  return page;
}

/** The document's scroll width against its client width (no sideways scrolling: the first is not larger). */
function documentWidths(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
}

/** Whether the element is whole: inside the viewport's width and not cut by its own box (no ellipsis, no clip). */
async function wholeWithin(
  page: Page,
  locator: ReturnType<Page['locator']>,
  width: number,
): Promise<boolean> {
  await visible(locator);
  const box = await locator.boundingBox();
  const own = await locator.evaluate((element) => {
    const e = element as { scrollWidth: number; clientWidth: number };
    return e.scrollWidth <= e.clientWidth;
  });
  return box !== null && box.x >= 0 && box.x + box.width <= width && own;
}

describe('the staff app’s first screen and phone layout in Chromium', () => {
  it('after sign-in the first screen is the first module’s (the drive’s overview), and the navigation lists Drive, CIS, Audit log and Settings', async () => {
    const page = await signedIn('admin@demo.test', { width: 1366, height: 900 });
    // The drive's address (this stack runs no drive service: its screens' data is not what is checked here).
    await page.waitForURL(/\/drive(\/overview)?$/);
    expect(await page.getByText('not available in this version', { exact: false }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const nav = page.getByRole('menu', { name: 'Modules' }).last();
    await visible(nav.getByRole('menuitem', { name: 'CIS' }));
    expect((await nav.getByRole('menuitem').allTextContents()).map((text) => text.trim())).toEqual([
      'Drive',
      'CIS',
      'Audit log',
      'Settings',
    ]);
    await page.screenshot({ path: `${shots}/shell-mobile-first-screen.png` });
    await page.keyboard.press('Escape');
    // A catalogue module without screens in this version is not routed to: its address opens the first screen.
    await page.goto(`${baseUrl}/schedule`);
    await page.waitForURL(/\/drive(\/overview)?$/);
    // The CIS dashboard is a click away.
    await page.goto(`${baseUrl}/cis`);
    await visible(page.getByTestId('cis-module'));
    await visible(page.locator('.ant-card', { has: page.getByText('Quick Actions', { exact: true }) }));
    // No page title carries a List, Form or Detail tag.
    for (const path of ['/cis/invoices', '/cis/invoices/new']) {
      await page.goto(`${baseUrl}${path}`);
      await visible(page.getByTestId('page-title'));
      expect(await page.getByTestId('cis-top-bar').locator('.ant-tag').count()).toBe(0);
    }
    await page.context().close();
  });

  it('at 390 px the main pages have no sideways scroll and show their titles whole', async () => {
    const page = await signedIn('admin@demo.test');
    const pages = [
      { path: '/cis', title: 'CIS Dashboard', ready: page.getByText('Quick Actions', { exact: true }) },
      { path: '/cis/invoices', title: 'Invoices', ready: page.getByRole('link', { name: 'INV-1' }) },
      {
        path: '/cis/subcontractors',
        title: 'Subcontractors',
        ready: page.getByRole('link', { name: 'Maximilian Longname-Brickworks' }),
      },
      { path: '/cis/returns', title: 'Returns', ready: page.locator('.ant-card').first() },
      { path: '/cis/settings', title: 'CIS Settings', ready: page.getByTestId('role-permissions') },
      { path: '/cis/invoices/new', title: 'Invoices', ready: page.getByLabel('Invoice number') },
      // And the other screens: a record's details (its card's actions wrap below), statements, analytics.
      {
        path: `/cis/subcontractors/${ids.subcontractor ?? ''}`,
        title: 'Subcontractors',
        ready: page.getByRole('button', { name: 'Back to list' }),
      },
      {
        path: `/cis/invoices/${ids.invoice ?? ''}`,
        title: 'Invoices',
        ready: page.getByText('Amounts', { exact: true }),
      },
      { path: '/cis/statements', title: 'Statements', ready: page.locator('.ant-card').first() },
      { path: '/cis/analytics', title: 'Analytics', ready: page.locator('.ant-card').first() },
    ];
    for (const { path, title, ready } of pages) {
      await page.goto(`${baseUrl}${path}`);
      await visible(ready);
      const heading = page.getByTestId('page-title');
      expect(await heading.textContent()).toBe(title);
      expect(await wholeWithin(page, heading, PHONE.width)).toBe(true);
      const widths = await documentWidths(page);
      expect({ path, ...widths, fits: widths.scrollWidth <= widths.clientWidth }).toMatchObject({
        path,
        fits: true,
      });
      // The shell's top bar: the organisation's name, the avatar and Sign out, all inside the screen.
      expect(await wholeWithin(page, page.getByRole('button', { name: 'Sign out' }), PHONE.width)).toBe(true);
      await page.screenshot({
        path: `${shots}/shell-mobile-390${path.replace(/\//g, '-').replace(/-[0-9a-f-]{36}$/, '-one')}.png`,
        fullPage: true,
      });
    }
    // A wide table scrolls inside its own box.
    await page.goto(`${baseUrl}/cis/invoices`);
    await visible(page.getByRole('link', { name: 'INV-1' }));
    const table = page.locator('.ant-table-content').first();
    expect(
      await table.evaluate((element) => {
        const e = element as { scrollWidth: number; clientWidth: number };
        return e.scrollWidth > e.clientWidth;
      }),
    ).toBe(true);
    // The organisation's settings.
    await page.goto(`${baseUrl}/settings/appearance`);
    const settingsTitle = page.getByRole('heading', { name: 'Settings', exact: true });
    await visible(page.getByRole('button', { name: 'Apply Changes' }));
    expect(await wholeWithin(page, settingsTitle, PHONE.width)).toBe(true);
    const widths = await documentWidths(page);
    expect(widths.scrollWidth).toBeLessThanOrEqual(widths.clientWidth);
    await page.screenshot({ path: `${shots}/shell-mobile-390-settings-appearance.png`, fullPage: true });
    await page.context().close();
  });

  it('the demo tenant’s Role Permissions panel opens without errors, its permissions and findings in words', async () => {
    const page = await signedIn('admin@demo.test');
    await page.goto(`${baseUrl}/cis/settings`);
    const panel = page.getByTestId('role-permissions');
    await visible(panel);
    expect(await panel.locator('.ant-alert-error').count()).toBe(0);
    const names = await panel.locator('.ant-table-tbody tr.ant-table-row td:first-child').allTextContents();
    expect(names[0]).toBe('Submit CIS returns');
    expect(await panel.textContent()).not.toMatch(/cis\.[a-z]/);
    // The one finding left is the spec's template's own: the accountant creates and approves invoices.
    expect(await panel.locator('.ant-alert-warning li').allTextContents()).toEqual([
      "Role 'cis-accountant' can both create and approve invoices (separation of duties)",
    ]);
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${shots}/shell-mobile-role-permissions.png` });
    await page.context().close();
  });

  it('a first load of a CIS page asks for the session, the CIS screens and the abilities at once', async () => {
    const page = await signedIn('admin@demo.test', { width: 1366, height: 900 });
    // The session's answer is held: what the page asks for meanwhile did not wait for it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const asked: string[] = [];
    const record = (request: Request) => {
      asked.push(new URL(request.url()).pathname);
    };
    await page.route('**/api/auth/session', async (route: Route) => {
      await held;
      await route.continue();
    });
    page.on('request', record);
    // Before the change the dashboard was asked for only after the session, the chunk and the abilities: never
    // while the session is held.
    const dashboardAsked = page.waitForRequest('**/api/cis/dashboard', { timeout: 15_000 });
    await page.goto(`${baseUrl}/cis`, { waitUntil: 'commit' });
    await dashboardAsked;
    const before = [...asked];
    release();
    await visible(page.locator('.ant-card', { has: page.getByText('Quick Actions', { exact: true }) }));
    page.off('request', record);
    expect(before).toEqual(
      expect.arrayContaining([
        '/api/auth/session',
        '/api/cis/me/abilities',
        '/api/cis/dashboard',
        '/api/tenant/footer',
        '/api/tenant/logo/settings',
      ]),
    );
    expect(before.some((path) => /\/assets\/CisApp-.*\.js$/.test(path))).toBe(true);
    await page.context().close();
  });

  it('a first load of a filtered invoice list asks for its page of invoices while the session is still on its way', async () => {
    const page = await signedIn('admin@demo.test', { width: 1366, height: 900 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/auth/session', async (route: Route) => {
      await held;
      await route.continue();
    });
    // The list's query as the address gives it (status and page), asked for before the session has answered; the
    // list then shows that answer without asking again.
    const listAsked = page.waitForRequest(
      (request) =>
        new URL(request.url()).pathname === '/api/cis/invoices' &&
        new URL(request.url()).searchParams.get('status') === 'paid',
      { timeout: 15_000 },
    );
    let listRequests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/cis/invoices') listRequests += 1;
    });
    await page.goto(`${baseUrl}/cis/invoices?status=paid`, { waitUntil: 'commit' });
    await listAsked;
    release();
    await visible(page.getByTestId('page-title'));
    await visible(page.locator('.ant-table'));
    expect(listRequests).toBe(1);
    await page.context().close();
  });
});
