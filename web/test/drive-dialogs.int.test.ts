// The drive's dialogs in Chromium (drive.md §2 upload dialog, preview modal, Select from Drive; §4 upload
// registration; §8 upload, download and preview errors; §9 3 uploads at once): the upload dialog inside a drive and
// on the upload page, uploads held, refused and cancelled at the object store, previews of each kind and of a file
// whose object is gone, an orphaned reference repaired, downloads that fail, and the PDF picker of the signatures
// page. Screenshots: test-results/screenshots/drive-dialogs-*.png.
import { readFile } from 'node:fs/promises';
import { strToU8, zipSync } from 'fflate';
import type { Locator, Page, Route } from 'playwright-core';
import { animationsDone, shots, visible } from './browser.js';
import { until } from './cis-stack.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';
import { ADMIN, firstLibrary, pdfOf, sha256, sharedDrive, uploadThroughApi } from './drive-support.js';

let stack: DriveBrowserStack;
let token: string;
let driveId: string;
let place: { driveId: string; libraryId: string };
/** The object store's origin, where the browser PUTs the parts and reads previews. */
let objectStore: string;
const media: Record<string, Buffer> = {};
const ids: Record<string, string> = {};

/** A PNG drawn by the browser, and a short video it records itself (MP4 when it can, else WebM). */
async function browserMedia(): Promise<{ png: Buffer; video: Buffer; videoType: string }> {
  const page = await stack.browser.newPage();
  // Browser code as text: the tests compile without the DOM's types.
  const made = await page.evaluate<{ png: string; video: string; videoType: string }>(`(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const context = canvas.getContext('2d');
    const draw = (n) => {
      context.fillStyle = '#1f6feb';
      context.fillRect(0, 0, 320, 180);
      context.fillStyle = '#ffffff';
      context.font = '28px sans-serif';
      context.fillText('Site photo ' + n, 40, 100);
    };
    draw(0);
    const png = canvas.toDataURL('image/png').split(',')[1];
    const type = ['video/mp4;codecs=avc1', 'video/mp4', 'video/webm;codecs=vp8', 'video/webm'].find((each) =>
      MediaRecorder.isTypeSupported(each),
    );
    const recorder = new MediaRecorder(canvas.captureStream(10), { mimeType: type });
    const chunks = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let n = 1; n <= 10; n++) {
      draw(n);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks, { type }).arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return { png, video: btoa(binary), videoType: type.split(';')[0] };
  })()`);
  await page.close();
  return {
    png: Buffer.from(made.png, 'base64'),
    video: Buffer.from(made.video, 'base64'),
    videoType: made.videoType,
  };
}

