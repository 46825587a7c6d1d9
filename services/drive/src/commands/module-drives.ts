import { HttpProblem, problems, type Knex } from '@workspace/kit';
import { DriveStore, type DriveRecord } from '../db/drives.store.js';
import { FolderStore } from '../db/folders.store.js';
import { LibraryStore, type LibraryRecord } from '../db/libraries.store.js';
import {
  canSeeDrive,
  CIS_DOCUMENTS_LIBRARY,
  DRIVE_MESSAGES,
  driveAbilities,
  isModuleId,
  LIBRARY_MESSAGES,
  mayAutoProvision,
  MODULE_DRIVES,
  MODULE_FOLDER_NAMES,
  MODULE_SHARE_LIBRARY_ACL,
  slugify,
  type Caller,
  type ModuleId,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { insertDrive, newDrive } from './drives.js';
import { ensureDefaultLibrary, insertLibrary } from './libraries.js';

const unknownModule = (moduleId: string) =>
  new HttpProblem(400, 'validation_failed', DRIVE_MESSAGES.unknownModule(moduleId), [
    { field: 'moduleId', message: DRIVE_MESSAGES.unknownModule(moduleId) },
  ]);

/** Where the CIS documents library is found again: a context of the cis module of its own. */
const CIS_DOCUMENTS_CONTEXT = {
  moduleKey: 'cis',
  entityType: 'documents',
  entityId: 'statements-and-returns',
};

export interface ModuleBaseline {
  library: LibraryRecord;
  libraries: LibraryRecord[];
  folders: { id: string; name: string; slug: string; type: string; libraryId: string | null }[];
}

/** The CIS drive's restricted library for the documents cis files (ADR 0046), made when missing. */
export async function ensureCisDocumentsLibrary(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  drive: DriveRecord,
): Promise<LibraryRecord> {
  const store = new LibraryStore(trx);
  await new DriveStore(trx).lock('cis-documents-library');
  const existing = await store.byContext(
    CIS_DOCUMENTS_CONTEXT.moduleKey,
    CIS_DOCUMENTS_CONTEXT.entityType,
    CIS_DOCUMENTS_CONTEXT.entityId,
  );
  if (existing) return existing;
  const { acl, policies, shareSourcePolicy } = CIS_DOCUMENTS_LIBRARY;
  return insertLibrary(
    deps,
    trx,
    actor,
    drive,
    {
      name: CIS_DOCUMENTS_LIBRARY.name,
      description: CIS_DOCUMENTS_LIBRARY.description,
      acl: {
        readScopes: [...acl.readScopes],
        writeScopes: [...acl.writeScopes],
        deleteScopes: [...acl.deleteScopes],
        shareScopes: [...acl.shareScopes],
      },
      policies: { ...policies, allowedExtensions: [...policies.allowedExtensions] },
      shareSourcePolicy,
      visibleInDriveUI: true,
    },
    { kind: 'context', context: { ...CIS_DOCUMENTS_CONTEXT, entityName: CIS_DOCUMENTS_LIBRARY.name } },
  );
}

/**
 * A module drive's baseline (drive.md §7): its share library (the default library, the drive's read, write, delete
 * and share scopes), its module folders, and for cis the restricted documents library. Idempotent.
 */
export async function ensureModuleBaseline(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  drive: DriveRecord,
  moduleId: string,
): Promise<ModuleBaseline & { created: boolean }> {
  if (!isModuleId(moduleId)) throw unknownModule(moduleId);
  if (drive.moduleId !== moduleId)
    throw new HttpProblem(400, 'not_module_drive', DRIVE_MESSAGES.notModuleDrive(moduleId));
  const spec = MODULE_DRIVES[moduleId];
  const { library, created } = await ensureDefaultLibrary(deps, trx, actor, drive, {
    acl: MODULE_SHARE_LIBRARY_ACL,
  });
  const folderStore = new FolderStore(trx);
  const foldersMade = await folderStore.addModuleFolders(
    actor.tenantId,
    drive.id,
    library.id,
    spec.folders.map((key) => ({ name: MODULE_FOLDER_NAMES[key], slug: slugify(MODULE_FOLDER_NAMES[key]) })),
    actor.userId,
  );
  if (moduleId === 'cis') await ensureCisDocumentsLibrary(deps, trx, actor, drive);
  return {
    library,
    libraries: await new LibraryStore(trx).byDrive(drive.id),
    folders: (await folderStore.topFolders(drive.id))
      .filter((folder) => folder.type === 'module')
      .map(({ id, name, slug, type, libraryId }) => ({ id, name, slug, type, libraryId })),
    created: created || foldersMade > 0,
  };
}

/** Makes the module's drive and its baseline (no permission check: the callers decide). */
async function makeModuleDrive(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  moduleId: ModuleId,
): Promise<DriveRecord> {
  const spec = MODULE_DRIVES[moduleId];
  const drive = await insertDrive(
    deps,
    trx,
    actor,
    newDrive(actor, { name: spec.driveName, type: 'module', moduleId, visibility: 'tenant' }),
  );
  await ensureModuleBaseline(deps, trx, actor, drive, moduleId);
  return (await new DriveStore(trx).get(drive.id)) ?? drive;
}

/**
 * The module's drive, provisioned on first use (drive.md §4, WS-358): only when AUTO_PROVISION_MODULE_DRIVES is on
 * and the caller can create or manage drives; a module's drive is one per tenant.
 */
export async function provisionModuleDrive(
  deps: DriveDeps,
  trx: Knex.Transaction,
  caller: Caller,
  actor: Actor,
  moduleId: string,
): Promise<DriveRecord & { created: boolean }> {
  if (!isModuleId(moduleId)) throw unknownModule(moduleId);
  const store = new DriveStore(trx);
  await store.lock(`module:${moduleId}`);
  const existing = await store.byModule(moduleId);
  if (existing) {
    if (!canSeeDrive(caller, existing)) throw problems.notFound('Drive not found');
    return { ...existing, created: false };
  }
  if (!deps.config.AUTO_PROVISION_MODULE_DRIVES)
    throw new HttpProblem(403, 'auto_provision_off', DRIVE_MESSAGES.autoProvisionOff);
  if (!mayAutoProvision(true, driveAbilities(caller))) throw problems.forbidden(DRIVE_MESSAGES.cannotCreate);
  return { ...(await makeModuleDrive(deps, trx, actor, moduleId)), created: true };
}

/**
 * The module's drive for the module's own work (the CIS documents filed by the consumer): made when missing,
 * whatever the flag, by the system.
 */
export async function systemModuleDrive(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  moduleId: ModuleId,
): Promise<DriveRecord> {
  const store = new DriveStore(trx);
  await store.lock(`module:${moduleId}`);
  return (await store.byModule(moduleId)) ?? makeModuleDrive(deps, trx, actor, moduleId);
}

export interface LibraryContext {
  moduleKey: string;
  entityType: string;
  entityId: string;
  entityName?: string | undefined;
}

/**
 * A module entity's own library (its attachments), one per context: in the module's drive (provisioned on first use
 * when the caller may), hidden from the drive UI, its members the given members and owners.
 */
export async function getOrCreateContextLibrary(
  deps: DriveDeps,
  trx: Knex.Transaction,
  caller: Caller,
  actor: Actor,
  context: LibraryContext,
  defaults: { memberIds?: string[] | undefined; ownerIds?: string[] | undefined },
): Promise<{ library: LibraryRecord; created: boolean }> {
  const abilities = driveAbilities(caller);
  if (
    !abilities.canCreateLibraries &&
    !caller.scopes.has('drive.attachment.add') &&
    caller.superAdmin !== true
  )
    throw problems.forbidden(LIBRARY_MESSAGES.cannotCreate);
  if (!isModuleId(context.moduleKey)) throw unknownModule(context.moduleKey);
  const store = new LibraryStore(trx);
  await new DriveStore(trx).lock(`context:${context.moduleKey}:${context.entityType}:${context.entityId}`);
  const existing = await store.byContext(context.moduleKey, context.entityType, context.entityId);
  if (existing) return { library: existing, created: false };
  const drive = await provisionModuleDrive(deps, trx, caller, actor, context.moduleKey);
  const library = await insertLibrary(
    deps,
    trx,
    actor,
    drive,
    {
      name: context.entityName?.trim() || `${context.entityType} ${context.entityId}`,
      memberIds: [...(defaults.memberIds ?? []), ...(defaults.ownerIds ?? [])],
      visibleInDriveUI: false,
    },
    {
      kind: 'context',
      context: {
        moduleKey: context.moduleKey,
        entityType: context.entityType,
        entityId: context.entityId,
        entityName: context.entityName ?? '',
      },
    },
  );
  return { library, created: true };
}
