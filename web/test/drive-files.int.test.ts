// The drive's file list in Chromium (drive.md §2 toolbar and file list, §4 trash and restore): the toolbar per page,
// grid by default and the grid/list choice remembered per page, the list's columns and sort, the select-all's
// partial state, previews of CSV and text, and a file trashed and restored. Screenshots: drive-files-*.png.
import type { Page } from 'playwright-core';
import { shots, styleOf, visible } from './browser.js';
import { until } from './cis-stack.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';
import { ADMIN, firstLibrary, pdfOf, sharedDrive, uploadThroughApi } from './drive-support.js';

let stack: DriveBrowserStack;
let driveId: string;
driveStackPerFile(async (started) => {
  stack = started;
  const token = await stack.signInAs(ADMIN);
  driveId = await sharedDrive(stack, token, 'Project Files');
  const place = { driveId, libraryId: await firstLibrary(stack, token, driveId) };
  await uploadThroughApi(stack, token, place, 'Site plan.pdf', 'application/pdf', await pdfOf('Site plan'));
  await uploadThroughApi(
    stack,
    token,
    place,
    'Costs.csv',
    'text/csv',
    Buffer.from('Item,Amount\nScaffold,1200\nSkip hire,340\n'),
  );
  await uploadThroughApi(
    stack,
    token,
    place,
    'notes.txt',
    'text/plain',
    Buffer.from('Meet at the gate, 8am.'),
  );
});

const toolbar = (page: Page) => page.getByTestId('drive-toolbar');
const rowNames = (page: Page) =>
  page.locator('[data-testid="file-table"] tbody tr.ant-table-row td:nth-child(2)').allInnerTexts();

describe('the drive toolbar', () => {
  it('adapts to each page: its search placeholder and buttons, 3.5rem high, the storage left in GB', async () => {
    const page = await stack.newPage(ADMIN);
    const pages: [string, string, string[]][] = [
      ['/drive/all', 'Search files...', ['Upload']],
      ['/drive/recent', 'Search recent files...', ['Clear Recent']],
      ['/drive/starred', 'Search starred files...', ['Clear Stars']],
      ['/drive/trash', 'Search trash...', ['Empty Trash']],
      ['/drive/shared', 'Search shared drives...', ['New Shared Drive']],
      ['/drive/libraries', 'Search libraries...', ['New Library']],
      ['/drive/folders', 'Search folders...', ['New Folder', 'Edit Folder']],
      [`/drive/${driveId}`, 'Search drive...', ['New Folder', 'Upload']],
      ['/drive/drives', 'Search drive...', ['New Shared Drive']],
    ];
    for (const [path, placeholder, buttons] of pages) {
      await page.goto(`${stack.baseUrl}${path}`);
      await visible(toolbar(page).getByPlaceholder(placeholder));
      for (const name of buttons) await visible(toolbar(page).getByRole('button', { name }));
    }
    await visible(page.getByTestId('drive-card').filter({ hasText: 'Project Files' }));
    // The tabs go to their views: My Files is All Files for the caller's own.
    await page.goto(`${stack.baseUrl}/drive/all`);
    await toolbar(page).locator('..').getByRole('tab', { name: 'My Files' }).click();
    await page.waitForURL(/\/drive\/all\?view=mine$/);
    await page.getByRole('tab', { name: 'Trash' }).click();
    await page.waitForURL(/\/drive\/trash$/);
    // The standalone upload page holds the upload form.
    await page.goto(`${stack.baseUrl}/drive/upload`);
    await visible(page.getByTestId('upload-form'));
    // The libraries page's drive selector starts at All Drives; the drive page shows its breadcrumb.
    await page.goto(`${stack.baseUrl}/drive/libraries`);
    await visible(toolbar(page).getByText('All Drives'));
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await visible(page.getByTestId('drive-breadcrumb').getByText('Project Files'));
    expect(await styleOf(toolbar(page), 'height')).toBe('56px');
    await visible(page.getByTestId('storage-left').getByText(/^\d+ GB left$/));

    // Edit Drive Settings: name, description, colour (the six drive colours) and quota.
    await page.getByRole('button', { name: 'Drive settings' }).click();
    const settings = page.locator('.ant-modal', { hasText: 'Edit Drive Settings' });
    expect(await settings.getByLabel('Name').inputValue()).toBe('Project Files');
    await visible(settings.getByLabel('Description'));
    expect(await settings.getByRole('radio').count()).toBe(6);
    await visible(settings.getByLabel('Quota (GB)'));
    await settings.getByRole('button', { name: 'Cancel' }).click();

    // Under 768 px the sidebar is a drawer opened from the toolbar.
    await page.setViewportSize({ width: 767, height: 900 });
    await toolbar(page).getByRole('button', { name: 'Toggle sidebar' }).click();
    expect(await page.getByTestId('drive-sidebar').count()).toBe(0);
    await visible(page.locator('.ant-drawer').getByText('Trash'));
    await page.screenshot({ path: `${shots}/drive-files-mobile.png` });
    await page.setViewportSize({ width: 1366, height: 900 });

    // /drive lands on the overview: 'Dashboard Overview', no search box, Browse goes to /drive/folders.
    await page.goto(`${stack.baseUrl}/drive`);
    await page.waitForURL(/\/drive\/overview$/);
    await visible(toolbar(page).getByText('Dashboard Overview'));
    expect(await toolbar(page).getByRole('textbox').count()).toBe(0);
    await visible(page.getByTestId('recent-files').getByText('notes.txt'));
    await page.screenshot({ path: `${shots}/drive-files-overview.png` });
    await toolbar(page).getByRole('link', { name: 'Browse' }).click();
    await page.waitForURL(/\/drive\/folders$/);
    await page.context().close();
  });
});

