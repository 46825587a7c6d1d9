// The drive's file list in Chromium (drive.md §2 toolbar and file list, §4 live subscription, §9 constants): the six
// tabs and their views, the visibility pills, the library and folder pickers, search by owner with its 300 ms
// debounce (Playwright's clock), the Shared column, Share only when permitted, 'Needs repair' in list and grid, type
// icons, the empty states and Access Denied, bulk restore only in the trash, the skeleton and the cache-first
// reload, live updates from another tab, the pager (back to page 1 on a filter change) and the virtual scroll above
// 100 rows. Screenshots: test-results/screenshots/drive-list-*.png.
import type { Page, Request, Route } from 'playwright-core';
// The drive's own registration step for a module reference (no route lets a reference write fail on purpose).
// eslint-disable-next-line no-restricted-imports -- the seed goes through the service's command, not SQL
import { attachOnRegister } from '../../services/drive/src/commands/references.js';
import { shots, visible } from './browser.js';
import { until } from './cis-stack.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';
import { firstLibrary, pdfOf, sharedDrive, uploadThroughApi, driveAdminSql } from './drive-support.js';

const ADMIN = { email: 'admin@demo.test', uid: '00000000-0000-4000-8000-000000000001' };
const MANAGER = { email: 'manager@demo.test', uid: '00000000-0000-4000-8000-000000000002' };
const EDITOR = { email: 'editor@demo.test', uid: '00000000-0000-4000-8000-000000000003' };
const VIEWER = { email: 'viewer@demo.test', uid: '00000000-0000-4000-8000-000000000004' };
const CLERK = { email: 'clerk@demo.test', uid: '00000000-0000-4000-8000-000000000007' };

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let stack: DriveBrowserStack;
let adminToken: string;
let managerToken: string;
let projectId: string;
let documentsId: string;
let managerDriveId: string;
let managerLibraryId: string;
const ids: Record<string, string> = {};

async function ok(
  what: string,
  answer: Promise<{ status: number; text: string; body: Record<string, unknown> }>,
) {
  const done = await answer;
  if (done.status >= 300) throw new Error(`${what}: ${String(done.status)} ${done.text}`);
  return done.body;
}

/** A statement as the test database's administrator (row-level security does not apply). */
const adminSql = (text: string, params: unknown[] = []) => driveAdminSql(stack, text, params);

