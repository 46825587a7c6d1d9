// Browser journeys of the staff app shell: Debian's Chromium driven by playwright-core against the real stack
// (PostgreSQL, Kafka, identity, the dev OIDC provider and the bff serving the built web bundles).
import type { Browser, Page } from 'playwright-core';
import { animationsDone, hueOf, shots, shellStackPerFile, signInThroughPages } from './browser.js';

let browser: Browser;
let baseUrl: string;

shellStackPerFile((stack) => {
  ({ browser, baseUrl } = stack);
});

const signIn = (page: Page, email: string) => signInThroughPages(page, baseUrl, email);

describe('staff app shell in Chromium', () => {
  it('signs the admin in through the real OIDC pages, shows the modules, and keeps dark mode and the sidebar layout across a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(baseUrl);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, 'admin@demo.test');

    const nav = page.getByRole('menu', { name: 'Modules' }).first();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    // The modules with screens in this version (the drive and CIS), then the audit log (the admin holds audit.read)
    // and Settings; the catalogue's others are not offered.
    await expectVisible(page, nav.getByText('CIS', { exact: true }));
    expect((await nav.getByRole('menuitem').allTextContents()).map((text) => text.trim())).toEqual([
      'Drive',
      'CIS',
      'Audit log',
      'Settings',
    ]);
    expect(new URL(page.url()).pathname).toMatch(/^\/drive(\/overview)?$/);
    await animationsDone(page.locator('.ant-drawer')); // the drawer's opening, for the screenshot
    await page.screenshot({ path: `${shots}/shell-admin-signed-in.png` });
    await page.keyboard.press('Escape');

    await page.goto(`${baseUrl}/settings/appearance`);
    await page.locator('label.ant-radio-button-wrapper', { hasText: 'Dark' }).click();
    await page.locator('label.ant-radio-button-wrapper', { hasText: /^Sidebar$/ }).click();
    await page.getByRole('button', { name: 'Apply Changes' }).click();
    await expectVisible(page, page.getByText('Appearance saved'));

    // Choose Primary Color: the palette grid, the presets and the free sliders (moved with the keyboard), Apply.
    await page.getByRole('button', { name: 'Choose Primary Color' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose Primary Color' });
    await expectVisible(page, dialog);
    expect(
      await dialog.getByRole('radiogroup', { name: 'Primary colour palette' }).getByRole('radio').count(),
    ).toBe(27);
    for (const label of ['Lighter', 'Darker', 'Muted', 'Reset to Default', 'Cancel', 'Apply Changes'])
      await expectVisible(page, dialog.getByRole('button', { name: label, exact: true }));
    await dialog.getByRole('radio', { name: 'Violet' }).click();
    const saturation = dialog.getByRole('slider', { name: 'Primary saturation shift' });
    const lightness = dialog.getByRole('slider', { name: 'Primary lightness shift' });
    const bounds = async (slider: typeof saturation) =>
      [
        await slider.getAttribute('aria-valuemin'),
        await slider.getAttribute('aria-valuemax'),
        await slider.getAttribute('aria-valuenow'),
      ].join(' ');
    expect(await bounds(saturation)).toBe('-100 100 0');
    expect(await bounds(lightness)).toBe('-50 50 0');
    // The ends: End and Home stop at the bounds (WS-470).
    await saturation.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowRight');
    expect(await saturation.getAttribute('aria-valuenow')).toBe('100');
    await page.keyboard.press('Home');
    expect(await saturation.getAttribute('aria-valuenow')).toBe('-100');
    await lightness.focus();
    await page.keyboard.press('End');
    expect(await lightness.getAttribute('aria-valuenow')).toBe('50');
    expect(await dialog.getByTestId('primary-preview').getAttribute('data-colour')).toBe('#FFFFFF');
    // Reset to Default gives Violet itself; Darker sets the sliders to (+5, -10); then -5 and -7 by keyboard.
    await dialog.getByRole('button', { name: 'Reset to Default' }).click();
    expect(await dialog.getByTestId('primary-preview').getAttribute('data-colour')).toBe('#8B5CF6');
    await dialog.getByRole('button', { name: 'Darker' }).click();
    expect(await saturation.getAttribute('aria-valuenow')).toBe('5');
    expect(await lightness.getAttribute('aria-valuenow')).toBe('-10');
    expect(await dialog.getByTestId('primary-preview').getAttribute('data-colour')).toBe('#6626F9');
    await saturation.focus();
    for (let step = 0; step < 5; step += 1) await page.keyboard.press('PageDown'); // 2 points each
    await lightness.focus();
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowUp');
    expect(await saturation.getAttribute('aria-valuenow')).toBe('-5');
    expect(await lightness.getAttribute('aria-valuenow')).toBe('-7');
    expect(await dialog.getByRole('button', { name: 'Darker' }).getAttribute('aria-pressed')).toBe('false');
    // Violet hsl(258, 90%, 66%) shifted by (-5, -7): hsl(258, 85%, 59%).
    expect(await dialog.getByTestId('primary-preview').getAttribute('data-colour')).toBe('#753FEF');
    await page.screenshot({ path: `${shots}/shell-admin-primary-colour-dialog.png` });
    await dialog.getByRole('button', { name: 'Apply Changes' }).click();
    await expectVisible(page, page.getByText('Primary colour saved'));
    await dialog.waitFor({ state: 'hidden' });

    await page.reload();
    await expectVisible(page, page.getByTestId('sidebar'));
    // The accent is kept: the panel shows it, and the dialog reopens on Violet with the sliders at (-5, -7).
    expect(await page.getByTestId('accent-preview').getAttribute('data-colour')).toBe('#753FEF');
    await expectVisible(page, page.getByText('Violet, saturation -5, lightness -7'));
    // And the theme's primary changed from Blue (hue 215°) to the violet (hue 258°): the primary Apply Changes
    // button (antd's dark algorithm derives its exact shade from the seed, so the hue is compared).
    const primaryBackground = await page
      .getByRole('button', { name: 'Apply Changes' })
      .evaluate(
        (element) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
          ).getComputedStyle(element).backgroundColor,
      );
    expect(Math.abs(hueOf(primaryBackground) - 258)).toBeLessThan(6);
    await page.getByRole('button', { name: 'Choose Primary Color' }).click();
    await expectVisible(page, dialog);
    expect(await dialog.getByRole('radio', { name: 'Violet' }).getAttribute('aria-checked')).toBe('true');
    expect(await saturation.getAttribute('aria-valuenow')).toBe('-5');
    expect(await lightness.getAttribute('aria-valuenow')).toBe('-7');
    await animationsDone(page.locator('.ant-modal-root')); // the dialog's opening, for the screenshot
    await page.screenshot({ path: `${shots}/shell-admin-primary-colour-after-reload.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Runs in the page; the test's own TypeScript has no DOM types.
    const background = await page
      .locator('.ant-layout')
      .first()
      .evaluate(
        (element) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
          ).getComputedStyle(element).backgroundColor,
      );
    expect(isDarkColour(background)).toBe(true);
    await page.screenshot({ path: `${shots}/shell-admin-dark-sidebar.png` });

    // Footer settings: a custom link saved by the admin appears in the rendered footer.
    await page.goto(`${baseUrl}/settings/organisation`);
    await expectVisible(page, page.getByText('No custom links added yet'));
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByLabel('Link 1 label').fill('Site safety');
    await page.getByLabel('Link 1 URL').fill('https://example.com/safety');
    await page.getByRole('button', { name: 'Save Footer' }).click();
    await expectVisible(page, page.getByText('Footer saved'));
    await expectVisible(page, page.getByTestId('app-footer').getByRole('link', { name: 'Site safety' }));
    await expectVisible(page, page.getByTestId('app-footer').getByText('Powered by Workspace'));
    await page.screenshot({ path: `${shots}/shell-admin-footer-settings.png`, fullPage: true });
    await context.close();
  });

  it('shows the viewer the Access Restricted page on the organisation settings route', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    await signIn(page, 'viewer@demo.test');
    await page.goto(`${baseUrl}/settings/organisation`);
    await expectVisible(page, page.getByText('Access Restricted'));
    await expectVisible(page, page.getByText("You don't have permission to manage organisation settings"));
    await expectVisible(page, page.getByText('tenant.edit_settings'));
    await expectVisible(page, page.getByText('viewer@demo.test'));
    await expectVisible(page, page.locator('.ant-descriptions').getByText('Demo Construction Ltd'));
    await expectVisible(page, page.getByText('Need Access?'));
    await page.screenshot({ path: `${shots}/shell-viewer-access-restricted.png` });
    await context.close();
  });
});

async function expectVisible(_page: Page, locator: ReturnType<Page['locator']>) {
  await locator.waitFor({ state: 'visible', timeout: 15_000 });
}

function isDarkColour(css: string): boolean {
  const [r = 255, g = 255, b = 255] = (css.match(/\d+/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.3;
}
