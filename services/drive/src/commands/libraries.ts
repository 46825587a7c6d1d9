import { randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex } from '@workspace/kit';
import { DriveStore, type DriveRecord } from '../db/drives.store.js';
import { LibraryStore, type LibraryRecord, type NewLibrary } from '../db/libraries.store.js';
import {
  canManageDrive,
  canReadLibrary,
  canSeeDrive,
  DEFAULT_LIBRARY_ACL,
  DEFAULT_LIBRARY_NAME,
  DEFAULT_LIBRARY_POLICIES,
  DEFAULT_SHARE_SOURCE_POLICY,
  driveAbilities,
  isModuleId,
  isScopeName,
  LIBRARY_MESSAGES,
  maxFileSizeError,
  memberRole,
  MODULE_DRIVES,
  normaliseExtensions,
  type Caller,
  type DeletePolicy,
  type LibraryAcl,
  type LibraryPolicies,
  type ShareSourcePolicy,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { visibleDrive } from './access.js';

/** What a caller may set on a library (create, PATCH, ensure-default's overrides); each group partial. */
export interface LibraryInput {
  name?: string | undefined;
  description?: string | undefined;
  memberIds?: string[] | undefined;
  visibleInDriveUI?: boolean | undefined;
  acl?: Partial<LibraryAcl> | undefined;
  policies?:
    | {
        readOnly?: boolean | undefined;
        legalHold?: boolean | undefined;
        shareAllowed?: boolean | undefined;
        deletePolicy?: DeletePolicy | undefined;
        allowedExtensions?: string[] | undefined;
        maxFileSizeMB?: number | null | undefined;
      }
    | undefined;
  shareSourcePolicy?: Partial<ShareSourcePolicy> | undefined;
}

const invalid = (field: string, message: string) =>
  new HttpProblem(400, 'validation_failed', message, [{ field, message }]);

/** A library's fields from its current ones and a caller's input, validated (400 with the first message). */
export function libraryFields(
  current: Pick<
    LibraryRecord,
    'name' | 'description' | 'memberIds' | 'visibleInDriveUI' | 'acl' | 'policies' | 'shareSourcePolicy'
  >,
  input: LibraryInput,
): Pick<
  LibraryRecord,
  'name' | 'description' | 'memberIds' | 'visibleInDriveUI' | 'acl' | 'policies' | 'shareSourcePolicy'
> {
  const name = input.name === undefined ? current.name : input.name.trim();
  if (name === '') throw invalid('body.name', LIBRARY_MESSAGES.nameRequired);
  const acl = { ...current.acl, ...stripUndefined(input.acl ?? {}) };
  for (const [group, scopes] of Object.entries(acl)) {
    const bad = scopes.find((scope) => !isScopeName(scope));
    if (bad !== undefined) throw invalid(`body.acl.${group}`, LIBRARY_MESSAGES.badScope(bad));
  }
  const requested = stripUndefined(input.policies ?? {});
  const policies: LibraryPolicies = { ...current.policies, ...requested };
  if (requested.allowedExtensions !== undefined) {
    const { extensions, invalid: bad } = normaliseExtensions(requested.allowedExtensions);
    if (bad !== undefined)
      throw invalid('body.policies.allowedExtensions', LIBRARY_MESSAGES.badExtension(bad));
    policies.allowedExtensions = extensions;
  }
  const sizeError = maxFileSizeError(policies.maxFileSizeMB);
  if (sizeError) throw invalid('body.policies.maxFileSizeMB', sizeError);
  return {
    name,
    description: input.description === undefined ? current.description : input.description.trim(),
    memberIds: input.memberIds === undefined ? current.memberIds : [...new Set(input.memberIds)],
    visibleInDriveUI: input.visibleInDriveUI ?? current.visibleInDriveUI,
    acl: {
      readScopes: [...acl.readScopes],
      writeScopes: [...acl.writeScopes],
      deleteScopes: [...acl.deleteScopes],
      shareScopes: [...acl.shareScopes],
    },
    policies,
    shareSourcePolicy: { ...current.shareSourcePolicy, ...stripUndefined(input.shareSourcePolicy ?? {}) },
  };
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/** A new library's starting point: the drive's own scopes and no extra policy. */
const BLANK = {
  name: DEFAULT_LIBRARY_NAME,
  description: '',
  memberIds: [] as string[],
  visibleInDriveUI: true,
  acl: DEFAULT_LIBRARY_ACL,
  policies: DEFAULT_LIBRARY_POLICIES,
  shareSourcePolicy: DEFAULT_SHARE_SOURCE_POLICY,
};

/** Stores a library of `drive` (fields validated) and audits LIBRARY_CREATED. */
export async function insertLibrary(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  drive: Pick<DriveRecord, 'id'>,
  input: LibraryInput,
  extra: Partial<Pick<NewLibrary, 'kind' | 'context'>> = {},
): Promise<LibraryRecord> {
  const fields = libraryFields(BLANK, input);
  const id = randomUUID();
  const store = new LibraryStore(trx);
  await store.insert({
    id,
    tenantId: actor.tenantId,
    driveId: drive.id,
    kind: extra.kind ?? 'library',
    context: extra.context ?? null,
    ...fields,
    createdBy: actor.userId,
  });
  await deps.audit.write(trx, actor, 'LIBRARY_CREATED', {
    targetType: 'library',
    targetId: id,
    details: { driveId: drive.id, name: fields.name, kind: extra.kind ?? 'library' },
  });
  const stored = await store.get(id);
  if (!stored) throw new Error(`library ${id} was not stored`);
  return stored;
}

/** Who may add a library to a drive they see: drive.libraries.create, or the drive's owner or manager. */
function mayAddLibrary(caller: Caller, drive: DriveRecord): boolean {
  return driveAbilities(caller).canCreateLibraries || canManageDrive(caller, drive);
}

/**
 * The libraries list (drive.md §6): libraries of drives the caller owns or is a member of, and of the tenant-wide
 * module drives, never of personal drives, only those shown in the drive UI and that the caller may read.
 */
export function listLibraries(deps: DriveDeps, caller: Caller, tenantId: string, driveId?: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const drives = new Map(
      (await new DriveStore(trx).list())
        .filter(
          (drive) =>
            drive.type !== 'personal' &&
            (drive.visibility === 'tenant' || memberRole(drive, caller.userId) !== undefined),
        )
        .filter((drive) => driveId === undefined || drive.id === driveId)
        .map((drive) => [drive.id, drive]),
    );
    const libraries = (await new LibraryStore(trx).list()).filter(
      (library) => drives.has(library.driveId) && library.visibleInDriveUI && canReadLibrary(caller, library),
    );
    return libraries.map((library) => ({ library, drive: drives.get(library.driveId) }));
  });
}

