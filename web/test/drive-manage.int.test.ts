// The drive's management screens in Chromium (drive.md §2 folder, drive and library dialogs, §5 validation, §6
// permissions, §8 the drive, folder, move and delete texts, §9 drive colours): Create Shared Drive's quota capped at
// the remaining capacity and its failure text, the Access Restricted panel for a denied drive action, Edit Drive
// Settings, the folder dialogs' permissions, saves and failures, moving and deleting files with their toasts, the
// drive breadcrumb of a nested folder, the libraries' drive selector and the empty texts. Failures are real: a
// folder deleted by someone else meanwhile, a drive manager demoted meanwhile, the tenant's storage used up
// meanwhile, a library under legal hold. Screenshots: drive-manage-*.png.
import type { Page, Request } from 'playwright-core';
import { animationsDone, shots, visible } from './browser.js';
import { until } from './cis-stack.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';
import { ADMIN, firstLibrary, pdfOf, sharedDrive, uploadThroughApi } from './drive-support.js';

const MANAGER = 'manager@demo.test';
const EDITOR = 'editor@demo.test';
const VIEWER = 'viewer@demo.test';
const MANAGER_ID = '00000000-0000-4000-8000-000000000002';
const EDITOR_ID = '00000000-0000-4000-8000-000000000003';
const GIB = 1024 ** 3;

let stack: DriveBrowserStack;
let admin: string;
let driveId: string;
let libraryId: string;
let holdLibraryId: string;
let otherDriveId: string;

driveStackPerFile(async (started) => {
  stack = started;
  admin = await stack.signInAs(ADMIN);
  const created = await stack.driveCall(admin, 'POST', '/drives/create', {
    drive: {
      name: 'Site Office',
      type: 'shared',
      memberIds: [MANAGER_ID, EDITOR_ID],
      settings: { quotaGB: 1 },
    },
  });
  if (created.status !== 201) throw new Error(created.text);
  driveId = created.body.driveId as string;
  libraryId = await firstLibrary(stack, admin, driveId);
  const place = { driveId, libraryId };
  for (const name of ['RAMS.pdf', 'Insurance.pdf', 'Drawing A.pdf', 'Drawing B.pdf', 'Handover.pdf'])
    await uploadThroughApi(stack, admin, place, name, 'application/pdf', await pdfOf(name));
  // A library whose files are under legal hold (set after the upload: the hold keeps what is in it).
  const hold = await stack.driveCall(admin, 'POST', '/libraries', { driveId, name: 'Signed Contracts' });
  if (hold.status !== 201) throw new Error(hold.text);
  holdLibraryId = (hold.body.library as { id: string }).id;
  await uploadThroughApi(
    stack,
    admin,
    { driveId, libraryId: holdLibraryId },
    'Main contract.pdf',
    'application/pdf',
    await pdfOf('Main contract'),
  );
  const held = await stack.driveCall(admin, 'PATCH', `/libraries/${holdLibraryId}`, {
    policies: { legalHold: true },
  });
  if (held.status !== 200) throw new Error(held.text);
  // A drive of the manager's own that nobody else belongs to.
  otherDriveId = await sharedDrive(stack, await stack.signInAs(MANAGER), 'Manager Private');
});

const toolbar = (page: Page) => page.getByTestId('drive-toolbar-wrap');
const modal = (page: Page, title: string) => page.locator('.ant-modal', { hasText: title });
const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text });

async function folder(name: string, parentId: string | null = null): Promise<{ id: string; slug: string }> {
  const answer = await stack.driveCall(admin, 'POST', '/folders/create', { driveId, name, parentId });
  if (answer.status !== 201 && answer.status !== 200) throw new Error(answer.text);
  return answer.body.folder as { id: string; slug: string };
}

const deleteFolder = async (folderId: string) => {
  const answer = await stack.driveCall(admin, 'POST', '/folders/delete', { driveId, folderId });
  if (answer.status !== 200) throw new Error(answer.text);
};

/** Every request to the bff whose path ends with `suffix`, from now on. */
function requestsTo(page: Page, suffix: string): string[] {
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    if (new URL(request.url()).pathname.endsWith(suffix)) seen.push(request.postData() ?? '');
  });
  return seen;
}

