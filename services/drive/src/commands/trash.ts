import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { FileStore, type FileRecord } from '../db/files.store.js';
import { IdempotencyStore } from '../db/idempotency.store.js';
import { UsageStore } from '../db/usage.store.js';
import { ObjectRemovalStore } from '../db/object-removals.store.js';
import { SignTaskStore } from '../db/sign-tasks.store.js';
import { ReferenceStore } from '../db/references.store.js';
import {
  DELETE_REFUSAL_TEXTS,
  TRASH_TEXTS,
  deleteRefusal,
  deleteText,
  driveAbilities,
  ownedSelection,
  quotaRefusal,
  restoreText,
  tierLimitBytes,
  type Caller,
  type DeleteRefusal,
  type FileTypeClass,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { callerOf, FILE_NOT_FOUND, readableFile, readableFiles, type FileInPlace } from './access.js';
import { once } from './idempotency.js';
import { removeQueuedObjects } from './object-removals.js';
import { freeName } from './server-files.js';
import { accountUsage } from './usage.js';

/** Who acts: the rules' view of the caller and the audit's. */
interface Acting {
  caller: Caller;
  actor: Actor;
}

const actingOf = (ctx: RequestContext): Acting => ({
  caller: callerOf(ctx),
  actor: { tenantId: ctx.tenantId, userId: ctx.userId },
});

/** One file's failure in a bulk answer: the server's text and a stable code. */
export interface FileError {
  fileId: string;
  code: string;
  message: string;
}

function refusalProblem(refusal: DeleteRefusal): HttpProblem {
  return refusal === 'no_scope'
    ? new HttpProblem(403, 'forbidden', DELETE_REFUSAL_TEXTS.no_scope)
    : new HttpProblem(403, 'E_POLICY_BLOCKED', DELETE_REFUSAL_TEXTS[refusal], undefined, { reason: refusal });
}

/** An error as a bulk answer lists it; anything but a known problem is DELETE_FAILED ('Failed to delete file'). */
function fileError(deps: DriveDeps, fileId: string, error: unknown, fallbackCode: string): FileError {
  if (error instanceof HttpProblem) return { fileId, code: error.code, message: error.detail ?? error.code };
  deps.logger.error({ err: error, fileId }, 'file operation failed');
  return { fileId, code: fallbackCode, message: TRASH_TEXTS.failed };
}

/** Unexpected failures of a single delete or purge leave as DELETE_FAILED, the spec's code. */
async function orDeleteFailed<T>(deps: DriveDeps, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    deps.logger.error({ err: error }, 'delete failed');
    throw new HttpProblem(500, 'DELETE_FAILED', TRASH_TEXTS.failed);
  }
}

const storedBytes = async (trx: Knex.Transaction, fileId: string): Promise<number> =>
  (await new FileStore(trx).versions(fileId)).reduce((sum, version) => sum + version.size, 0);

/** A file the caller may see and delete under its library's rules, locked; 404 or the refusal otherwise. */
async function deletableFile(trx: Knex.Transaction, caller: Caller, fileId: string): Promise<FileRecord> {
  const { library } = await readableFile(trx, caller, fileId);
  const file = await new FileStore(trx).lock(fileId);
  if (!file) throw problems.notFound(FILE_NOT_FOUND);
  const refusal = deleteRefusal(caller, library, file);
  if (refusal) throw refusalProblem(refusal);
  return file;
}

interface Trashed {
  file: FileRecord;
  binnedAt: Date;
  releasedBytes: number;
}

/**
 * Soft delete: status trashed with the bin time and who binned it. With FREE_SPACE_ON_SOFT_DELETE the bytes of
 * every version leave the quota now (kept in released_bytes, so restore and purge know what was released).
 */
