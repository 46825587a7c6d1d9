import { randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { FileStore } from '../db/files.store.js';
import {
  PendingRequestExists,
  SignTaskStore,
  type ListedSignTask,
  type SignTaskRecord,
  type SignTaskState,
} from '../db/sign-tasks.store.js';
import { BadSignatureImage, signaturePng } from '../documents/signature-image.js';
import { StampFailure, stampSignature } from '../documents/stamp.js';
import { driveAbilities, fileTypeClass } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { callerOf, FILE_NOT_FOUND, readableFile } from './access.js';
import { once } from './idempotency.js';
import { sha256Hex, versionPath } from './server-files.js';
import { storeServerVersion } from './versions.js';

export const TASK_NOT_FOUND = 'Task not found';
export const PENDING_REQUEST_EXISTS = 'A pending request already exists';
export const SIGNATURE_REQUEST_SENT = 'Signature request sent';
export const PDF_SIGNED = 'PDF signed successfully';
export const STAMP_FAILED = 'Failed to stamp PDF';
export const ONLY_PDFS = 'Only PDFs can be signed';
export const UNKNOWN_ASSIGNEE = 'The person asked to sign is not a user of this organisation.';

/** The most tasks one list answers (newest first). */
export const SIGNATURE_LIST_LIMIT = 200;

/** Where a task's drawn signature is kept: tenants/{t}/signatures/{taskId}.png. */
export const signaturePath = (tenantId: string, taskId: string): string =>
  `tenants/${tenantId}/signatures/${taskId}.png`;

/** A signature request as the lists and answers show it. */
export interface SignTaskView {
  id: string;
  fileId: string;
  fileName: string;
  driveId: string;
  assignedToUid: string;
  assignedToName: string;
  createdByUid: string;
  createdByName: string;
  status: SignTaskState;
  createdAt: string;
  signedAt: string | null;
  signedVersion: number | null;
  signaturePath: string | null;
  /** The stored path of the signed version (tenants/{t}/files/{id}/v/{n}). */
  signedFilePath: string | null;
  /** sha-256 (hex) of the PDF before signing (printed on the completion page). */
  hashBefore: string | null;
  /** sha-256 (hex) of the signed PDF (recorded here: it cannot be inside the PDF it hashes). */
  hashAfter: string | null;
  declinedAt: string | null;
  declineReason: string | null;
}

const iso = (at: Date | null): string | null => (at ? at.toISOString() : null);

function present(
  tenantId: string,
  task: SignTaskRecord & { fileName: string; driveId: string },
  names: ReadonlyMap<string, string>,
): SignTaskView {
  return {
    id: task.id,
    fileId: task.fileId,
    fileName: task.fileName,
    driveId: task.driveId,
    assignedToUid: task.assignedToUid,
    assignedToName: names.get(task.assignedToUid) ?? '',
    createdByUid: task.createdByUid,
    createdByName: names.get(task.createdByUid) ?? '',
    status: task.status,
    createdAt: task.createdAt.toISOString(),
    signedAt: iso(task.signedAt),
    signedVersion: task.signedVersion,
    signaturePath: task.signaturePath,
    signedFilePath:
      task.signedVersion === null ? null : versionPath(tenantId, task.fileId, task.signedVersion),
    hashBefore: task.hashBefore,
    hashAfter: task.hashAfter,
    declinedAt: iso(task.declinedAt),
    declineReason: task.declineReason,
  };
}

const actorOf = (ctx: RequestContext): Actor => ({ tenantId: ctx.tenantId, userId: ctx.userId });

async function taskOrNotFound(trx: Knex.Transaction, taskId: string): Promise<SignTaskRecord> {
  const task = await new SignTaskStore(trx).getForUpdate(taskId);
  if (!task) throw problems.notFound(TASK_NOT_FOUND);
  return task;
}

/** The signer's checks: the task is theirs and still pending. */
function requireOwnPendingTask(ctx: RequestContext, task: SignTaskRecord): void {
  if (task.assignedToUid !== ctx.userId) {
    throw problems.forbidden('Only the person asked to sign this document can sign or decline it.');
  }
  if (task.status !== 'pending') {
    throw problems.conflict(`This signature request is already ${task.status}.`, 'SIGN_TASK_NOT_PENDING');
  }
}

/**
 * POST /v1/signatures: asks a colleague to sign a PDF the caller can open (drive.signatures.create). One pending
 * request per file and assignee; SIGNATURE_REQUESTED.
 */
export async function requestSignature(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  input: { fileId: string; assignedToUid: string },
  key: string | undefined,
): Promise<{ message: string; task: SignTaskView }> {
  const caller = callerOf(ctx);
  if (!driveAbilities(caller).canRequestSignatures) {
    throw problems.forbidden("You don't have permission to request signatures");
  }
  const task = await deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'signature.request', async () => {
      const { file } = await readableFile(trx, caller, input.fileId);
      if (file.status !== 'active') throw problems.notFound(FILE_NOT_FOUND);
      if (fileTypeClass(file.name, file.mimeType) !== 'pdf') {
        throw new HttpProblem(400, 'NOT_A_PDF', ONLY_PDFS);
      }
      await requireColleague(deps, authorization, input.assignedToUid);
      const tasks = new SignTaskStore(trx);
      if (await tasks.pendingFor(file.id, input.assignedToUid)) {
        throw problems.conflict(PENDING_REQUEST_EXISTS, 'PENDING_REQUEST_EXISTS');
      }
      const stored = await tasks
        .insert({
          id: randomUUID(),
          tenantId: ctx.tenantId,
          fileId: file.id,
          assignedToUid: input.assignedToUid,
          createdByUid: ctx.userId,
          createdAt: deps.clock.now(),
        })
        .catch((error: unknown) => {
          if (error instanceof PendingRequestExists) {
            throw problems.conflict(PENDING_REQUEST_EXISTS, 'PENDING_REQUEST_EXISTS');
          }
          throw error;
        });
      await deps.audit.write(trx, actorOf(ctx), 'SIGNATURE_REQUESTED', {
        targetType: 'signature',
        targetId: stored.id,
        details: { fileId: file.id, fileName: file.name, assignedToUid: input.assignedToUid },
      });
      return { ...stored, fileName: file.name, driveId: file.driveId };
    }),
  );
  const names = await deps.identity.userNames(authorization, [task.assignedToUid, task.createdByUid]);
  return { message: SIGNATURE_REQUEST_SENT, task: present(ctx.tenantId, reviveDates(task), names) };
}