/** One second of a 440 Hz tone as 16-bit mono PCM WAV. */
function wavTone(): Buffer {
  const rate = 8000;
  const samples = rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A zip holding one file. */
function zipOf(name: string, content: string): Buffer {
  return Buffer.from(zipSync({ [name]: strToU8(content) }));
}

driveStackPerFile(async (started) => {
  stack = started;
  token = await stack.signInAs(ADMIN);
  objectStore = new URL(stack.driveConfig.OBJECT_STORE_PUBLIC_URL ?? stack.driveConfig.OBJECT_STORE_URL)
    .origin;
  driveId = await sharedDrive(stack, token, 'Site Records');
  place = { driveId, libraryId: await firstLibrary(stack, token, driveId) };
  const { png, video, videoType } = await browserMedia();
  const videoName = videoType === 'video/mp4' ? 'Walkround.mp4' : 'Walkround.webm';
  media.png = png;
  media.pdf = await pdfOf('Method statement MS-04');
  media.zip = zipOf('readme.txt', 'Drawings pack');
  const seeds: [string, string, Buffer][] = [
    ['Method statement.pdf', 'application/pdf', media.pdf],
    ['Site induction.pdf', 'application/pdf', await pdfOf('Site induction')],
    ['Site photo.png', 'image/png', png],
    ['Gate notes.txt', 'text/plain', Buffer.from('Gate code 4512.\nDeliveries before 8am only.\n')],
    [
      'levels.ts',
      'text/plain',
      Buffer.from(
        'export const levels = [0, 3.2, 6.4];\nexport function top(): number {\n  return 6.4;\n}\n',
      ),
    ],
    ['survey.json', 'application/json', Buffer.from('{"site":"North yard","points":[1,2],"ok":true}')],
    [videoName, videoType, video],
    ['Site tone.wav', 'audio/wav', wavTone()],
    ['Drawings pack.zip', 'application/zip', media.zip],
    ['Lost notes.txt', 'text/plain', Buffer.from('This object will be gone.')],
    ['Lost photo.png', 'image/png', png],
    ['Linked notes.txt', 'text/plain', Buffer.from('Attached to an event.')],
  ];
  for (const [name, mimeType, bytes] of seeds)
    ids[name] = await uploadThroughApi(stack, token, place, name, mimeType, bytes);
  ids.video = ids[videoName] ?? '';
});

const toastError = (page: Page) => page.locator('.ant-message .ant-message-error');
const uploadDialog = (page: Page) => page.locator('.ant-modal', { hasText: 'Upload Files' });

/** Holds every part PUT to the object store until released; counts those in flight and the most at once. */
async function holdParts(page: Page) {
  const held: Route[] = [];
  const state = { inFlight: 0, most: 0, started: 0 };
  await page.route(`${objectStore}/**`, async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    state.started++;
    state.inFlight++;
    state.most = Math.max(state.most, state.inFlight);
    held.push(route);
  });
  return {
    state,
    /** How many parts are held now. */
    waiting: () => held.length,
    /** Sends the first held part on to the object store. */
    async releaseOne() {
      const route = held.shift();
      if (!route) return false;
      await route.continue();
      state.inFlight--;
      return true;
    },
    async dropAll() {
      for (const route of held.splice(0)) {
        await route.abort().catch(() => undefined);
        state.inFlight--;
      }
    },
  };
}

/** The files of a drive: their names. */
async function namesIn(drive: string): Promise<string[]> {
  const answer = await stack.driveCall(token, 'GET', `/files?driveId=${drive}&pageSize=200`);
  return ((answer.body.items ?? []) as { name: string }[]).map((file) => file.name);
}

async function chooseFiles(zone: Locator, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await zone.locator('input[type=file]').setInputFiles(files);
}