async function trashOne(
  deps: DriveDeps,
  trx: Knex.Transaction,
  { caller, actor }: Acting,
  fileId: string,
): Promise<Trashed> {
  const file = await deletableFile(trx, caller, fileId);
  if (file.status === 'trashed') throw problems.conflict(TRASH_TEXTS.alreadyTrashed, 'ALREADY_TRASHED');
  const released = deps.config.FREE_SPACE_ON_SOFT_DELETE ? await storedBytes(trx, file.id) : null;
  const binnedAt = deps.clock.now();
  await new FileStore(trx).update(file.id, {
    status: 'trashed',
    binnedAt,
    binnedBy: actor.userId,
    releasedBytes: released,
    updatedBy: actor.userId,
  });
  if (released !== null) {
    await accountUsage(deps, trx, actor.tenantId, { bytes: -released, files: -1, typeClass: file.typeClass });
  }
  await deps.audit.write(trx, actor, 'FILE_TRASHED', {
    targetType: 'file',
    targetId: file.id,
    details: {
      name: file.name,
      size: file.size,
      releasedBytes: released ?? 0,
      driveId: file.driveId,
    },
  });
  return { file, binnedAt, releasedBytes: released ?? 0 };
}

interface Purged {
  purgedIds: string[];
  /** Bytes the quota released (what a soft delete had not released already). */
  releasedBytes: number;
  totalSize: number;
  /** The object_removals rows to act on once the transaction has committed. */
  removalIds: string[];
}

/** The library rule refusing the caller's delete of a file they may see, as its problem; undefined when allowed. */
function refusalOf(caller: Caller, place: FileInPlace): HttpProblem | undefined {
  const refusal = deleteRefusal(caller, place.library, place.file);
  return refusal ? refusalProblem(refusal) : undefined;
}

/**
 * Permanent deletion (purge) of files already checked: the records, their versions, stars, views, share entries
 * and references go, the quota is released and every version's object (and the thumbnail, and the signature images
 * of its signature tasks) is queued for removal,
 * all in the caller's transaction, a few statements for any number of files; the objects are removed after the
 * commit (removeQueuedObjects), so a failing object store never leaves a record without its object and never loses
 * track of an object. One audit event per file.
 */
async function purgeFiles(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  fileIds: readonly string[],
  action: 'FILE_PURGED' | 'FILE_DELETED',
): Promise<Purged> {
  const store = new FileStore(trx);
  const files = await store.lockMany(fileIds);
  const ids = files.map((file) => file.id);
  const versions = await store.versionsOf(ids);
  const objects: { fileId: string; key: string }[] = [];
  const usage = new Map<FileTypeClass, { bytes: number; files: number }>();
  let releasedBytes = 0;
  let totalSize = 0;
  for (const file of files) {
    const own = versions.filter((version) => version.fileId === file.id);
    const keys = new Set([
      file.storagePath,
      ...own.map((version) => version.storagePath),
      ...(file.thumbnailPath ? [file.thumbnailPath] : []),
    ]);
    for (const key of keys) objects.push({ fileId: file.id, key });
    const stored = own.reduce((sum, version) => sum + version.size, 0);
    const released = Math.max(stored - (file.releasedBytes ?? 0), 0);
    const counted = usage.get(file.typeClass) ?? { bytes: 0, files: 0 };
    usage.set(file.typeClass, {
      bytes: counted.bytes + released,
      files: counted.files + (file.releasedBytes === null ? 1 : 0),
    });
    releasedBytes += released;
    totalSize += file.size;
  }
  // The signature images drawn on these files go with them (their tasks go with the records).
  objects.push(...(await new SignTaskStore(trx).signaturePathsOf(ids)));
  await new ReferenceStore(trx).removeAll(ids);
  await store.purge(ids);
  const removalIds = await new ObjectRemovalStore(deps.db).add(
    trx,
    actor.tenantId,
    objects,
    deps.clock.now(),
  );
  for (const [typeClass, change] of usage) {
    await accountUsage(deps, trx, actor.tenantId, { bytes: -change.bytes, files: -change.files, typeClass });
  }
  for (const file of files) {
    await deps.audit.write(trx, actor, action, {
      targetType: 'file',
      targetId: file.id,
      details: {
        name: file.name,
        size: file.size,
        versions: versions.filter((version) => version.fileId === file.id).length,
        driveId: file.driveId,
        wasTrashed: file.status === 'trashed',
      },
    });
  }
  return { purgedIds: ids, releasedBytes, totalSize, removalIds };
}

