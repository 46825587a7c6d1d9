// Places (fixtures.ts's seeder) and files (storeServerFile) for the share tests, and the audit events the drive
// wrote.
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { driveEventType, type DriveAuditAction } from '@workspace/proto';
import sharp from 'sharp';
import { storeServerFile } from '../src/commands/server-files.js';
import { FileStore, type FileRecord } from '../src/db/files.store.js';
import { ShareStore, type NewShare } from '../src/db/shares.store.js';
import type { LibraryPolicies, ShareSourcePolicy } from '../src/domain/index.js';
import { seedDriveAndLibrary } from './fixtures.js';
import { DRIVE_ADMIN_ID, type DriveHarness } from './support.js';

export interface Place {
  tenantId: string;
  driveId: string;
  libraryId: string;
}

/** A tenant-wide shared drive 'Projects' with one library 'Drawings' (external sharing allowed unless told otherwise). */
export function makePlace(
  h: DriveHarness,
  options: {
    tenantId?: string;
    allowExternalSharing?: boolean;
    policies?: Partial<LibraryPolicies>;
    shareSourcePolicy?: Partial<ShareSourcePolicy>;
  } = {},
): Promise<Place> {
  return seedDriveAndLibrary(h, {
    tenantId: options.tenantId,
    drive: { name: 'Projects', allowExternalSharing: options.allowExternalSharing ?? true, quotaGb: 10 },
    library: { name: 'Drawings' },
    policies: options.policies,
    shareSourcePolicy: options.shareSourcePolicy,
  });
}

/** A file the service stores in the place (storeServerFile: object in the bucket, row, usage, FILE_UPLOADED). */
export async function addFile(
  h: DriveHarness,
  place: Place,
  name: string,
  mimeType: string,
  bytes: Buffer,
  ownerId = DRIVE_ADMIN_ID,
): Promise<FileRecord> {
  const deps = h.definition.deps();
  return deps.inTenant(place.tenantId, (trx) =>
    storeServerFile(
      deps,
      trx,
      { tenantId: place.tenantId, userId: ownerId },
      { driveId: place.driveId, libraryId: place.libraryId, folderId: null, name, mimeType, bytes, ownerId },
    ),
  );
}

export const textFile = (h: DriveHarness, place: Place, name = 'notes.txt') =>
  addFile(h, place, name, 'text/plain', Buffer.from(`notes of ${name}\n`));

/** A one-page PDF that says `text`. */
export async function samplePdf(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  page.drawText(text, { x: 60, y: 760, size: 18, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await pdf.save());
}

/** A plain grey PNG. */
export const samplePng = (): Promise<Buffer> =>
  sharp({ create: { width: 400, height: 240, channels: 3, background: { r: 200, g: 200, b: 200 } } })
    .png()
    .toBuffer();

/** Straight into the store (a share of a tenant this release's routes cannot reach, e.g. another region's). */
export async function insertShare(h: DriveHarness, share: NewShare, fileIds: string[] = []): Promise<void> {
  await h.definition.deps().inTenant(share.tenantId, (trx) => new ShareStore(trx).insert(share, fileIds));
}

export async function setFile(
  h: DriveHarness,
  tenantId: string,
  fileId: string,
  changes: Parameters<FileStore['update']>[1],
): Promise<void> {
  await h.definition.deps().inTenant(tenantId, (trx) => new FileStore(trx).update(fileId, changes));
}

/** The purge route lands in parallel: the file's row goes, as a purge leaves it. */
export async function deleteFileRow(h: DriveHarness, tenantId: string, fileId: string): Promise<void> {
  await h.definition.deps().inTenant(tenantId, (trx) => trx('files').where({ id: fileId }).delete());
}

export async function deleteLibrary(h: DriveHarness, tenantId: string, libraryId: string): Promise<void> {
  await h.definition
    .deps()
    .inTenant(tenantId, (trx) =>
      trx('libraries').where({ id: libraryId }).update({ deleted_at: new Date() }),
    );
}

export interface AuditEvent {
  action: string;
  actorId: string;
  targetId: string;
  details: Record<string, string>;
}

/** The audit events of one action about `targetId`, oldest first (drive.outbox). */
export async function auditEvents(
  h: DriveHarness,
  action: DriveAuditAction,
  targetId: string,
): Promise<AuditEvent[]> {
  const rows = await h.definition
    .deps()
    .db.raw<{ rows: { payload: { data?: AuditEvent } & AuditEvent }[] }>(
      `SELECT payload FROM drive.outbox WHERE type = ? AND payload::text LIKE ? ORDER BY id`,
      [driveEventType(action), `%${targetId}%`],
    );
  return rows.rows.map((row) => row.payload.data ?? row.payload);
}