driveStackPerFile(async (started) => {
  stack = started;
  adminToken = await stack.signInAs(ADMIN.email);
  managerToken = await stack.signInAs(MANAGER.email);
  projectId = await sharedDrive(stack, adminToken, 'Project Files');
  documentsId = await firstLibrary(stack, adminToken, projectId);
  const drawings = await ok(
    'library',
    stack.driveCall(adminToken, 'POST', '/libraries', { driveId: projectId, name: 'Drawings' }),
  );
  const place = { driveId: projectId, libraryId: documentsId };
  const upload = async (name: string, mime: string, bytes: Buffer, where = place, token = adminToken) => {
    ids[name] = await uploadThroughApi(stack, token, where, name, mime, bytes);
  };
  await upload('Site plan.pdf', 'application/pdf', await pdfOf('Site plan'));
  await upload('Costs.csv', 'text/csv', Buffer.from('Item,Amount\nScaffold,1200\n'));
  await upload('photo.png', 'image/png', PNG);
  await upload('Invoice 001.txt', 'text/plain', Buffer.from('Invoice 001'));
  await upload('Survey.pdf', 'application/pdf', await pdfOf('Survey'));
  await upload('Old draft.txt', 'text/plain', Buffer.from('draft'));
  await upload('Elevation.pdf', 'application/pdf', await pdfOf('Elevation'), {
    driveId: projectId,
    libraryId: String(drawings.libraryId),
  });
  // Manager and viewer are members of Project Files; Site plan is shared with both ('2 people').
  await ok(
    'members',
    stack.driveCall(adminToken, 'POST', `/drives/${projectId}/members`, {
      userIds: [MANAGER.uid, VIEWER.uid],
    }),
  );
  await ok(
    'share',
    stack.driveCall(adminToken, 'POST', `/files/${ids['Site plan.pdf']}/share-with`, {
      userIds: [MANAGER.uid, VIEWER.uid],
    }),
  );
  // Invoices: a folder holding Invoice 001.
  const folder = await ok(
    'folder',
    stack.driveCall(adminToken, 'POST', '/folders/create', { driveId: projectId, name: 'Invoices' }),
  );
  await ok(
    'assign',
    stack.driveCall(adminToken, 'POST', '/mutations/folder-assign', {
      driveId: projectId,
      fileIds: [ids['Invoice 001.txt']],
      toFolderId: folder.folderId,
    }),
  );
  await ok('star', stack.driveCall(adminToken, 'PUT', `/files/${ids['Costs.csv']}/star`));
  await ok(
    'trash',
    stack.driveCall(adminToken, 'POST', '/mutations/delete', { fileIds: [ids['Old draft.txt']] }),
  );
  // Survey's module reference could not be written at registration (the service's own path): 'Needs repair'.
  const deps = stack.driveDefinition.deps();
  const attached = await deps.inTenant('demo', (trx) =>
    attachOnRegister(deps, trx, { tenantId: 'demo', userId: ADMIN.uid }, ids['Survey.pdf'] ?? '', {
      moduleId: '',
      entityId: 'event-1',
    }),
  );
  if (attached.ok) throw new Error('the reference write should have failed');
  // A file shared by visibility alone (no people): no route leaves one so, the table is set directly.
  await adminSql(`UPDATE drive.files SET visibility = 'shared' WHERE id = $1`, [ids['photo.png']]);
  // The manager's own drive and file (owner 'Mo Manager').
  managerDriveId = await sharedDrive(stack, managerToken, 'Manager Drive');
  managerLibraryId = await firstLibrary(stack, managerToken, managerDriveId);
  await upload(
    'Weekly report.pdf',
    'application/pdf',
    await pdfOf('Weekly report'),
    { driveId: managerDriveId, libraryId: managerLibraryId },
    managerToken,
  );
});

const toolbar = (page: Page) => page.getByTestId('drive-toolbar');
const tableRows = (page: Page) => page.locator('[data-testid="file-table"] tbody tr.ant-table-row');
const rowNames = async (page: Page) =>
  (await tableRows(page).locator('td:nth-child(2)').allInnerTexts()).map((name) =>
    name.replace(/\s*Needs repair$/, '').trim(),
  );
const cardNames = (page: Page) => page.getByTestId('file-card').locator('a').allInnerTexts();
const sorted = (names: string[]) => [...names].sort().join();

/** Waits until the list (table or grid) shows exactly these names (in any order). */
async function shows(page: Page, names: string[], grid = false): Promise<void> {
  await until(
    () => (grid ? cardNames(page) : rowNames(page)),
    (seen) => sorted(seen) === sorted(names),
    `the list shows ${names.join(', ')}`,
  );
}

async function asList(page: Page): Promise<void> {
  await toolbar(page).getByText('List', { exact: true }).click();
  await visible(page.getByTestId('file-table'));
}

const ALL_ADMIN = [
  'Site plan.pdf',
  'Costs.csv',
  'photo.png',
  'Invoice 001.txt',
  'Survey.pdf',
  'Elevation.pdf',
  'Weekly report.pdf',
];

