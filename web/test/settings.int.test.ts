// Browser journeys of the tenant's colour and logo settings: Debian's Chromium driven by playwright-core against
// the real stack (PostgreSQL, Kafka, identity, the dev OIDC provider and the bff serving the built web bundles).
import type { Browser, Page } from 'playwright-core';
import { shots, shellStackPerFile, signInThroughPages } from './browser.js';

let browser: Browser;
let baseUrl: string;

shellStackPerFile((stack) => {
  ({ browser, baseUrl } = stack);
});

const signIn = (page: Page, email: string) => signInThroughPages(page, baseUrl, email);

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Runs in the page; the test's own TypeScript has no DOM types. */
const computedColour = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate(
    (element) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(element)
        .color,
  );

const rgbOf = (hex: string) => {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
};

describe('colour and logo settings in Chromium', () => {
  it('lets the admin set the Success and Danger colours, an image and then a text logo, refuses bad logos with a clear message, and keeps them across a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test');

    // Colours: Emerald made darker for Success, Berry for Danger.
    await page.goto(`${baseUrl}/settings/colours`);
    const success = page.getByRole('region', { name: 'Success colour settings' });
    const danger = page.getByRole('region', { name: 'Danger colour settings' });
    await expectVisible(page, success);
    for (const label of ['Lighter', 'Darker', 'Muted', 'Reset to Default'])
      await expectVisible(page, success.getByRole('button', { name: label }));
    await expectVisible(page, page.getByRole('button', { name: 'Cancel' }));
    await success.getByRole('radio', { name: 'Emerald' }).click();
    await success.getByRole('button', { name: 'Darker' }).click();
    // The preset sets the Success sliders (saturation -100 to 100, lightness -50 to 50) to Darker's (+5, -10).
    const successSaturation = success.getByRole('slider', { name: 'Success saturation shift' });
    expect(await successSaturation.getAttribute('aria-valuenow')).toBe('5');
    expect(await successSaturation.getAttribute('aria-valuemin')).toBe('-100');
    expect(
      await success.getByRole('slider', { name: 'Success lightness shift' }).getAttribute('aria-valuenow'),
    ).toBe('-10');
    const successColour = (await success.getByLabel('Success preview').getAttribute('data-colour')) ?? '';
    expect(successColour).toBe('#088E62'); // Emerald's Darker (docs/web.md, the accent colours' table)
    // Reset to Default brings back Emerald itself; Darker again.
    await success.getByRole('button', { name: 'Reset to Default' }).click();
    expect(await success.getByLabel('Success preview').getAttribute('data-colour')).toBe('#10B981');
    await success.getByRole('button', { name: 'Darker' }).click();
    await danger.getByRole('radio', { name: 'Berry' }).click();
    await page.getByRole('button', { name: 'Apply Changes' }).click();
    await expectVisible(page, page.getByText('Colours saved'));
    await page.screenshot({ path: `${shots}/settings-admin-colours.png`, fullPage: true });

    // Logo: a text file named .png, an SVG and a 3 MB file are refused before anything is sent.
    await page.goto(`${baseUrl}/settings/logo`);
    await page.locator('label.ant-radio-button-wrapper', { hasText: 'Image logo' }).click();
    const fileInput = page.getByLabel('Logo image');
    await fileInput.setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('I am a text file with a .png name.\n'),
    });
    const wrongType =
      'The logo must be a PNG, JPG or GIF image. This file’s content is not one of those, whatever its name says.';
    await expectVisible(page, page.getByRole('alert').getByText(wrongType));
    await page.screenshot({ path: `${shots}/settings-logo-renamed-text-refused.png`, fullPage: true });
    expect(await page.getByRole('button', { name: 'Save Logo' }).isDisabled()).toBe(true);
    await fileInput.setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await expectVisible(page, page.getByRole('alert').getByText(wrongType));
    await fileInput.setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([PNG_1PX, Buffer.alloc(3 * 1024 * 1024)]),
    });
    await expectVisible(page, page.getByRole('alert').getByText('The image logo can be at most 2 MB.'));

    // A real PNG is saved and shows in the top bar, served by the bff.
    await fileInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG_1PX });
    await expectVisible(page, page.getByAltText('Chosen logo'));
    await page.getByRole('button', { name: 'Save Logo' }).click();
    await expectVisible(page, page.getByText('Logo saved'));
    const headerLogo = page.locator('header [data-testid="tenant-logo"]');
    await expectVisible(page, page.locator('header img[data-testid="tenant-logo"]'));
    const loaded = await headerLogo.evaluate(
      (element) => (element as unknown as { naturalWidth: number }).naturalWidth,
    );
    expect(loaded).toBe(1);
    expect(await headerLogo.getAttribute('src')).toMatch(/^\/api\/tenant\/logo\?v=[0-9a-f]{32}$/);

    // A text logo: a 31st character is refused with a message, 30 are fine.
    await page.locator('label.ant-radio-button-wrapper', { hasText: 'Text logo' }).click();
    await page.getByLabel('Logo text').fill('Demo Construction Ltd of Leeds!'); // 31 characters
    await expectVisible(page, page.getByText('The text logo can be at most 30 characters.'));
    expect(await page.getByRole('button', { name: 'Save Logo' }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${shots}/settings-logo-text-too-long.png`, fullPage: true });
    await page.getByLabel('Logo text').fill('Demo Build Co');
    await page.getByRole('button', { name: 'Save Logo' }).click();
    // The image logo's toast (4 s) may still be showing beside the text logo's.
    await expectVisible(page, page.getByText('Logo saved').last());
    await expectVisible(page, page.locator('header').getByText('Demo Build Co'));

    // Kept across a reload: the text logo in the top bar, the colours in the theme (a success toast recoloured).
    await page.reload();
    await expectVisible(page, page.locator('header [data-testid="tenant-logo"][data-logo-kind="text"]'));
    expect(await page.locator('header [data-testid="tenant-logo"]').textContent()).toBe('Demo Build Co');
    await page.goto(`${baseUrl}/settings/colours`);
    expect(await success.getByRole('radio', { name: 'Emerald' }).getAttribute('aria-checked')).toBe('true');
    expect(await success.getByRole('button', { name: 'Darker' }).getAttribute('aria-pressed')).toBe('true');
    expect(await danger.getByRole('radio', { name: 'Berry' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('button', { name: 'Apply Changes' }).click();
    await expectVisible(page, page.getByText('Colours saved'));
    const toastIcon = page.locator('.ant-message-success .anticon').first();
    expect(await computedColour(toastIcon)).toBe(rgbOf(successColour));
    const deleteButton = page.getByRole('button', { name: 'Delete' });
    expect(
      await deleteButton.evaluate(
        (element) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
          ).getComputedStyle(element).backgroundColor,
      ),
    ).toBe(rgbOf('#BE185D'));
    await page.screenshot({ path: `${shots}/settings-admin-after-reload.png`, fullPage: true });
    await context.close();
  });

  it("shows everyone the tenant's logo, and a standard user Access Restricted on the colour and logo settings", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    await signIn(page, 'viewer@demo.test');
    await expectVisible(page, page.locator('header').getByText('Demo Build Co'));
    for (const path of ['/settings/colours', '/settings/logo']) {
      await page.goto(`${baseUrl}${path}`);
      await expectVisible(page, page.getByText('Access Restricted'));
      await expectVisible(page, page.getByText('tenant.edit_settings'));
      expect(await page.getByRole('button', { name: 'Apply Changes' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save Logo' }).count()).toBe(0);
    }
    await page.screenshot({ path: `${shots}/settings-viewer-logo-restricted.png` });
    await context.close();
  });
});

async function expectVisible(_page: Page, locator: ReturnType<Page['locator']>) {
  await locator.waitFor({ state: 'visible', timeout: 15_000 });
}