/** One file purged: the caller may see it, holds hard delete, and its library's rules allow it. */
async function purgeOne(
  deps: DriveDeps,
  trx: Knex.Transaction,
  { caller, actor }: Acting,
  fileId: string,
  action: 'FILE_PURGED' | 'FILE_DELETED',
): Promise<Purged> {
  const place = await readableFile(trx, caller, fileId);
  if (!driveAbilities(caller).canHardDeleteFiles) throw problems.forbidden(TRASH_TEXTS.noHardDelete);
  const refusal = refusalOf(caller, place);
  if (refusal) throw refusal;
  const purged = await purgeFiles(deps, trx, actor, [fileId], action);
  if (purged.purgedIds.length === 0) throw problems.notFound(FILE_NOT_FOUND);
  return purged;
}

export interface DeleteAnswer {
  fileId: string;
  result: 'trashed' | 'deleted';
  message: string;
  binnedAt: string | null;
  releasedBytes: number;
}

/**
 * POST /mutations/delete with one fileId: to the trash, or (permanent, for holders of hard delete) deleted for good.
 * The answer of a repeated idempotency key is the first one.
 */
export async function deleteFile(
  deps: DriveDeps,
  ctx: RequestContext,
  input: { fileId: string; permanent: boolean },
  key: string | undefined,
): Promise<DeleteAnswer> {
  const acting = actingOf(ctx);
  let removalIds: string[] = [];
  const answer = await orDeleteFailed(deps, () =>
    deps.inTenant(ctx.tenantId, (trx) =>
      once(trx, ctx.tenantId, key, 'delete', async (): Promise<DeleteAnswer> => {
        if (input.permanent) {
          const purged = await purgeOne(deps, trx, acting, input.fileId, 'FILE_DELETED');
          removalIds = purged.removalIds;
          return {
            fileId: input.fileId,
            result: 'deleted',
            message: deleteText(true, 1),
            binnedAt: null,
            releasedBytes: purged.releasedBytes,
          };
        }
        const trashed = await trashOne(deps, trx, acting, input.fileId);
        return {
          fileId: input.fileId,
          result: 'trashed',
          message: deleteText(false, 1),
          binnedAt: trashed.binnedAt.toISOString(),
          releasedBytes: trashed.releasedBytes,
        };
      }),
    ),
  );
  await removeQueuedObjects(deps, removalIds);
  return answer;
}

export interface BulkDeleteAnswer {
  result: 'trashed' | 'deleted';
  message: string;
  /** How many files were deleted, and how many failed (errors says why). */
  deleted: number;
  failed: number;
  /** Bytes of the files deleted. */
  totalSize: number;
  errors: FileError[];
  deletedIds: string[];
  /** Files selected but not the caller's (bulk delete applies to owned files only): left as they are. */
  skippedIds: string[];
}

/**
 * POST /mutations/delete with fileIds: only the caller's own files (owner or creator) are deleted, each on its own
 * (a savepoint: one failure undoes only that file); the others stay. None owned: 'No owned files selected for
 * deletion'; every owned file failing: 'Failed to delete all files'; otherwise {deleted, failed, totalSize, errors}.
 */