describe('the file list views and filters', () => {
  it('has the six tabs, each listing its view: all, mine, shared, recent, starred, trash', async () => {
    const page = await stack.newPage(ADMIN.email);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await asList(page);
    const tabs = page.getByTestId('drive-toolbar-wrap').getByRole('tab');
    expect((await tabs.allInnerTexts()).map((text) => text.trim())).toEqual([
      'All Files',
      'My Files',
      'Shared',
      'Recent',
      'Starred',
      'Trash',
    ]);
    await shows(page, ALL_ADMIN);
    await page.screenshot({ path: `${shots}/drive-list-all.png` });
    const views: [string, RegExp, string[] | null][] = [
      ['My Files', /\/drive\/all\?view=mine$/, ALL_ADMIN.filter((name) => name !== 'Weekly report.pdf')],
      ['Recent', /\/drive\/recent$/, null],
      ['Starred', /\/drive\/starred$/, ['Costs.csv']],
      ['Trash', /\/drive\/trash$/, ['Old draft.txt']],
      ['All Files', /\/drive\/all$/, ALL_ADMIN],
    ];
    for (const [tab, url, names] of views) {
      await page.getByTestId('drive-toolbar-wrap').getByRole('tab', { name: tab }).click();
      await page.waitForURL(url);
      await asList(page);
      if (names) await shows(page, names);
      else await visible(tableRows(page).first());
    }
    // Recent: the files the admin uploaded.
    await page.goto(`${stack.baseUrl}/drive/recent`);
    await until(
      () => rowNames(page),
      (names) => names.includes('Site plan.pdf'),
      'recent lists uploads',
    );
    // Shared: the tab goes to /drive/shared, whose list holds the files shared (by people or visibility).
    await page.goto(`${stack.baseUrl}/drive/all`);
    await page.getByTestId('drive-toolbar-wrap').getByRole('tab', { name: 'Shared' }).click();
    await page.waitForURL(/\/drive\/shared$/);
    await until(
      () => page.getByTestId('drive-page-shared').getByTestId('file-card').locator('a').allInnerTexts(),
      (names) => sorted(names) === sorted(['Site plan.pdf', 'photo.png']),
      'the shared view',
    );
    await page.screenshot({ path: `${shots}/drive-list-shared.png` });
    await page.context().close();
  });

  it('filters by the pills all, private and shared; shows Shared, Private and 2 people; type icons; Needs repair in list and grid', async () => {
    const page = await stack.newPage(ADMIN.email);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await asList(page);
    await shows(page, ALL_ADMIN);
    expect((await toolbar(page).locator('.ant-segmented').first().innerText()).split('\n')).toEqual([
      'all',
      'private',
      'shared',
    ]);
    const row = (name: string) => tableRows(page).filter({ hasText: name });
    const cell = (name: string, column: number) => row(name).locator(`td:nth-child(${String(column)})`);
    // Shared is the 8th cell (after the checkbox, Name, Drive, Library, Folder, Owner, Size).
    expect(await cell('Site plan.pdf', 8).innerText()).toBe('2 people');
    expect(await cell('photo.png', 8).innerText()).toBe('Shared');
    expect(await cell('Costs.csv', 8).innerText()).toBe('Private');
    // The type classes' icons.
    for (const [name, typeClass] of <[string, string][]>[
      ['Site plan.pdf', 'pdf'],
      ['Costs.csv', 'spreadsheet'],
      ['photo.png', 'image'],
      ['Invoice 001.txt', 'document'],
    ])
      await visible(row(name).getByLabel(`${typeClass} file`));
    // Needs repair: on Survey only.
    await visible(row('Survey.pdf').getByTestId('needs-repair').getByText('Needs repair'));
    expect(await page.getByTestId('needs-repair').count()).toBe(1);
    await page.screenshot({ path: `${shots}/drive-list-columns.png` });

    await toolbar(page).getByText('private', { exact: true }).click();
    await shows(page, ['Costs.csv', 'Invoice 001.txt', 'Survey.pdf', 'Elevation.pdf', 'Weekly report.pdf']);
    await toolbar(page).getByText('shared', { exact: true }).click();
    await shows(page, ['Site plan.pdf', 'photo.png']);
    await page.screenshot({ path: `${shots}/drive-list-pill-shared.png` });
    await toolbar(page).getByText('all', { exact: true }).click();
    await shows(page, ALL_ADMIN);

    // The grid: the badge on Survey's card, and the cards' type icons.
    await toolbar(page).getByText('Grid', { exact: true }).click();
    const survey = page.getByTestId('file-card').filter({ hasText: 'Survey.pdf' });
    await visible(survey.getByTestId('needs-repair'));
    await visible(page.getByTestId('file-card').filter({ hasText: 'photo.png' }).getByLabel('image file'));
    expect(await page.getByTestId('file-grid').getByTestId('needs-repair').count()).toBe(1);
    await survey.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/drive-list-grid-repair.png` });
    await page.context().close();
  });

  it('picks a library and a folder; searches by owner name, one request 300 ms after the last key', async () => {
    const page = await stack.newPage(ADMIN.email);
    await page.clock.install();
    await page.goto(`${stack.baseUrl}/drive/all`);
    await asList(page);
    await shows(page, ALL_ADMIN);
    // Library: only Drawings' file.
    await page.getByRole('combobox', { name: 'Library' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Drawings' })
      .click();
    await shows(page, ['Elevation.pdf']);
    await page.locator('.ant-select-clear').first().click();
    await shows(page, ALL_ADMIN);

    // Search: the clock stands still while 'Manager' is typed; nothing is asked until 300 ms after the last key.
    const searches: string[] = [];
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/drive/files' && url.searchParams.has('q'))
        searches.push(url.searchParams.get('q') ?? '');
    });
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1000);
    await toolbar(page).getByPlaceholder('Search files...').pressSequentially('Manager');
    await page.clock.runFor(299);
    expect(searches).toEqual([]);
    await page.clock.runFor(1);
    await until(
      () => Promise.resolve(searches.length),
      (count) => count > 0,
      'the search request',
    );
    await page.clock.resume();
    // The owner's name finds the manager's file (its own name does not say Manager).
    await shows(page, ['Weekly report.pdf']);
    expect(searches).toEqual(['Manager']);
    await page.screenshot({ path: `${shots}/drive-list-search-owner.png` });
    // No match: the no-results state.
    await toolbar(page).getByPlaceholder('Search files...').fill('zzz-nothing');
    await visible(page.getByTestId('empty-no-results').getByText('No files found'));
    await page.screenshot({ path: `${shots}/drive-list-no-results.png` });

    // Folder: inside the drive, only the Invoices folder's file.
    await page.goto(`${stack.baseUrl}/drive/${projectId}`);
    await asList(page);
    await until(
      () => rowNames(page),
      (names) => names.includes('Costs.csv'),
      'the drive lists its files',
    );
    await page.getByRole('combobox', { name: 'Folder' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Invoices' })
      .click();
    await shows(page, ['Invoice 001.txt']);
    await page.screenshot({ path: `${shots}/drive-list-folder.png` });
    await page.context().close();
  });

  it('offers Restore in bulk only on the trash page; a user without the share scope sees no Share', async () => {
    const page = await stack.newPage(ADMIN.email);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await asList(page);
    await tableRows(page).filter({ hasText: 'Costs.csv' }).locator('input[type=checkbox]').check();
    await tableRows(page).filter({ hasText: 'Survey.pdf' }).locator('input[type=checkbox]').check();
    await visible(page.getByText('2 selected'));
    await visible(page.locator('button', { hasText: /^Delete$/ }));
    expect(await page.getByRole('button', { name: 'Restore' }).count()).toBe(0);
    await visible(
      tableRows(page).filter({ hasText: 'Costs.csv' }).getByRole('button', { name: 'Share Costs.csv' }),
    );
    await page.goto(`${stack.baseUrl}/drive/trash`);
    await asList(page);
    await shows(page, ['Old draft.txt']);
    await tableRows(page).first().locator('input[type=checkbox]').check();
    await visible(page.getByRole('button', { name: 'Restore' }));
    await page.screenshot({ path: `${shots}/drive-list-trash-restore.png` });
    await page.context().close();

    // The viewer (drive.file.read, no drive.file.share) sees Download, never Share.
    const viewer = await stack.newPage(VIEWER.email);
    await viewer.goto(`${stack.baseUrl}/drive/all`);
    await asList(viewer);
    await until(
      () => rowNames(viewer),
      (names) => names.includes('Site plan.pdf'),
      'the viewer lists files',
    );
    await visible(
      tableRows(viewer)
        .first()
        .getByRole('button', { name: /^Download / }),
    );
    expect(await viewer.getByRole('button', { name: /^Share / }).count()).toBe(0);
    await viewer.screenshot({ path: `${shots}/drive-list-viewer-no-share.png` });
    // Nor, without the upload scope, any way to upload: no Upload in the toolbar or the sidebar, and the empty
    // My Files links nowhere.
    expect(await toolbar(viewer).getByRole('button', { name: 'Upload' }).count()).toBe(0);
    await visible(viewer.getByTestId('drive-sidebar').getByText('Trash', { exact: true }));
    expect(await viewer.getByTestId('drive-sidebar').getByText('Upload', { exact: true }).count()).toBe(0);
    await viewer.goto(`${stack.baseUrl}/drive/all?view=mine`);
    await visible(viewer.getByTestId('empty-no-files').getByText('No files found'));
    expect(await viewer.getByTestId('empty-no-files').getByRole('link').count()).toBe(0);
    await viewer.context().close();
  });

  it("shows 'No files found', no-shared and no-starred to a user with nothing, and Access Denied without the view scope", async () => {
    const page = await stack.newPage(EDITOR.email);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await visible(page.getByTestId('empty-no-files').getByText('No files found'));
    await visible(page.getByTestId('empty-no-files').getByRole('link', { name: 'Upload files' }));
    await visible(page.getByTestId('drive-sidebar').getByText('Upload', { exact: true }));
    await page.screenshot({ path: `${shots}/drive-list-no-files.png` });
    await page.goto(`${stack.baseUrl}/drive/shared`);
    await visible(page.getByTestId('empty-no-shared').getByText('No shared files'));
    await page.goto(`${stack.baseUrl}/drive/starred`);
    await visible(page.getByTestId('empty-no-starred').getByText('No starred files'));
    await page.screenshot({ path: `${shots}/drive-list-no-starred.png` });
    await page.context().close();

    const clerk = await stack.newPage(CLERK.email);
    await clerk.goto(`${stack.baseUrl}/drive/all`);
    await visible(clerk.getByText('Access Denied'));
    await clerk.screenshot({ path: `${shots}/drive-list-access-denied.png` });
    await clerk.context().close();
  });
});

describe('loading and live updates', () => {
  /** Holds the page's file list requests (not the stream) until released. */
  async function holdLists(page: Page): Promise<() => Promise<void>> {
    const held: Route[] = [];
    let holding = true;
    const matcher = (url: URL) => url.pathname === '/api/drive/files';
    await page.route(matcher, async (route) => {
      if (holding) held.push(route);
      else await route.continue();
    });
    return async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
      await page.unroute(matcher);
    };
  }

  it('shows a skeleton while the first list loads, then loads from the cache first on a reload', async () => {
    const page = await stack.newPage(ADMIN.email);
    const release = await holdLists(page);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await visible(page.getByTestId('files-skeleton'));
    await page.screenshot({ path: `${shots}/drive-list-skeleton.png` });
    await release();
    await page.getByTestId('files-skeleton').waitFor({ state: 'detached' });
    await shows(page, ALL_ADMIN, true);

    // A reload whose list request is held: the cached list shows at once, no skeleton.
    const again = await holdLists(page);
    await page.reload();
    await shows(page, ALL_ADMIN, true);
    expect(await page.getByTestId('files-skeleton').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-list-cached.png` });
    await again();
    await page.context().close();
  });

  it("shows another tab's upload and rename live, across a drive the user owns and one they are a member of", async () => {
    const watcher = await stack.newPage(MANAGER.email);
    await watcher.goto(`${stack.baseUrl}/drive/all`);
    await asList(watcher);
    await until(
      () => rowNames(watcher),
      (names) => names.includes('Weekly report.pdf'),
      'the manager lists',
    );
    let reloads = 0;
    watcher.on('framenavigated', () => (reloads += 1));

    // The admin uploads through the Upload dialog in another tab, into Project Files (the manager is a member).
    const admin = await stack.newPage(ADMIN.email);
    await admin.goto(`${stack.baseUrl}/drive/${projectId}`);
    await admin.getByTestId('drive-toolbar').getByRole('button', { name: 'Upload' }).click();
    const dialog = admin.locator('.ant-modal', { hasText: 'Upload Files' });
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'Live drawing.pdf',
      mimeType: 'application/pdf',
      buffer: await pdfOf('Live drawing'),
    });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await until(
      () => rowNames(watcher),
      (names) => names.includes('Live drawing.pdf'),
      'the upload live',
    );
    await watcher.screenshot({ path: `${shots}/drive-list-live-upload.png` });
    await admin.context().close();

    // A rename in the drive the manager owns, from another of the manager's tabs (through the API as it would).
    await ok(
      'rename',
      stack.driveCall(managerToken, 'PATCH', `/files/${ids['Weekly report.pdf']}`, {
        name: 'Weekly report v2.pdf',
      }),
    );
    await until(
      () => rowNames(watcher),
      (names) => names.includes('Weekly report v2.pdf'),
      'the rename live',
    );
    expect(reloads).toBe(0);
    await watcher.screenshot({ path: `${shots}/drive-list-live-rename.png` });
    await watcher.context().close();
  });
});

