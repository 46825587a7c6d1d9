// What the share and signature journeys start from, made through the drive's own API as a signed-in user: a shared
// drive that allows external sharing, its default library, and a PDF uploaded over presigned parts.
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { DriveBrowserStack } from './drive-stack.js';

/** The seeded demo users the journeys use (deploy/local/seed/demo.json). */
export const ADMIN = {
  email: 'admin@demo.test',
  uid: '00000000-0000-4000-8000-000000000001',
  name: 'Ada Admin',
};
export const MANAGER = {
  email: 'manager@demo.test',
  uid: '00000000-0000-4000-8000-000000000002',
  name: 'Mo Manager',
};

export interface SeededPlace {
  token: string;
  driveId: string;
  libraryId: string;
}

/** A one-page PDF with a line of text. */
export async function pdfBytes(text: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  page.drawText(text, { x: 72, y: 760, size: 18, font: await document.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await document.save());
}

const expectOk = (what: string, answer: { status: number; text: string }) => {
  if (answer.status >= 300) throw new Error(`${what}: ${String(answer.status)} ${answer.text}`);
};

/** A shared drive (external sharing on) and its default library, made by the signed-in `email`. */
export async function seedPlace(stack: DriveBrowserStack, email = ADMIN.email): Promise<SeededPlace> {
  const token = await stack.signInAs(email);
  const drive = await stack.driveCall(token, 'POST', '/drives/create', {
    drive: { name: 'Site documents', settings: { allowExternalSharing: true, quotaGB: 1 } },
  });
  expectOk('create drive', drive);
  const driveId = String(drive.body.driveId);
  const library = await stack.driveCall(token, 'POST', '/libraries/ensure-default', { driveId });
  expectOk('ensure library', library);
  return { token, driveId, libraryId: String(library.body.libraryId) };
}

/** Uploads `bytes` as `name` the way the browser does: a grant, the parts PUT to MinIO, then complete. */
export async function uploadFile(
  stack: DriveBrowserStack,
  place: SeededPlace,
  name: string,
  bytes: Buffer,
  mimeType = 'application/pdf',
): Promise<{ fileId: string }> {
  const grant = await stack.driveCall(place.token, 'POST', '/uploads', {
    driveId: place.driveId,
    libraryId: place.libraryId,
    name,
    size: bytes.length,
    mimeType,
  });
  expectOk('upload grant', grant);
  const parts = grant.body.parts as { partNumber: number; url: string }[];
  const partSize = Number(grant.body.partSize);
  for (const part of parts) {
    const chunk = bytes.subarray((part.partNumber - 1) * partSize, part.partNumber * partSize);
    const put = await fetch(part.url, { method: 'PUT', body: chunk });
    if (!put.ok) throw new Error(`part ${String(part.partNumber)}: ${String(put.status)}`);
  }
  const checksum = createHash('sha256').update(bytes).digest('hex');
  const done = await stack.driveCall(
    place.token,
    'POST',
    `/uploads/${String(grant.body.uploadId)}/complete`,
    {
      checksum,
    },
  );
  expectOk('complete upload', done);
  return { fileId: String(grant.body.fileId) };
}