describe('the Upload dialog', () => {
  it('inside a drive: no drive picker, the library note, Advanced Options open and close, a clicked PDF then a dropped PNG, and it stays on the drive', async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await page.getByTestId('drive-toolbar').getByRole('button', { name: 'Upload' }).click();
    const dialog = uploadDialog(page);
    await visible(dialog);
    // The drive is fixed: no drive picker; the drive's first library is preselected.
    await visible(dialog.locator('.ant-select-content[title="Documents"]'));
    expect(await dialog.getByLabel('Drive', { exact: true }).count()).toBe(0);
    expect(await dialog.getByText('Drive', { exact: true }).count()).toBe(0);
    await visible(dialog.getByText('File access follows the permissions of the library you upload to.'));

    // Advanced Options opens, then collapses again.
    const folder = dialog.locator('.ant-select-content[title="Root folder"]');
    await dialog.getByText('Advanced Options').click();
    await visible(folder);
    await animationsDone(dialog);
    await page.screenshot({ path: `${shots}/drive-dialogs-upload-in-drive.png` });
    await dialog.getByText('Advanced Options').click();
    await folder.waitFor({ state: 'hidden' });
    expect(await dialog.locator('.ant-collapse-item-active').count()).toBe(0);

    // A click on the zone opens the file chooser: a PDF 'PDF detected'.
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByText('Drag and drop files here, or click to choose').click();
    await (
      await chooser
    ).setFiles({ name: 'Permit.pdf', mimeType: 'application/pdf', buffer: media.pdf ?? Buffer.alloc(0) });
    const chosen = dialog.getByTestId('upload-chosen');
    await visible(chosen.getByText('Permit.pdf'));
    await visible(chosen.getByText('PDF detected'));

    // A PNG dropped on the zone (a real drop event with its DataTransfer): 'Cannot be signed', with its size.
    const transfer = await page.evaluateHandle(`(() => {
      const bytes = Uint8Array.from(atob('${(media.png ?? Buffer.alloc(0)).toString('base64')}'), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'Gate photo.png', { type: 'image/png' }));
      return data;
    })()`);
    const target = dialog.getByText('Drag and drop files here, or click to choose');
    await target.dispatchEvent('dragover', { dataTransfer: transfer });
    await target.dispatchEvent('drop', { dataTransfer: transfer });
    await visible(chosen.getByText('Gate photo.png'));
    await visible(chosen.getByText('Cannot be signed'));
    expect(await chosen.getByText('Permit.pdf').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-dialogs-upload-dropped.png` });

    // Uploaded from inside the drive: the success panel, then the dialog closes and the page stays on the drive.
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await visible(page.getByText('File "Gate photo.png" uploaded successfully'));
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/drive/${driveId}`);
    await visible(page.getByText('Gate photo.png').first());
    expect(await namesIn(driveId)).toContain('Gate photo.png');
    await page.screenshot({ path: `${shots}/drive-dialogs-upload-stayed.png` });
    await page.context().close();
  });

  it("on the upload page the drive picker shows; a drive whose libraries are all hidden says 'No libraries in this drive.'", async () => {
    const empty = await sharedDrive(stack, token, 'Empty Yard');
    const library = await firstLibrary(stack, token, empty);
    const hidden = await stack.driveCall(token, 'PATCH', `/libraries/${library}`, {
      visibleInDriveUI: false,
    });
    expect(hidden.status).toBe(200);
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/upload`);
    const form = page.getByTestId('upload-form');
    await form.getByLabel('Drive', { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Empty Yard' })
      .click();
    await visible(form.getByText('No libraries in this drive.'));
    await page.screenshot({ path: `${shots}/drive-dialogs-no-libraries.png` });
    await page.context().close();
  });
});

describe('uploads held, refused and cancelled at the object store', () => {
  it('five files go three at a time: never more than three parts in flight, the fourth starts when one ends', async () => {
    const page = await stack.newPage(ADMIN);
    const parts = await holdParts(page);
    await page.goto(`${stack.baseUrl}/drive/upload`);
    const form = page.getByTestId('upload-form');
    await form.getByLabel('Drive', { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Site Records' })
      .click();
    await visible(form.locator('.ant-select-content[title="Documents"]'));
    const names = [1, 2, 3, 4, 5].map((n) => `Batch ${String(n)}.txt`);
    await chooseFiles(
      form,
      names.map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`${name} content`) })),
    );
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
    const items = form.getByTestId('upload-items').locator('.ant-list-item');
    await until(
      () => items.count(),
      (count) => count === 5,
      'five upload items',
    );
    await until(
      () => Promise.resolve(parts.state.inFlight),
      (count) => count === 3,
      'three parts in flight',
    );
    await page.screenshot({ path: `${shots}/drive-dialogs-three-in-flight.png` });
    // While three are held no fourth starts; releasing one lets the next file go.
    expect(parts.state.started).toBe(3);
    await parts.releaseOne();
    await until(
      () => Promise.resolve(parts.state.started),
      (count) => count === 4,
      'the fourth part',
    );
    // The rest released one at a time as they arrive: five parts in all, never more than three at once.
    for (let released = 1; released < 5; released++) {
      await until(
        () => Promise.resolve(parts.waiting()),
        (count) => count > 0,
        'a held part',
      );
      await parts.releaseOne();
    }
    expect(parts.state.started).toBe(5);
    expect(parts.state.most).toBe(3);
    await visible(page.getByText('File "Batch 5.txt" uploaded successfully'));
    await page.waitForURL(/\/drive\/all$/);
    expect(await namesIn(driveId)).toEqual(expect.arrayContaining(names));
    await page.context().close();
  });

  it("Cancel Upload stops quietly: 'Upload cancelled', no error, nothing registered", async () => {
    const page = await stack.newPage(ADMIN);
    const parts = await holdParts(page);
    await page.goto(`${stack.baseUrl}/drive/upload`);
    const form = page.getByTestId('upload-form');
    await form.getByLabel('Drive', { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Site Records' })
      .click();
    await visible(form.locator('.ant-select-content[title="Documents"]'));
    await chooseFiles(form, [
      { name: 'Cancelled plan.pdf', mimeType: 'application/pdf', buffer: media.pdf ?? Buffer.alloc(0) },
    ]);
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
    await until(
      () => Promise.resolve(parts.state.inFlight),
      (count) => count === 1,
      'the part in flight',
    );
    await visible(form.getByTestId('upload-progress'));
    await form.getByRole('button', { name: 'Cancel Upload' }).click();
    await visible(page.getByText('Upload cancelled'));
    await parts.dropAll();
    await visible(form.getByRole('button', { name: 'Upload', exact: true }));
    await page.screenshot({ path: `${shots}/drive-dialogs-upload-cancelled.png` });
    expect(await toastError(page).count()).toBe(0);
    expect(await form.getByTestId('upload-items').count()).toBe(0);
    expect(await form.getByTestId('upload-error').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/drive/upload');
    expect(await namesIn(driveId)).not.toContain('Cancelled plan.pdf');
    await page.context().close();
  });

  it("failed uploads: each item marked error with its message, 'Failed to upload \"{name}\"' each, and '2 file(s) failed to upload'", async () => {
    // The library takes PDFs only (a policy refusal at the grant); the object store refuses the PDF's part.
    const strict = await sharedDrive(stack, token, 'PDF Only');
    const library = await firstLibrary(stack, token, strict);
    const policy = await stack.driveCall(token, 'PATCH', `/libraries/${library}`, {
      policies: { allowedExtensions: ['pdf'] },
    });
    expect(policy.status).toBe(200);
    const page = await stack.newPage(ADMIN);
    await page.route(`${objectStore}/**`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 403,
            contentType: 'application/xml',
            headers: { 'access-control-allow-origin': '*' },
            body: '<Error><Code>AccessDenied</Code></Error>',
          })
        : route.continue(),
    );
    await page.goto(`${stack.baseUrl}/drive/upload`);
    const form = page.getByTestId('upload-form');
    await form.getByLabel('Drive', { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'PDF Only' })
      .click();
    await visible(form.locator('.ant-select-content[title="Documents"]'));
    await chooseFiles(form, [
      { name: 'Snag photo.png', mimeType: 'image/png', buffer: media.png ?? Buffer.alloc(0) },
      { name: 'Handover.pdf', mimeType: 'application/pdf', buffer: media.pdf ?? Buffer.alloc(0) },
    ]);
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
    // The part is tried, then retried 3 times (1 s, 2 s, 3 s) before the file fails.
    await visible(page.getByText('2 file(s) failed to upload'));
    await visible(page.getByText('Failed to upload "Snag photo.png"'));
    await visible(page.getByText('Failed to upload "Handover.pdf"'));
    const items = form.getByTestId('upload-items');
    const photo = items.locator('.ant-list-item', { hasText: 'Snag photo.png' });
    const handover = items.locator('.ant-list-item', { hasText: 'Handover.pdf' });
    expect(await photo.getAttribute('data-status')).toBe('error');
    expect(await handover.getAttribute('data-status')).toBe('error');
    await visible(photo.getByText('File type ".png" not allowed. Allowed types: pdf'));
    await visible(handover.getByText('Part upload failed (403)'));
    await visible(photo.locator('.ant-progress-status-exception'));
    await page.screenshot({ path: `${shots}/drive-dialogs-upload-failed.png` });
    expect(await namesIn(strict)).toEqual([]);
    await page.context().close();
  });

  it("a registration whose reference write fails warns 'Reference creation failed' with Retry: 'Repair failed', then 'Reference repaired'", async () => {
    const page = await stack.newPage(ADMIN);
    // Until the drive's register route attaches module references, its FILE_REF_WRITE_FAILED answer is given here
    // over the real registration; the file is flagged as the failed write leaves it, so the repair is the drive's.
    await page.route('**/api/drive/files/register', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { file: { id: string } };
      await stack.driveDefinition
        .deps()
        .inTenant('demo', (trx) => trx('files').where({ id: body.file.id }).update({ orphaned_ref: true }));
      await route.fulfill({
        response,
        json: {
          ...body,
          code: 'FILE_REF_WRITE_FAILED',
          message: 'Reference creation failed',
          file: { ...body.file, orphanedRef: true },
        },
      });
    });
    let failRepair = true;
    await page.route('**/api/drive/mutations/repair-refs', (route) =>
      failRepair
        ? route.fulfill({
            status: 500,
            contentType: 'application/problem+json',
            body: JSON.stringify({
              status: 500,
              code: 'FILE_REF_WRITE_FAILED',
              detail: 'Reference creation failed',
            }),
          })
        : route.continue(),
    );
    await page.goto(`${stack.baseUrl}/drive/${driveId}`);
    await page.getByTestId('drive-toolbar').getByRole('button', { name: 'Upload' }).click();
    const dialog = uploadDialog(page);
    await visible(dialog.locator('.ant-select-content[title="Documents"]'));
    await chooseFiles(dialog, [
      { name: 'Event brief.txt', mimeType: 'text/plain', buffer: Buffer.from('Crane lift on Tuesday.') },
    ]);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const warning = page.locator('.drive-reference-warning');
    await visible(warning.getByText('Reference creation failed'));
    await visible(warning.getByRole('button', { name: 'Retry' }));
    await page.screenshot({ path: `${shots}/drive-dialogs-reference-failed.png` });
    await warning.getByRole('button', { name: 'Retry' }).click();
    await visible(page.getByText('Repair failed'));
    await visible(warning);
    failRepair = false;
    await warning.getByRole('button', { name: 'Retry' }).click();
    await visible(page.getByText('Reference repaired'));
    await warning.waitFor({ state: 'detached' });
    const files = await stack.driveCall(token, 'GET', `/files?driveId=${driveId}&q=Event%20brief`);
    expect(files.body.items).toEqual([
      expect.objectContaining({ name: 'Event brief.txt', orphanedRef: false }),
    ]);
    await page.context().close();
  });
});

