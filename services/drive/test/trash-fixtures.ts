// Drives, libraries (fixtures.ts's seeder) and files (storeServerFile) for the trash, references and sweep tests,
// and reads as the database administrator.
import { randomUUID } from 'node:crypto';
import { storeServerFile } from '../src/commands/server-files.js';
import type { FileRecord } from '../src/db/files.store.js';
import type { LibraryAcl, LibraryPolicies } from '../src/domain/index.js';
import { adminQuery, seedDriveAndLibrary } from './fixtures.js';
import type { DriveHarness } from './support.js';

export const OWNER_ID = '00000000-0000-4000-8000-0000000000a1';
export const OTHER_ID = '00000000-0000-4000-8000-0000000000b2';

/** A member who may read, soft delete, restore and permanently delete under the default library ACL. */
export const MEMBER_SCOPES = [
  'drive.view',
  'drive.file.read',
  'drive.file.soft_delete',
  'drive.file.restore',
  'drive.file.hard_delete',
];

export interface Place {
  tenantId: string;
  driveId: string;
  libraryId: string;
  folderId: string | null;
}

/** A tenant-wide drive (every member sees it) with one library of these policies and ACL. */
export async function seedPlace(
  h: DriveHarness,
  options: { tenantId?: string; policies?: Partial<LibraryPolicies>; acl?: Partial<LibraryAcl> } = {},
): Promise<Place> {
  const place = await seedDriveAndLibrary(h, {
    tenantId: options.tenantId,
    ownerId: OWNER_ID,
    policies: options.policies,
    acl: options.acl,
    defaultLibrary: true,
  });
  return { ...place, folderId: null };
}

/** A file stored as the service stores its own (object at version 1, quota counted, FILE_UPLOADED). */
export function seedFile(
  h: DriveHarness,
  place: Place,
  options: { name?: string; bytes?: Buffer; ownerId?: string; mimeType?: string } = {},
): Promise<FileRecord> {
  const ownerId = options.ownerId ?? OWNER_ID;
  const deps = h.definition.deps();
  return deps.inTenant(place.tenantId, (trx) =>
    storeServerFile(
      deps,
      trx,
      { tenantId: place.tenantId, userId: ownerId },
      {
        driveId: place.driveId,
        libraryId: place.libraryId,
        folderId: place.folderId,
        name: options.name ?? `file-${randomUUID().slice(0, 8)}.txt`,
        mimeType: options.mimeType ?? 'text/plain',
        bytes: options.bytes ?? Buffer.from(`contents ${randomUUID()}`),
        ownerId,
      },
    ),
  );
}

export { adminQuery };

/** The file's row, or undefined once purged. */
export async function fileRow(h: DriveHarness, fileId: string): Promise<Record<string, unknown> | undefined> {
  return (await adminQuery(h, 'SELECT * FROM drive.files WHERE id = $1', [fileId]))[0];
}

/** The tenant's quota use: bytes and files. */
export async function usage(h: DriveHarness, tenantId = 'demo'): Promise<{ used: number; files: number }> {
  const [row] = await adminQuery(
    h,
    'SELECT used::bigint AS used, file_count FROM drive.storage_usage WHERE tenant_id = $1',
    [tenantId],
  );
  return { used: Number(row?.used ?? 0), files: Number(row?.file_count ?? 0) };
}

/** The audit events (outbox) of one action about one target, oldest first. */
export async function events(
  h: DriveHarness,
  action: string,
  targetId?: string,
): Promise<Record<string, unknown>[]> {
  const rows = await adminQuery(h, `SELECT payload FROM drive.outbox ORDER BY id`);
  return rows
    .map((row) => row.payload as Record<string, unknown>)
    .filter((payload) => JSON.stringify(payload).includes(`"${action}"`))
    .filter((payload) => targetId === undefined || JSON.stringify(payload).includes(targetId));
}
