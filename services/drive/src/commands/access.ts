import { problems, type Knex, type RequestContext } from '@workspace/kit';
import { DriveStore, type DriveRecord } from '../db/drives.store.js';
import { FileStore, type FileRecord } from '../db/files.store.js';
import { LibraryStore, type LibraryRecord } from '../db/libraries.store.js';
import { canReadFile, canReadLibrary, canSeeDrive, type Caller } from '../domain/index.js';

/** The caller as the access rules see them, from the verified token only. */
export function callerOf(ctx: RequestContext): Caller {
  return { userId: ctx.userId, scopes: ctx.scopes, superAdmin: ctx.scopes.has('system.superadmin') };
}

export const FILE_NOT_FOUND = 'File not found';

/** A drive the caller may see; 404 otherwise (another tenant's, deleted, or not theirs to see: the same answer). */
export async function visibleDrive(
  trx: Knex.Transaction,
  caller: Caller,
  driveId: string,
): Promise<DriveRecord> {
  const drive = await new DriveStore(trx).get(driveId);
  if (!drive || !canSeeDrive(caller, drive)) throw problems.notFound('Drive not found');
  return drive;
}

/** A library of a drive the caller may see, which they may read; 404 otherwise. */
export async function readableLibrary(
  trx: Knex.Transaction,
  caller: Caller,
  libraryId: string,
): Promise<{ library: LibraryRecord; drive: DriveRecord }> {
  const library = await new LibraryStore(trx).get(libraryId);
  if (!library || !canReadLibrary(caller, library)) throw problems.notFound('Library not found');
  const drive = await visibleDrive(trx, caller, library.driveId);
  return { library, drive };
}

export interface FileInPlace {
  file: FileRecord;
  library: LibraryRecord;
  drive: DriveRecord;
}

/** A file the caller may open, with its library and drive; 'File not found' (404) otherwise. */
export async function readableFile(
  trx: Knex.Transaction,
  caller: Caller,
  fileId: string,
): Promise<FileInPlace> {
  const file = await new FileStore(trx).get(fileId);
  if (!file) throw problems.notFound(FILE_NOT_FOUND);
  const [library, drive] = await Promise.all([
    new LibraryStore(trx).get(file.libraryId),
    new DriveStore(trx).get(file.driveId),
  ]);
  if (!library || !drive || !canReadFile(caller, drive, library, file))
    throw problems.notFound(FILE_NOT_FOUND);
  return { file, library, drive };
}

/**
 * The files the caller may open among `fileIds`, with their library and drive (readableFile for many: each library
 * and drive read once); the ids of the others (missing, another tenant's, not theirs to see) apart.
 */
export async function readableFiles(
  trx: Knex.Transaction,
  caller: Caller,
  fileIds: readonly string[],
): Promise<{ readable: FileInPlace[]; notFound: string[] }> {
  const files = await new FileStore(trx).getMany([...new Set(fileIds)]);
  const libraries = new Map<string, Promise<LibraryRecord | undefined>>();
  const drives = new Map<string, Promise<DriveRecord | undefined>>();
  const readable: FileInPlace[] = [];
  for (const file of files) {
    if (!libraries.has(file.libraryId))
      libraries.set(file.libraryId, new LibraryStore(trx).get(file.libraryId));
    if (!drives.has(file.driveId)) drives.set(file.driveId, new DriveStore(trx).get(file.driveId));
    const [library, drive] = [await libraries.get(file.libraryId), await drives.get(file.driveId)];
    if (library && drive && canReadFile(caller, drive, library, file))
      readable.push({ file, library, drive });
  }
  const found = new Set(readable.map(({ file }) => file.id));
  return { readable, notFound: [...new Set(fileIds)].filter((id) => !found.has(id)) };
}

/**
 * The spec's payloads carry a tenantId (drive.md §7). The caller's tenant is the token's; a tenantId naming any other
 * answers 404 like any other tenant's object, and an absent one is the caller's own.
 */
export function requireOwnTenant(ctx: RequestContext, tenantId: string | undefined): void {
  if (tenantId !== undefined && tenantId !== ctx.tenantId) throw problems.notFound('Not found');
}
