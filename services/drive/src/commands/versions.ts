import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { DriveStore, type DriveRecord } from '../db/drives.store.js';
import { FileStore, type FileRecord, type FileVersionRecord } from '../db/files.store.js';
import { LibraryStore, type LibraryRecord } from '../db/libraries.store.js';
import { UploadStore } from '../db/uploads.store.js';
import { canReplaceVersion, tierFeatures, type Caller, type StorageTier } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { callerOf, readableFile, requireOwnTenant } from './access.js';
import { once } from './idempotency.js';
import { checkQuota, quotaProblem, tierOf } from './quota.js';
import { objectStoreUnavailable, isObjectStoreDown } from './object-errors.js';
import { sha256Hex, versionPath } from './server-files.js';
import { accountUsage } from './usage.js';

export const REPLACE_VERSION_DENIED =
  "You don't have permission to replace this file's versions (requires drive.file.replace_version).";

/**
 * Why a new version of `file` may not be added, as the problem to answer; undefined when it may (drive.md §4 and
 * §9): the tier has the versioning feature (its tier unknown: refused, it cannot be checked), the drive keeps
 * versions, the caller may replace versions (a readOnly library: only with drive.file.replace_version), and when
 * the drive's maxVersions would make the oldest go, the library is not under legal hold.
 */
export function versionRefusal(
  caller: Caller,
  tier: StorageTier | undefined,
  drive: DriveRecord,
  library: LibraryRecord,
  file: FileRecord,
): HttpProblem | undefined {
  if (!canReplaceVersion(caller, library)) return new HttpProblem(403, 'forbidden', REPLACE_VERSION_DENIED);
  if (tier === undefined) {
    return problems.unavailable(
      'The drive cannot check your storage plan right now (identity is unavailable), so no version can be added. Try again shortly.',
    );
  }
  if (!tierFeatures(tier).versioning) {
    return new HttpProblem(
      409,
      'VERSIONING_NOT_AVAILABLE',
      'Versions are not part of the free storage plan. Upgrade your storage plan to keep versions of a file.',
    );
  }
  if (!drive.versioningEnabled) {
    return new HttpProblem(409, 'VERSIONING_DISABLED', 'Versioning is turned off for this drive.');
  }
  if (library.policies.legalHold && file.versionsCount >= drive.maxVersions) {
    return legalHoldRefusal(drive.maxVersions);
  }
  return undefined;
}

const legalHoldRefusal = (maxVersions: number) =>
  new HttpProblem(
    409,
    'LEGAL_HOLD',
    `This library is under legal hold: the drive keeps at most ${String(maxVersions)} versions and none may be removed, so no new version can be added.`,
  );

/** A version whose bytes are already at `storagePath` (an upload, a restore's copy). */
export interface StoredVersion {
  version: number;
  storagePath: string;
  size: number;
  checksum: string;
  mimeType: string;
  note: string;
  contentFlag?: string | null;
}

/**
 * Makes `version` the file's current one (the shape of storeServerVersion: version row, file moved to it, its bytes
 * counted), then prunes versions beyond the drive's maxVersions (oldest first; never under legal hold). Returns the
 * file as it is now and the object keys of pruned versions, which the caller removes once the transaction commits.
 */
export async function addStoredVersion(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  place: { file: FileRecord; drive: DriveRecord; library: LibraryRecord },
  version: StoredVersion,
): Promise<{ file: FileRecord; prunedKeys: string[] }> {
  const { file, drive, library } = place;
  const store = new FileStore(trx);
  await store.addVersion({
    tenantId: actor.tenantId,
    fileId: file.id,
    version: version.version,
    storagePath: version.storagePath,
    size: version.size,
    checksum: version.checksum,
    mimeType: version.mimeType,
    note: version.note,
    createdBy: actor.userId,
  });
  const kept = await store.versions(file.id);
  const excess = kept.slice(drive.maxVersions);
  if (excess.length > 0 && library.policies.legalHold) throw legalHoldRefusal(drive.maxVersions);
  await store.removeVersions(
    file.id,
    excess.map((old) => old.version),
  );
  await store.update(file.id, {
    version: version.version,
    versionsCount: kept.length - excess.length,
    storagePath: version.storagePath,
    size: version.size,
    checksum: version.checksum,
    mimeType: version.mimeType,
    ...(version.contentFlag === undefined ? {} : { contentFlag: version.contentFlag }),
    updatedBy: actor.userId,
  });
  const released = excess.reduce((sum, old) => sum + old.size, 0);
  await accountUsage(deps, trx, actor.tenantId, {
    bytes: version.size - released,
    files: 0,
    typeClass: file.typeClass,
  });
  const updated = await store.get(file.id);
  if (!updated) throw new Error(`file ${file.id} vanished while adding a version`);
  return { file: updated, prunedKeys: excess.map((old) => old.storagePath) };
}

/**
 * A new version of a file made by the service (a signed PDF, a CIS document submitted again): its bytes stored as
 * the next version and made current through the versioning rule (addStoredVersion: versions beyond the drive's
 * maxVersions pruned, refused under legal hold), audited as FILE_VERSION_ADDED. Pruned versions' objects are
 * removed once the caller's transaction commits.
 */
