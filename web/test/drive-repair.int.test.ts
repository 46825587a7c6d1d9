// The drive page's Repair references in Chromium (drive.md §2 'Rebuild, repair summary: Repaired {n} • Skipped {n} •
// Pending {n}', §7 repair-refs): a holder of drive.attachment.add runs the drive-wide repair from the toolbar, sees
// the summary line, and the list loses the 'Needs repair' badge of the file repaired; the one whose reference still
// cannot be written stays pending with its badge. A viewer of the drive is not offered the action.
// Screenshots: test-results/screenshots/drive-repair-*.png.
import type { Page } from 'playwright-core';
// The drive's own registration step for a module reference (no route lets a reference write fail on purpose).
// eslint-disable-next-line no-restricted-imports -- the seed goes through the service's command, not SQL
import { attachOnRegister } from '../../services/drive/src/commands/references.js';
import { shots, visible } from './browser.js';
import { until } from './cis-stack.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';
import { firstLibrary, pdfOf, sharedDrive, uploadThroughApi, driveAdminSql } from './drive-support.js';

const ADMIN = { email: 'admin@demo.test', uid: '00000000-0000-4000-8000-000000000001' };
const VIEWER = { email: 'viewer@demo.test', uid: '00000000-0000-4000-8000-000000000004' };

let stack: DriveBrowserStack;
let adminToken: string;
let driveId: string;
const ids: Record<string, string> = {};

/** A statement as the test database's administrator (row-level security does not apply). */
const adminSql = (text: string, params: unknown[] = []) => driveAdminSql(stack, text, params);

/** The file's module reference written at registration through the service's own step, which must fail. */
async function failedReference(fileId: string, reference: { moduleId: string; entityId: string }) {
  const deps = stack.driveDefinition.deps();
  const attached = await deps.inTenant('demo', (trx) =>
    attachOnRegister(deps, trx, { tenantId: 'demo', userId: ADMIN.uid }, fileId, reference),
  );
  if (attached.ok) throw new Error('the reference write should have failed');
}

driveStackPerFile(async (started) => {
  stack = started;
  adminToken = await stack.signInAs(ADMIN.email);
  driveId = await sharedDrive(stack, adminToken, 'Site Records');
  const place = { driveId, libraryId: await firstLibrary(stack, adminToken, driveId) };
  for (const name of ['Minutes.pdf', 'Budget.pdf', 'Plan.pdf'])
    ids[name] = await uploadThroughApi(
      stack,
      adminToken,
      place,
      name,
      'application/pdf',
      await pdfOf(name.replace('.pdf', '')),
    );
  // Minutes: the reference table refuses writes for a moment (a transient failure) while its schedule reference is
  // written; the reference is kept to recreate, and now it can be written.
  await adminSql(`CREATE FUNCTION drive.test_refuse_refs() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'connection reset'; END $$`);
  await adminSql(`CREATE TRIGGER test_refuse_refs BEFORE INSERT ON drive.file_refs
    FOR EACH ROW EXECUTE FUNCTION drive.test_refuse_refs()`);
  try {
    await failedReference(ids['Minutes.pdf'] ?? '', { moduleId: 'schedule', entityId: 'event-12' });
  } finally {
    await adminSql('DROP TRIGGER test_refuse_refs ON drive.file_refs');
    await adminSql('DROP FUNCTION drive.test_refuse_refs()');
  }
  // Budget: its recorded reference is not a valid one (no module), so a repair cannot write it either: pending.
  await failedReference(ids['Budget.pdf'] ?? '', { moduleId: '', entityId: 'event-13' });
  // The viewer is a member of the drive (sees it and its files) without drive.attachment.add.
  const members = await stack.driveCall(adminToken, 'POST', `/drives/${driveId}/members`, {
    userIds: [VIEWER.uid],
  });
  if (members.status >= 300) throw new Error(`members: ${members.text}`);
});

const toolbar = (page: Page) => page.getByTestId('drive-toolbar');
const tableRows = (page: Page) => page.locator('[data-testid="file-table"] tbody tr.ant-table-row');
const row = (page: Page, name: string) => tableRows(page).filter({ hasText: name });
const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text });

/** The drive's page as a list, with its three files shown. */
async function openDrive(page: Page): Promise<void> {
  await page.goto(`${stack.baseUrl}/drive/${driveId}`);
  await toolbar(page).getByText('List', { exact: true }).click();
  await visible(page.getByTestId('file-table'));
  await until(
    () => tableRows(page).count(),
    (count) => count === 3,
    'the drive lists its three files',
  );
}

describe('Repair references on the drive page', () => {
  it("repairs the drive's orphaned references: 'Repaired 1 • Skipped 0 • Pending 1', the repaired file's badge goes", async () => {
    const page = await stack.newPage(ADMIN.email);
    await openDrive(page);
    await visible(row(page, 'Minutes.pdf').getByTestId('needs-repair'));
    await visible(row(page, 'Budget.pdf').getByTestId('needs-repair'));
    expect(await page.getByTestId('needs-repair').count()).toBe(2);

    await toolbar(page).getByRole('button', { name: 'Repair references' }).click();
    await visible(toast(page, 'Repaired 1 \u2022 Skipped 0 \u2022 Pending 1'));
    // The list is fetched again: Minutes' badge is gone, Budget (still failing) keeps its own.
    await until(
      () => page.getByTestId('needs-repair').count(),
      (count) => count === 1,
      'one Needs repair badge left',
    );
    await visible(row(page, 'Budget.pdf').getByTestId('needs-repair'));
    expect(await row(page, 'Minutes.pdf').getByTestId('needs-repair').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-repair-summary.png` });

    // The schedule reference the upload asked for is written now.
    const references = await stack.driveCall(
      adminToken,
      'GET',
      `/files/${ids['Minutes.pdf'] ?? ''}/references`,
    );
    expect(references.body).toMatchObject({
      orphanedRef: false,
      references: [{ moduleId: 'schedule', entityId: 'event-12' }],
    });

    // Run again: only Budget is still to repair, and it stays pending.
    await toolbar(page).getByRole('button', { name: 'Repair references' }).click();
    await visible(toast(page, 'Repaired 0 \u2022 Skipped 0 \u2022 Pending 1'));
    await page.context().close();
  });

  it('a member without drive.attachment.add is not offered Repair references', async () => {
    const page = await stack.newPage(VIEWER.email);
    await openDrive(page);
    await visible(row(page, 'Budget.pdf').getByTestId('needs-repair'));
    expect(await toolbar(page).getByRole('button', { name: 'Repair references' }).count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-repair-viewer.png` });
    await page.context().close();
  });
});
