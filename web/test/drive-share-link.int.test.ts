// Journey: a contractor shares RAMS with a subcontractor by link with a passcode (Create Share on the exports page,
// Share Links, Copy), and the subcontractor, signed out, opens the link, enters the passcode, previews and downloads
// the PDF; Share Settings to tenant visibility warns in Share Links and asks a signed-out visitor to sign in; Rebuild.
import type { Page } from 'playwright-core';
import { shots, visible } from './browser.js';
import { choose, dialog, until } from './cis-stack.js';
import { ADMIN, pdfBytes, seedPlace, uploadFile } from './drive-share-seed.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';

let stack: DriveBrowserStack;
driveStackPerFile(async (started) => {
  stack = started;
  const place = await seedPlace(stack);
  await uploadFile(stack, place, 'RAMS.pdf', await pdfBytes('Risk assessment and method statement'));
});

/** The value of the Share Links dialog's read-only URL field. */
const linkField = (page: Page) => dialog(page, 'Share Links').getByLabel('Public URL');

let shareUrl = '';

describe('sharing a file by link', () => {
  it('creates a public share with a passcode on /drive/exports, shows and copies its link, and lists it', async () => {
    const page = await stack.newPage(ADMIN.email);
    await page.goto(`${stack.baseUrl}/drive/exports`);
    await visible(page.getByText('No shares to display.'));
    await visible(page.getByText('All Shares (0)'));

    await page.getByRole('button', { name: 'Create Share' }).click();
    const create = dialog(page, 'Create Share');
    await create.getByLabel('Name').fill('RAMS for Brick Ltd');
    await choose(page, create.getByLabel('Library'), 'Site documents');
    // A multiple select stays open after a pick: Escape closes it.
    await create.getByLabel('Files').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'RAMS.pdf' })
      .click();
    await page.keyboard.press('Escape');
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
    await create.getByLabel('Passcode').fill('4821');
    await create.getByRole('button', { name: 'Create' }).click();

    const links = dialog(page, 'Share Links');
    await visible(links);
    const field = linkField(page);
    expect(await field.getAttribute('readonly')).not.toBeNull();
    shareUrl = await field.inputValue();
    expect(shareUrl).toMatch(new RegExp(`^${stack.baseUrl}/share/[0-9a-f-]{36}\\?tenantId=demo$`));
    // Public: no warning.
    expect(await links.getByText('This share is not public.', { exact: false }).count()).toBe(0);
    await links.getByRole('button', { name: 'Copy' }).click();
    const copied = await until(
      () => page.evaluate<string>('navigator.clipboard.readText()'),
      (text) => text === shareUrl,
      'the clipboard',
    );
    expect(copied).toBe(shareUrl);
    await page.screenshot({ path: `${shots}/drive-share-links.png` });
    await links.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    const card = page.locator('.share-card', { hasText: 'RAMS for Brick Ltd' });
    await visible(card);
    await visible(card.getByText('active'));
    await visible(card.getByText('public'));
    await visible(card.getByText('1 file(s)'));
    await visible(page.getByText('All Shares (1)'));
    await visible(page.getByText('Active (1)'));
    await visible(page.getByText('Expired (0)'));
    await page.screenshot({ path: `${shots}/drive-exports.png` });
    await page.context().close();
  });

  it('opens the link signed out: the passcode (a wrong one refused), then the PDF previewed and downloaded', async () => {
    const page = await stack.newSignedOutPage();
    await page.goto(shareUrl);
    await visible(page.getByText('Passcode required'));
    expect(new URL(page.url()).pathname).toMatch(/^\/share\//);
    await page.screenshot({ path: `${shots}/drive-share-passcode.png` });

    await page.getByLabel('Passcode').fill('0000');
    await page.getByRole('button', { name: 'Open share' }).click();
    await visible(page.getByText('The passcode is not correct.'));

    await page.getByLabel('Passcode').fill('4821');
    await page.getByRole('button', { name: 'Open share' }).click();
    await visible(page.getByText('RAMS for Brick Ltd'));
    await visible(page.getByText('RAMS.pdf'));
    await visible(page.getByText('Downloads allowed'));

    await page.getByRole('button', { name: 'Preview RAMS.pdf' }).click();
    const frame = dialog(page, 'RAMS.pdf').locator('iframe');
    await visible(frame);
    // The preview address answers the PDF (through the object store's presigned URL, under the CSP and CORS).
    const previewed = await page.evaluate<{ ok: boolean; head: string }>(`(async () => {
      const response = await fetch(${JSON.stringify(await frame.getAttribute('src'))});
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { ok: response.ok, head: String.fromCharCode(...bytes.slice(0, 5)) };
    })()`);
    expect(previewed).toEqual({ ok: true, head: '%PDF-' });
    await page.screenshot({ path: `${shots}/drive-share-preview.png` });
    await page.keyboard.press('Escape');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      // A download is a link (the browser follows the drive's redirect to the object store).
      page.getByRole('link', { name: 'Download RAMS.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('RAMS.pdf');
    const saved = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');
    await page.screenshot({ path: `${shots}/drive-share-opened.png` });
    await page.context().close();
  });

  it('Share Settings to tenant: Share Links warns, a signed-out visitor is asked to sign in; Rebuild reports', async () => {
    const page = await stack.newPage(ADMIN.email);
    await page.goto(`${stack.baseUrl}/drive/exports`);
    const card = page.locator('.share-card', { hasText: 'RAMS for Brick Ltd' });
    await card.getByRole('button', { name: 'Settings' }).click();
    const settings = dialog(page, 'Share Settings');
    expect(await settings.getByLabel('Allow download').isChecked()).toBe(true);
    expect(await settings.getByLabel('Watermark').isChecked()).toBe(false);
    await settings.getByLabel('Restricted').check();
    await visible(settings.getByLabel('Allowed users'));
    await settings.getByLabel('Tenant').check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByText('Share settings saved'));
    await visible(card.getByText('tenant'));

    await card.getByRole('button', { name: 'Links' }).click();
    await visible(
      dialog(page, 'Share Links').getByText(
        'This share is not public. Change visibility to Public in Settings.',
      ),
    );
    await page.screenshot({ path: `${shots}/drive-share-links-not-public.png` });
    await dialog(page, 'Share Links')
      .locator('.ant-modal-footer')
      .getByRole('button', { name: 'Close' })
      .click();

    await card.getByRole('button', { name: 'Rebuild' }).click();
    await page.locator('.confirm-dialog').getByRole('button', { name: 'Rebuild' }).click();
    await visible(page.getByText('Removed 0 missing file(s).'));

    const visitor = await stack.newSignedOutPage();
    await visitor.goto(shareUrl);
    await visible(visitor.getByText('Sign in to open this share', { exact: true }));
    await visitor.screenshot({ path: `${shots}/drive-share-sign-in.png` });
    await visitor.context().close();
    await page.context().close();
  });
});