export async function deleteFiles(
  deps: DriveDeps,
  ctx: RequestContext,
  input: { fileIds: string[]; permanent: boolean },
  key: string | undefined,
): Promise<BulkDeleteAnswer> {
  const acting = actingOf(ctx);
  const removalIds: string[] = [];
  const answer = await deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'delete', async (): Promise<BulkDeleteAnswer> => {
      const { readable, notFound } = await readableFiles(trx, acting.caller, input.fileIds);
      const errors: FileError[] = notFound.map((fileId) => ({
        fileId,
        code: 'not_found',
        message: FILE_NOT_FOUND,
      }));
      if (readable.length === 0) throw problems.notFound(FILE_NOT_FOUND);
      const { owned, others } = ownedSelection(
        readable.map((place) => ({
          ...place,
          id: place.file.id,
          ownerId: place.file.ownerId,
          createdBy: place.file.createdBy,
        })),
        ctx.userId,
      );
      if (owned.length === 0) throw new HttpProblem(403, 'NO_OWNED_FILES', TRASH_TEXTS.noOwned);
      const deletedIds: string[] = [];
      let totalSize = 0;
      if (input.permanent) {
        const permitted: string[] = [];
        const hardDelete = driveAbilities(acting.caller).canHardDeleteFiles;
        for (const place of owned) {
          const refusal = hardDelete
            ? refusalOf(acting.caller, place)
            : problems.forbidden(TRASH_TEXTS.noHardDelete);
          if (refusal) errors.push(fileError(deps, place.id, refusal, 'DELETE_FAILED'));
          else permitted.push(place.id);
        }
        const purged = await purgeFiles(deps, trx, acting.actor, permitted, 'FILE_DELETED');
        deletedIds.push(...purged.purgedIds);
        totalSize = purged.totalSize;
        removalIds.push(...purged.removalIds);
      } else {
        for (const { file } of owned) {
          try {
            await trx.transaction((savepoint) => trashOne(deps, savepoint, acting, file.id));
            deletedIds.push(file.id);
            totalSize += file.size;
          } catch (error) {
            errors.push(fileError(deps, file.id, error, 'DELETE_FAILED'));
          }
        }
      }
      if (deletedIds.length === 0) {
        throw new HttpProblem(422, 'DELETE_FAILED', TRASH_TEXTS.allFailed, undefined, {
          deleted: 0,
          failed: errors.length,
          totalSize: 0,
          errors,
        });
      }
      if (deletedIds.length > 1) {
        await deps.audit.write(
          trx,
          acting.actor,
          input.permanent ? 'BULK_DRIVE_DELETED' : 'BULK_DRIVE_TRASHED',
          {
            targetType: 'file',
            targetIds: deletedIds,
            succeeded: deletedIds.length,
            failed: errors.length,
            details: { totalSize },
          },
        );
      }
      return {
        result: input.permanent ? 'deleted' : 'trashed',
        message: deleteText(input.permanent, deletedIds.length),
        deleted: deletedIds.length,
        failed: errors.length,
        totalSize,
        errors,
        deletedIds,
        skippedIds: others.map((file) => file.id),
      };
    }),
  );
  await removeQueuedObjects(deps, removalIds);
  return answer;
}

export interface PurgeAnswer {
  fileId: string;
  result: 'purged';
  message: string;
  releasedBytes: number;
}

/** POST /mutations/purge: the file deleted for good (from the trash or not), under the library's delete rules. */
export async function purgeFile(
  deps: DriveDeps,
  ctx: RequestContext,
  fileId: string,
  key: string | undefined,
): Promise<PurgeAnswer> {
  const acting = actingOf(ctx);
  let removalIds: string[] = [];
  const answer = await orDeleteFailed(deps, () =>
    deps.inTenant(ctx.tenantId, (trx) =>
      once(trx, ctx.tenantId, key, 'purge', async (): Promise<PurgeAnswer> => {
        const purged = await purgeOne(deps, trx, acting, fileId, 'FILE_PURGED');
        removalIds = purged.removalIds;
        return {
          fileId,
          result: 'purged',
          message: deleteText(true, 1),
          releasedBytes: purged.releasedBytes,
        };
      }),
    ),
  );
  await removeQueuedObjects(deps, removalIds);
  return answer;
}