/** The tenant's stored bytes moved by `bytes` (another user's uploads, as far as the capacity is concerned). */
const addUsage = (bytes: number) =>
  stack.driveDefinition
    .deps()
    .inTenant('demo', (trx) =>
      trx.raw(`UPDATE storage_usage SET used = greatest(used + ?::bigint, 0) WHERE tenant_id = 'demo'`, [
        bytes,
      ]),
    );

describe('Create Shared Drive', () => {
  it('caps the quota input at the remaining capacity, names a figure typed above it, and shows a refusal', async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/drives`);
    await toolbar(page).getByRole('button', { name: 'New Shared Drive' }).click();
    const dialog = modal(page, 'Create Shared Drive');
    const quota = dialog.getByLabel('Quota (GB)');
    // The demo tenant is on professional (200 GB) and uses a few bytes: 199 GB left.
    await visible(dialog.getByText('199 GB available'));
    expect(await quota.getAttribute('aria-valuemin')).toBe('1');
    expect(await quota.getAttribute('aria-valuemax')).toBe('199');
    await dialog.getByLabel('Name').fill('Tender Documents');
    await quota.fill('5000');
    await visible(dialog.getByText('Quota exceeds remaining capacity (199 GB)'));
    expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${shots}/drive-manage-quota-over.png` });
    // Leaving the input settles it at the capacity; below 1 it settles at 1.
    await quota.press('Tab');
    await until(
      () => quota.inputValue(),
      (value) => value === '199',
      'quota capped at 199',
    );
    await until(
      () => dialog.getByText('Quota exceeds remaining capacity').count(),
      (count) => count === 0,
      'the message gone',
    );
    await quota.fill('0');
    await quota.press('Tab');
    await until(
      () => quota.inputValue(),
      (value) => value === '1',
      'quota raised to 1',
    );

    // Meanwhile the tenant's storage fills up: the service refuses and the dialog says why.
    await quota.fill('150');
    await quota.press('Tab');
    await addUsage(150 * GIB);
    try {
      await dialog.getByRole('button', { name: 'Create' }).click();
      // 200 GB less the 151 GB now used (whole GB, rounded up).
      const failed = toast(page, 'Failed to create shared drive: Quota exceeds remaining capacity (49 GB)');
      await visible(failed);
      await animationsDone(failed);
      await page.screenshot({ path: `${shots}/drive-manage-create-failed.png` });
    } finally {
      await addUsage(-150 * GIB);
    }
    await visible(dialog);
    await page.context().close();
  });

  it('shows the Access Restricted panel to a user who may not create drives', async () => {
    const page = await stack.newPage(VIEWER);
    await page.goto(`${stack.baseUrl}/drive/drives`);
    await toolbar(page).getByRole('button', { name: 'New Shared Drive' }).click();
    const denied = page.getByTestId('create-drive-denied');
    await visible(denied.getByText('Access Restricted'));
    await visible(denied.getByText("You don't have permission to create drives"));
    await visible(denied.getByText('drive.drives.create', { exact: true }));
    await visible(denied.getByText(VIEWER));
    await visible(denied.getByText('Need Access?'));
    expect(await page.getByLabel('Quota (GB)').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-manage-create-denied.png` });
    await page.context().close();
  });
});

describe('empty texts and the libraries page', () => {
  it("shows 'No drives available', no folders and 'No libraries found' to a user with only their personal drive", async () => {
    const page = await stack.newPage(VIEWER);
    await page.goto(`${stack.baseUrl}/drive/drives`);
    // Everyone has their personal drive (made on first use); none other matches.
    await visible(page.getByTestId('drive-card').filter({ hasText: 'My Drive' }));
    await toolbar(page).getByPlaceholder('Search drive...').fill('Site');
    await visible(page.getByTestId('empty-no-drives').getByText('No drives available'));
    await page.screenshot({ path: `${shots}/drive-manage-no-drives.png` });
    // The personal drive has no folders yet.
    await page.goto(`${stack.baseUrl}/drive/folders`);
    await visible(page.getByTestId('empty-no-folders').getByText('No folders yet'));
    // Libraries of personal drives are never listed: the viewer belongs to no other drive.
    await page.goto(`${stack.baseUrl}/drive/libraries`);
    await visible(page.getByTestId('empty-no-libraries').getByText('No libraries found'));
    await page.screenshot({ path: `${shots}/drive-manage-no-libraries.png` });
    await page.context().close();
  });

  it('offers the drives the user owns or belongs to in the drive selector, never a personal one', async () => {
    const page = await stack.newPage(EDITOR);
    await page.goto(`${stack.baseUrl}/drive/libraries`);
    await visible(page.getByRole('cell', { name: 'Signed Contracts' }));
    await toolbar(page).getByLabel('Drive').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await until(
      async () => (await options.allInnerTexts()).map((text) => text.trim()),
      (texts) => texts.join() === 'All Drives,Site Office',
      'the editor’s drives',
    );
    await page.screenshot({ path: `${shots}/drive-manage-library-drives.png` });
    await page.context().close();

    // The manager owns one drive and belongs to another.
    const manager = await stack.newPage(MANAGER);
    await manager.goto(`${stack.baseUrl}/drive/libraries`);
    await toolbar(manager).getByLabel('Drive').click();
    const managerOptions = manager.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await until(
      async () => (await managerOptions.allInnerTexts()).map((text) => text.trim()).sort(),
      (texts) => texts.join() === 'All Drives,Manager Private,Site Office',
      'the manager’s drives',
    );
    expect(otherDriveId).toBeTruthy();
    await manager.context().close();
  });
});

describe('folder dialogs', () => {
  it('shows the drive and the ancestor folders in the drive breadcrumb of a nested folder', async () => {
    const parent = await folder('Structural');
    const child = await folder('Level 3', parent.id);
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/${driveId}?folder=${child.id}`);
    const crumb = page.getByTestId('drive-breadcrumb');
    await visible(crumb.getByText('Level 3'));
    const items = (await crumb.locator('a').allInnerTexts()).map((text) => text.trim()).filter(Boolean);
    expect(items).toEqual(['Site Office', 'Structural', 'Level 3']);
    await page.screenshot({ path: `${shots}/drive-manage-breadcrumb.png` });
    await page.context().close();
  });

  it('saves on Enter, sends nothing when unchanged and one call for a double Enter', async () => {
    const made = await folder('Survey');
    const page = await stack.newPage(ADMIN);
    const updates = requestsTo(page, '/api/drive/folders/update');
    await page.goto(`${stack.baseUrl}/drive/folders/${made.slug}?drive=${driveId}`);
    const edit = modal(page, 'Edit Folder');
    const name = edit.getByLabel('Folder name');

    // Unchanged: Enter closes the dialog without a call.
    await toolbar(page).getByRole('button', { name: 'Edit Folder' }).click();
    await visible(edit);
    await name.press('Enter');
    await edit.waitFor({ state: 'detached' });
    expect(updates).toEqual([]);

    // Renamed: Enter twice sends one update; the address follows the new slug.
    await toolbar(page).getByRole('button', { name: 'Edit Folder' }).click();
    await visible(edit);
    await name.fill('Survey Results');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await edit.waitFor({ state: 'detached' });
    await page.waitForURL(/\/drive\/folders\/survey-results\?drive=/);
    expect(updates).toHaveLength(1);
    expect(JSON.parse(updates[0] ?? '{}')).toMatchObject({ updates: { name: 'Survey Results' } });
    await visible(page.getByTestId('folder-breadcrumb').getByText('survey-results'));
    await page.context().close();
  });

  it('tells a user without folder management that they may not edit or delete folders', async () => {
    const made = await folder('Permits');
    const page = await stack.newPage(EDITOR);
    const calls = requestsTo(page, '/api/drive/folders/update');
    await page.goto(`${stack.baseUrl}/drive/folders/${made.slug}?drive=${driveId}`);
    // The editor may create folders (New Folder shows) but not manage them.
    await visible(toolbar(page).getByRole('button', { name: 'New Folder' }));
    await toolbar(page).getByRole('button', { name: 'Edit Folder' }).click();
    const edit = modal(page, 'Edit Folder');
    await edit.getByLabel('Folder name').fill('Permits 2026');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await visible(toast(page, "You don't have permission to edit folders"));
    await edit.getByRole('button', { name: 'Delete Folder' }).click();
    await page
      .locator('.ant-popover', { hasText: 'Delete Folder?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await visible(toast(page, "You don't have permission to delete folders"));
    await page.screenshot({ path: `${shots}/drive-manage-folder-denied.png` });
    expect(calls).toEqual([]);
    await page.context().close();
  });

  it('hides New Folder from a user who may not create folders', async () => {
    const page = await stack.newPage(VIEWER);
    await page.goto(`${stack.baseUrl}/drive/folders`);
    await visible(toolbar(page).getByRole('button', { name: 'Edit Folder' }));
    expect(await toolbar(page).getByRole('button', { name: 'New Folder' }).count()).toBe(0);
    await page.context().close();
  });

  it('says when an update or a delete fails (the folder went meanwhile), logs why, and frees the dialog', async () => {
    const made = await folder('Temporary Works');
    const page = await stack.newPage(ADMIN);
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await page.goto(`${stack.baseUrl}/drive/folders/${made.slug}?drive=${driveId}`);
    await toolbar(page).getByRole('button', { name: 'Edit Folder' }).click();
    const edit = modal(page, 'Edit Folder');
    await visible(edit);
    // Someone else deletes the folder while the dialog is open.
    await deleteFolder(made.id);
    await edit.getByRole('radio', { name: 'red' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await visible(toast(page, 'Failed to update folder'));
    expect(logged.some((text) => text.startsWith('folder update failed:'))).toBe(true);

    await edit.getByRole('button', { name: 'Delete Folder' }).click();
    await page
      .locator('.ant-popover', { hasText: 'Delete Folder?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await visible(toast(page, 'Failed to delete folder'));
    expect(logged.some((text) => text.startsWith('folder delete failed:'))).toBe(true);
    // Not busy any more: the dialog's buttons work again, and it stays where it was.
    await until(
      () => edit.getByRole('button', { name: 'Delete Folder' }).isEnabled(),
      (enabled) => enabled,
      'Delete Folder enabled again',
    );
    expect(await edit.getByRole('button', { name: 'Save Changes' }).isEnabled()).toBe(true);
    expect(page.url()).toContain(`/drive/folders/${made.slug}`);
    await page.screenshot({ path: `${shots}/drive-manage-folder-failed.png` });
    await page.context().close();
  });

  it("deletes a folder: 'Folder deleted successfully'", async () => {
    const made = await folder('Old Photos');
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/folders/${made.slug}?drive=${driveId}`);
    await toolbar(page).getByRole('button', { name: 'Edit Folder' }).click();
    await modal(page, 'Edit Folder').getByRole('button', { name: 'Delete Folder' }).click();
    await page
      .locator('.ant-popover', { hasText: 'Delete Folder?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await visible(toast(page, 'Folder deleted successfully'));
    await page.waitForURL(/\/drive\/folders$/);
    await page.context().close();
  });
});

describe('moving and deleting files', () => {
  const select = (page: Page, name: string) => page.getByRole('checkbox', { name: `Select ${name}` }).check();

  async function openMove(page: Page, target: string) {
    await page.getByRole('button', { name: /Move$/ }).click();
    const move = modal(page, 'Move to folder');
    await move.locator('.ant-list-item', { hasText: target }).click();
    return move;
  }

  it('moves a file (update-counts follows, the folder counts it) and says when a move fails', async () => {
    await folder('Transfers');
    const page = await stack.newPage(ADMIN);
    const calls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.endsWith('/folder-assign') || path.endsWith('/update-counts'))
        calls.push(path.split('/').pop() ?? '');
    });
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    const card = page.getByTestId('folder-card').filter({ hasText: 'Transfers' });
    await visible(card.getByText('0 files'));
    await select(page, 'RAMS.pdf');
    const move = await openMove(page, 'Transfers');
    await move.getByRole('button', { name: 'Move', exact: true }).click();
    await visible(toast(page, 'File moved successfully'));
    expect(calls).toEqual(['folder-assign', 'update-counts']);
    await visible(card.getByText('1 files'));
    await page.screenshot({ path: `${shots}/drive-manage-moved.png` });

    // The chosen folder is deleted by someone else before Move: one file, then two.
    const gone = await folder('Gone Soon');
    await page.reload();
    await select(page, 'Drawing A.pdf');
    const single = await openMove(page, 'Gone Soon');
    await deleteFolder(gone.id);
    await single.getByRole('button', { name: 'Move', exact: true }).click();
    await visible(toast(page, 'Failed to move file'));
    await single.getByRole('button', { name: 'Cancel' }).click();

    const goneToo = await folder('Gone Too');
    await page.reload();
    await select(page, 'Drawing A.pdf');
    await select(page, 'Drawing B.pdf');
    const bulk = await openMove(page, 'Gone Too');
    await deleteFolder(goneToo.id);
    await bulk.getByRole('button', { name: 'Move', exact: true }).click();
    await visible(toast(page, 'Failed to move files. Please try again.'));
    await page.screenshot({ path: `${shots}/drive-manage-move-failed.png` });
    await page.context().close();
  });

  it('moves a file to the trash, deletes it for good, and says when a delete fails (legal hold)', async () => {
    const page = await stack.newPage(ADMIN);
    const deletes: { fileId: string; key: string | undefined }[] = [];
    page.on('request', (request) => {
      if (!new URL(request.url()).pathname.endsWith('/drive/mutations/delete')) return;
      const body = request.postDataJSON() as { fileId: string };
      deletes.push({ fileId: body.fileId, key: request.headers()['x-idempotency-key'] });
    });
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await select(page, 'Insurance.pdf');
    await page.getByRole('button', { name: /Delete$/ }).click();
    await modal(page, 'Move to trash?').getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(toast(page, 'File moved to trash'));
    // DRV-351: the delete call's idempotency key is tenant:file:delete.
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.key).toBe(`demo:${deletes[0]?.fileId ?? ''}:delete`);

    await page.goto(`${stack.baseUrl}/drive/trash`);
    await select(page, 'Insurance.pdf');
    await page.getByRole('button', { name: 'Delete Forever' }).click();
    await modal(page, 'Delete permanently?').getByRole('button', { name: 'Delete Forever' }).click();
    await visible(toast(page, 'File permanently deleted'));
    await page.screenshot({ path: `${shots}/drive-manage-purged.png` });

    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await select(page, 'Main contract.pdf');
    await page.getByRole('button', { name: /Delete$/ }).click();
    await modal(page, 'Move to trash?').getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(toast(page, 'Failed to delete file: This file is under legal hold and cannot be deleted.'));
    await page.screenshot({ path: `${shots}/drive-manage-delete-failed.png` });
    expect(holdLibraryId).toBeTruthy();
    await page.context().close();
  });

  it("refuses to delete when none of the selected files is the user's own", async () => {
    const page = await stack.newPage(MANAGER);
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await select(page, 'Handover.pdf');
    await page.getByRole('button', { name: /Delete$/ }).click();
    const dialog = modal(page, 'Move to trash?');
    await visible(dialog.getByText('No owned files selected for deletion'));
    expect(await dialog.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${shots}/drive-manage-none-owned.png` });
    await page.context().close();
  });
});

describe('Edit Drive Settings', () => {
  it("offers the drive colours, needs a name, saves: 'Drive updated successfully'", async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await page.getByRole('button', { name: 'Drive settings' }).click();
    const dialog = modal(page, 'Edit Drive Settings');
    await visible(dialog);
    const colours = await dialog
      .getByRole('radio')
      .evaluateAll((radios) => radios.map((radio) => (radio as unknown as { value: string }).value));
    expect(colours).toEqual(['blue', 'green', 'purple', 'orange', 'red', 'gray']);
    expect(await dialog.getByLabel('Quota (GB)').inputValue()).toBe('1');
    await dialog.getByLabel('Name').fill('  ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(dialog.getByText('Drive name is required'));
    await page.screenshot({ path: `${shots}/drive-manage-drive-name-required.png` });
    await dialog.getByLabel('Name').fill('Site Office');
    await dialog.getByText('green', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'Drive updated successfully'));
    const saved = await stack.driveCall(admin, 'GET', `/drives/${driveId}`);
    expect((saved.body.drive as { settings: { color: string } }).settings.color).toBe('green');
    await page.context().close();
  });

  it("says 'Failed to update drive' when the service refuses (the user stopped managing it meanwhile)", async () => {
    const promote = await stack.driveCall(admin, 'PATCH', `/drives/${driveId}/members/${EDITOR_ID}`, {
      role: 'manager',
    });
    expect(promote.status).toBe(200);
    const page = await stack.newPage(EDITOR);
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await page.getByRole('button', { name: 'Drive settings' }).click();
    const dialog = modal(page, 'Edit Drive Settings');
    await dialog.getByLabel('Description').fill('Everything for the site office');
    const demote = await stack.driveCall(admin, 'PATCH', `/drives/${driveId}/members/${EDITOR_ID}`, {
      role: 'contributor',
    });
    expect(demote.status).toBe(200);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'Failed to update drive'));
    await visible(dialog);
    await page.screenshot({ path: `${shots}/drive-manage-drive-update-failed.png` });
    await page.context().close();
  });
});
