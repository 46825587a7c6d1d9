// What the drive's file and upload journeys share: a shared drive made for the signed-in user, a real PDF of a
// chosen size (pdf-lib, padded after its end so it takes several 5 MiB parts), and the antd bits they read.
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import pg from 'pg';
import type { Page } from 'playwright-core';
import type { DriveBrowserStack } from './drive-stack.js';

export const ADMIN = 'admin@demo.test';

/** A shared drive owned by the user of `token` (its default library is made with it): its id. */
export async function sharedDrive(stack: DriveBrowserStack, token: string, name: string): Promise<string> {
  const created = await stack.driveCall(token, 'POST', '/drives/create', {
    drive: { name, type: 'shared', settings: { quotaGB: 1 } },
  });
  if (created.status !== 201) throw new Error(`drive not created: ${created.status} ${created.text}`);
  return created.body.driveId as string;
}

/** A PDF reading `text`, padded after %%EOF to at least `size` bytes (PDF readers ignore what follows). */
export async function pdfOf(text: string, size = 0): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  page.drawText(text, { x: 72, y: 760, size: 24, font: await document.embedFont(StandardFonts.Helvetica) });
  const bytes = Buffer.from(await document.save());
  if (bytes.length >= size) return bytes;
  const padding = Buffer.alloc(size - bytes.length, 0x20);
  padding.write('\n%', 0);
  return Buffer.concat([bytes, padding]);
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Records every text the element matching `selector` shows from now on (the upload's stages). */
export async function recordTexts(page: Page, selector: string): Promise<() => Promise<string[]>> {
  await page.evaluate(`(() => {
    window.__seen = [];
    const note = () => {
      const element = document.querySelector(${JSON.stringify(selector)});
      const text = element && element.textContent;
      if (text && window.__seen[window.__seen.length - 1] !== text) window.__seen.push(text);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
  return () => page.evaluate<string[]>('window.__seen');
}

/** The first library of a drive (its default library). */
export async function firstLibrary(
  stack: DriveBrowserStack,
  token: string,
  driveId: string,
): Promise<string> {
  const answer = await stack.driveCall(token, 'GET', `/libraries?driveId=${driveId}`);
  const libraries = answer.body.libraries as { id: string }[] | undefined;
  if (!libraries?.[0]) throw new Error(`no library: ${answer.text}`);
  return libraries[0].id;
}

/** A file uploaded as the browser does it (grant, presigned parts, register), for a journey's seed: its id. */
export async function uploadThroughApi(
  stack: DriveBrowserStack,
  token: string,
  place: { driveId: string; libraryId: string },
  name: string,
  mimeType: string,
  bytes: Buffer,
): Promise<string> {
  const grant = await stack.driveCall(token, 'POST', '/uploads', {
    ...place,
    name,
    size: bytes.length,
    mimeType,
  });
  if (grant.status !== 201 && grant.status !== 200) throw new Error(`no grant: ${grant.text}`);
  const { uploadId, fileId, objectPath, partSize, parts } = grant.body as {
    uploadId: string;
    fileId: string;
    objectPath: string;
    partSize: number;
    parts: { partNumber: number; url: string }[];
  };
  for (const part of parts) {
    const start = (part.partNumber - 1) * partSize;
    const put = await fetch(part.url, { method: 'PUT', body: bytes.subarray(start, start + partSize) });
    if (!put.ok) throw new Error(`part ${String(part.partNumber)}: ${String(put.status)}`);
  }
  const registered = await stack.driveCall(token, 'POST', '/files/register', {
    fileId,
    driveId: place.driveId,
    uploadId,
    version: { objectPath, checksum: sha256(bytes), size: bytes.length },
  });
  if (registered.status >= 300) throw new Error(`not registered: ${registered.text}`);
  return fileId;
}

/** One statement as the stack's database administrator, in the drive's schema (row-level security does not apply). */
export async function driveAdminSql(
  stack: DriveBrowserStack,
  text: string,
  params: unknown[] = [],
): Promise<void> {
  const client = new pg.Client({ connectionString: stack.harness.identity.database.adminUrl });
  await client.connect();
  try {
    await client.query('SET search_path TO drive, public');
    await client.query(text, params);
  } finally {
    await client.end();
  }
}