/**
 * The assignee must be a user of the caller's tenant (identity knows them): an unknown id or another tenant's user
 * is refused with 400 UNKNOWN_ASSIGNEE. Identity unreachable is its own error, never taken for "unknown".
 */
async function requireColleague(deps: DriveDeps, authorization: string, userId: string): Promise<void> {
  const known = await deps.identity.colleagues(authorization, [userId]);
  if (!known.has(userId)) throw new HttpProblem(400, 'UNKNOWN_ASSIGNEE', UNKNOWN_ASSIGNEE);
}

/** A task that came back through the idempotency store has its dates as strings. */
function reviveDates<T extends SignTaskRecord>(task: T): T {
  const date = (value: Date | string | null): Date | null =>
    value === null ? null : value instanceof Date ? value : new Date(value);
  return {
    ...task,
    createdAt: date(task.createdAt) ?? new Date(0),
    signedAt: date(task.signedAt),
    declinedAt: date(task.declinedAt),
  };
}

/**
 * GET /v1/signatures: the caller's requests, assigned to them (to sign) or created by them, in one state, newest
 * first, with the people's names (drive.signatures.view).
 */
export async function listSignatures(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  filter: { status: SignTaskState; scope: 'assigned' | 'created' },
): Promise<{ items: SignTaskView[] }> {
  if (!driveAbilities(callerOf(ctx)).canViewSignatures) {
    throw problems.forbidden("You don't have permission to view signature requests");
  }
  const tasks: ListedSignTask[] = await deps.inTenant(ctx.tenantId, (trx) =>
    new SignTaskStore(trx).list({ ...filter, userId: ctx.userId, limit: SIGNATURE_LIST_LIMIT }),
  );
  const names = await deps.identity.userNames(
    authorization,
    tasks.flatMap((task) => [task.assignedToUid, task.createdByUid]),
  );
  return { items: tasks.map((task) => present(ctx.tenantId, task, names)) };
}

/**
 * POST /v1/signatures/:taskId/sign (the spec's callable embedSignature): the assignee's drawn signature is checked
 * and stored, the PDF stamped (documents/stamp.ts) and kept as the file's next version; the task is signed with the
 * hashes before and after; SIGNATURE_COMPLETED. A PDF that cannot be stamped leaves the task pending and nothing
 * stored ('Failed to stamp PDF').
 */
