// Browser journeys of the shell's settings: the footer settings panel and the footer it renders, who may change
// it, the three desktop layouts, the theme modes (system following the OS), the user's status saved locally and
// remotely, and the four toast types raised by real screens in the tenant's Success and Danger colours. Debian's
// Chromium driven by playwright-core against the real stack (PostgreSQL, Kafka, identity with the dev OIDC
// provider, notification, the cis service for the screens that raise info and warning toasts, and the bff serving
// the built web bundles); one stack for the file.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { londonDate } from '@workspace/cis/domain';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  invoiceBody,
  settingsBody,
  type CisHarness,
} from '@workspace/cis/testing';
import { demoSeed } from '@workspace/identity/testing';
import { statusColours, statusStorageKey } from '../src/ui/avatar.js';
import { animationsDone, hueOf, rgb, shots, signInThroughPages, styleOf, visible } from './browser.js';
import { cisStackPerFile } from './cis-stack.js';

let harness: CisHarness;
let browser: Browser;
let baseUrl: string;

const TENANT_NAME = 'Demo Construction Ltd';

cisStackPerFile((started) => {
  ({ harness, browser, baseUrl } = started);
});

async function signedIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    colorScheme: 'light',
  });
  const page = await context.newPage();
  await signInThroughPages(page, baseUrl, email);
  await page.getByTestId('top-bar').waitFor();
  return { context, page };
}

/** The footer settings as identity stores them (tenants.footer). */
function footerInDb(): Promise<Record<string, unknown>> {
  return harness.identity.definition.context().inTenant('demo', async (_store, trx) => {
    const row: { footer: Record<string, unknown> } | undefined = await trx('tenants')
      .where({ tenant_id: 'demo' })
      .first('footer');
    return row?.footer ?? {};
  });
}

/** The user's status as identity stores it (users.status). */
function statusInDb(uid: string): Promise<string | undefined> {
  return harness.identity.definition.context().inTenant('demo', async (_store, trx) => {
    const row: { status: string } | undefined = await trx('users').where({ uid }).first('status');
    return row?.status;
  });
}

/** The app's page background: dark or light follows the theme mode in force. */
const pageBackground = (page: Page) => styleOf(page.locator('.ant-layout').first(), 'background-color');

/** Waits until the page background is dark (or light): checked in the page on every animation frame, 5 s at most. */
async function backgroundIs(page: Page, dark: boolean): Promise<void> {
  await page
    .waitForFunction(
      (wantDark) => {
        const layout = (
          globalThis as unknown as { document: { querySelector(s: string): unknown } }
        ).document.querySelector('.ant-layout');
        if (!layout) return false;
        const css = (
          globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
        ).getComputedStyle(layout).backgroundColor;
        const [r = 0, g = 0, b = 0] = (css.match(/\d+/g) ?? []).map(Number);
        const shade = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; // relative luminance, 0 black to 1 white
        return wantDark ? shade < 0.3 : shade > 0.8;
      },
      dark,
      { timeout: 5_000 },
    )
    .catch(async () => {
      throw new Error(
        `the page background stayed ${await pageBackground(page)}, not ${dark ? 'dark' : 'light'}`,
      );
    });
}

/** The value an Access Restricted (bordered Descriptions) row shows beside its label. */
const described = (page: Page, label: string) =>
  page
    .locator('.ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::*[1]');