export async function storeServerVersion(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  file: FileRecord,
  version: { bytes: Buffer; mimeType: string; note: string },
): Promise<FileRecord> {
  const [drive, library] = await Promise.all([
    new DriveStore(trx).get(file.driveId),
    new LibraryStore(trx).get(file.libraryId),
  ]);
  if (!drive || !library) throw new Error(`file ${file.id} has no drive or library`);
  const next = file.version + 1;
  const storagePath = versionPath(actor.tenantId, file.id, next);
  await deps.objects.put(storagePath, version.bytes, version.mimeType);
  const added = await addStoredVersion(
    deps,
    trx,
    actor,
    { file, drive, library },
    {
      version: next,
      storagePath,
      size: version.bytes.length,
      checksum: sha256Hex(version.bytes),
      mimeType: version.mimeType,
      note: version.note,
    },
  );
  await deps.audit.write(trx, actor, 'FILE_VERSION_ADDED', {
    targetType: 'file',
    targetId: file.id,
    details: { version: next, size: version.bytes.length, note: version.note },
  });
  trx.executionPromise.then(
    () => removePrunedObjects(deps, added.prunedKeys),
    () => undefined,
  );
  return added.file;
}

/** Removes pruned versions' objects after their records are gone; a failure leaves them to the sweep. */
export async function removePrunedObjects(deps: DriveDeps, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await deps.objects.remove(keys).catch((error: unknown) => {
    deps.logger.warn({ err: error, keys }, 'pruned versions’ objects not removed; the sweep will find them');
  });
}

export interface VersionView extends FileVersionRecord {
  current: boolean;
}

/** GET /files/:id/versions: the file's versions, newest first, the current one marked. */
export async function listVersions(
  deps: DriveDeps,
  ctx: RequestContext,
  fileId: string,
  tenantId: string | undefined,
): Promise<{ fileId: string; current: number; versions: VersionView[] }> {
  requireOwnTenant(ctx, tenantId);
  return deps.inTenant(ctx.tenantId, async (trx) => {
    const { file } = await readableFile(trx, callerOf(ctx), fileId);
    const versions = await new FileStore(trx).versions(file.id);
    return {
      fileId: file.id,
      current: file.version,
      versions: versions.map((version) => ({ ...version, current: version.version === file.version })),
    };
  });
}

/**
 * POST /files/:id/versions/:version/restore: the old version's bytes, copied in the object store, become a new
 * current version (the version rules as an upload's), audited as FILE_VERSION_RESTORED.
 */
export async function restoreVersion(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  request: { fileId: string; version: number; tenantId?: string | undefined },
  key: string | undefined,
): Promise<{ file: FileRecord; restoredFrom: number }> {
  requireOwnTenant(ctx, request.tenantId);
  const caller = callerOf(ctx);
  const tier = await tierOf(deps, ctx.tenantId, authorization);
  let prunedKeys: string[] = [];
  let size = 0;
  const result = await deps
    .inTenant(ctx.tenantId, (trx) =>
      once(trx, ctx.tenantId, key, `versions.restore:${request.fileId}`, async () => {
        const place = await readableFile(trx, caller, request.fileId);
        const store = new FileStore(trx);
        const file = await store.lock(place.file.id);
        if (!file || file.status !== 'active') throw problems.notFound('File not found');
        const old = await store.version(file.id, request.version);
        if (!old) throw problems.notFound('Version not found');
        const refusal = versionRefusal(caller, tier, place.drive, place.library, file);
        if (refusal) throw refusal;
        if (await new UploadStore(trx).openVersionGrant(file.id, deps.clock.now())) {
          throw problems.conflict(
            'A new version of this file is being uploaded. Try again when it has finished.',
            'VERSION_UPLOAD_IN_PROGRESS',
          );
        }
        size = old.size;
        // The restored bytes are counted again: they must fit the quota like an upload's.
        await checkQuota(deps, trx, ctx.tenantId, tier, old.size);
        const next = file.version + 1;
        const storagePath = versionPath(ctx.tenantId, file.id, next);
        try {
          await deps.objects.copy(old.storagePath, storagePath);
        } catch (error) {
          if (isObjectStoreDown(error)) throw objectStoreUnavailable();
          throw error;
        }
        const actor = { tenantId: ctx.tenantId, userId: ctx.userId };
        const added = await addStoredVersion(
          deps,
          trx,
          actor,
          { ...place, file },
          {
            version: next,
            storagePath,
            size: old.size,
            checksum: old.checksum,
            mimeType: old.mimeType,
            note: `Restored from version ${String(old.version)}`,
          },
        );
        prunedKeys = added.prunedKeys;
        await deps.audit.write(trx, actor, 'FILE_VERSION_RESTORED', {
          targetType: 'file',
          targetId: file.id,
          details: { restoredFrom: old.version, version: next, size: old.size },
        });
        return { file: added.file, restoredFrom: old.version };
      }),
    )
    .catch(async (error: unknown) => {
      throw await quotaProblem(deps, ctx, error, { targetId: request.fileId, fileId: request.fileId, size });
    });
  await removePrunedObjects(deps, prunedKeys);
  return result;
}