export interface EmptyTrashAnswer {
  message: string;
  purged: number;
  /** Trashed files the caller may not purge (another's under ownerOnly, legal hold, not theirs to see...). */
  skipped: number;
  releasedBytes: number;
}

const EMPTY_TRASH_PAGE = 500;

/** POST /mutations/empty-trash: every trashed file the caller may purge (of one drive when given), for good. */
export async function emptyTrash(
  deps: DriveDeps,
  ctx: RequestContext,
  input: { driveId?: string },
  key: string | undefined,
): Promise<EmptyTrashAnswer> {
  const acting = actingOf(ctx);
  if (!driveAbilities(acting.caller).canHardDeleteFiles) throw problems.forbidden(TRASH_TEXTS.noHardDelete);
  const removalIds: string[] = [];
  const answer = await deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'empty-trash', async (): Promise<EmptyTrashAnswer> => {
      const store = new FileStore(trx);
      const purgedIds: string[] = [];
      let skipped = 0;
      let releasedBytes = 0;
      let after: string | undefined;
      for (;;) {
        const page = await store.trashed(EMPTY_TRASH_PAGE, after, input.driveId);
        const { readable, notFound } = await readableFiles(
          trx,
          acting.caller,
          page.map((file) => file.id),
        );
        const permitted = readable.filter((place) => !refusalOf(acting.caller, place));
        skipped += notFound.length + readable.length - permitted.length;
        const purged = await purgeFiles(
          deps,
          trx,
          acting.actor,
          permitted.map((place) => place.file.id),
          'FILE_PURGED',
        );
        purgedIds.push(...purged.purgedIds);
        releasedBytes += purged.releasedBytes;
        removalIds.push(...purged.removalIds);
        const last = page.at(-1);
        if (page.length < EMPTY_TRASH_PAGE || !last) break;
        after = last.id;
      }
      if (purgedIds.length > 1) {
        await deps.audit.write(trx, acting.actor, 'BULK_DRIVE_DELETED', {
          targetType: 'file',
          targetIds: purgedIds,
          succeeded: purgedIds.length,
          failed: skipped,
          details: { releasedBytes, emptyTrash: true },
        });
      }
      return {
        message:
          purgedIds.length === 0 && skipped === 0
            ? TRASH_TEXTS.trashEmpty
            : deleteText(true, purgedIds.length),
        purged: purgedIds.length,
        skipped,
        releasedBytes,
      };
    }),
  );
  await removeQueuedObjects(deps, removalIds);
  return answer;
}

export interface RestoredFile {
  fileId: string;
  name: string;
  /** The name was taken by a live file meanwhile: the file came back under the next free one (' (2)'). */
  renamed: boolean;
}

export interface RestoreAnswer {
  message: string;
  restored: RestoredFile[];
  failed: number;
  errors: FileError[];
}

/** The delete key the web sends for a file (drive.md §7: tenant:file:delete). */
export const deleteKeyOf = (tenantId: string, fileId: string): string => `${tenantId}:${fileId}:delete`;

/**
 * Back to active in its drive, library and folder, under its name or the next free one; the bytes a soft delete
 * released are counted again, and refused (STORAGE_LIMIT_EXCEEDED) when they no longer fit. The file's delete key is forgotten, so trashing it again is a new request.
 */
