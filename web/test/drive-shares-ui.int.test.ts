// Journeys: the drive's sharing screens as a contractor's office uses them. Share File (Cancel shares nothing; the
// permission check and 'Sharing...' while they run; a file the user may not share, a share the drive refuses or that
// fails), the Share action only for those who may share, a colleague alone in their organisation; and the exports
// page: Create Share's idempotency key, Share Links' Close, the allowed ids, Share Settings and Rebuild failing,
// Revoke ('Manual revocation'), an expired share's card, and the cards' 1/2/3 columns.
import type { Page, Request, Route } from 'playwright-core';
import { animationsDone, shots, signInThroughPages, visible } from './browser.js';
import { choose, dialog, until } from './cis-stack.js';
import { ADMIN, MANAGER, pdfBytes, seedPlace, uploadFile, type SeededPlace } from './drive-share-seed.js';
import { DRIVE_ADMIN_SCOPES, driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';

const EDITOR = { uid: '00000000-0000-4000-8000-000000000003', name: 'Eddie Editor' };
const VIEWER = { email: 'viewer@demo.test', uid: '00000000-0000-4000-8000-000000000004' };
/** The one user of tenant acme (identity's test seed). */
const ACME_ADMIN = { email: 'admin@acme.test', uid: '10000000-0000-4000-8000-000000000001' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let stack: DriveBrowserStack;
let place: SeededPlace;
const files: Record<string, string> = {};
/** Libraries made beside the default one: one that forbids sharing, one the test turns it off in mid-dialog. */
const libraries: Record<string, string> = {};

const ok = <T extends { status: number; text: string }>(what: string, answer: T): T => {
  if (answer.status >= 300) throw new Error(`${what}: ${String(answer.status)} ${answer.text}`);
  return answer;
};

driveStackPerFile(async (started) => {
  stack = started;
  place = await seedPlace(stack);
  // The viewer and the manager are members of the drive (the viewer to see its files without a share scope).
  ok(
    'add members',
    await stack.driveCall(place.token, 'POST', `/drives/${place.driveId}/members`, {
      userIds: [VIEWER.uid, MANAGER.uid],
    }),
  );
  for (const [name, policies] of [
    ['Insurance', { shareAllowed: false }],
    ['Contracts', { shareAllowed: true }],
  ] as const) {
    const made = ok(
      `library ${name}`,
      await stack.driveCall(place.token, 'POST', '/libraries', { driveId: place.driveId, name, policies }),
    );
    libraries[name] = String(made.body.libraryId);
  }
  const pdf = await pdfBytes('Site documents');
  for (const name of ['Drawings.pdf', 'RAMS.pdf', 'Method statement.pdf']) {
    files[name] = (await uploadFile(stack, place, name, pdf)).fileId;
  }
  for (const [name, library] of [
    ['Insurance certificate.pdf', 'Insurance'],
    ['Subcontract.pdf', 'Contracts'],
  ] as const) {
    files[name] = (
      await uploadFile(stack, { ...place, libraryId: libraries[library] ?? '' }, name, pdf)
    ).fileId;
  }
  // Two shares made through the API: one whose expiry has passed, one tenant-wide.
  const yesterday = new Date(stack.harness.clock.now().getTime() - 86_400_000).toISOString();
  for (const [name, visibility, expiresAt] of [
    ['Old drawings', 'public', yesterday],
    ['Site team', 'tenant', null],
  ] as const) {
    ok(
      `share ${name}`,
      await stack.driveCall(place.token, 'POST', '/mutations/share', {
        name,
        libraryId: place.libraryId,
        fileIds: [files['Drawings.pdf']],
        visibility,
        allowedUids: [],
        policy: { allowDownload: true, watermark: false, expiresAt },
      }),
    );
  }
});

/** The file list of /drive/all as a table (the Share action is a row's). */
async function fileTable(page: Page): Promise<void> {
  await page.goto(`${stack.baseUrl}/drive/all`);
  await page.getByTestId('drive-toolbar').getByText('List', { exact: true }).click();
  await visible(page.getByTestId('file-table').getByText('Drawings.pdf', { exact: true }));
}

/** Holds the browser's calls matching `path` until `release` is called (then they go on to the bff). */
async function hold(
  page: Page,
  path: string,
): Promise<{ held: Promise<Request>; release: () => Promise<void> }> {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let seen: (request: Request) => void = () => undefined;
  const held = new Promise<Request>((resolve) => {
    seen = resolve;
  });
  const matches = (url: URL) => url.pathname.endsWith(path);
  let continued = Promise.resolve();
  await page.route(matches, (route: Route) => {
    seen(route.request());
    continued = gate.then(() => route.continue());
    return continued;
  });
  return {
    held,
    release: async () => {
      release();
      await continued;
      await page.unroute(matches);
    },
  };
}

/** Clicks a file's Share action (the mouse moved off first, so no tooltip of another row lies over it). */
async function clickShare(page: Page, fileName: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.locator('.ant-tooltip:visible').first().waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: `Share ${fileName}` }).click();
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text });

