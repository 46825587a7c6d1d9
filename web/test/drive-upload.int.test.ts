// The drive's upload journey in Chromium (drive.md §2 Upload dialog, §4, §8, §9): a PDF goes through the Upload
// dialog straight to MinIO over presigned parts with the staged progress bar, lands in the list, previews embedded
// and downloads with the same bytes. Screenshots in test-results/screenshots/drive-upload-*.png.
import { visible, shots } from './browser.js';
import { until } from './cis-stack.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';
import { ADMIN, pdfOf, recordTexts, sha256, sharedDrive } from './drive-support.js';

const MIB = 1024 * 1024;

let stack: DriveBrowserStack;
driveStackPerFile(async (started) => {
  stack = started;
  await sharedDrive(stack, await stack.signInAs(ADMIN), 'Site Documents');
});

describe('uploading a PDF through the Upload dialog', () => {
  it('shows the staged progress bar, lands in the list, previews embedded and downloads the same bytes', async () => {
    const page = await stack.newPage(ADMIN);
    const pdf = await pdfOf('Drawing A-101 rev C', 12 * MIB);
    await page.goto(`${stack.baseUrl}/drive/all`);
    // An empty drive: the no-files state links to the upload page.
    const empty = page.getByTestId('empty-no-files');
    await visible(empty);
    expect(await empty.getByRole('link', { name: 'Upload files' }).getAttribute('href')).toBe(
      '/drive/upload',
    );
    // The dialog is opened from Recent: success goes to /drive/all.
    await page.goto(`${stack.baseUrl}/drive/recent`);
    await visible(page.getByTestId('empty-no-recent'));
    await page.getByRole('button', { name: 'Upload' }).click();
    const dialog = page.locator('.ant-modal', { hasText: 'Upload Files' });
    await visible(dialog);

    // No drive chosen: 'Please select a drive'; personal drives are not offered.
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'A-101 General Arrangement.pdf',
      mimeType: 'application/pdf',
      buffer: pdf,
    });
    await visible(dialog.getByText('PDF detected'));
    await visible(dialog.getByText('12 MB'));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await visible(dialog.getByText('Please select a drive'));
    await dialog.getByLabel('Drive').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await visible(options.first());
    expect(
      await until(
        () => options.allTextContents(),
        (labels) => labels.length > 0,
        'drives',
      ),
    ).toEqual(['Site Documents']);
    await options.first().click();
    // The drive's first library is preselected.
    await visible(dialog.locator('.ant-select-content[title="Documents"]'));
    await dialog.getByText('Advanced Options').click();
    await visible(dialog.locator('.ant-select-content[title="Root folder"]'));
    expect(
      await dialog.getByRole('switch', { name: 'Require signatures' }).getAttribute('aria-checked'),
    ).toBe('true');
    await page.screenshot({ path: `${shots}/drive-upload-dialog.png` });

    // The stage under the bar, then the success panel's title (recorded as they change: the panel shows 1.5 s).
    const stages = await recordTexts(
      page,
      '[data-testid="upload-stage"], [data-testid="upload-success"] .ant-result-title',
    );
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await visible(dialog.getByRole('button', { name: 'Cancel Upload' }));
    await page.screenshot({ path: `${shots}/drive-upload-progress.png` });
    await visible(page.getByText('File "A-101 General Arrangement.pdf" uploaded successfully'));
    await page.waitForURL(/\/drive\/all$/);
    const seen = await stages();
    expect(seen[0]).toBe('Preparing upload...');
    expect(seen).toEqual(
      expect.arrayContaining([
        'Preparing upload...',
        'Transferring data...',
        'Almost there...',
        'Finalizing...',
      ]),
    );
    expect(seen.indexOf('Transferring data...')).toBeLessThan(seen.indexOf('Finalizing...'));
    expect(seen.at(-1)).toBe('Upload Complete!');

    // After the success animation, /drive/all with the file in the grid (the default view).
    const card = page.getByTestId('file-card').filter({ hasText: 'A-101 General Arrangement.pdf' });
    await visible(card);
    await visible(card.getByText('12 MB'));
    await page.screenshot({ path: `${shots}/drive-upload-in-list.png` });

    // The preview: the PDF embedded from its presigned URL.
    await card.getByText('A-101 General Arrangement.pdf').click();
    const frame = page.getByTestId('preview-pdf');
    await visible(frame);
    expect(new URL((await frame.getAttribute('src')) ?? '').origin).toBe(
      new URL(stack.driveConfig.OBJECT_STORE_PUBLIC_URL ?? stack.driveConfig.OBJECT_STORE_URL).origin,
    );
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${shots}/drive-upload-preview.png` });

    // Download from the preview's header: the same bytes, under the file's name.
    const downloading = page.waitForEvent('download');
    await page
      .locator('.ant-modal-header, .ant-modal-title')
      .getByRole('button', { name: 'Download' })
      .click();
    await visible(page.getByText('Preparing download...'));
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('A-101 General Arrangement.pdf');
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect(sha256(await readFile(path))).toBe(sha256(pdf));
    await visible(page.getByText('Download started'));

    // Escape closes the preview.
    await page.keyboard.press('Escape');
    await frame.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
