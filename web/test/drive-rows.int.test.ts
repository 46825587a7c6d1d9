// The drive's plumbing rows as the browser sees it (docs/drive.md › Rows the architecture replaces): where the
// screens' data goes (the bff's /api for data, the region's object store for bytes, nothing else), the abilities
// fetched from the server and refreshed when the tenant's whitelist changes, and a client-side audit record that
// fails without failing the user's action. Screenshots in test-results/screenshots/drive-rows-*.png.
import type { Page, Request } from 'playwright-core';
import { demoSeed, signIn as signInAtIdentity } from '@workspace/identity/testing';
import { shots, visible } from './browser.js';
import { dialog, until } from './cis-stack.js';
import { ADMIN, MANAGER, pdfBytes, seedPlace, uploadFile, type SeededPlace } from './drive-share-seed.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';

let stack: DriveBrowserStack;
let place: SeededPlace;
driveStackPerFile(async (started) => {
  stack = started;
  place = await seedPlace(stack);
});

/** The drive toolbar's Upload button (shown with the upload ability). */
const uploadButton = (page: Page) =>
  page.getByTestId('drive-toolbar').getByRole('button', { name: 'Upload' });

/** Every request the page makes from now on. */
function recordRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => seen.push(request));
  return seen;
}

/** A call of identity's API as the demo tenant's administrator (the staff app has no whitelist screen). */
async function asIdentityAdmin(method: string, path: string, body?: unknown): Promise<Response> {
  const identity = stack.harness.identity.baseUrl;
  const admin = await signInAtIdentity(stack.harness.identity, 'demo', ADMIN.email, demoSeed.password);
  return fetch(`${identity}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${String(admin.body.accessToken)}`,
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('the drive’s plumbing in Chromium', () => {
  it('DRV-009, DRV-295: data goes through the bff’s /api (abilities from the server), bytes straight to the region’s object store, nothing elsewhere', async () => {
    const page = await stack.newPage(ADMIN.email);
    const requests = recordRequests(page);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await uploadButton(page).click();
    const upload = page.locator('.ant-modal', { hasText: 'Upload Files' });
    await visible(upload);
    await upload.locator('input[type=file]').setInputFiles({
      name: 'Site induction.pdf',
      mimeType: 'application/pdf',
      buffer: await pdfBytes('Site induction'),
    });
    await upload.getByLabel('Drive').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await visible(upload.locator('.ant-select-content[title="Documents"]'));
    await upload.getByRole('button', { name: 'Upload', exact: true }).click();
    await visible(page.getByText('File "Site induction.pdf" uploaded successfully'));
    const card = page.getByTestId('file-card').filter({ hasText: 'Site induction.pdf' });
    await visible(card);
    await page.screenshot({ path: `${shots}/drive-rows-uploaded.png` });

    const objectStore = new URL(
      stack.driveConfig.OBJECT_STORE_PUBLIC_URL ?? stack.driveConfig.OBJECT_STORE_URL,
    ).origin;
    const origins = new Set(requests.map((request) => new URL(request.url()).origin));
    expect([...origins].sort()).toEqual([stack.baseUrl, objectStore].sort());
    // The product's origin: its pages and bundles, and the data under /api (the bff), nothing else.
    const calls = requests
      .filter((request) => new URL(request.url()).origin === stack.baseUrl)
      .filter((request) => request.resourceType() === 'fetch' || request.resourceType() === 'xhr')
      .map((request) => `${request.method()} ${new URL(request.url()).pathname}`);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toMatch(/^[A-Z]+ \/api\//);
    expect(calls).toEqual(
      expect.arrayContaining([
        'GET /api/drive/me/abilities',
        'GET /api/drive/files',
        'POST /api/drive/uploads',
        'POST /api/drive/files/register',
      ]),
    );
    // The object store: the bytes only, each PUT to a presigned URL of the region's bucket.
    const transfers = requests.filter((request) => new URL(request.url()).origin === objectStore);
    const puts = transfers.filter((request) => request.method() === 'PUT');
    expect(puts.length).toBeGreaterThan(0);
    for (const transfer of transfers) {
      const url = new URL(transfer.url());
      expect(['PUT', 'GET', 'HEAD', 'OPTIONS']).toContain(transfer.method());
      expect(url.pathname.startsWith(`/${stack.driveConfig.OBJECT_STORE_BUCKET}/`)).toBe(true);
      if (transfer.method() !== 'OPTIONS') expect(url.searchParams.get('X-Amz-Signature')).toBeTruthy();
    }
    await page.context().close();
  });

  it('DRV-296: a whitelist change takes Upload away from an open drive page, without a reload', async () => {
    const available = (await (await asIdentityAdmin('GET', '/tenant/available-scopes')).json()) as {
      scopes: string[];
    };
    expect(available.scopes).toContain('drive.file.upload');
    const page = await stack.newPage(MANAGER.email);
    await page.goto(`${stack.baseUrl}/drive/all`);
    const upload = uploadButton(page);
    await visible(upload);
    await page.evaluate('window.__notReloaded = true');

    try {
      // Left out: the upload scope and drive.admin, which implies it (a whitelist entry allows what it implies).
      const withoutUpload = ['drive.file.upload', 'drive.admin'];
      const restricted = await asIdentityAdmin('PUT', '/tenant/available-scopes', {
        scopes: available.scopes.filter((scope) => !withoutUpload.includes(scope)),
      });
      expect(restricted.status).toBe(204);
      await upload.waitFor({ state: 'detached', timeout: 15_000 });
      await page.screenshot({ path: `${shots}/drive-rows-whitelist-restricted.png` });
      expect(await page.evaluate('window.__notReloaded === true')).toBe(true);

      // Lifted again: Upload comes back.
      expect((await asIdentityAdmin('PUT', '/tenant/available-scopes', { scopes: null })).status).toBe(204);
      await visible(upload);
      expect(await page.evaluate('window.__notReloaded === true')).toBe(true);
    } finally {
      await asIdentityAdmin('PUT', '/tenant/available-scopes', { scopes: null });
      await page.context().close();
    }
  });

  it('DRV-383: Copy in Share Links still copies and says so when recording SHARE_LINK_COPIED fails', async () => {
    const { fileId } = await uploadFile(stack, place, 'Method statement.pdf', await pdfBytes('Method'));
    const share = await stack.driveCall(place.token, 'POST', '/mutations/share', {
      name: 'Method statement for Brick Ltd',
      libraryId: place.libraryId,
      fileIds: [fileId],
      visibility: 'public',
    });
    expect(share.status).toBe(201);
    const page = await stack.newPage(ADMIN.email);
    let refused = 0;
    await page.route('**/api/drive/shares/*/link-copied', (route) => {
      refused++;
      return route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ status: 503, code: 'unavailable', detail: 'Service unavailable' }),
      });
    });
    await page.goto(`${stack.baseUrl}/drive/exports`);
    const card = page.locator('.share-card', { hasText: 'Method statement for Brick Ltd' });
    await visible(card);
    await card.getByRole('button', { name: 'Links' }).click();
    const links = dialog(page, 'Share Links');
    await visible(links);
    const url = await links.getByLabel('Public URL').inputValue();
    await links.getByRole('button', { name: 'Copy' }).click();
    await visible(page.getByText('Link copied'));
    await page.screenshot({ path: `${shots}/drive-rows-copy-audit-down.png` });
    expect(
      await until(
        () => page.evaluate<string>('navigator.clipboard.readText()'),
        (text) => text === url,
        'the clipboard',
      ),
    ).toBe(url);
    await until(
      () => Promise.resolve(refused),
      (count) => count > 0,
      'the audit call',
    );
    // No error is shown for the record that failed; the dialog stays as it was.
    await visible(links.getByLabel('Public URL'));
    expect(await page.locator('.ant-message-error, .ant-notification-notice-error').count()).toBe(0);
    await page.context().close();
  });
});
