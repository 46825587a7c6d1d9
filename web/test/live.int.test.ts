// Live updates of the shell (WS-368, WS-369) in two tabs: Debian's Chromium driven by playwright-core against the
// real stack (PostgreSQL, Kafka, identity, the dev OIDC provider and the bff serving the built web bundles). Tab A
// changes the text logo, the user's status, the Success colour and the modules; tab B shows each without a reload (identity's
// /v1/live through the bff's /api/live and the shell's EventSource).
import type { Browser, Page } from 'playwright-core';
import { demoSeed, signIn as signInAtIdentity } from '@workspace/identity/testing';
import { shots, shellStackPerFile, signInThroughPages, type ShellStack } from './browser.js';

let stack: ShellStack;
let browser: Browser;
let baseUrl: string;

shellStackPerFile((started) => {
  stack = started;
  ({ browser, baseUrl } = stack);
});

const signIn = (page: Page, email: string) => signInThroughPages(page, baseUrl, email);

/** Marks the page's window: the mark survives anything but a reload or a navigation away. */
const markWindow = (page: Page) =>
  page.evaluate(() => {
    (globalThis as unknown as { liveMark?: string }).liveMark = 'not reloaded';
  });
const windowMark = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { liveMark?: string }).liveMark);

describe('live updates in two tabs', () => {
  it("shows tab B the text logo, the user's status, the Success colour and the module list that tab A changes, without a reload", async () => {
    const contextA = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const contextB = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const pageA = await contextA.newPage();
    const pageB = await contextB.newPage();
    await signIn(pageA, 'admin@demo.test');
    await signIn(pageB, 'admin@demo.test');
    const liveOpen = pageB.waitForResponse((response) => response.url().endsWith('/api/live'));
    await pageB.goto(`${baseUrl}/settings/logo`);
    expect((await liveOpen).headers()['content-type']).toContain('text/event-stream');
    const logoB = pageB.locator('header [data-testid="tenant-logo"]');
    await expectVisible(logoB);
    await markWindow(pageB);
    await pageB.screenshot({ path: `${shots}/live-b-before.png`, fullPage: true });

    // A text logo saved in tab A appears in tab B's top bar.
    await pageA.goto(`${baseUrl}/settings/logo`);
    await pageA.locator('label.ant-radio-button-wrapper', { hasText: 'Text logo' }).click();
    await pageA.getByLabel('Logo text').fill('Live Logo Co');
    await pageA.getByRole('button', { name: 'Save Logo' }).click();
    await expectVisible(pageA.getByText('Logo saved'));
    await expectVisible(pageB.locator('header').getByText('Live Logo Co'));
    expect(await logoB.getAttribute('data-logo-kind')).toBe('text');
    await pageB.screenshot({ path: `${shots}/live-b-logo.png`, fullPage: true });

    // The user's status chosen in tab A shows in tab B's top bar.
    await expectVisible(pageB.getByRole('button', { name: 'Status: Active' }));
    await pageA.getByRole('button', { name: 'Status: Active' }).click();
    await pageA.getByRole('menuitem', { name: 'Busy' }).click();
    await expectVisible(pageA.getByRole('button', { name: 'Status: Busy' }));
    await expectVisible(pageB.getByRole('button', { name: 'Status: Busy' }));
    await pageB.screenshot({ path: `${shots}/live-b-status.png`, fullPage: true });

    // The Success colour applied in tab A: tab B's session (and so its theme) has it; its Colours tab, opened
    // in the app (no reload), shows Emerald made darker.
    const sessionRefetched = pageB.waitForResponse((response) =>
      response.url().endsWith('/api/auth/session'),
    );
    await pageA.goto(`${baseUrl}/settings/colours`);
    const successA = pageA.getByRole('region', { name: 'Success colour settings' });
    await successA.getByRole('radio', { name: 'Emerald' }).click();
    await successA.getByRole('button', { name: 'Darker' }).click();
    await pageA.getByRole('button', { name: 'Apply Changes' }).click();
    await expectVisible(pageA.getByText('Colours saved'));
    const refetched = (await (await sessionRefetched).json()) as {
      tenant: { branding: Record<string, string> };
    };
    expect(refetched.tenant.branding).toMatchObject({ successColor: '#10B981', successVariation: 'darker' });
    await pageB.getByRole('tab', { name: 'Colours' }).click();
    const successB = pageB.getByRole('region', { name: 'Success colour settings' });
    await expectVisible(successB);
    expect(await successB.getByRole('radio', { name: 'Emerald' }).getAttribute('aria-checked')).toBe('true');
    expect(await successB.getByRole('button', { name: 'Darker' }).getAttribute('aria-pressed')).toBe('true');
    expect(await successB.getByLabel('Success preview').getAttribute('data-colour')).toBe('#088E62');
    await pageB.screenshot({ path: `${shots}/live-b-colours.png`, fullPage: true });

    // The module list: tab A turns CIS off (PATCH /api/tenant); tab B's open navigation drawer loses it.
    await pageB.getByRole('button', { name: 'Open navigation' }).click();
    const drawerB = pageB.locator('.ant-drawer');
    await expectVisible(drawerB.getByRole('link', { name: 'CIS' }));
    const status = await pageA.evaluate(async () => {
      const session = (await (await fetch('/api/auth/session')).json()) as {
        csrfToken: string;
        tenant: { modules: { id: string; enabled: boolean }[] };
      };
      const modules = session.tenant.modules.map((module) =>
        module.id === 'cis' ? { ...module, enabled: false } : module,
      );
      const res = await fetch('/api/tenant', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ modules }),
      });
      return res.status;
    });
    expect(status).toBe(200);
    await drawerB.getByRole('link', { name: 'CIS' }).waitFor({ state: 'detached', timeout: 15_000 });
    await expectVisible(drawerB.getByRole('link', { name: 'Settings' }));
    await pageB.screenshot({ path: `${shots}/live-b-modules.png`, fullPage: true });

    expect(await windowMark(pageB)).toBe('not reloaded');
    await pageA.screenshot({ path: `${shots}/live-a-colours.png`, fullPage: true });
    await contextA.close();
    await contextB.close();
  });
  it('gives tab B the settings page when a role-bundle change grants it, and takes it away when the whitelist drops the scope, without a reload', async () => {
    // The admin's changes go to identity directly: the staff app has no screen for role bundles or the whitelist.
    const admin = (await signInAtIdentity(stack.identity, 'demo', 'admin@demo.test', demoSeed.password)).body;
    const asAdmin = (method: string, path: string, body: unknown) =>
      fetch(`${stack.identity.baseUrl}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${String(admin.accessToken)}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bundles = (await (
      await fetch(`${stack.identity.baseUrl}/v1/role-bundles`, {
        headers: { authorization: `Bearer ${String(admin.accessToken)}` },
      })
    ).json()) as { items: { id: string; name: string; scopes: string[] }[] };
    const manager = bundles.items.find((bundle) => bundle.id === 'manager');
    expect(manager?.scopes).not.toContain('tenant.edit_settings');

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const page = await context.newPage();
    await signIn(page, 'manager@demo.test');
    await page.goto(`${baseUrl}/settings/organisation`);
    await expectVisible(page.getByText('Access Restricted'));
    await markWindow(page);

    // The manager's role bundle gains tenant.edit_settings: the open page turns into the settings page.
    const granted = await asAdmin('PUT', '/role-bundles/manager', {
      name: manager?.name ?? 'Manager',
      scopes: [...(manager?.scopes ?? []), 'tenant.edit_settings'],
    });
    expect(granted.status).toBe(204);
    await page.getByText('Access Restricted').waitFor({ state: 'detached', timeout: 15_000 });
    await page.screenshot({ path: `${shots}/live-roles-granted.png`, fullPage: true });

    // The tenant's whitelist leaves tenant.edit_settings out: the page is restricted again.
    const available = (await (
      await fetch(`${stack.identity.baseUrl}/v1/tenant/available-scopes`, {
        headers: { authorization: `Bearer ${String(admin.accessToken)}` },
      })
    ).json()) as { scopes: string[] };
    const restricted = await asAdmin('PUT', '/tenant/available-scopes', {
      scopes: available.scopes.filter((scope) => scope !== 'tenant.edit_settings'),
    });
    expect(restricted.status).toBe(204);
    await expectVisible(page.getByText('Access Restricted'));
    await page.screenshot({ path: `${shots}/live-whitelist-restricted.png`, fullPage: true });
    expect(await windowMark(page)).toBe('not reloaded');

    // Back as it was for any later test.
    expect((await asAdmin('PUT', '/tenant/available-scopes', { scopes: null })).status).toBe(204);
    expect(
      (await asAdmin('PUT', '/role-bundles/manager', { name: manager?.name, scopes: manager?.scopes }))
        .status,
    ).toBe(204);
    await context.close();
  });
});

async function expectVisible(locator: ReturnType<Page['locator']>) {
  await locator.waitFor({ state: 'visible', timeout: 15_000 });
}
