// Drives, libraries and files for the file list's tests, written through the stores and storeServerFile (the uploads
// helper's grant route lands in parallel). Each test file starts its own harness and bucket.
import { randomUUID } from 'node:crypto';
import { storeServerFile } from '../src/commands/server-files.js';
import { DriveStore } from '../src/db/drives.store.js';
import { FileStore, type FileRecord } from '../src/db/files.store.js';
import { LibraryStore } from '../src/db/libraries.store.js';
import {
  DEFAULT_LIBRARY_ACL,
  DEFAULT_LIBRARY_POLICIES,
  type DriveType,
  type LibraryAcl,
  type LibraryPolicies,
  type MemberRole,
} from '../src/domain/index.js';
import { driveRecord, libraryRecord } from './fixtures.js';
import { DRIVE_ADMIN_ID, type DriveHarness } from './support.js';

/** A reader of files: read and view, nothing more. */
export const READER_SCOPES = ['drive.view', 'drive.read', 'drive.file.read'];

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
  const id = randomUUID();
  const tenantId = options.tenantId ?? 'demo';
  const ownerId = options.ownerId ?? DRIVE_ADMIN_ID;
  await h.definition.deps().inTenant(tenantId, (trx) =>
    new DriveStore(trx).insert(
      driveRecord({
        id,
        tenantId,
        name: options.name ?? `Drive ${id.slice(0, 4)}`,
        type: options.type ?? 'shared',
        slug: `drive-${id.slice(0, 8)}`,
        ownerId,
        visibility: options.visibility ?? 'members',
        defaultLibraryId: null,
      }),
      (options.members ?? []).map((member) => ({
        ...member,
        displayName: '',
        addedBy: ownerId,
      })),
    ),
  );
  return id;
}

export async function seedLibrary(
  h: DriveHarness,
  driveId: string,
  options: {
    tenantId?: string;
    name?: string;
    acl?: Partial<LibraryAcl>;
    policies?: Partial<LibraryPolicies>;
  } = {},
): Promise<string> {
  const id = randomUUID();
  const tenantId = options.tenantId ?? 'demo';
  await h.definition.deps().inTenant(tenantId, (trx) =>
    new LibraryStore(trx).insert(
      libraryRecord({
        id,
        tenantId,
        driveId,
        name: options.name ?? `Library ${id.slice(0, 4)}`,
        acl: { ...DEFAULT_LIBRARY_ACL, ...options.acl },
        policies: { ...DEFAULT_LIBRARY_POLICIES, ...options.policies },
        createdBy: DRIVE_ADMIN_ID,
      }),
    ),
  );
  return id;
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