describe('Share File', () => {
  it("says 'Checking permissions, please wait...' until the permissions are in; Cancel shares nothing; 'Sharing...' while it shares", async () => {
    const page = await stack.newPage(ADMIN.email);
    await fileTable(page);
    const shareCalls: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/share-with')) shareCalls.push(request);
    });

    // The dialog's fresh permission check, held: the info message and no dialog yet.
    const abilities = await hold(page, '/api/drive/me/abilities');
    await clickShare(page, 'Drawings.pdf');
    await abilities.held;
    await visible(toast(page, 'Checking permissions, please wait...'));
    expect(await dialog(page, 'Share File').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-share-file-checking.png` });
    await abilities.release();
    const share = dialog(page, 'Share File');
    await visible(share);
    await toast(page, 'Checking permissions, please wait...').waitFor({ state: 'detached' });

    // Cancel: closed, nothing sent, the file still private.
    await share.getByText(MANAGER.name, { exact: true }).click();
    await visible(share.getByText('1 user(s) selected'));
    await share.getByRole('button', { name: 'Cancel' }).click();
    await share.waitFor({ state: 'detached' });
    expect(shareCalls).toHaveLength(0);
    const untouched = await stack.driveCall(place.token, 'GET', `/files/${files['Drawings.pdf'] ?? ''}`);
    expect(untouched.body.file).toMatchObject({ sharedWith: [], visibility: 'private' });

    // Share, the call held: 'Sharing...' on the disabled button; then the spec's toast.
    await clickShare(page, 'Drawings.pdf');
    await visible(share);
    await share.getByText(MANAGER.name, { exact: true }).click();
    const sending = await hold(page, '/share-with');
    await share.getByRole('button', { name: 'Share with 1 user(s)' }).click();
    const sent = await sending.held;
    const busy = share.getByRole('button', { name: /Sharing\.\.\./ });
    await visible(busy);
    expect(await busy.isDisabled()).toBe(true);
    await animationsDone(share);
    await page.screenshot({ path: `${shots}/drive-share-file-sharing.png` });
    await sending.release();
    await visible(toast(page, 'File sharing settings updated'));
    await share.waitFor({ state: 'detached' });
    await page.screenshot({ path: `${shots}/drive-share-file-updated.png` });
    // The browser's own call carries a random idempotency key.
    expect(sent.headers()['x-idempotency-key']).toMatch(UUID);
    const shared = await stack.driveCall(place.token, 'GET', `/files/${files['Drawings.pdf'] ?? ''}`);
    expect(shared.body.file).toMatchObject({ sharedWith: [MANAGER.uid], visibility: 'shared' });
    await page.context().close();
  });

  it("opens no dialog for a file the user may not share, and says 'You don't have permission to share files'; the drive refusing says it too; a failed share says 'Failed to share file. Please try again.'", async () => {
    const page = await stack.newPage(ADMIN.email);
    await fileTable(page);

    // A library that does not allow sharing: no dialog, the permission message.
    await clickShare(page, 'Insurance certificate.pdf');
    await visible(toast(page, "You don't have permission to share files"));
    expect(await dialog(page, 'Share File').count()).toBe(0);
    await toast(page, 'Checking permissions, please wait...').waitFor({ state: 'detached' });
    await visible(toast(page, "You don't have permission to share files"));
    await page.screenshot({ path: `${shots}/drive-share-file-no-permission.png` });

    await toast(page, "You don't have permission to share files").waitFor({ state: 'detached' });
    // Sharing turned off in the library while the dialog is open: the drive refuses (403), the same message.
    await clickShare(page, 'Subcontract.pdf');
    const share = dialog(page, 'Share File');
    await visible(share);
    await share.getByText(MANAGER.name, { exact: true }).click();
    ok(
      'sharing off',
      await stack.driveCall(place.token, 'PATCH', `/libraries/${libraries.Contracts ?? ''}`, {
        policies: { shareAllowed: false },
      }),
    );
    const refused = page.waitForResponse((response) => response.url().includes('/share-with'));
    await share.getByRole('button', { name: 'Share with 1 user(s)' }).click();
    expect((await refused).status()).toBe(403);
    await visible(toast(page, "You don't have permission to share files"));
    await visible(share);
    await share.getByRole('button', { name: 'Cancel' }).click();
    await share.waitFor({ state: 'detached' });

    // The file deleted for good meanwhile (the drive answers 404): the spec's failure text.
    await clickShare(page, 'Method statement.pdf');
    await visible(share);
    await share.getByText(MANAGER.name, { exact: true }).click();
    ok(
      'trash',
      await stack.driveCall(place.token, 'POST', '/mutations/delete', {
        fileId: files['Method statement.pdf'],
        permanent: true,
      }),
    );
    const failed = page.waitForResponse((response) => response.url().includes('/share-with'));
    await share.getByRole('button', { name: 'Share with 1 user(s)' }).click();
    expect((await failed).status()).toBe(404);
    await visible(toast(page, 'Failed to share file. Please try again.'));
    await page.screenshot({ path: `${shots}/drive-share-file-failed.png` });
    await share.getByRole('button', { name: 'Cancel' }).click();
    await share.waitFor({ state: 'detached' });

    await toast(page, 'Failed to share file. Please try again.').waitFor({ state: 'detached' });
    // A server error (what the drive answers to an unexpected failure, which a test cannot provoke): the same text.
    await clickShare(page, 'RAMS.pdf');
    await visible(share);
    await share.getByText(MANAGER.name, { exact: true }).click();
    await page.route(
      (url) => url.pathname.endsWith('/share-with'),
      (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            status: 500,
            code: 'internal_error',
            detail: 'An unexpected error occurred.',
          }),
        }),
    );
    await share.getByRole('button', { name: 'Share with 1 user(s)' }).click();
    await visible(toast(page, 'Failed to share file. Please try again.'));
    expect(await toast(page, 'An unexpected error occurred.').count()).toBe(0);
    await page.context().close();
  });

  it('shows the Share action only to a user who may share files (the viewer has none, so no dialog)', async () => {
    const page = await stack.newPage(VIEWER.email);
    await fileTable(page);
    const table = page.getByTestId('file-table');
    await visible(table.getByRole('button', { name: 'Download Drawings.pdf' }));
    expect(await table.getByRole('button', { name: /^Share / }).count()).toBe(0);
    expect(await dialog(page, 'Share File').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-share-file-viewer.png` });
    await page.context().close();
  });

  it("says 'No other users in organization' to the only user of a tenant", async () => {
    // Tenant acme has one user. Its drive data is made to live in this release's region, with the drive module on.
    await stack.harness.identity.definition.context().inTenant('acme', (_stores, trx) =>
      trx('tenants')
        .where({ tenant_id: 'acme' })
        .update({
          region: 'uk',
          modules: JSON.stringify([
            { id: 'cis', enabled: true, config: {} },
            { id: 'drive', enabled: true, config: {} },
          ]),
        }),
    );
    const token = await stack.token(DRIVE_ADMIN_SCOPES, 'acme', ACME_ADMIN.uid);
    const drive = ok(
      'acme drive',
      await stack.driveCall(token, 'POST', '/drives/create', { drive: { name: 'Acme site' } }),
    );
    const driveId = String(drive.body.driveId);
    const library = ok(
      'acme library',
      await stack.driveCall(token, 'POST', '/libraries/ensure-default', { driveId }),
    );
    await uploadFile(
      stack,
      { token, driveId, libraryId: String(library.body.libraryId) },
      'Drawings.pdf',
      await pdfBytes('Acme drawings'),
    );

    const context = await stack.browser.newContext({
      viewport: { width: 1366, height: 900 },
      locale: 'en-GB',
    });
    const page = await context.newPage();
    await signInThroughPages(page, stack.baseUrl, ACME_ADMIN.email, 'acme');
    await fileTable(page);
    await clickShare(page, 'Drawings.pdf');
    const share = dialog(page, 'Share File');
    await visible(share.getByText('No other users in organization'));
    await visible(share.getByText('0 user(s) available'));
    await animationsDone(share);
    await page.screenshot({ path: `${shots}/drive-share-file-alone.png` });
    await context.close();
  });
});