/** POST /libraries: a new library in a drive the caller sees (drive.libraries.create). */
export async function createLibrary(
  deps: DriveDeps,
  trx: Knex.Transaction,
  caller: Caller,
  actor: Actor,
  driveId: string,
  input: LibraryInput,
): Promise<{ library: LibraryRecord; drive: DriveRecord }> {
  if (!driveAbilities(caller).canCreateLibraries) throw problems.forbidden(LIBRARY_MESSAGES.cannotCreate);
  const drive = await visibleDrive(trx, caller, driveId);
  if (drive.type === 'personal') throw invalid('body.driveId', LIBRARY_MESSAGES.personalDrive);
  if (input.name === undefined || input.name.trim() === '')
    throw invalid('body.name', LIBRARY_MESSAGES.nameRequired);
  return { library: await insertLibrary(deps, trx, actor, drive, input), drive };
}

/**
 * PATCH /libraries/:id (drive.libraries.manage): only a library the caller may read (a library they cannot read is
 * not theirs to reopen: 404), in a drive they see.
 */
export async function updateLibrary(
  deps: DriveDeps,
  trx: Knex.Transaction,
  caller: Caller,
  actor: Actor,
  libraryId: string,
  input: LibraryInput,
): Promise<{ library: LibraryRecord; drive: DriveRecord }> {
  const store = new LibraryStore(trx);
  const library = await store.get(libraryId);
  if (!library || !canReadLibrary(caller, library)) throw problems.notFound('Library not found');
  const drive = await new DriveStore(trx).get(library.driveId);
  if (!drive || !canSeeDrive(caller, drive)) throw problems.notFound('Library not found');
  if (!driveAbilities(caller).canManageLibraries) throw problems.forbidden(LIBRARY_MESSAGES.cannotManage);
  const fields = libraryFields(library, input);
  await store.update(library.id, fields);
  await deps.audit.write(trx, actor, 'LIBRARY_UPDATED', {
    targetType: 'library',
    targetId: library.id,
    details: {
      driveId: library.driveId,
      fields: Object.keys(stripUndefined(input)).join(','),
      readOnly: fields.policies.readOnly,
      legalHold: fields.policies.legalHold,
      shareAllowed: fields.policies.shareAllowed,
      deletePolicy: fields.policies.deletePolicy,
    },
  });
  const updated = await store.get(library.id);
  if (!updated) throw new Error(`library ${library.id} vanished`);
  return { library: updated, drive };
}

/**
 * The drive's default library, made when it has none (named after the module's share library for a module drive,
 * else 'Documents', with the overrides given), and kept as the drive's defaultLibraryId.
 */
export async function ensureDefaultLibrary(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  drive: DriveRecord,
  overrides: LibraryInput = {},
): Promise<{ library: LibraryRecord; created: boolean }> {
  const drives = new DriveStore(trx);
  await drives.lock(`default-library:${drive.id}`);
  const current = await drives.get(drive.id);
  const store = new LibraryStore(trx);
  const existing = current?.defaultLibraryId ? await store.get(current.defaultLibraryId) : undefined;
  if (existing) return { library: existing, created: false };
  const moduleName =
    drive.moduleId !== null && isModuleId(drive.moduleId)
      ? MODULE_DRIVES[drive.moduleId].libraryName
      : undefined;
  const library = await insertLibrary(deps, trx, actor, drive, {
    name: moduleName ?? DEFAULT_LIBRARY_NAME,
    ...overrides,
  });
  await drives.update(drive.id, { defaultLibraryId: library.id });
  return { library, created: true };
}

/** ensure-default and ensure-module-baseline: the drive's owner or manager, or drive.libraries.create. */
export async function driveForLibraryWork(
  trx: Knex.Transaction,
  caller: Caller,
  driveId: string,
): Promise<DriveRecord> {
  const drive = await visibleDrive(trx, caller, driveId);
  if (!mayAddLibrary(caller, drive)) throw problems.forbidden(LIBRARY_MESSAGES.cannotCreate);
  return drive;
}
