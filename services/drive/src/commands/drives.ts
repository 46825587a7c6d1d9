import { randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex } from '@workspace/kit';
import { DriveStore, type DriveRecord, type NewDrive } from '../db/drives.store.js';
import { UsageStore } from '../db/usage.store.js';
import {
  canManageDrive,
  createQuotaError,
  DEFAULT_DRIVE_SETTINGS,
  DRIVE_MESSAGES,
  driveAbilities,
  driveName,
  editQuotaError,
  memberRole,
  PERSONAL_DRIVE_NAME,
  remainingCapacityGB,
  slugify,
  tierLimitBytes,
  type Caller,
  type DriveColour,
  type MemberRole,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { visibleDrive } from './access.js';
import { ensureDefaultLibrary } from './libraries.js';

export interface DriveWithStats extends DriveRecord {
  stats: { fileCount: number; totalSize: number; lastActivity: Date | null };
}

const invalid = (field: string, message: string) =>
  new HttpProblem(400, 'validation_failed', message, [{ field, message }]);

async function withStats(trx: Knex.Transaction, drives: DriveRecord[]): Promise<DriveWithStats[]> {
  const stats = await new DriveStore(trx).stats(drives.map((drive) => drive.id));
  return drives.map((drive) => ({
    ...drive,
    stats: stats.get(drive.id) ?? { fileCount: 0, totalSize: 0, lastActivity: null },
  }));
}

/** One drive with its stats. */
export async function driveWithStats(trx: Knex.Transaction, drive: DriveRecord): Promise<DriveWithStats> {
  const [withFigures] = await withStats(trx, [drive]);
  if (!withFigures) throw new Error(`drive ${drive.id} has no stats`);
  return withFigures;
}

/** The drive fields a new drive starts from (drive.md §9 defaults), with the settings given. */
export function newDrive(
  actor: Actor,
  fields: Pick<NewDrive, 'name' | 'type' | 'moduleId' | 'visibility'>,
  settings: Partial<typeof DEFAULT_DRIVE_SETTINGS> = {},
): NewDrive {
  const merged = { ...DEFAULT_DRIVE_SETTINGS, ...settings };
  return {
    id: randomUUID(),
    tenantId: actor.tenantId,
    ...fields,
    slug: slugify(fields.name),
    ownerId: actor.userId,
    color: merged.color,
    icon: merged.icon,
    description: merged.description,
    allowExternalSharing: merged.allowExternalSharing,
    retentionDays: merged.retentionDays,
    quotaGb: merged.quotaGB,
    versioningEnabled: merged.versioningEnabled,
    maxVersions: merged.maxVersions,
    defaultLibraryId: null,
    createdBy: actor.userId,
  };
}

/** Stores a drive with its owner (and contributors) and audits DRIVE_CREATED. */
export async function insertDrive(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  drive: NewDrive,
  contributors: { userId: string; displayName: string }[] = [],
): Promise<DriveRecord> {
  const store = new DriveStore(trx);
  await store.insert(drive, [
    { userId: drive.ownerId, role: 'owner', displayName: '', addedBy: actor.userId },
    ...contributors
      .filter((member) => member.userId !== drive.ownerId)
      .map((member) => ({ ...member, role: 'contributor' as const, addedBy: actor.userId })),
  ]);
  await deps.audit.write(trx, actor, 'DRIVE_CREATED', {
    targetType: 'drive',
    targetId: drive.id,
    details: { type: drive.type, moduleId: drive.moduleId ?? undefined, members: contributors.length + 1 },
  });
  const stored = await store.get(drive.id);
  if (!stored) throw new Error(`drive ${drive.id} was not stored`);
  return stored;
}

/** The caller's personal drive (and its library), made on first use. */
async function personalDrive(deps: DriveDeps, trx: Knex.Transaction, actor: Actor): Promise<DriveRecord> {
  const store = new DriveStore(trx);
  await store.lock(`personal:${actor.userId}`);
  const existing = await store.personalOf(actor.userId);
  if (existing) return existing;
  const drive = await insertDrive(
    deps,
    trx,
    actor,
    newDrive(actor, { name: PERSONAL_DRIVE_NAME, type: 'personal', moduleId: null, visibility: 'members' }),
  );
  await ensureDefaultLibrary(deps, trx, actor, drive);
  return (await store.get(drive.id)) ?? drive;
}

/**
 * GET /drives: the drives the caller owns or is a member of, the tenant-wide (module) drives, and their personal
 * drive (made now on first use), each with its members and stats.
 */
export function listDrives(deps: DriveDeps, caller: Caller, actor: Actor): Promise<DriveWithStats[]> {
  return deps.inTenant(actor.tenantId, async (trx) => {
    await personalDrive(deps, trx, actor);
    const drives = (await new DriveStore(trx).list()).filter((drive) =>
      drive.type === 'personal'
        ? drive.ownerId === caller.userId
        : drive.visibility === 'tenant' || memberRole(drive, caller.userId) !== undefined,
    );
    return withStats(trx, drives);
  });
}

/** GET /drives/:id: a drive the caller may see (drive.md §6), with its members and stats; 404 otherwise. */
export function getDrive(
  deps: DriveDeps,
  caller: Caller,
  tenantId: string,
  id: string,
): Promise<DriveWithStats> {
  return deps.inTenant(tenantId, async (trx) => {
    const [drive] = await withStats(trx, [await visibleDrive(trx, caller, id)]);
    if (!drive) throw problems.notFound('Drive not found');
    return drive;
  });
}

/**
 * The tenant's remaining capacity in whole GB (drive.md §5): the tier's limit (identity, with the caller's token)
 * or the custom limit, minus what it uses; 5 GB when the check fails.
 */
export async function remainingCapacity(
  deps: DriveDeps,
  trx: Knex.Transaction,
  tenantId: string,
  authorization: string,
): Promise<number> {
  const usage = await new UsageStore(trx).get(tenantId);
  try {
    const tier = await deps.identity.storageTier(tenantId, authorization);
    return remainingCapacityGB(tierLimitBytes(tier, usage.customLimit), usage.used);
  } catch (error) {
    deps.logger.warn({ err: error, tenantId }, 'storage capacity check failed; using the fallback capacity');
    return remainingCapacityGB(undefined, usage.used);
  }
}

export interface SharedDriveInput {
  name?: string | undefined;
  type?: 'shared' | 'custom' | undefined;
  settings?: Partial<typeof DEFAULT_DRIVE_SETTINGS> | undefined;
  memberIds?: string[] | undefined;
}

/**
 * Create Shared Drive (drive.md §5, §6): drive.drives.create; a name; a quota from 1 GB to the remaining capacity.
 * The creator owns it, the chosen people are contributors; its default library is made with it.
 */
export async function createSharedDrive(
  deps: DriveDeps,
  trx: Knex.Transaction,
  caller: Caller,
  actor: Actor,
  authorization: string,
  input: SharedDriveInput,
): Promise<DriveWithStats> {
  if (!driveAbilities(caller).canCreateDrives) throw problems.forbidden(DRIVE_MESSAGES.cannotCreate);
  const name = driveName(input.name);
  if (name === undefined) throw invalid('body.drive.name', DRIVE_MESSAGES.nameRequired);
  const quotaGB = input.settings?.quotaGB ?? DEFAULT_DRIVE_SETTINGS.quotaGB;
  const quotaError = createQuotaError(
    quotaGB,
    await remainingCapacity(deps, trx, actor.tenantId, authorization),
  );
  if (quotaError) throw invalid('body.drive.settings.quotaGB', quotaError);
  const memberIds = [...new Set(input.memberIds ?? [])].filter((id) => id !== actor.userId);
  const names = await deps.identity.userNames(authorization, memberIds);
  const drive = await insertDrive(
    deps,
    trx,
    actor,
    newDrive(
      actor,
      { name, type: input.type ?? 'shared', moduleId: null, visibility: 'members' },
      { ...input.settings, description: (input.settings?.description ?? '').trim(), quotaGB },
    ),
    memberIds.map((userId) => ({ userId, displayName: names.get(userId) ?? '' })),
  );
  await ensureDefaultLibrary(deps, trx, actor, drive);
  const [created] = await withStats(trx, [(await new DriveStore(trx).get(drive.id)) ?? drive]);
  if (!created) throw new Error(`drive ${drive.id} vanished`);
  return created;
}

export interface DriveUpdates {
  name?: string | undefined;
  settings?:
    | { description?: string | undefined; color?: DriveColour | undefined; quotaGB?: number | undefined }
    | undefined;
}

/** Edit Drive Settings (drive.md §5): the drive's owner or manager (or drive.drives.manage); name, description, colour, quota. */
export async function updateDrive(
  deps: DriveDeps,
  trx: Knex.Transaction,
  caller: Caller,
  actor: Actor,
  driveId: string,
  updates: DriveUpdates,
): Promise<DriveWithStats> {
  const drive = await visibleDrive(trx, caller, driveId);
  if (!canManageDrive(caller, drive)) throw problems.forbidden(DRIVE_MESSAGES.cannotManage);
  const changes: Partial<NewDrive> = {};
  if (updates.name !== undefined) {
    const name = driveName(updates.name);
    if (name === undefined) throw invalid('body.updates.name', DRIVE_MESSAGES.nameRequired);
    changes.name = name;
    changes.slug = slugify(name);
  }
  const settings = updates.settings ?? {};
  if (settings.quotaGB !== undefined) {
    const quotaError = editQuotaError(settings.quotaGB);
    if (quotaError) throw invalid('body.updates.settings.quotaGB', quotaError);
    changes.quotaGb = settings.quotaGB;
  }
  if (settings.description !== undefined) changes.description = settings.description.trim();
  if (settings.color !== undefined) changes.color = settings.color;
  const store = new DriveStore(trx);
  if (Object.keys(changes).length > 0) await store.update(drive.id, changes);
  await deps.audit.write(trx, actor, 'DRIVE_UPDATED', {
    targetType: 'drive',
    targetId: drive.id,
    details: { fields: Object.keys(changes).join(','), quotaGB: changes.quotaGb, color: changes.color },
  });
  const [updated] = await withStats(trx, [(await store.get(drive.id)) ?? drive]);
  if (!updated) throw new Error(`drive ${drive.id} vanished`);
  return updated;
}

export type MemberChange =
  | { action: 'add'; userIds: string[]; role: Exclude<MemberRole, 'owner'> }
  | { action: 'remove'; userId: string }
  | { action: 'role'; userId: string; role: Exclude<MemberRole, 'owner'> };

/** Adds, removes or re-roles members of a drive the caller manages; the owner stays owner. DRIVE_MEMBERS_CHANGED. */
export async function changeMembers(
  deps: DriveDeps,
  trx: Knex.Transaction,
  caller: Caller,
  actor: Actor,
  authorization: string,
  driveId: string,
  change: MemberChange,
): Promise<DriveWithStats> {
  const drive = await visibleDrive(trx, caller, driveId);
  if (drive.type === 'personal' || !canManageDrive(caller, drive))
    throw problems.forbidden(DRIVE_MESSAGES.cannotManage);
  const store = new DriveStore(trx);
  let changed: string[];
  if (change.action === 'add') {
    const ids = [...new Set(change.userIds)].filter((id) => id !== drive.ownerId);
    const names = await deps.identity.userNames(authorization, ids);
    await store.addMembers(
      actor.tenantId,
      drive.id,
      ids.map((userId) => ({
        userId,
        role: change.role,
        displayName: names.get(userId) ?? '',
        addedBy: actor.userId,
      })),
    );
    changed = ids;
  } else {
    if (change.userId === drive.ownerId) throw problems.conflict(DRIVE_MESSAGES.ownerStays, 'owner_stays');
    const done =
      change.action === 'remove'
        ? await store.removeMember(drive.id, change.userId)
        : await store.setMemberRole(drive.id, change.userId, change.role);
    if (!done) throw problems.notFound('Member not found');
    changed = [change.userId];
  }
  await deps.audit.write(trx, actor, 'DRIVE_MEMBERS_CHANGED', {
    targetType: 'drive',
    targetId: drive.id,
    targetIds: changed,
    details: { action: change.action, role: change.action === 'remove' ? undefined : change.role },
  });
  const [updated] = await withStats(trx, [(await store.get(drive.id)) ?? drive]);
  if (!updated) throw new Error(`drive ${drive.id} vanished`);
  return updated;
}