describe('the exports page', () => {
  it('Create Share sends a random X-Idempotency-Key; Share Links closes; an expired share shows expired; cards in 1, 2 or 3 columns', async () => {
    const page = await stack.newPage(ADMIN.email);
    await page.goto(`${stack.baseUrl}/drive/exports`);
    await visible(page.getByText('All Shares (2)'));

    const keys: string[] = [];
    for (const name of ['RAMS for Brick Ltd', 'RAMS for Stone Ltd']) {
      await page.getByRole('button', { name: 'Create Share' }).click();
      const create = dialog(page, 'Create Share');
      await create.getByLabel('Name').fill(name);
      await choose(page, create.getByLabel('Library'), 'Site documents / Documents');
      await create.getByLabel('Files').click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'RAMS.pdf' })
        .click();
      await page.keyboard.press('Escape');
      await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
      const sent = page.waitForRequest(
        (request) => request.method() === 'POST' && request.url().endsWith('/api/drive/mutations/share'),
      );
      await create.getByRole('button', { name: 'Create' }).click();
      keys.push((await sent).headers()['x-idempotency-key'] ?? '');
      // Share Links opens on the new share; Close closes it.
      const links = dialog(page, 'Share Links');
      await visible(links);
      await links.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
      await links.waitFor({ state: 'detached' });
      expect(await dialog(page, 'Share Links').count()).toBe(0);
    }
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[0]).not.toBe(keys[1]);

    const expired = page.locator('.share-card', { hasText: 'Old drawings' });
    await visible(expired.getByText('expired', { exact: true }));
    await visible(expired.getByText('public', { exact: true }));
    await visible(page.getByText('Expired (1)'));

    // The grid: 3 columns wide, 2 at a medium width, 1 narrow (the four cards' distinct left edges).
    const columns = async () => {
      const cards = page.locator('.share-card');
      await visible(cards.nth(3));
      const lefts = await cards.evaluateAll((elements) =>
        elements.map((element) =>
          Math.round(
            (element as unknown as { getBoundingClientRect(): { x: number } }).getBoundingClientRect().x,
          ),
        ),
      );
      return new Set(lefts).size;
    };
    expect(await page.locator('.share-card').count()).toBe(4);
    for (const [width, expected, name] of [
      [1366, 3, 'wide'],
      [900, 2, 'medium'],
      [600, 1, 'narrow'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      expect(await until(columns, (count) => count === expected, `${String(expected)} columns`)).toBe(
        expected,
      );
      await page.screenshot({ path: `${shots}/drive-exports-${name}.png`, fullPage: true });
    }
    await page.context().close();
  });

  it("Share Settings: allowed ids split on commas; a failure shows the drive's message, else 'Failed to save settings'; 'Failed to rebuild'; Revoke records 'Manual revocation'", async () => {
    const page = await stack.newPage(ADMIN.email);
    await page.goto(`${stack.baseUrl}/drive/exports`);
    const brick = page.locator('.share-card', { hasText: 'RAMS for Brick Ltd' });
    const stone = page.locator('.share-card', { hasText: 'RAMS for Stone Ltd' });
    await visible(brick);

    // Restricted to ' manager, ,editor ': sent and kept as two ids.
    await brick.getByRole('button', { name: 'Settings' }).click();
    const settings = dialog(page, 'Share Settings');
    await settings.getByLabel('Restricted').check();
    await settings.getByLabel('Allowed users').fill(` ${MANAGER.uid}, ,${EDITOR.uid} `);
    const saved = page.waitForRequest((request) => request.url().endsWith('/settings'));
    await settings.getByRole('button', { name: 'Save' }).click();
    const body = (await saved).postDataJSON() as { updates: { allowedUids: string[] } };
    expect(body.updates.allowedUids).toEqual([MANAGER.uid, EDITOR.uid]);
    await visible(toast(page, 'Share settings saved'));
    await visible(brick.getByText('restricted', { exact: true }));
    const brickId = await shareIdOf('RAMS for Brick Ltd');
    const kept = await stack.driveCall(place.token, 'GET', `/shares/${brickId}`);
    expect(kept.body.allowedUids).toEqual([MANAGER.uid, EDITOR.uid]);

    // No message from the server (a gateway's bare 502): the spec's text.
    await brick.getByRole('button', { name: 'Settings' }).click();
    await visible(settings);
    const settingsCall = (url: URL) => url.pathname.endsWith('/settings');
    await page.route(settingsCall, (route) =>
      route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad Gateway' }),
    );
    await settings.getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'Failed to save settings'));
    await animationsDone(settings);
    await page.screenshot({ path: `${shots}/drive-share-settings-failed.png` });
    await page.unroute(settingsCall);
    await toast(page, 'Failed to save settings').waitFor({ state: 'detached' });
    await settings.getByRole('button', { name: 'Cancel' }).click();
    await settings.waitFor({ state: 'detached' });

    // Revoked by someone else while the dialog is open: Save shows the drive's message.
    const stoneId = await shareIdOf('RAMS for Stone Ltd');
    await stone.getByRole('button', { name: 'Settings' }).click();
    await visible(settings);
    ok(
      'revoke',
      await stack.driveCall(place.token, 'POST', `/shares/${stoneId}/revoke`, { reason: 'Job done' }),
    );
    await settings.getByLabel('Watermark').check();
    const refusedSave = page.waitForResponse((response) => response.url().endsWith('/settings'));
    await settings.getByRole('button', { name: 'Save' }).click();
    expect((await refusedSave).status()).toBe(409);
    await visible(toast(page, 'This share has been revoked.'));
    expect(await toast(page, 'Failed to save settings').count()).toBe(0);
    await animationsDone(settings);
    await page.screenshot({ path: `${shots}/drive-share-settings-server-message.png` });
    await settings.getByRole('button', { name: 'Cancel' }).click();
    await settings.waitFor({ state: 'detached' });
    // (A failed save refreshes the list: the stone card is revoked now.) Brick revoked elsewhere in turn: Rebuild fails.
    await visible(stone.getByText('Job done', { exact: false }));
    ok(
      'revoke',
      await stack.driveCall(place.token, 'POST', `/shares/${brickId}/revoke`, { reason: 'Contract ended' }),
    );
    const rebuilt = page.waitForResponse((response) => response.url().endsWith('/rebuild'));
    await brick.getByRole('button', { name: 'Rebuild' }).click();
    await page.locator('.confirm-dialog').getByRole('button', { name: 'Rebuild' }).click();
    expect((await rebuilt).status()).toBe(409);
    await visible(toast(page, 'Failed to rebuild'));
    await page.screenshot({ path: `${shots}/drive-share-rebuild-failed.png` });

    // Revoke from the card, no reason given: the drive records 'Manual revocation'; the card is expired.
    const team = page.locator('.share-card', { hasText: 'Site team' });
    const revoking = page.waitForRequest((request) => request.url().endsWith('/revoke'));
    await team.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('.confirm-dialog').getByRole('button', { name: 'Revoke' }).click();
    expect((await revoking).postDataJSON()).not.toHaveProperty('reason');
    await visible(toast(page, 'Share revoked'));
    await visible(team.getByText('expired', { exact: true }));
    await visible(team.getByText('Manual revocation', { exact: false }));
    expect(await team.getByRole('button', { name: 'Settings' }).count()).toBe(0);
    await visible(stone.getByText('Job done', { exact: false }));
    const revoked = await stack.driveCall(place.token, 'GET', `/shares/${await shareIdOf('Site team')}`);
    expect(revoked.body).toMatchObject({ status: 'expired', revokeReason: 'Manual revocation' });
    await page.screenshot({ path: `${shots}/drive-share-revoked.png`, fullPage: true });
    await page.context().close();
  });
});

/** A share's id by its name (the drive's list). */
async function shareIdOf(name: string): Promise<string> {
  const list = await stack.driveCall(place.token, 'GET', `/shares?q=${encodeURIComponent(name)}`);
  const found = (list.body.items as { id: string; name: string }[]).find((share) => share.name === name);
  if (!found) throw new Error(`no share ${name}: ${list.text}`);
  return found.id;
}
