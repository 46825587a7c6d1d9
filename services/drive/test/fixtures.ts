// The parts the drive's test fixtures share: the one seeder of drives and libraries (written through the stores;
// each suite's fixture file gives it its defaults), the SHA-256 of some bytes, and a query as the test database's
// administrator.
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { DriveStore, type NewDrive } from '../src/db/drives.store.js';
import { LibraryStore, type NewLibrary } from '../src/db/libraries.store.js';
import {
  DEFAULT_LIBRARY_ACL,
  DEFAULT_LIBRARY_POLICIES,
  DEFAULT_SHARE_SOURCE_POLICY,
  type LibraryAcl,
  type LibraryPolicies,
  type MemberRole,
  type ShareSourcePolicy,
} from '../src/domain/index.js';
import { DRIVE_ADMIN_ID, type DriveHarness } from './support.js';

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

/** What a seeded drive (and its library) is: each field over the defaults of driveRecord and libraryRecord. */
export interface DriveSeed {
  tenantId?: string;
  /** The drive's owner and the library's creator; DRIVE_ADMIN_ID unless named. */
  ownerId?: string;
  /** The drive's fields over driveRecord's (name 'Drive {id}', slug 'drive-{id}', visibility tenant). */
  drive?: Partial<NewDrive>;
  members?: { userId: string; role: MemberRole; displayName?: string }[];
  /** The library's fields over libraryRecord's (name 'Documents'); false: a drive without a library. */
  library?: Partial<NewLibrary> | false;
  policies?: Partial<LibraryPolicies>;
  acl?: Partial<LibraryAcl>;
  shareSourcePolicy?: Partial<ShareSourcePolicy>;
  /** Makes the library the drive's default library. */
  defaultLibrary?: boolean;
}

export interface SeededPlace {
  tenantId: string;
  driveId: string;
  libraryId: string;
}

/** The drive suites' one seeder: a drive with its members and (unless told otherwise) one library, in one transaction. */
export async function seedDriveAndLibrary(
  h: Pick<DriveHarness, 'definition'>,
  seed: DriveSeed = {},
): Promise<SeededPlace> {
  const tenantId = seed.tenantId ?? 'demo';
  const ownerId = seed.ownerId ?? DRIVE_ADMIN_ID;
  const driveId = seed.drive?.id ?? randomUUID();
  const libraryId = seed.library === false ? '' : (seed.library?.id ?? randomUUID());
  await h.definition.deps().inTenant(tenantId, async (trx) => {
    await new DriveStore(trx).insert(
      driveRecord({
        id: driveId,
        tenantId,
        name: `Drive ${driveId.slice(0, 8)}`,
        slug: `drive-${driveId.slice(0, 8)}`,
        ownerId,
        visibility: 'tenant',
        defaultLibraryId: seed.defaultLibrary && libraryId !== '' ? libraryId : null,
        ...seed.drive,
      }),
      (seed.members ?? []).map((member) => ({ displayName: '', addedBy: ownerId, ...member })),
    );
    if (seed.library === false) return;
    await new LibraryStore(trx).insert(seededLibrary(tenantId, driveId, ownerId, { ...seed, id: libraryId }));
  });
  return { tenantId, driveId, libraryId };
}

type LibrarySeed = Pick<DriveSeed, 'acl' | 'policies' | 'shareSourcePolicy'> & {
  id: string;
  library?: Partial<NewLibrary> | false;
};

/** The library record a seed describes: 'Documents', the default ACL and policies, the seed's fields over them. */
function seededLibrary(tenantId: string, driveId: string, ownerId: string, seed: LibrarySeed): NewLibrary {
  return libraryRecord({
    id: seed.id,
    tenantId,
    driveId,
    name: 'Documents',
    createdBy: ownerId,
    acl: { ...DEFAULT_LIBRARY_ACL, ...seed.acl },
    policies: { ...DEFAULT_LIBRARY_POLICIES, ...seed.policies },
    shareSourcePolicy: { ...DEFAULT_SHARE_SOURCE_POLICY, ...seed.shareSourcePolicy },
    ...(seed.library === false ? {} : seed.library),
  });
}

/** One more library in a seeded drive (the same defaults as seedDriveAndLibrary's). Answers its id. */
export async function seedLibraryIn(
  h: Pick<DriveHarness, 'definition'>,
  driveId: string,
  seed: Pick<DriveSeed, 'tenantId' | 'ownerId' | 'acl' | 'policies' | 'shareSourcePolicy'> & {
    library?: Partial<NewLibrary>;
  } = {},
): Promise<string> {
  const tenantId = seed.tenantId ?? 'demo';
  const id = seed.library?.id ?? randomUUID();
  await h.definition
    .deps()
    .inTenant(tenantId, (trx) =>
      new LibraryStore(trx).insert(
        seededLibrary(tenantId, driveId, seed.ownerId ?? DRIVE_ADMIN_ID, { ...seed, id }),
      ),
    );
  return id;
}