describe('shell settings in Chromium', () => {
  it('WS-156, WS-157, WS-158, WS-159, WS-160, WS-220, WS-221, WS-295: the admin edits every footer option, the rendered footer follows, Display footer off hides the options and the footer', async () => {
    const { context, page } = await signedIn('admin@demo.test');
    // Outside addresses answer with a small page of their own (no network): the About link opens one.
    await context.route(/^https:\/\/[a-z.]+\.example\.test\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>About us</title><h1>About Demo</h1>' }),
    );
    const year = new Date().getFullYear();
    await page.goto(`${baseUrl}/settings/organisation`);
    const footer = page.getByTestId('app-footer');
    const displayFooter = page.getByRole('switch', { name: 'Display footer' });
    const save = async () => {
      await page.getByRole('button', { name: 'Save Footer' }).click();
      await visible(page.locator('.ant-message-success', { hasText: 'Footer saved' }).last());
    };
    const footerLinks = async () =>
      (await footer.getByRole('link').allTextContents()).map((text) => text.trim());

    // The defaults: visible, the tenant's name, Powered by, Privacy and Terms (About has no address yet).
    await visible(footer);
    expect(await displayFooter.getAttribute('aria-checked')).toBe('true');
    expect(await footer.getByText(`© ${year} ${TENANT_NAME}`).count()).toBe(1);
    expect(await footerLinks()).toEqual(['Privacy', 'Terms']);
    await visible(footer.getByText('Powered by Workspace'));

    // Every other option of the panel, all shown while Display footer is on.
    const options = [
      page.getByLabel('Display name', { exact: true }),
      page.getByRole('switch', { name: 'Show Powered by' }),
      page.getByLabel('Powered by text', { exact: true }),
      ...['About', 'Privacy', 'Terms'].flatMap((name) => [
        page.getByRole('switch', { name: `Show ${name}` }),
        page.getByLabel(`${name} label`, { exact: true }),
        page.getByLabel(`${name} URL`, { exact: true }),
      ]),
      page.getByText('No custom links added yet'),
      page.getByRole('button', { name: 'Add link' }),
    ];
    for (const option of options) await visible(option);

    // Display footer off: the options go at once; saved, the footer goes from the page, and stays gone.
    await displayFooter.click();
    for (const option of options) expect(await option.count()).toBe(0);
    await visible(page.getByRole('button', { name: 'Save Footer' }));
    await page.screenshot({ path: `${shots}/shell-settings-footer-off.png`, fullPage: true });
    await save();
    await footer.waitFor({ state: 'detached' });
    expect((await footerInDb()).showFooter).toBe(false);
    await page.reload();
    await visible(displayFooter);
    expect(await displayFooter.getAttribute('aria-checked')).toBe('false');
    for (const option of options) expect(await option.count()).toBe(0);
    expect(await footer.count()).toBe(0);

    // Back on, the options return; every one is changed.
    await displayFooter.click();
    for (const option of options) await visible(option);
    await page.getByLabel('Display name', { exact: true }).fill('Demo Build Co North');
    await page.getByLabel('Powered by text', { exact: true }).fill('Powered by Workspace for Builders');
    await page.getByRole('switch', { name: 'Show About' }).click();
    await page.getByLabel('About label', { exact: true }).fill('About us');
    await page.getByLabel('About URL', { exact: true }).fill('https://about.example.test/company');
    await page.getByLabel('Privacy label', { exact: true }).fill('Privacy notice');
    await page.getByLabel('Privacy URL', { exact: true }).fill('/privacy-notice');
    await page.getByRole('switch', { name: 'Show Terms' }).click();
    // Three custom links: two shown, the third switched off.
    for (const [index, label, url] of [
      [1, 'Site safety', 'https://safety.example.test/'],
      [2, 'Old link', 'https://old.example.test/'],
      [3, 'Hidden link', 'https://hidden.example.test/'],
    ] as const) {
      await page.getByRole('button', { name: 'Add link' }).click();
      await page.getByLabel(`Link ${index} label`, { exact: true }).fill(label);
      await page.getByLabel(`Link ${index} URL`, { exact: true }).fill(url);
    }
    await page.getByRole('switch', { name: 'Show link 3' }).click();
    await save();
    await visible(footer.getByText(`© ${year} Demo Build Co North`));
    await visible(footer.getByText('Powered by Workspace for Builders'));
    expect(await footerLinks()).toEqual(['About us', 'Privacy notice', 'Site safety', 'Old link']);
    expect(await footer.getByRole('link', { name: 'Privacy notice' }).getAttribute('href')).toBe(
      '/privacy-notice',
    );
    await page.screenshot({ path: `${shots}/shell-settings-footer-edited.png`, fullPage: true });

    // The About link opens its address in a new tab.
    const about = footer.getByRole('link', { name: 'About us' });
    expect(await about.getAttribute('href')).toBe('https://about.example.test/company');
    const [opened] = await Promise.all([context.waitForEvent('page'), about.click()]);
    await opened.waitForLoadState();
    expect(opened.url()).toBe('https://about.example.test/company');
    await visible(opened.getByText('About Demo'));
    await opened.close();

    // Edit the first custom link, remove the second; Powered by off hides its text here and in the footer.
    await page.getByLabel('Link 1 label', { exact: true }).fill('Site safety rules');
    await page.getByLabel('Link 1 URL', { exact: true }).fill('https://safety.example.test/rules');
    await page.getByRole('button', { name: 'Remove link 2' }).click();
    expect(await page.getByLabel('Link 2 label', { exact: true }).inputValue()).toBe('Hidden link');
    expect(await page.getByLabel('Link 3 label', { exact: true }).count()).toBe(0);
    await page.getByRole('switch', { name: 'Show Powered by' }).click();
    expect(await page.getByLabel('Powered by text', { exact: true }).count()).toBe(0);
    await save();
    await visible(footer.getByRole('link', { name: 'Site safety rules' }));
    expect(await footerLinks()).toEqual(['About us', 'Privacy notice', 'Site safety rules']);
    expect(await footer.getByRole('link', { name: 'Site safety rules' }).getAttribute('href')).toBe(
      'https://safety.example.test/rules',
    );
    expect(await footer.getByText(/Powered by/).count()).toBe(0);

    // Every key as stored (WS-220, WS-221), kept across a reload.
    const stored = await footerInDb();
    expect(stored).toEqual({
      showFooter: true,
      displayName: 'Demo Build Co North',
      showPoweredBy: false,
      poweredByText: 'Powered by Workspace for Builders',
      showAbout: true,
      aboutLabel: 'About us',
      aboutUrl: 'https://about.example.test/company',
      showPrivacy: true,
      privacyLabel: 'Privacy notice',
      privacyUrl: '/privacy-notice',
      showTerms: false,
      termsLabel: 'Terms',
      termsUrl: '/terms',
      links: [
        {
          id: expect.any(String) as unknown,
          label: 'Site safety rules',
          url: 'https://safety.example.test/rules',
          enabled: true,
        },
        {
          id: expect.any(String) as unknown,
          label: 'Hidden link',
          url: 'https://hidden.example.test/',
          enabled: false,
        },
      ],
    });
    await page.reload();
    await visible(footer.getByRole('link', { name: 'Site safety rules' }));
    expect(await footerLinks()).toEqual(['About us', 'Privacy notice', 'Site safety rules']);
    expect(await page.getByLabel('Display name', { exact: true }).inputValue()).toBe('Demo Build Co North');
    expect(await page.getByRole('switch', { name: 'Show Powered by' }).getAttribute('aria-checked')).toBe(
      'false',
    );

    // Removing the last links brings back the empty state.
    await page.getByRole('button', { name: 'Remove link 2' }).click();
    await page.getByRole('button', { name: 'Remove link 1' }).click();
    await visible(page.getByText('No custom links added yet'));
    await save();
    await footer.getByRole('link', { name: 'Site safety rules' }).waitFor({ state: 'detached' });
    expect(await footerLinks()).toEqual(['About us', 'Privacy notice']);
    expect((await footerInDb()).links).toEqual([]);
    await context.close();
  });

  it('WS-326, WS-163: a standard user meets Access Restricted (user, organisation, permission) on the footer settings, and a direct save is refused', async () => {
    const { context, page } = await signedIn('manager@demo.test');
    await page.goto(`${baseUrl}/settings/organisation`);
    await visible(page.getByText('Access Restricted'));
    await visible(page.getByText("You don't have permission to manage organisation settings"));
    expect(await described(page, 'User').innerText()).toBe('manager@demo.test');
    expect(await described(page, 'Organisation').innerText()).toBe(TENANT_NAME);
    expect(await described(page, 'Required permission').innerText()).toBe('tenant.edit_settings');
    await visible(page.getByText('Need Access?'));
    // No footer settings at all: not the switch, not a field, not Save Footer.
    expect(await page.getByRole('switch', { name: 'Display footer' }).count()).toBe(0);
    expect(await page.getByLabel('Display name', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save Footer' }).count()).toBe(0);
    await page.screenshot({ path: `${shots}/shell-settings-manager-footer-restricted.png`, fullPage: true });

    // Their session, CSRF token included, cannot save the footer either: identity refuses, nothing changes.
    const before = await footerInDb();
    const attempt = await page.evaluate(async () => {
      const session = (await (await fetch('/api/auth/session')).json()) as { csrfToken: string };
      const response = await fetch('/api/tenant/footer', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({
          showFooter: false,
          displayName: 'Taken over',
          showPoweredBy: false,
          poweredByText: '',
          showAbout: false,
          aboutLabel: 'About',
          aboutUrl: '',
          showPrivacy: false,
          privacyLabel: 'Privacy',
          privacyUrl: '',
          showTerms: false,
          termsLabel: 'Terms',
          termsUrl: '',
          links: [],
        }),
      });
      return { status: response.status, body: await response.text() };
    });
    expect(attempt.status).toBe(403);
    expect(attempt.body).toContain('This requires the tenant.edit_settings permission.');
    expect(await footerInDb()).toEqual(before);
    await context.close();
  });

  it('WS-139, WS-148, WS-268: the top bar, sidebar and top bar with navigation layouts render; light, dark and system modes, system following the OS', async () => {
    const { context, page } = await signedIn('editor@demo.test');
    await page.goto(`${baseUrl}/settings/appearance`);
    const topBar = page.getByTestId('top-bar');
    const apply = async () => {
      await page.getByRole('button', { name: 'Apply Changes' }).click();
      await visible(page.locator('.ant-message-success', { hasText: 'Appearance saved' }).last());
    };
    const scrollToTop = () =>
      page.evaluate(() => {
        (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0);
      });
    const radio = (label: string) =>
      page.locator('label.ant-radio-button-wrapper', { hasText: new RegExp(`^${label}$`) });

    // Top bar (the default): the navigation opens from the menu button; no sidebar, no menu in the bar.
    await visible(page.getByRole('button', { name: 'Open navigation' }));
    expect(await topBar.getAttribute('data-layout')).toBe('topbar');
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await topBar.getByRole('menu').count()).toBe(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog', { name: 'Workspace' });
    await visible(drawer);
    // Only the modules with screens in this version (the drive and CIS), then Settings.
    expect(
      (await drawer.getByRole('menu', { name: 'Modules' }).getByRole('menuitem').allTextContents()).map(
        (text) => text.trim(),
      ),
    ).toEqual(['Drive', 'CIS', 'Settings']);
    await animationsDone(page.locator('.ant-drawer')); // the drawer's opening, for the screenshot
    await page.screenshot({ path: `${shots}/shell-settings-layout-topbar.png` });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // Sidebar: the modules in a sider beside the content; no menu button.
    await radio('Sidebar').click();
    await apply();
    const sidebar = page.getByTestId('sidebar');
    await visible(sidebar);
    for (const label of ['CIS', 'Settings'])
      await visible(sidebar.getByRole('menu', { name: 'Modules' }).getByText(label, { exact: true }));
    expect(await topBar.getAttribute('data-layout')).toBe('sidebar');
    expect(await page.getByRole('button', { name: 'Open navigation' }).count()).toBe(0);
    const sideBox = await sidebar.boundingBox();
    const barBox = await topBar.boundingBox();
    expect(sideBox?.x).toBe(0);
    expect(barBox?.x).toBe(sideBox?.width); // the top bar starts where the sidebar ends
    await scrollToTop();
    await page.screenshot({ path: `${shots}/shell-settings-layout-sidebar.png` });

    // Top bar with navigation: the modules in the bar itself; no sidebar, no menu button; an item navigates.
    await radio('Top bar with navigation').click();
    await apply();
    await sidebar.waitFor({ state: 'detached' });
    const barMenu = topBar.getByRole('menu', { name: 'Modules' });
    await visible(barMenu);
    expect(await barMenu.getAttribute('class')).toMatch(/ant-menu-horizontal/);
    expect(await topBar.getAttribute('data-layout')).toBe('topbar-nav');
    for (const label of ['CIS', 'Settings'])
      await visible(barMenu.getByRole('link', { name: label, exact: true }));
    expect(await page.getByRole('button', { name: 'Open navigation' }).count()).toBe(0);
    await scrollToTop();
    await page.screenshot({ path: `${shots}/shell-settings-layout-topbar-nav.png` });
    await barMenu.getByRole('link', { name: 'CIS', exact: true }).click();
    await page.waitForURL(`${baseUrl}/cis`);
    // Kept across a reload.
    await page.reload();
    await visible(topBar.getByRole('menu', { name: 'Modules' }));
    expect(await topBar.getAttribute('data-layout')).toBe('topbar-nav');

    // Theme modes, with the OS in light: Light (the default) is light, Dark is dark.
    await page.goto(`${baseUrl}/settings/appearance`);
    await visible(radio('System'));
    expect(await radio('Light').getAttribute('class')).toMatch(/ant-radio-button-wrapper-checked/);
    await backgroundIs(page, false);
    await radio('Dark').click();
    await apply();
    await backgroundIs(page, true);
    // System follows the OS: light now, dark when the OS turns dark, light again, with no reload.
    await radio('System').click();
    await apply();
    await backgroundIs(page, false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await backgroundIs(page, true);
    await page.screenshot({ path: `${shots}/shell-settings-system-mode-os-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
    await backgroundIs(page, false);
    // Saved: a reload under a dark OS opens dark, System still chosen.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await visible(radio('System'));
    expect(await radio('System').getAttribute('class')).toMatch(/ant-radio-button-wrapper-checked/);
    await backgroundIs(page, true);
    // Light and Dark ignore the OS: Light stays light under a dark OS, Dark stays dark under a light one.
    await radio('Light').click();
    await apply();
    await backgroundIs(page, false);
    await page.screenshot({ path: `${shots}/shell-settings-light-mode-os-dark.png` });
    await radio('Dark').click();
    await apply();
    await page.emulateMedia({ colorScheme: 'light' });
    await backgroundIs(page, true);
    await context.close();
  });

  it('WS-154, WS-262: each status picked changes the avatar dot, is saved locally at once and remotely, and another browser reads it from the server', async () => {
    const clerk = demoSeed.users.find((user) => user.email === 'clerk@demo.test');
    const uid = clerk?.uid ?? '';
    const first = await signedIn('clerk@demo.test');
    const picker = (page: Page) => page.getByRole('button', { name: /^Status: / });
    const dot = (page: Page) => picker(page).locator('.ant-badge-dot');
    /** The dot's colour once its colour transition has ended. */
    const dotColour = async (page: Page) => {
      await dot(page).evaluate((element) =>
        Promise.all(
          (element as unknown as { getAnimations(): { finished: Promise<unknown> }[] })
            .getAnimations()
            .map((animation) => animation.finished),
        ),
      );
      return styleOf(dot(page), 'background-color');
    };
    const localStatus = (page: Page) =>
      page.evaluate(
        (key) =>
          (
            globalThis as unknown as { localStorage: { getItem(k: string): string | null } }
          ).localStorage.getItem(key),
        statusStorageKey(uid),
      );
    const pick = async (page: Page, label: string) => {
      await picker(page).click();
      await page.getByRole('menuitem', { name: label }).click();
      await visible(page.getByRole('button', { name: `Status: ${label}` }));
    };
    expect(await picker(first.page).getAttribute('aria-label')).toBe('Status: Active');
    expect(await dotColour(first.page)).toBe(rgb(statusColours.active));

    // Busy, with the remote save held: the picker and the local copy have it before identity does.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let patched = false;
    await first.page.route('**/api/me', async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      patched = true;
      await held;
      return route.continue();
    });
    await pick(first.page, 'Busy');
    expect(await dotColour(first.page)).toBe(rgb(statusColours.busy));
    expect(await localStatus(first.page)).toBe('busy');
    expect(patched).toBe(true);
    expect(await statusInDb(uid)).toBe('active');
    const saved = first.page.waitForResponse(
      (response) => response.url().endsWith('/api/me') && response.request().method() === 'PATCH',
    );
    release();
    expect((await saved).status()).toBe(200);
    expect(await statusInDb(uid)).toBe('busy');
    await first.page.unroute('**/api/me');
    await first.page.screenshot({ path: `${shots}/shell-settings-status-busy.png` });

    // Another browser (no local copy) reads Busy from the server.
    const second = await signedIn('clerk@demo.test');
    expect(await localStatus(second.page)).toBeNull();
    await visible(second.page.getByRole('button', { name: 'Status: Busy' }));
    expect(await dotColour(second.page)).toBe(rgb(statusColours.busy));

    // Unavailable there, then Active back in the first; each saved locally where picked and read by the other.
    const saveOf = (page: Page) =>
      page.waitForResponse(
        (response) => response.url().endsWith('/api/me') && response.request().method() === 'PATCH',
      );
    let response = saveOf(second.page);
    await pick(second.page, 'Unavailable');
    expect((await response).status()).toBe(200);
    expect(await dotColour(second.page)).toBe(rgb(statusColours.unavailable));
    expect(await localStatus(second.page)).toBe('unavailable');
    expect(await statusInDb(uid)).toBe('unavailable');
    await first.page.reload();
    await visible(first.page.getByRole('button', { name: 'Status: Unavailable' }));
    expect(await dotColour(first.page)).toBe(rgb(statusColours.unavailable));
    response = saveOf(first.page);
    await pick(first.page, 'Active');
    expect((await response).status()).toBe(200);
    expect(await dotColour(first.page)).toBe(rgb(statusColours.active));
    expect(await localStatus(first.page)).toBe('active');
    expect(await statusInDb(uid)).toBe('active');
    await second.page.reload();
    await visible(second.page.getByRole('button', { name: 'Status: Active' }));

    // A failed remote save puts the previous status back in the local copy too.
    await first.page.route('**/api/me', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 500, json: { error: 'down' } })
        : route.continue(),
    );
    await picker(first.page).click();
    await first.page.getByRole('menuitem', { name: 'Busy' }).click();
    await visible(first.page.getByText('Your status could not be saved.'));
    await visible(first.page.getByRole('button', { name: 'Status: Active' }));
    expect(await localStatus(first.page)).toBe('active');
    expect(await statusInDb(uid)).toBe('active');
    await first.context.close();
    await second.context.close();
  });

  it('WS-168, WS-150: real screens raise info, success, warning and error toasts, each in its style, success and error in the tenant’s Success and Danger colours', async () => {
    // CIS set up with one subcontractor and a draft invoice whose materials are 70 % of the gross.
    const cisAdmin = await harness.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
    const call = async (method: string, path: string, body?: unknown) => {
      const result = await harness.call(cisAdmin, method, path, body);
      if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
      return result.body;
    };
    await call('PUT', '/settings', settingsBody({ emailFrom: 'statements@demo.test', emailReplyTo: '' }));
    const subcontractor = (
      (await call('POST', '/subcontractors', {
        type: 'individual',
        name: 'Tessa Toast',
        utr: '1234567890',
        email: 'tessa@toast.test',
        registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
        gdprConsent: true,
      })) as { subcontractor: { id: string } }
    ).subcontractor.id;
    const invoice = (
      (await call(
        'POST',
        '/invoices',
        invoiceBody(subcontractor, {
          invoiceNumber: 'TOAST-1',
          invoiceDate: londonDate(new Date()),
          materialsP: 70000,
          description: 'Blocks',
          materialsJustification: 'Blocks and mortar for the site',
        }),
      )) as { invoice: { id: string } }
    ).invoice.id;

    // The admin picks Emerald for Success and Berry for Danger.
    const admin = await signedIn('admin@demo.test');
    await admin.page.goto(`${baseUrl}/settings/colours`);
    const success = admin.page.getByRole('region', { name: 'Success colour settings' });
    const danger = admin.page.getByRole('region', { name: 'Danger colour settings' });
    await success.getByRole('radio', { name: 'Emerald' }).click();
    await danger.getByRole('radio', { name: 'Berry' }).click();
    const successColour = (await success.getByLabel('Success preview').getAttribute('data-colour')) ?? '';
    const dangerColour = (await danger.getByLabel('Danger preview').getAttribute('data-colour')) ?? '';
    expect(successColour).toBe('#10B981');
    expect(dangerColour).toBe('#BE185D');
    await admin.page.getByRole('button', { name: 'Apply Changes' }).click();
    await visible(admin.page.locator('.ant-message-success', { hasText: 'Colours saved' }));
    const toastOf = (page: Page, type: string, text: string) =>
      page.locator(`.ant-message-notice .ant-message-${type}`, { hasText: text }).last();
    const iconColour = (toast: Locator) => styleOf(toast.locator('.anticon').first(), 'color');

    // Error: the footer panel refuses a link with no web address, in the Danger colour.
    await admin.page.reload();
    await admin.page.goto(`${baseUrl}/settings/organisation`);
    await admin.page.getByRole('button', { name: 'Add link' }).click();
    await admin.page.getByLabel('Link 1 label', { exact: true }).fill('Broken');
    await admin.page.getByLabel('Link 1 URL', { exact: true }).fill('site safety');
    await admin.page.getByRole('button', { name: 'Save Footer' }).click();
    const error = toastOf(admin.page, 'error', 'Enter a web address (https://…) or a path (/…)');
    await visible(error);
    await visible(error.locator('.anticon-close-circle'));
    expect(await iconColour(error)).toBe(rgb(dangerColour));
    await admin.page.screenshot({ path: `${shots}/shell-settings-toast-error.png` });
    await admin.context.close();

    // Info: Generate All with no statement pending.
    const accountant = await signedIn('accountant@demo.test');
    const page = accountant.page;
    await page.goto(`${baseUrl}/cis/statements`);
    await page.getByRole('button', { name: 'Generate All' }).click();
    const info = toastOf(page, 'info', 'No Pending Statements');
    await visible(info);
    await visible(info.locator('.anticon-info-circle'));
    expect(Math.abs(hueOf(await iconColour(info)) - 215)).toBeLessThan(8); // antd's info blue
    await page.screenshot({ path: `${shots}/shell-settings-toast-info.png` });

    // Warning and success: saving the invoice warns of its high materials share, then confirms the save.
    await page.goto(`${baseUrl}/cis/invoices/${invoice}/edit`);
    const form = page.getByTestId('invoice-form');
    await visible(form.getByLabel('Description'));
    await form.getByLabel('Description').fill('Blocks and mortar');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const warning = toastOf(
      page,
      'warning',
      'High materials percentage (70%) - please verify this is correct',
    );
    const saved = toastOf(page, 'success', 'Invoice updated');
    await visible(warning);
    await visible(saved);
    await visible(warning.locator('.anticon-exclamation-circle'));
    const warningHue = hueOf(await iconColour(warning));
    expect(warningHue).toBeGreaterThan(30); // antd's warning amber
    expect(warningHue).toBeLessThan(50);
    await visible(saved.locator('.anticon-check-circle'));
    expect(await iconColour(saved)).toBe(rgb(successColour));
    await page.screenshot({ path: `${shots}/shell-settings-toast-warning-success.png` });
    await accountant.context.close();
  });
});
