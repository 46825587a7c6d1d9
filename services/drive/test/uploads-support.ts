// Fixtures of the uploads suites: a drive and library (fixtures.ts's seeder), and the browser's side of an upload (presigned part PUTs with fetch, the SHA-256 of the file).
import { randomUUID } from 'node:crypto';
import type { NewDrive } from '../src/db/drives.store.js';
import { UsageStore } from '../src/db/usage.store.js';
import type { LibraryAcl, LibraryPolicies, StorageTier } from '../src/domain/index.js';
import { adminQuery, seedDriveAndLibrary, sha256 } from './fixtures.js';
import { DRIVE_ADMIN_ID, type DriveHarness } from './support.js';

export { sha256 };

export interface Place {
  driveId: string;
  libraryId: string;
}

/** A tenant-wide drive 'Projects …' with one library (its policies and ACL as given), its admin the owner. */
export async function seedPlace(
  h: DriveHarness,
  options: {
    tenantId?: string;
    drive?: Partial<NewDrive>;
    policies?: Partial<LibraryPolicies>;
    acl?: Partial<LibraryAcl>;
  } = {},
): Promise<Place> {
  const driveId = randomUUID();
  const { libraryId } = await seedDriveAndLibrary(h, {
    tenantId: options.tenantId,
    drive: {
      id: driveId,
      name: `Projects ${driveId.slice(0, 4)}`,
      slug: `projects-${driveId.slice(0, 8)}`,
      ...options.drive,
    },
    members: [{ userId: DRIVE_ADMIN_ID, role: 'owner' }],
    policies: options.policies,
    acl: options.acl,
  });
  return { driveId, libraryId };
}

/** Bytes taken in the tenant's usage (as if files of that size were stored). */
export async function useStorage(h: DriveHarness, bytes: number, tenantId = 'demo'): Promise<void> {
  await h.definition
    .deps()
    .inTenant(tenantId, (trx) =>
      new UsageStore(trx).record(tenantId, { bytes, files: 0, counter: 'other', day: '2026-01-01' }),
    );
}

/** Sets the tenant's storage tier in identity's record (and makes the drive forget what it cached). */
export async function setTier(h: DriveHarness, tier: StorageTier, tenantId = 'demo'): Promise<void> {
  await adminQuery(h, 'UPDATE identity.tenants SET storage_tier = $1 WHERE tenant_id = $2', [tier, tenantId]);
  h.definition.deps().identity.forget(tenantId);
}

export interface Grant {
  uploadId: string;
  fileId: string;
  objectPath: string;
  partSize: number;
  parts: { partNumber: number; url: string }[];
  expiresAt: string;
}

/** The browser's part: each part PUT to its presigned URL with fetch, `concurrency` at a time. */
export async function putParts(grant: Grant, bytes: Buffer, concurrency = 3): Promise<void> {
  const queue = [...grant.parts];
  const worker = async () => {
    for (let part = queue.shift(); part; part = queue.shift()) {
      const start = (part.partNumber - 1) * grant.partSize;
      const body = bytes.subarray(start, Math.min(start + grant.partSize, bytes.length));
      const response = await fetch(part.url, { method: 'PUT', body });
      if (!response.ok)
        throw new Error(
          `part ${String(part.partNumber)}: ${String(response.status)} ${await response.text()}`,
        );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export { adminQuery };

/** The audit events of this type the drive recorded (its outbox), oldest first. */
export async function outboxRows(
  h: DriveHarness,
  type: string,
): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  return (await adminQuery(h, 'SELECT type, payload FROM drive.outbox WHERE type = $1 ORDER BY id', [
    type,
  ])) as { type: string; payload: Record<string, unknown> }[];
}
