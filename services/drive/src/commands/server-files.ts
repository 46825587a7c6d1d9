import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from '@workspace/kit';
import { FileStore, type FileRecord } from '../db/files.store.js';
import { fileTypeClass, extensionOf, nameStem, sanitiseName, uniqueName } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { accountUsage } from './usage.js';

/** Where a version's bytes live in the region's bucket (drive.md §7: tenants/{t}/files/{id}/v/{version}). */
export const versionPath = (tenantId: string, fileId: string, version: number): string =>
  `tenants/${tenantId}/files/${fileId}/v/${String(version)}`;

/** The sha-256 of some bytes, hex: the checksum the drive keeps for every version. */
export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The first free name for `name` in one drive, library and folder (' (2)', ' (3)', ...). */
export async function freeName(
  trx: Knex.Transaction,
  place: { driveId: string; libraryId: string; folderId: string | null },
  name: string,
): Promise<string> {
  const clean = sanitiseName(name);
  const taken = new Set(await new FileStore(trx).namesLike(place, nameStem(clean)));
  return uniqueName(clean, taken);
}

export interface ServerFile {
  driveId: string;
  libraryId: string;
  folderId: string | null;
  name: string;
  mimeType: string;
  bytes: Buffer;
  /** Whose file it is (the user the document concerns or who made it; 'system' for the drive's own). */
  ownerId: string;
  ownerName?: string;
}

/**
 * A file the service itself makes (a CIS statement, a stamped PDF's first copy): its bytes stored at version 1,
 * then registered with a free name, counted against the quota and audited as FILE_UPLOADED, in `trx`. The object
 * is written before the transaction commits; if it then rolls back, the sweep finds the object without a record.
 */
export async function storeServerFile(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  file: ServerFile,
): Promise<FileRecord> {
  const id = randomUUID();
  const storagePath = versionPath(actor.tenantId, id, 1);
  await deps.objects.ensureBucket();
  await deps.objects.put(storagePath, file.bytes, file.mimeType);
  const name = await freeName(trx, file, file.name);
  const typeClass = fileTypeClass(name, file.mimeType);
  const stored = await new FileStore(trx).insert({
    id,
    tenantId: actor.tenantId,
    driveId: file.driveId,
    libraryId: file.libraryId,
    folderId: file.folderId,
    name,
    ext: extensionOf(name),
    mimeType: file.mimeType,
    typeClass,
    size: file.bytes.length,
    checksum: sha256Hex(file.bytes),
    storagePath,
    contentFlag: null,
    ownerId: file.ownerId,
    ownerName: file.ownerName ?? '',
    visibility: 'private',
    createdBy: actor.userId,
    updatedBy: actor.userId,
  });
  await accountUsage(deps, trx, actor.tenantId, { bytes: file.bytes.length, files: 1, typeClass });
  await deps.audit.write(trx, actor, 'FILE_UPLOADED', {
    targetType: 'file',
    targetId: id,
    details: { driveId: file.driveId, libraryId: file.libraryId, size: file.bytes.length, source: 'service' },
  });
  return stored;
}