describe('many files', () => {
  it('pages the list, goes back to page 1 on a filter change, and virtualises above 100 rows only', async () => {
    // 130 more files in the manager's drive, copied from its file in one statement.
    await adminSql(
      `INSERT INTO drive.files
         SELECT (jsonb_populate_record(f, jsonb_build_object(
           'id', gen_random_uuid(),
           'name', 'Bulk ' || lpad(g::text, 3, '0') || '.pdf',
           'name_lower', 'bulk ' || lpad(g::text, 3, '0') || '.pdf',
           'created_at', f.created_at - make_interval(secs => g)))).*
         FROM drive.files f, generate_series(1, 130) g WHERE f.id = $1`,
      [ids['Weekly report.pdf']],
    );
    const page = await stack.newPage(MANAGER.email);
    await page.goto(`${stack.baseUrl}/drive/${managerDriveId}`);
    await asList(page);
    const pager = page.locator('.ant-table-pagination');
    await visible(pager.getByTitle('3'));
    await until(
      () => tableRows(page).count(),
      (count) => count === 50,
      'page 1 of 50',
    );
    await pager.getByTitle('2', { exact: true }).click();
    await until(
      () => pager.locator('.ant-pagination-item-active').innerText(),
      (active) => active === '2',
      'page 2',
    );
    await page.screenshot({ path: `${shots}/drive-list-page-2.png` });
    // A filter change goes back to page 1.
    await toolbar(page).getByText('private', { exact: true }).click();
    await until(
      () => pager.locator('.ant-pagination-item-active').innerText(),
      (active) => active === '1',
      'back to page 1',
    );
    expect(page.url()).not.toContain('page=');

    // 100 a page: all 100 rows are in the page, not virtualised.
    const table = page.getByTestId('file-table');
    await pager.locator('.ant-pagination-options .ant-select').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '100 / page' })
      .click();
    await until(
      () => tableRows(page).count(),
      (count) => count === 100,
      '100 rows in the DOM',
    );
    expect(await table.getAttribute('data-virtual')).toBe('false');
    // 200 a page: 131 rows, virtualised: far fewer in the DOM, and the last one comes into it on scrolling.
    await pager.locator('.ant-pagination-options .ant-select').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '200 / page' })
      .click();
    await until(
      () => table.getAttribute('data-virtual'),
      (virtual) => virtual === 'true',
      'virtual',
    );
    await visible(page.locator('.ant-table-tbody-virtual'));
    // The virtual body's rows are divs, each .ant-table-row.
    const virtualRows = table.locator('.ant-table-tbody-virtual .ant-table-row');
    const rendered = await until(
      () => virtualRows.count(),
      (count) => count > 0,
      'virtual rows',
    );
    expect(rendered).toBeLessThan(60);
    await page.screenshot({ path: `${shots}/drive-list-virtual.png` });
    expect(await virtualRows.filter({ hasText: 'Bulk 130.pdf' }).count()).toBe(0);
    await page.locator('.ant-table-tbody-virtual-holder').hover();
    await until(
      async () => {
        await page.mouse.wheel(0, 2000);
        return virtualRows.filter({ hasText: 'Bulk 130.pdf' }).count();
      },
      (count) => count === 1,
      'the last row scrolled into the DOM',
    );
    expect(await virtualRows.count()).toBeLessThan(60);
    await page.screenshot({ path: `${shots}/drive-list-virtual-end.png` });
    await page.context().close();
  });
});