export async function signTask(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  taskId: string,
  signatureDataUrl: string,
  key: string | undefined,
): Promise<{ message: string; task: SignTaskView }> {
  const caller = callerOf(ctx);
  if (!driveAbilities(caller).canSign)
    throw problems.forbidden("You don't have permission to sign documents");
  const png = await signaturePng(signatureDataUrl).catch((error: unknown) => {
    if (error instanceof BadSignatureImage) throw new HttpProblem(400, 'BAD_SIGNATURE_IMAGE', error.message);
    throw error;
  });
  const signed = await deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, `signature.sign:${taskId}`, async () => {
      const tasks = new SignTaskStore(trx);
      const task = await taskOrNotFound(trx, taskId);
      requireOwnPendingTask(ctx, task);
      const { file } = await readableFile(trx, caller, task.fileId);
      if (file.status !== 'active') throw problems.notFound(FILE_NOT_FOUND);
      const stampFailed = (reason: string) =>
        new HttpProblem(422, 'STAMP_FAILED', STAMP_FAILED, undefined, { reason });
      if (file.size > deps.config.SIGNATURE_MAX_PDF_MB * 1024 * 1024) throw stampFailed('too_large');
      const original = Buffer.concat(await (await deps.objects.read(file.storagePath)).toArray());
      const hashBefore = sha256Hex(original);
      if (hashBefore !== file.checksum) {
        deps.logger.error(
          { fileId: file.id, version: file.version },
          'stored PDF does not match its checksum',
        );
        throw stampFailed('checksum_mismatch');
      }
      const names = await deps.identity.userNames(authorization, [ctx.userId, task.createdByUid]);
      const signerName = names.get(ctx.userId) ?? ctx.userId;
      const signedAt = deps.clock.now();
      const stamped = await stampSignature({
        pdf: original,
        signaturePng: png,
        fileName: file.name,
        signer: { userId: ctx.userId, name: signerName },
        requester: { userId: task.createdByUid, name: names.get(task.createdByUid) ?? task.createdByUid },
        requestedAt: task.createdAt,
        signedAt,
        taskId: task.id,
        hashBefore,
      }).catch((error: unknown) => {
        if (error instanceof StampFailure) {
          deps.logger.warn({ err: error, fileId: file.id, taskId }, 'PDF could not be stamped');
          throw stampFailed(error.reason);
        }
        throw error;
      });
      const imagePath = signaturePath(ctx.tenantId, task.id);
      await deps.objects.put(imagePath, png, 'image/png');
      const actor = actorOf(ctx);
      const version = await storeServerVersion(deps, trx, actor, file, {
        bytes: stamped,
        mimeType: 'application/pdf',
        note: `Signed by ${signerName}`,
      });
      await new FileStore(trx).update(file.id, { signed: true, updatedBy: ctx.userId });
      const hashAfter = version.checksum;
      const changes = {
        status: 'signed' as const,
        signedAt,
        signaturePath: imagePath,
        signedVersion: version.version,
        hashBefore,
        hashAfter,
      };
      await tasks.update(task.id, changes);
      await deps.audit.write(trx, actor, 'SIGNATURE_COMPLETED', {
        targetType: 'signature',
        targetId: task.id,
        details: { fileId: file.id, version: version.version, hashBefore, hashAfter },
      });
      return { task: { ...task, ...changes, fileName: file.name, driveId: file.driveId }, names: [...names] };
    }),
  );
  return {
    message: PDF_SIGNED,
    task: present(ctx.tenantId, reviveDates(signed.task), new Map(signed.names)),
  };
}

/** POST /v1/signatures/:taskId/decline: the assignee declines, with a reason; SIGNATURE_DECLINED. */
export async function declineTask(
  deps: DriveDeps,
  ctx: RequestContext,
  authorization: string,
  taskId: string,
  reason: string,
  key: string | undefined,
): Promise<{ task: SignTaskView }> {
  if (!driveAbilities(callerOf(ctx)).canSign) {
    throw problems.forbidden("You don't have permission to sign documents");
  }
  const declined = await deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, `signature.decline:${taskId}`, async () => {
      const task = await taskOrNotFound(trx, taskId);
      requireOwnPendingTask(ctx, task);
      const file = await new FileStore(trx).get(task.fileId);
      const changes = { status: 'declined' as const, declinedAt: deps.clock.now(), declineReason: reason };
      await new SignTaskStore(trx).update(task.id, changes);
      await deps.audit.write(trx, actorOf(ctx), 'SIGNATURE_DECLINED', {
        targetType: 'signature',
        targetId: task.id,
        details: { fileId: task.fileId },
      });
      return { ...task, ...changes, fileName: file?.name ?? '', driveId: file?.driveId ?? '' };
    }),
  );
  const names = await deps.identity.userNames(authorization, [declined.assignedToUid, declined.createdByUid]);
  return { task: present(ctx.tenantId, reviveDates(declined), names) };
}
