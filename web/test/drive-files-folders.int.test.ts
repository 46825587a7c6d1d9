// The drive's folders, drives and the upload permission in Chromium (drive.md §2 folder and drive dialogs, §5, §6):
// New Folder (blank names refused, Enter saves), nested folders at /drive/folders/{slug chain} with the breadcrumb
// from the slugs, Edit Folder (Escape closes; Delete Folder asks 'Delete Folder?' and goes back to /drive/folders),
// Create Shared Drive's remaining-capacity rule, and the permission-denied panel of the upload page.
import type { Page } from 'playwright-core';
import { shots, visible } from './browser.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';
import { ADMIN, sharedDrive } from './drive-support.js';

let stack: DriveBrowserStack;
let driveId: string;
driveStackPerFile(async (started) => {
  stack = started;
  driveId = await sharedDrive(stack, await stack.signInAs(ADMIN), 'Site Folders');
});

const toolbar = (page: Page) => page.getByTestId('drive-toolbar-wrap');
const crumbs = async (page: Page) =>
  (await page.getByTestId('folder-breadcrumb').locator('a').allInnerTexts())
    .map((text) => text.trim())
    .filter((text) => text !== '' && text !== '/');

async function newFolder(page: Page, name: string) {
  await toolbar(page).getByRole('button', { name: 'New Folder' }).click();
  const dialog = page.locator('.ant-modal', { hasText: 'New Folder' });
  await visible(dialog);
  await dialog.getByLabel('Folder name').fill('   ');
  expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByLabel('Folder name').press('Enter');
  await dialog.waitFor({ state: 'detached' });
}

describe('folders', () => {
  it('makes nested folders, opens them by their slug chain with its breadcrumb, and deletes one', async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/folders?drive=${driveId}`);
    await visible(page.getByText('No folders yet'));
    await newFolder(page, 'Drawings');
    await page.getByTestId('folder-card').filter({ hasText: 'Drawings' }).click();
    await page.waitForURL(/\/drive\/folders\/drawings\?drive=/);
    await newFolder(page, 'Level 2 Plans');
    await page.getByTestId('folder-card').filter({ hasText: 'Level 2 Plans' }).click();
    await page.waitForURL(/\/drive\/folders\/drawings\/level-2-plans\?drive=/);
    expect(await crumbs(page)).toEqual(['Folders', 'drawings', 'level-2-plans']);
    await page.screenshot({ path: `${shots}/drive-folders-nested.png` });

    // Opened straight from the address, the chain resolves the same.
    await page.goto(`${stack.baseUrl}/drive/folders/drawings/level-2-plans?drive=${driveId}`);
    await visible(page.getByTestId('folder-breadcrumb').getByText('level-2-plans'));

    // Edit Folder: the name, the default colour and the seven swatches; Escape closes without saving.
    await toolbar(page).getByRole('button', { name: 'Edit Folder' }).click();
    const edit = page.locator('.ant-modal', { hasText: 'Edit Folder' });
    await visible(edit);
    expect(await edit.getByLabel('Folder name').inputValue()).toBe('Level 2 Plans');
    expect(await edit.getByRole('radio').count()).toBe(8);
    for (const name of ['Cancel', 'Save Changes', 'Delete Folder'])
      await visible(edit.getByRole('button', { name }));
    await page.screenshot({ path: `${shots}/drive-folders-edit.png` });
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });

    await toolbar(page).getByRole('button', { name: 'Edit Folder' }).click();
    await visible(edit);
    await edit.getByRole('button', { name: 'Delete Folder' }).click();
    const confirm = page.locator('.ant-popover', { hasText: 'Delete Folder?' });
    await visible(confirm.getByText('This action cannot be undone'));
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/drive\/folders$/);
    await visible(page.getByText('Folder deleted successfully'));
    await page.context().close();
  });
});

describe('drives', () => {
  it('creates a shared drive with a quota within the remaining capacity', async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/shared`);
    await toolbar(page).getByRole('button', { name: 'New Shared Drive' }).click();
    const dialog = page.locator('.ant-modal', { hasText: 'Create Shared Drive' });
    await visible(dialog.getByLabel('People to add'));
    const create = dialog.getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Subcontractor Handover');
    // The demo tenant is on professional (200 GB): more than is left is refused with the capacity named.
    await dialog.getByLabel('Quota (GB)').fill('5000');
    await visible(dialog.getByText(/^Quota exceeds remaining capacity \(\d+ GB\)$/));
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Quota (GB)').fill('2');
    await page.screenshot({ path: `${shots}/drive-create-shared-drive.png` });
    await create.click();
    await visible(page.getByText('Shared drive created'));
    await visible(page.getByTestId('drive-card').filter({ hasText: 'Subcontractor Handover' }));
    await page.context().close();
  });
});

describe('the upload page', () => {
  it('shows the permission-denied panel (file:upload) to a user who may not upload', async () => {
    const page = await stack.newPage('viewer@demo.test');
    await page.goto(`${stack.baseUrl}/drive/upload`);
    const denied = page.getByTestId('upload-permission-denied');
    await visible(denied.getByText('file:upload'));
    expect(await page.getByTestId('upload-form').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-upload-denied.png` });
    await page.context().close();
  });
});
