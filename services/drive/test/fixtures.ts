// The parts the drive's test fixtures share: the default drive and library records the seeders write through the
// stores, the SHA-256 of some bytes, and a query as the test database's administrator. (First step of folding the
// five per-suite fixture files into this one module.)
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { NewDrive } from '../src/db/drives.store.js';
import type { NewLibrary } from '../src/db/libraries.store.js';
import {
  DEFAULT_LIBRARY_ACL,
  DEFAULT_LIBRARY_POLICIES,
  DEFAULT_SHARE_SOURCE_POLICY,
} from '../src/domain/index.js';
import type { DriveHarness } from './support.js';

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A shared drive of 1 GB, versioned (10 versions), no external sharing: the given fields over those defaults. */
export const driveRecord = (
  fields: Pick<
    NewDrive,
    'id' | 'tenantId' | 'name' | 'slug' | 'ownerId' | 'visibility' | 'defaultLibraryId'
  > &
    Partial<NewDrive>,
): NewDrive => ({
  type: 'shared',
  moduleId: null,
  color: 'blue',
  icon: 'Folder',
  description: '',
  allowExternalSharing: false,
  retentionDays: null,
  quotaGb: 1,
  versioningEnabled: true,
  maxVersions: 10,
  createdBy: fields.ownerId,
  ...fields,
});

/** A library shown in the drive's UI with the default ACL, policies and share-source policy, the given fields over. */
export const libraryRecord = (
  fields: Pick<NewLibrary, 'id' | 'tenantId' | 'driveId' | 'name' | 'createdBy'> & Partial<NewLibrary>,
): NewLibrary => ({
  description: '',
  kind: 'library',
  context: null,
  memberIds: [],
  visibleInDriveUI: true,
  acl: DEFAULT_LIBRARY_ACL,
  policies: DEFAULT_LIBRARY_POLICIES,
  shareSourcePolicy: DEFAULT_SHARE_SOURCE_POLICY,
  ...fields,
});

/** One query as the test database's administrator (row-level security does not apply). */
export async function adminQuery(
  h: DriveHarness,
  text: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: h.identity.database.adminUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
