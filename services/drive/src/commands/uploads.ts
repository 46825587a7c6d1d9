import { createHash, randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { fileTypeFromBuffer } from 'file-type';
import { DriveStore } from '../db/drives.store.js';
import { FileStore, type FileRecord } from '../db/files.store.js';
import { FolderStore } from '../db/folders.store.js';
import { LibraryStore } from '../db/libraries.store.js';
import { UploadExpiryQueue, UploadStore, type UploadRecord } from '../db/uploads.store.js';
import {
  canWriteLibrary,
  configuredLimitRefusal,
  driveAbilities,
  extensionOf,
  fileTypeClass,
  holds,
  libraryPolicyRefusal,
  partCount,
  REFERENCE_TEXTS,
  sniffVerdict,
  UPLOAD_PART_SIZE,
  type SniffedType,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { callerOf, FILE_NOT_FOUND, readableFile, readableLibrary, requireOwnTenant } from './access.js';
import { once } from './idempotency.js';
import { attachOnRegister, type ReferenceInput, type ReferenceView } from './references.js';
import { checkQuota, quotaProblem, tierOf } from './quota.js';
import { isNoSuchUpload, isObjectStoreDown, objectStoreUnavailable } from './object-errors.js';
import { freeName, versionPath } from './server-files.js';
import { accountUsage } from './usage.js';
import { addStoredVersion, removePrunedObjects, versionRefusal } from './versions.js';

export const UPLOAD_DENIED = "You don't have permission to upload files (requires file:upload).";
export const UPLOAD_NOT_FOUND = 'Upload not found';
/** drive.md §8: the register call names an object no open upload wrote. */
export const METADATA_NOT_FOUND = 'Upload completed but file metadata not found';

export interface GrantRequest {
  tenantId?: string | undefined;
  driveId: string;
  libraryId: string;
  folderId?: string | null | undefined;
  name?: string | undefined;
  size?: number | undefined;
  mimeType?: string | undefined;
  fileId?: string | undefined;
  requireSignatures?: boolean | undefined;
}

export interface UploadGrant {
  uploadId: string;
  fileId: string;
  newVersion: boolean;
  objectPath: string;
  partSize: number;
  parts: { partNumber: number; url: string }[];
  expiresAt: string;
}

/** The configured limits (§5); a failing check only logs a warning and lets the upload continue. */
function checkConfiguredLimits(deps: DriveDeps, file: { name: string; mimeType: string; size: number }) {
  let refusal: ReturnType<typeof configuredLimitRefusal>;
  try {
    refusal = configuredLimitRefusal(
      {
        maxFileSize: deps.config.UPLOAD_MAX_FILE_SIZE_BYTES,
        allowedFileTypes: deps.config.UPLOAD_ALLOWED_FILE_TYPES,
      },
      file,
    );
  } catch (error) {
    deps.logger.warn({ err: error }, 'upload validation failed; the upload continues');
    return;
  }
  if (refusal === 'File exceeds maximum allowed size') throw new HttpProblem(413, 'FILE_TOO_LARGE', refusal);
  if (refusal === 'File type not allowed') throw new HttpProblem(415, 'FILE_TYPE_NOT_ALLOWED', refusal);
}

/**
 * POST /uploads: the checks of drive.md §5 in the spec's order (permission; the tenant's quota; the library's
 * policy; the configured limits; for a new version the versioning rules), then a multipart upload started at the
 * version's final key and a presigned PUT URL for each 5 MiB part. The grant is kept until registered, cancelled
 * or expired (UPLOAD_GRANT_TTL_MS; the cleanup worker then removes its parts).
 */
export async function grantUpload(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  request: GrantRequest,
  key: string | undefined,
): Promise<UploadGrant> {
  requireOwnTenant(ctx, request.tenantId);
  const rawName = request.name?.trim() ?? '';
  const { size } = request;
  if (rawName === '' || size === undefined) throw new HttpProblem(400, 'NO_FILE', 'No file');
  const name = rawName;
  const mimeType = request.mimeType?.trim() || 'application/octet-stream';
  const caller = callerOf(ctx);
  const tier = await tierOf(deps, ctx.tenantId, authorization);
  try {
    return await deps.inTenant(ctx.tenantId, (trx) =>
      once(trx, ctx.tenantId, key, 'uploads.grant', async () => {
        const { library, drive } = await readableLibrary(trx, caller, request.libraryId);
        if (library.driveId !== request.driveId) throw problems.notFound('Library not found');
        const uploads = new UploadStore(trx);
        let existing: FileRecord | undefined;
        if (request.fileId !== undefined) {
          const place = await readableFile(trx, caller, request.fileId);
          existing = await new FileStore(trx).lock(place.file.id);
          if (!existing || existing.libraryId !== library.id || existing.status !== 'active') {
            throw problems.notFound(FILE_NOT_FOUND);
          }
          const refusal = versionRefusal(caller, tier, drive, library, existing);
          if (refusal?.status === 403) throw refusal;
        } else if (!driveAbilities(caller).canUpload || !canWriteLibrary(caller, library)) {
          throw new HttpProblem(403, 'forbidden', UPLOAD_DENIED);
        }
        const folderId = existing ? existing.folderId : (request.folderId ?? null);
        if (!existing && folderId !== null && !(await new FolderStore(trx).inDrive(folderId, drive.id))) {
          throw problems.notFound('Folder not found');
        }
        await checkQuota(deps, trx, ctx.tenantId, tier, size);
        const policy = libraryPolicyRefusal(library.policies, { name, size });
        if (policy) throw new HttpProblem(422, 'E_POLICY_BLOCKED', policy);
        checkConfiguredLimits(deps, { name, mimeType, size });
        if (existing) {
          const refusal = versionRefusal(caller, tier, drive, library, existing);
          if (refusal) throw refusal;
          if (await uploads.openVersionGrant(existing.id, deps.clock.now())) {
            throw problems.conflict(
              'A new version of this file is already being uploaded. Try again when it has finished.',
              'VERSION_UPLOAD_IN_PROGRESS',
            );
          }
        }
        const uploadId = randomUUID();
        const fileId = existing?.id ?? randomUUID();
        const objectKey = versionPath(ctx.tenantId, fileId, existing ? existing.version + 1 : 1);
        const parts = partCount(size);
        let multipartId: string;
        let urls: string[];
        try {
          await deps.objects.ensureBucket();
          multipartId = await deps.objects.startMultipart(objectKey, mimeType);
          urls = await Promise.all(
            Array.from({ length: parts }, (_, i) => deps.objects.presignPart(objectKey, multipartId, i + 1)),
          );
        } catch (error) {
          deps.logger.warn({ err: error }, 'object store refused to start an upload');
          throw objectStoreUnavailable();
        }
        const expiresAt = new Date(deps.clock.now().getTime() + deps.config.UPLOAD_GRANT_TTL_MS);
        await uploads.insert({
          id: uploadId,
          tenantId: ctx.tenantId,
          fileId,
          newVersion: existing !== undefined,
          driveId: drive.id,
          libraryId: library.id,
          folderId,
          name,
          size,
          mimeType,
          objectKey,
          multipartId,
          partSize: UPLOAD_PART_SIZE,
          partCount: parts,
          requireSignatures: request.requireSignatures ?? false,
          createdBy: ctx.userId,
          expiresAt,
        });
        return {
          uploadId,
          fileId,
          newVersion: existing !== undefined,
          objectPath: objectKey,
          partSize: UPLOAD_PART_SIZE,
          parts: urls.map((url, i) => ({ partNumber: i + 1, url })),
          expiresAt: expiresAt.toISOString(),
        };
      }),
    );
  } catch (error) {
    throw await quotaProblem(deps, ctx, error, {
      targetId: request.driveId,
      libraryId: request.libraryId,
      size,
    });
  }
}

/** What the stored object turned out to be. */
interface VerifiedObject {
  size: number;
  checksum: string;
  sniffed: SniffedType | undefined;
}

/** Bytes of the file's start that content sniffing reads (file-type needs at most a few kB). */
const SNIFF_BYTES = 64 * 1024;

/** A refusal after the bytes were stored: the object goes, the grant ends, nothing is registered. */
class Mismatch extends HttpProblem {}

/**
 * Assembles the parts the object store holds (listed here, never taken from the browser), checks the whole object's
 * size, then reads it once: sha-256 against the browser's, and its first bytes for content sniffing.
 */
async function assembleAndVerify(
  deps: DriveDeps,
  grant: UploadRecord,
  browserChecksum: string,
): Promise<VerifiedObject> {
  const { objects } = deps;
  let parts: Awaited<ReturnType<typeof objects.parts>> | undefined;
  try {
    parts = await objects.parts(grant.objectKey, grant.multipartId);
  } catch (error) {
    // Completed by an earlier attempt whose registration failed: the object is there to check.
    if (!isNoSuchUpload(error)) throw error;
  }
  if (parts !== undefined) {
    const sent = parts.reduce((sum, part) => sum + part.size, 0);
    if (parts.length === 0 || sent !== grant.size) throw sizeMismatch(sent, grant.size);
    await objects.completeMultipart(
      grant.objectKey,
      grant.multipartId,
      [...parts].sort((a, b) => a.part - b.part),
    );
  }
  const stat = await objects.stat(grant.objectKey);
  if (!stat) throw sizeMismatch(0, grant.size);
  if (stat.size !== grant.size) throw sizeMismatch(stat.size, grant.size);
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  for await (const chunk of await objects.read(grant.objectKey)) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    if (headBytes < SNIFF_BYTES) {
      head.push(bytes.subarray(0, SNIFF_BYTES - headBytes));
      headBytes += Math.min(bytes.length, SNIFF_BYTES - headBytes);
    }
  }
  const checksum = hash.digest('hex');
  if (checksum !== browserChecksum.toLowerCase()) {
    throw new Mismatch(
      422,
      'CHECKSUM_MISMATCH',
      'The stored file is not the file your browser sent (its SHA-256 checksum differs): it was damaged on the way. Nothing was saved; upload it again.',
      undefined,
      { expected: browserChecksum.toLowerCase(), stored: checksum },
    );
  }
  const sniffed = await fileTypeFromBuffer(Buffer.concat(head));
  return {
    size: stat.size,
    checksum,
    sniffed: sniffed ? { ext: sniffed.ext, mime: sniffed.mime } : undefined,
  };
}

const sizeMismatch = (stored: number, announced: number) =>
  new Mismatch(
    422,
    'SIZE_MISMATCH',
    `The stored file has ${String(stored)} bytes but ${String(announced)} were announced. Nothing was saved; upload it again.`,
  );

/**
 * Removes whatever a grant wrote (its multipart upload and, if it was completed, its object), unless that object has
 * become a registered version (a race the version check refuses, but never at the price of a registered file).
 */
async function discardObjects(deps: DriveDeps, trx: Knex.Transaction, grant: UploadRecord): Promise<void> {
  await deps.objects.abortMultipart(grant.objectKey, grant.multipartId).catch((error: unknown) => {
    if (!isNoSuchUpload(error)) throw error;
  });
  const registered = (await new FileStore(trx).versions(grant.fileId)).some(
    (version) => version.storagePath === grant.objectKey,
  );
  if (!registered) await deps.objects.remove([grant.objectKey]);
}

/** The grant of this id, the caller's own; 404 for anyone else's (another user's or tenant's). */
async function ownGrant(trx: Knex.Transaction, ctx: RequestContext, uploadId: string, lock = false) {
  const store = new UploadStore(trx);
  const grant = lock ? await store.lock(uploadId) : await store.get(uploadId);
  if (!grant || grant.createdBy !== ctx.userId) throw problems.notFound(UPLOAD_NOT_FOUND);
  return grant;
}

const ended = () =>
  new HttpProblem(409, 'UPLOAD_ENDED', 'This upload was cancelled or has expired. Upload the file again.');

export interface Registered {
  ok: true;
  /**
   * FILE_REF_WRITE_FAILED: the file is registered and kept, but the module reference asked for could not be written
   * (drive.md §4, §8): the file is flagged orphaned ('Needs repair') and repair-refs recreates the reference.
   */
  code: 'REGISTERED' | 'ALREADY_REGISTERED' | 'FILE_REF_WRITE_FAILED';
  file: FileRecord;
  uploadId: string;
  /** The module reference written at registration (when one was asked for and written). */
  reference?: ReferenceView;
  /** With FILE_REF_WRITE_FAILED: 'Reference creation failed'. */
  message?: string;
}

/** drive.md §6: attaching a file to a module's entity needs the attachment scope, also at registration. */
function requireAttachScope(ctx: RequestContext, reference: ReferenceInput | undefined): void {
  if (reference !== undefined && !holds(callerOf(ctx), 'drive.attachment.add')) {
    throw problems.forbidden('This requires the drive.attachment.add permission.');
  }
}

/**
 * POST /uploads/:id/complete: verifies the stored object (commands' assembleAndVerify, then the sniffing rule) and
 * registers it: a new file under a free, sanitised name, or a new version (pruning beyond maxVersions). Any
 * mismatch removes the object and ends the grant; the object store unreachable answers 503 and leaves the grant as
 * it was (the browser may try again; the cleanup removes it if it never does).
 */
export async function completeUpload(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  uploadId: string,
  checksum: string,
  reference?: ReferenceInput,
): Promise<Registered> {
  requireAttachScope(ctx, reference);
  const grant = await deps.inTenant(ctx.tenantId, (trx) => ownGrant(trx, ctx, uploadId));
  if (grant.status === 'registered') {
    const file = await deps.inTenant(ctx.tenantId, (trx) => new FileStore(trx).get(grant.fileId));
    if (!file) throw problems.notFound(FILE_NOT_FOUND);
    return { ok: true, code: 'ALREADY_REGISTERED', file, uploadId };
  }
  if (grant.status === 'aborted' || grant.expiresAt.getTime() <= deps.clock.now().getTime()) throw ended();
  let verified: VerifiedObject;
  try {
    verified = await assembleAndVerify(deps, grant, checksum);
  } catch (error) {
    if (isObjectStoreDown(error)) {
      deps.logger.warn({ err: error, uploadId }, 'object store unreachable while completing an upload');
      throw objectStoreUnavailable();
    }
    if (error instanceof Mismatch) await abandon(deps, ctx.tenantId, grant);
    throw error;
  }
  const verdict = sniffVerdict(grant.name, verified.sniffed);
  if (verdict.verdict === 'refuse') {
    await abandon(deps, ctx.tenantId, grant);
    throw new HttpProblem(422, 'CONTENT_MISMATCH', verdict.message, undefined, {
      detected: verified.sniffed?.mime,
    });
  }
  const ownerName = (await deps.identity.userNames(authorization, [ctx.userId])).get(ctx.userId) ?? '';
  let prunedKeys: string[] = [];
  let attached: Awaited<ReturnType<typeof attachOnRegister>> | undefined;
  const file = await deps.inTenant(ctx.tenantId, async (trx) => {
    const locked = await ownGrant(trx, ctx, uploadId, true);
    if (locked.status !== 'granted') throw ended();
    const actor = { tenantId: ctx.tenantId, userId: ctx.userId };
    const contentFlag = verdict.verdict === 'flag' ? verdict.flag : null;
    const registered = locked.newVersion
      ? await registerVersion(deps, trx, actor, locked, verified, contentFlag)
      : {
          file: await registerFile(deps, trx, actor, locked, verified, contentFlag, ownerName),
          prunedKeys: [],
        };
    prunedKeys = registered.prunedKeys;
    if (contentFlag !== null) {
      await deps.audit.write(trx, actor, 'FILE_CONTENT_FLAGGED', {
        targetType: 'file',
        targetId: registered.file.id,
        details: { name: registered.file.name, detected: contentFlag },
      });
    }
    await new UploadStore(trx).finish(locked.id, 'registered');
    if (reference === undefined) return registered.file;
    attached = await attachOnRegister(deps, trx, actor, registered.file.id, reference);
    return (await new FileStore(trx).get(registered.file.id)) ?? registered.file;
  });
  await removePrunedObjects(deps, prunedKeys);
  if (attached?.ok === false) {
    return { ok: true, code: attached.code, message: REFERENCE_TEXTS.writeFailed, file, uploadId };
  }
  return {
    ok: true,
    code: 'REGISTERED',
    file,
    uploadId,
    ...(attached ? { reference: attached.reference } : {}),
  };
}

/** Ends a grant whose object failed its checks: the object removed, the grant aborted. */
async function abandon(deps: DriveDeps, tenantId: string, grant: UploadRecord): Promise<void> {
  await deps.inTenant(tenantId, async (trx) => {
    await discardObjects(deps, trx, grant).catch((error: unknown) => {
      deps.logger.warn(
        { err: error, uploadId: grant.id },
        'refused upload’s object not removed; the cleanup retries',
      );
      throw isObjectStoreDown(error) ? objectStoreUnavailable() : error;
    });
    await new UploadStore(trx).finish(grant.id, 'aborted');
  });
}

async function registerFile(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  grant: UploadRecord,
  verified: VerifiedObject,
  contentFlag: string | null,
  ownerName: string,
): Promise<FileRecord> {
  const place = { driveId: grant.driveId, libraryId: grant.libraryId, folderId: grant.folderId };
  const name = await freeName(trx, place, grant.name);
  const typeClass = fileTypeClass(name, grant.mimeType);
  // 'Require signatures' applies to PDFs only ('Cannot be signed' otherwise): docs/drive.md.
  const signatureRequired = grant.requireSignatures && typeClass === 'pdf';
  const file = await new FileStore(trx).insert({
    id: grant.fileId,
    tenantId: actor.tenantId,
    ...place,
    name,
    ext: extensionOf(name),
    mimeType: grant.mimeType,
    typeClass,
    size: verified.size,
    checksum: verified.checksum,
    storagePath: grant.objectKey,
    contentFlag,
    ownerId: actor.userId,
    ownerName,
    visibility: 'private',
    signatureRequired,
    createdBy: actor.userId,
    updatedBy: actor.userId,
  });
  await accountUsage(deps, trx, actor.tenantId, { bytes: verified.size, files: 1, typeClass });
  await deps.audit.write(trx, actor, 'FILE_UPLOADED', {
    targetType: 'file',
    targetId: file.id,
    details: {
      driveId: grant.driveId,
      libraryId: grant.libraryId,
      folderId: grant.folderId ?? undefined,
      name,
      size: verified.size,
      version: 1,
      requireSignatures: signatureRequired,
    },
  });
  return file;
}

async function registerVersion(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  grant: UploadRecord,
  verified: VerifiedObject,
  contentFlag: string | null,
): Promise<{ file: FileRecord; prunedKeys: string[] }> {
  const file = await new FileStore(trx).lock(grant.fileId);
  const [library, drive] = await Promise.all([
    new LibraryStore(trx).get(grant.libraryId),
    new DriveStore(trx).get(grant.driveId),
  ]);
  const version = Number(grant.objectKey.split('/').pop());
  if (!file || !library || !drive || file.status !== 'active' || file.version + 1 !== version) {
    throw new HttpProblem(
      409,
      'FILE_CHANGED',
      'The file was changed or removed while this version was uploading. Upload it again.',
    );
  }
  const added = await addStoredVersion(
    deps,
    trx,
    actor,
    { file, library, drive },
    {
      version,
      storagePath: grant.objectKey,
      size: verified.size,
      checksum: verified.checksum,
      mimeType: grant.mimeType,
      note: '',
      contentFlag,
    },
  );
  await deps.audit.write(trx, actor, 'FILE_VERSION_ADDED', {
    targetType: 'file',
    targetId: file.id,
    details: { version, size: verified.size, name: file.name, source: 'upload' },
  });
  return added;
}

/**
 * POST /files/register (drive.md §7): the spec's call after the object is stored, naming the file and its object.
 * It completes the open grant that wrote that object (the checks of completeUpload); an object no open grant of the
 * caller wrote is 'Upload completed but file metadata not found'.
 */
export async function registerUploadedFile(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  request: {
    tenantId?: string | undefined;
    fileId: string;
    driveId: string;
    version: { objectPath: string; checksum: string; size: number };
    reference?: ReferenceInput | undefined;
  },
): Promise<Registered> {
  requireOwnTenant(ctx, request.tenantId);
  requireAttachScope(ctx, request.reference);
  const grant = await deps.inTenant(ctx.tenantId, (trx) =>
    new UploadStore(trx).openFor(request.fileId, request.version.objectPath),
  );
  if (!grant || grant.createdBy !== ctx.userId || grant.driveId !== request.driveId) {
    throw problems.notFound(METADATA_NOT_FOUND);
  }
  if (grant.size !== request.version.size) {
    await abandon(deps, ctx.tenantId, grant);
    throw sizeMismatch(request.version.size, grant.size);
  }
  return completeUpload(deps, ctx, authorization, grant.id, request.version.checksum, request.reference);
}

/** DELETE /uploads/:id (Cancel Upload): the multipart upload aborted, anything written removed, the grant ended. */
export async function cancelUpload(
  deps: DriveDeps,
  ctx: RequestContext,
  uploadId: string,
): Promise<{ uploadId: string; status: 'aborted' }> {
  await deps.inTenant(ctx.tenantId, async (trx) => {
    const grant = await ownGrant(trx, ctx, uploadId, true);
    if (grant.status === 'registered') {
      throw problems.conflict(
        'This upload has finished and the file is saved: delete the file instead.',
        'UPLOAD_REGISTERED',
      );
    }
    if (grant.status === 'aborted') return;
    try {
      await discardObjects(deps, trx, grant);
    } catch (error) {
      if (isObjectStoreDown(error)) throw objectStoreUnavailable();
      throw error;
    }
    await new UploadStore(trx).finish(grant.id, 'aborted');
  });
  return { uploadId, status: 'aborted' };
}

/**
 * The cleanup (workers/upload-cleanup.worker.ts): every grant past its expiry that is still open has its multipart
 * upload aborted and any completed-but-unregistered object removed, then ends. Returns how many were cleaned.
 * A grant another transaction holds (being completed right now) is left for the next pass.
 */
export async function cleanExpiredUploads(deps: DriveDeps, max = 100): Promise<number> {
  const queue = new UploadExpiryQueue(deps.db);
  let cleaned = 0;
  for (let i = 0; i < max; i += 1) {
    const pass = { busy: false };
    const claimed = await queue.claim(deps.clock.now(), async (entry) => {
      pass.busy = await deps.inTenant(entry.tenantId, async (trx) => {
        const store = new UploadStore(trx);
        const grant = await store.lockIfFree(entry.uploadId);
        if (!grant) return (await store.get(entry.uploadId)) !== undefined;
        if (grant.status === 'granted') {
          await discardObjects(deps, trx, grant);
          await store.setStatus(grant.id, 'aborted');
          cleaned += 1;
        }
        return false;
      });
      if (!pass.busy) await entry.remove();
    });
    if (!claimed || pass.busy) break;
  }
  return cleaned;
}