async function restoreOne(
  deps: DriveDeps,
  trx: Knex.Transaction,
  { caller, actor }: Acting,
  fileId: string,
  capacity: number | undefined,
): Promise<RestoredFile> {
  await readableFile(trx, caller, fileId);
  const store = new FileStore(trx);
  const file = await store.lock(fileId);
  if (!file) throw problems.notFound(FILE_NOT_FOUND);
  if (file.status !== 'trashed') throw problems.conflict(TRASH_TEXTS.notTrashed, 'NOT_TRASHED');
  if (file.releasedBytes !== null && capacity !== undefined) {
    const { used } = await new UsageStore(trx).get(actor.tenantId);
    const refusal = quotaRefusal({ limitBytes: capacity, usedBytes: used }, file.releasedBytes);
    if (refusal) {
      throw new HttpProblem(413, 'STORAGE_LIMIT_EXCEEDED', refusal.message, undefined, {
        remainingGB: refusal.remainingGB,
        requiredGB: refusal.requiredGB,
      });
    }
  }
  const name = await freeName(trx, file, file.name);
  await store.update(file.id, {
    status: 'active',
    binnedAt: null,
    binnedBy: null,
    releasedBytes: null,
    name,
    updatedBy: actor.userId,
  });
  if (file.releasedBytes !== null) {
    await accountUsage(deps, trx, actor.tenantId, {
      bytes: file.releasedBytes,
      files: 1,
      typeClass: file.typeClass,
    });
  }
  await new IdempotencyStore(trx).forget(deleteKeyOf(actor.tenantId, file.id));
  const renamed = name !== file.name;
  await deps.audit.write(trx, actor, 'FILE_RESTORED', {
    targetType: 'file',
    targetId: file.id,
    details: { name, renamed, previousName: renamed ? file.name : undefined, driveId: file.driveId },
  });
  return { fileId: file.id, name, renamed };
}

/**
 * The tenant's capacity in bytes (its tier's limit, or its custom limit), or undefined when identity cannot say:
 * as for uploads, a failed quota check is non-fatal (drive.md §5) and the restore goes on.
 */
async function capacityOf(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
): Promise<number | undefined> {
  try {
    const tier = await deps.identity.storageTier(ctx.tenantId, authorization);
    const { customLimit } = await deps.inTenant(ctx.tenantId, (trx) => new UsageStore(trx).get(ctx.tenantId));
    return tierLimitBytes(tier, customLimit);
  } catch (error) {
    deps.logger.warn(
      { err: error, tenantId: ctx.tenantId },
      'storage tier unknown: restore goes on unchecked',
    );
    return undefined;
  }
}

/**
 * POST /mutations/restore: one file (its failure is the answer's error) or several (each on its own; partial
 * failures listed, every one failing: 'Failed to restore files').
 */
export async function restoreFiles(
  deps: DriveDeps,
  ctx: RequestContext,
  input: { fileId?: string; fileIds?: string[] },
  key: string | undefined,
  authorization: string,
): Promise<RestoreAnswer> {
  const acting = actingOf(ctx);
  if (!driveAbilities(acting.caller).canRestoreFiles) throw problems.forbidden(TRASH_TEXTS.noRestore);
  const capacity = deps.config.FREE_SPACE_ON_SOFT_DELETE
    ? await capacityOf(deps, ctx, authorization)
    : undefined;
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'restore', async (): Promise<RestoreAnswer> => {
      if (input.fileId !== undefined) {
        const restored = await restoreOne(deps, trx, acting, input.fileId, capacity);
        return { message: restoreText(1), restored: [restored], failed: 0, errors: [] };
      }
      const restored: RestoredFile[] = [];
      const errors: FileError[] = [];
      for (const fileId of new Set(input.fileIds ?? [])) {
        try {
          restored.push(
            await trx.transaction((savepoint) => restoreOne(deps, savepoint, acting, fileId, capacity)),
          );
        } catch (error) {
          errors.push(fileError(deps, fileId, error, 'RESTORE_FAILED'));
        }
      }
      if (restored.length === 0) {
        throw new HttpProblem(422, 'RESTORE_FAILED', TRASH_TEXTS.allRestoresFailed, undefined, {
          failed: errors.length,
          errors,
        });
      }
      return { message: restoreText(restored.length), restored, failed: errors.length, errors };
    }),
  );
}