/** Opens the preview of a file from the drive's grid. */
async function preview(page: Page, name: string): Promise<Locator> {
  await page.goto(`${stack.baseUrl}/drive/${driveId}`);
  await page.getByTestId('file-card').filter({ hasText: name }).getByText(name, { exact: true }).click();
  const modal = page.locator('.ant-modal', { has: page.getByTestId('file-preview') });
  await visible(modal);
  await animationsDone(modal);
  return modal;
}

describe('the preview modal', () => {
  it('shows a PDF embedded, an image, text, a .ts file as text, JSON pretty-printed, and video and audio players', async () => {
    const page = await stack.newPage(ADMIN);
    let modal = await preview(page, 'Method statement.pdf');
    await visible(modal.getByTestId('preview-pdf'));
    const src = (await modal.getByTestId('preview-pdf').getAttribute('src')) ?? '';
    expect(new URL(src).origin).toBe(objectStore);
    // The frame has loaded the presigned URL (the PDF viewer draws it).
    await until(
      () => Promise.resolve(page.frames().some((frame) => frame.url() === src)),
      Boolean,
      'the embedded PDF frame',
    );
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-pdf.png` });

    modal = await preview(page, 'Site photo.png');
    const image = modal.getByTestId('preview-image');
    await visible(image);
    expect(
      await until(
        () => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth),
        (width) => width > 0,
        'the image loaded',
      ),
    ).toBe(320);
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-image.png` });

    modal = await preview(page, 'Gate notes.txt');
    expect(await modal.getByTestId('preview-text').textContent()).toBe(
      'Gate code 4512.\nDeliveries before 8am only.\n',
    );

    modal = await preview(page, 'levels.ts');
    expect(await modal.getByTestId('preview-text').textContent()).toContain(
      'export function top(): number {',
    );
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-code.png` });

    modal = await preview(page, 'survey.json');
    expect(await modal.getByTestId('preview-text').textContent()).toBe(
      '{\n  "site": "North yard",\n  "points": [\n    1,\n    2\n  ],\n  "ok": true\n}',
    );
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-json.png` });

    const videoName = Object.keys(ids).find((name) => name.startsWith('Walkround.')) ?? '';
    modal = await preview(page, videoName);
    const video = modal.getByTestId('preview-video');
    await visible(video);
    expect(await video.getAttribute('controls')).not.toBeNull();
    await until(
      () => video.evaluate((element) => (element as unknown as { readyState: number }).readyState),
      (state) => state >= 2,
      'the first frame of the video',
    );
    expect(await modal.getByTestId('preview-failed').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-video.png` });

    modal = await preview(page, 'Site tone.wav');
    const audio = modal.getByTestId('preview-audio');
    await visible(audio);
    await until(
      () => audio.evaluate((element) => (element as unknown as { duration: number }).duration),
      (duration) => duration > 0.9,
      'the audio metadata',
    );
    expect(await modal.getByTestId('preview-failed').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-audio.png` });
    await page.context().close();
  });

  it("anything else: 'Preview not available for this file type' with Download File, which downloads the file", async () => {
    const page = await stack.newPage(ADMIN);
    const modal = await preview(page, 'Drawings pack.zip');
    const panel = modal.getByTestId('preview-unavailable');
    await visible(panel.getByText('Preview not available for this file type'));
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-unavailable.png` });
    const downloading = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download File' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Drawings pack.zip');
    expect(sha256(await readFile(await download.path()))).toBe(sha256(media.zip ?? Buffer.alloc(0)));
    await page.context().close();
  });

  it("a file whose object is gone from the store: 'Unable to load file' (its text, and its image)", async () => {
    const objects = stack.driveDefinition.deps().objects;
    for (const name of ['Lost notes.txt', 'Lost photo.png']) {
      const keys: string[] = [];
      for await (const item of objects.list(`tenants/demo/files/${ids[name] ?? ''}/`))
        if (item.name) keys.push(item.name);
      expect(keys.length).toBeGreaterThan(0);
      await objects.remove(keys);
    }
    const page = await stack.newPage(ADMIN);
    let modal = await preview(page, 'Lost notes.txt');
    const failed = modal.getByTestId('preview-failed');
    await visible(failed.getByText('Unable to load file'));
    await visible(failed.getByText('Failed to get file metadata'));
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-unable-text.png` });
    modal = await preview(page, 'Lost photo.png');
    await visible(modal.getByTestId('preview-failed').getByText('Unable to load file'));
    expect(await modal.getByTestId('preview-image').count()).toBe(0);
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-unable-image.png` });
    await page.context().close();
  });

  it("an orphaned reference: 'Repair reference' in the header, 'Repair failed' when the repair fails, then 'Reference repaired'", async () => {
    const fileId = ids['Linked notes.txt'] ?? '';
    // The state a failed reference write at registration leaves (the flag; references.int.test.ts proves the write).
    await stack.driveDefinition
      .deps()
      .inTenant('demo', (trx) => trx('files').where({ id: fileId }).update({ orphaned_ref: true }));
    const page = await stack.newPage(ADMIN);
    let failRepair = true;
    await page.route('**/api/drive/mutations/repair-refs', (route) =>
      failRepair ? route.fulfill({ status: 503, body: '' }) : route.continue(),
    );
    const plain = await preview(page, 'Gate notes.txt');
    expect(await plain.getByRole('button', { name: 'Repair reference' }).count()).toBe(0);
    const modal = await preview(page, 'Linked notes.txt');
    const repair = modal.getByRole('button', { name: 'Repair reference' });
    await visible(repair);
    await animationsDone(modal);
    await page.screenshot({ path: `${shots}/drive-dialogs-preview-repair.png` });
    await repair.click();
    await visible(page.getByText('Repair failed'));
    failRepair = false;
    await repair.click();
    await visible(page.getByText('Reference repaired'));
    const files = await stack.driveCall(token, 'GET', `/files?driveId=${driveId}&q=Linked`);
    expect(files.body.items).toEqual([expect.objectContaining({ id: fileId, orphanedRef: false })]);
    await page.context().close();
  });
});

describe('downloads that fail', () => {
  it("the download call fails: 'Download failed. Opening in new tab...' and the new tab downloads the file", async () => {
    const page = await stack.newPage(ADMIN);
    // The page's call for the link (Accept: application/json) fails; the new tab's plain GET goes to the drive
    // (its 302 to the presigned URL, saved under the file's name).
    const asked: string[] = [];
    await page.context().route('**/api/drive/download?**', (route) => {
      const request = route.request();
      const json = (request.headers().accept ?? '').includes('application/json');
      // The page's frames are always known; a new tab whose navigation became a download may have none to ask.
      let where = 'other tab';
      try {
        if (request.frame().page() === page) where = 'page';
      } catch {
        // not the page's
      }
      asked.push(
        json
          ? `fetch from ${where} ${request.url()}`
          : `${request.isNavigationRequest() ? 'navigation' : 'request'} in ${where} ${request.url()}`,
      );
      return json ? route.fulfill({ status: 502, body: '' }) : route.continue();
    });
    // window.open watched (and still called): the tab asked for.
    await page.addInitScript(`(() => {
      const open = window.open.bind(window);
      window.__opened = [];
      window.open = (...args) => {
        const tab = open(...args);
        window.__opened.push([String(args[0]), String(args[1]), tab !== null]);
        return tab;
      };
    })()`);
    const modal = await preview(page, 'Method statement.pdf');
    const downloading = page.context().waitForEvent('download');
    await modal.locator('.ant-modal-title').getByRole('button', { name: 'Download' }).click();
    await visible(page.getByText('Download failed. Opening in new tab...'));
    const download = await downloading;
    // The link was fetched by the page, then opened as the navigation of another tab, which downloaded the file
    // (Chromium closes a tab whose navigation became a download and reports the download on its opener).
    const link = `${stack.baseUrl}/api/drive/download?fileId=${ids['Method statement.pdf'] ?? ''}`;
    expect(asked).toEqual([`fetch from page ${link}`, `navigation in other tab ${link}`]);
    expect(new URL(page.url()).pathname).toBe(`/drive/${driveId}`);
    expect(await page.evaluate('window.__opened')).toEqual([
      [`/api/drive/download?fileId=${ids['Method statement.pdf'] ?? ''}`, '_blank', true],
    ]);
    expect(download.suggestedFilename()).toBe('Method statement.pdf');
    expect(sha256(await readFile(await download.path()))).toBe(sha256(media.pdf ?? Buffer.alloc(0)));
    expect(await toastError(page).count()).toBe(1);
    await page.screenshot({ path: `${shots}/drive-dialogs-download-failed.png` });
    await page.context().close();
  });

  it("no tab can be opened either (a popup blocker): 'Failed to download file'", async () => {
    const page = await stack.newPage(ADMIN);
    await page.addInitScript('window.open = () => null;');
    await page.route('**/api/drive/download?**', (route) => route.fulfill({ status: 502, body: '' }));
    const modal = await preview(page, 'Gate notes.txt');
    await modal.locator('.ant-modal-title').getByRole('button', { name: 'Download' }).click();
    await visible(page.getByText('Download failed. Opening in new tab...'));
    await visible(page.getByText('Failed to download file'));
    await animationsDone(page.locator('.ant-message'));
    await page.screenshot({ path: `${shots}/drive-dialogs-download-no-tab.png` });
    await page.context().close();
  });
});

describe('Select from Drive (the signatures page picks the PDF to sign)', () => {
  it("'Select' is disabled until a file is chosen, a second click replaces the first, and Select opens the request for it", async () => {
    const page = await stack.newPage(ADMIN);
    await page.goto(`${stack.baseUrl}/drive/signatures`);
    await page.getByRole('button', { name: 'Request Signature' }).click();
    const picker = page.locator('.drive-select-from-drive');
    await visible(picker.getByText('Select a PDF to sign'));
    const rows = picker.locator('.ant-list-item');
    await visible(rows.filter({ hasText: 'Method statement.pdf' }));
    // Only PDFs can be signed: the picker offers the drive's PDFs only.
    expect(await rows.filter({ hasText: 'Site photo.png' }).count()).toBe(0);
    const select = picker.getByRole('button', { name: 'Select', exact: true });
    expect(await select.isDisabled()).toBe(true);
    await animationsDone(picker);
    await page.screenshot({ path: `${shots}/drive-dialogs-select-disabled.png` });

    const first = rows.filter({ hasText: 'Method statement.pdf' });
    await first.click();
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await select.isEnabled()).toBe(true);
    // A second file replaces the first (single select).
    const second = rows.filter({ hasText: 'Site induction.pdf' });
    await second.click();
    expect(await second.getAttribute('aria-selected')).toBe('true');
    expect(await first.getAttribute('aria-selected')).toBe('false');
    expect(await picker.locator('.ant-list-item[aria-selected="true"]').count()).toBe(1);
    await page.screenshot({ path: `${shots}/drive-dialogs-select-chosen.png` });
    await select.click();
    const request = page.locator('.ant-modal', { hasText: 'Request Signature' });
    await visible(request.getByText('Ask a colleague to sign'));
    await visible(request.getByText('Site induction.pdf'));
    await animationsDone(request);
    expect(new URL(page.url()).searchParams.get('request')).toBe(ids['Site induction.pdf']);
    await page.screenshot({ path: `${shots}/drive-dialogs-select-request.png` });
    await page.context().close();
  });
});