describe('the file list', () => {
  it('shows a grid by default and remembers the grid or list choice per page', async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await visible(page.getByTestId('file-grid'));
    await visible(page.getByTestId('file-card').filter({ hasText: 'Site plan.pdf' }));
    await page.screenshot({ path: `${shots}/drive-files-grid.png` });
    await toolbar(page).getByText('List', { exact: true }).click();
    await visible(page.getByTestId('file-table'));
    await page.reload();
    await visible(page.getByTestId('file-table'));
    // Each page keeps its own choice: Recent is still a grid.
    await page.goto(`${stack.baseUrl}/drive/recent`);
    await visible(page.getByTestId('file-grid'));
    await page.goto(`${stack.baseUrl}/drive/all`);
    await visible(page.getByTestId('file-table'));
    await page.context().close();
  });

  it("lists the columns, 'You', 'Private', dd/mm/yyyy, newest first; sorts on a click and toggles on the next", async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await toolbar(page).getByText('List', { exact: true }).click();
    const table = page.getByTestId('file-table');
    await visible(table);
    const headers = await table.locator('thead th').allInnerTexts();
    expect(headers.map((text) => text.trim()).filter(Boolean)).toEqual([
      'Name',
      'Drive',
      'Library',
      'Folder',
      'Owner',
      'Size',
      'Shared',
      'Created',
      'Actions',
    ]);
    expect(await rowNames(page)).toEqual(['notes.txt', 'Costs.csv', 'Site plan.pdf']);
    const first = table.locator('tbody tr.ant-table-row').first();
    await visible(first.getByText('You'));
    await visible(first.getByText('Private'));
    await visible(first.getByText('Project Files'));
    await visible(first.getByText(/^\d{2}\/\d{2}\/\d{4}$/));
    await visible(first.getByRole('button', { name: 'Download notes.txt' }));
    await visible(first.getByRole('button', { name: 'Share notes.txt' }));
    await page.screenshot({ path: `${shots}/drive-files-list.png` });

    await table.locator('thead th', { hasText: 'Name' }).click();
    await until(
      () => rowNames(page),
      (names) => names.join() === 'Costs.csv,notes.txt,Site plan.pdf',
      'names ascending',
    );
    await table.locator('thead th', { hasText: 'Name' }).click();
    await until(
      () => rowNames(page),
      (names) => names.join() === 'Site plan.pdf,notes.txt,Costs.csv',
      'names descending',
    );

    // One row selected: the select-all is partial.
    await table.locator('tbody tr.ant-table-row').first().locator('input[type=checkbox]').check();
    await visible(table.locator('thead .ant-checkbox-indeterminate'));

    // Inside the drive the Drive column is gone.
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await toolbar(page).getByText('List', { exact: true }).click();
    await visible(page.getByTestId('file-table'));
    const inside = await page.getByTestId('file-table').locator('thead th').allInnerTexts();
    expect(inside.map((text) => text.trim())).not.toContain('Drive');
    // Move to folder offers '— No folder —' first.
    await page
      .getByTestId('file-table')
      .locator('tbody tr.ant-table-row')
      .first()
      .locator('input[type=checkbox]')
      .check();
    await page.getByRole('button', { name: 'Move' }).click();
    const move = page.locator('.ant-modal', { hasText: 'Move to folder' });
    await visible(move);
    expect((await move.locator('.ant-list-item').first().innerText()).trim()).toBe('— No folder —');
    await move.getByRole('button', { name: 'Cancel' }).click();
    await page.context().close();
  });

  it('previews a CSV as a table and text as text; Escape closes the preview', async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await page.getByTestId('file-card').filter({ hasText: 'Costs.csv' }).getByText('Costs.csv').click();
    const csv = page.getByTestId('preview-csv');
    await visible(csv);
    expect(await csv.locator('thead th').allInnerTexts()).toEqual(['Item', 'Amount']);
    await visible(csv.getByRole('cell', { name: 'Skip hire' }));
    await page.screenshot({ path: `${shots}/drive-files-preview-csv.png` });
    await page.keyboard.press('Escape');
    await csv.waitFor({ state: 'detached' });
    await page.getByTestId('file-card').filter({ hasText: 'notes.txt' }).getByText('notes.txt').click();
    await visible(page.getByTestId('preview-text').getByText('Meet at the gate, 8am.'));
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('moves a file to the trash and restores it from the trash page', async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/all`);
    await page.getByRole('checkbox', { name: 'Select notes.txt' }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.locator('.ant-modal', { hasText: 'Move to trash?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(page.getByText('File moved to trash'));
    await page.getByTestId('file-card').filter({ hasText: 'notes.txt' }).waitFor({ state: 'detached' });

    await page.goto(`${stack.baseUrl}/drive/trash`);
    const card = page.getByTestId('file-card').filter({ hasText: 'notes.txt' });
    await visible(card);
    await page.getByRole('checkbox', { name: 'Select notes.txt' }).check();
    // Deleting from the trash is for good: the dialog says so.
    await page.getByRole('button', { name: 'Delete Forever' }).click();
    const forever = page.locator('.ant-modal', { hasText: 'Delete permanently?' });
    await visible(forever.getByText('This action cannot be undone. The files cannot be recovered.'));
    await page.screenshot({ path: `${shots}/drive-files-delete-forever.png` });
    await forever.getByRole('button', { name: 'Cancel' }).click();
    await page.screenshot({ path: `${shots}/drive-files-trash.png` });
    await page.getByRole('button', { name: 'Restore' }).click();
    await visible(page.getByText('File restored'));
    await visible(page.getByTestId('empty-no-trash'));

    await page.goto(`${stack.baseUrl}/drive/all`);
    await visible(page.getByTestId('file-card').filter({ hasText: 'notes.txt' }));
    await page.context().close();
  });
});
