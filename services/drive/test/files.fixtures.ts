// Drives, libraries (fixtures.ts's seeder) and files (storeServerFile) for the file list's tests. Each test file
// starts its own harness and bucket.
import { storeServerFile } from '../src/commands/server-files.js';
import { FileStore, type FileRecord } from '../src/db/files.store.js';
import type { DriveType, LibraryAcl, LibraryPolicies, MemberRole } from '../src/domain/index.js';
import { seedDriveAndLibrary, seedLibraryIn } from './fixtures.js';
import { DRIVE_ADMIN_ID, type DriveHarness } from './support.js';

/** A reader of files: read and view, nothing more. */
export const READER_SCOPES = ['drive.view', 'drive.read', 'drive.file.read'];

/** A drive without libraries (members only unless told), owned by the drive admin unless named. Answers its id. */
export async function seedDrive(
  h: DriveHarness,
  options: {
    tenantId?: string;
    name?: string;
    type?: DriveType;
    ownerId?: string;
    visibility?: 'members' | 'tenant';
    members?: { userId: string; role: MemberRole }[];
  } = {},
): Promise<string> {
  const { driveId } = await seedDriveAndLibrary(h, {
    tenantId: options.tenantId,
    ownerId: options.ownerId,
    drive: {
      ...(options.name === undefined ? {} : { name: options.name }),
      type: options.type ?? 'shared',
      visibility: options.visibility ?? 'members',
    },
    members: options.members,
    library: false,
  });
  return driveId;
}

/** A library of the drive (default ACL and policies, these over them). Answers its id. */
export function seedLibrary(
  h: DriveHarness,
  driveId: string,
  options: {
    tenantId?: string;
    name?: string;
    acl?: Partial<LibraryAcl>;
    policies?: Partial<LibraryPolicies>;
  } = {},
): Promise<string> {
  return seedLibraryIn(h, driveId, {
    tenantId: options.tenantId,
    acl: options.acl,
    policies: options.policies,
    ...(options.name === undefined ? {} : { library: { name: options.name } }),
  });
}

export interface SeedFile {
  tenantId?: string;
  driveId: string;
  libraryId: string;
  folderId?: string | null;
  name: string;
  bytes?: Buffer;
  mimeType?: string;
  ownerId?: string;
  ownerName?: string;
  visibility?: 'shared' | 'private' | 'restricted';
  allowedUids?: string[];
  sharedWith?: string[];
  createdAt?: Date;
}

/** A file stored through storeServerFile (bytes in the bucket, FILE_UPLOADED), then given the test's fields. */
export async function seedFile(h: DriveHarness, file: SeedFile): Promise<FileRecord> {
  const tenantId = file.tenantId ?? 'demo';
  const ownerId = file.ownerId ?? DRIVE_ADMIN_ID;
  const deps = h.definition.deps();
  return deps.inTenant(tenantId, async (trx) => {
    const stored = await storeServerFile(
      deps,
      trx,
      { tenantId, userId: ownerId },
      {
        driveId: file.driveId,
        libraryId: file.libraryId,
        folderId: file.folderId ?? null,
        name: file.name,
        mimeType: file.mimeType ?? 'text/plain',
        bytes: file.bytes ?? Buffer.from(`contents of ${file.name}`),
        ownerId,
        ownerName: file.ownerName ?? 'Drive Admin',
      },
    );
    const store = new FileStore(trx);
    await store.update(stored.id, {
      visibility: file.visibility ?? 'private',
      allowedUids: file.allowedUids ?? [],
      sharedWith: file.sharedWith ?? [],
    });
    if (file.createdAt) {
      await trx('files').where({ id: stored.id }).update({ created_at: file.createdAt });
    }
    const updated = await store.get(stored.id);
    if (!updated) throw new Error('seeded file vanished');
    return updated;
  });
}

/** A query as the drive's owner role (tests look behind the service). */
export async function adminRows<T>(h: DriveHarness, sql: string, bindings: unknown[] = []): Promise<T[]> {
  const { rows } = await h.definition.deps().db.raw<{ rows: T[] }>(sql, bindings as never);
  return rows;
}
