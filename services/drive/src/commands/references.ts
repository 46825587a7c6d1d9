import { randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { FileStore } from '../db/files.store.js';
import { ReferenceStore, type FileReference } from '../db/references.store.js';
import {
  DEFAULT_REFERENCE_TYPE,
  REFERENCE_TEXTS,
  inBatches,
  referenceCounts,
  repairStep,
  repairSummary,
  type ReferenceCounts,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { callerOf, FILE_NOT_FOUND, readableFile, visibleDrive } from './access.js';
import { once } from './idempotency.js';

/** A module's attachment of a file to one of its entities (drive.md §3 file reference). */
export interface ReferenceInput {
  moduleId: string;
  entityId: string;
  referenceType?: string;
  metadata?: Record<string, unknown>;
}

export interface ReferenceView {
  id: string;
  fileId: string;
  moduleId: string;
  entityId: string;
  referenceType: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}

const view = (reference: FileReference): ReferenceView => ({
  id: reference.id,
  fileId: reference.fileId,
  moduleId: reference.moduleId,
  entityId: reference.entityId,
  referenceType: reference.referenceType,
  metadata: reference.metadata,
  createdAt: reference.createdAt.toISOString(),
});

export interface ReferencesAnswer {
  references: ReferenceView[];
  refs: ReferenceCounts;
  orphanedRef: boolean;
}

async function referencesOf(trx: Knex.Transaction, fileId: string): Promise<ReferencesAnswer> {
  const references = await new ReferenceStore(trx).forFile(fileId);
  const file = await new FileStore(trx).get(fileId);
  return {
    references: references.map(view),
    refs: referenceCounts(references.map((reference) => reference.moduleId)),
    orphanedRef: file?.orphanedRef ?? false,
  };
}

/** Writes one reference in a savepoint: a failure undoes only the reference, and answers the error. */
async function writeReference(
  trx: Knex.Transaction,
  tenantId: string,
  fileId: string,
  input: ReferenceInput,
): Promise<{ reference: FileReference } | { error: unknown }> {
  try {
    const reference = await trx.transaction((savepoint) =>
      new ReferenceStore(savepoint).add({
        id: randomUUID(),
        tenantId,
        fileId,
        moduleId: input.moduleId,
        entityId: input.entityId,
        referenceType: input.referenceType ?? DEFAULT_REFERENCE_TYPE,
        metadata: input.metadata ?? {},
      }),
    );
    return { reference };
  } catch (error) {
    return { error };
  }
}

export type AttachResult =
  { ok: true; reference: ReferenceView } | { ok: false; code: 'FILE_REF_WRITE_FAILED' };

/**
 * The reference a module upload asks for, written when the file is registered (drive.md §4). When writing it fails
 * the registration still stands: the file is flagged orphaned ('Needs repair') and the reference is kept in
 * file_ref_intents for repair-refs; the answer's code is FILE_REF_WRITE_FAILED ('Reference creation failed').
 */
export async function attachOnRegister(
  deps: DriveDeps,
  trx: Knex.Transaction,
  actor: Actor,
  fileId: string,
  input: ReferenceInput,
): Promise<AttachResult> {
  const written = await writeReference(trx, actor.tenantId, fileId, input);
  if ('reference' in written) {
    await deps.audit.write(trx, actor, 'FILE_REFERENCE_ADDED', {
      targetType: 'file',
      targetId: fileId,
      details: { moduleId: input.moduleId, entityId: input.entityId },
    });
    return { ok: true, reference: view(written.reference) };
  }
  deps.logger.warn({ err: written.error, fileId, moduleId: input.moduleId }, 'file reference write failed');
  await new FileStore(trx).update(fileId, { orphanedRef: true });
  await new ReferenceStore(trx).recordIntent({
    tenantId: actor.tenantId,
    fileId,
    moduleId: input.moduleId,
    entityId: input.entityId,
    referenceType: input.referenceType ?? DEFAULT_REFERENCE_TYPE,
    metadata: input.metadata ?? {},
    lastError: written.error instanceof Error ? written.error.message : String(written.error),
  });
  return { ok: false, code: 'FILE_REF_WRITE_FAILED' };
}

/** GET /files/:id/references: the file's references and the refs counters. */
export function listReferences(
  deps: DriveDeps,
  ctx: RequestContext,
  fileId: string,
): Promise<ReferencesAnswer> {
  return deps.inTenant(ctx.tenantId, async (trx) => {
    await readableFile(trx, callerOf(ctx), fileId);
    return referencesOf(trx, fileId);
  });
}

/**
 * POST /files/:id/references: attaches a live file to a module's entity (the same one again answers the one
 * there). A file flagged orphaned is attached again by it: the flag is cleared. A failed write is
 * FILE_REF_WRITE_FAILED.
 */
export async function addReference(
  deps: DriveDeps,
  ctx: RequestContext,
  fileId: string,
  input: ReferenceInput,
  key: string | undefined,
): Promise<ReferencesAnswer & { reference: ReferenceView }> {
  const actor = { tenantId: ctx.tenantId, userId: ctx.userId };
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'add-reference', async () => {
      const { file } = await readableFile(trx, callerOf(ctx), fileId);
      if (file.status !== 'active') throw problems.conflict('File is in the trash', 'FILE_TRASHED');
      const written = await writeReference(trx, ctx.tenantId, fileId, input);
      if ('error' in written) {
        deps.logger.warn({ err: written.error, fileId }, 'file reference write failed');
        throw new HttpProblem(500, 'FILE_REF_WRITE_FAILED', REFERENCE_TEXTS.writeFailed);
      }
      if (file.orphanedRef) await new FileStore(trx).update(fileId, { orphanedRef: false });
      await new ReferenceStore(trx).removeIntent(fileId, written.reference);
      await deps.audit.write(trx, actor, 'FILE_REFERENCE_ADDED', {
        targetType: 'file',
        targetId: fileId,
        details: { moduleId: input.moduleId, entityId: input.entityId },
      });
      return { reference: view(written.reference), ...(await referencesOf(trx, fileId)) };
    }),
  );
}

/** DELETE /files/:id/references/:referenceId: the module detaches the file (the file itself stays). */
export async function removeReference(
  deps: DriveDeps,
  ctx: RequestContext,
  fileId: string,
  referenceId: string,
): Promise<ReferencesAnswer> {
  const actor = { tenantId: ctx.tenantId, userId: ctx.userId };
  return deps.inTenant(ctx.tenantId, async (trx) => {
    await readableFile(trx, callerOf(ctx), fileId);
    const store = new ReferenceStore(trx);
    const reference = await store.get(fileId, referenceId);
    if (!reference || !(await store.remove(fileId, referenceId)))
      throw problems.notFound('Reference not found');
    await deps.audit.write(trx, actor, 'FILE_REFERENCE_REMOVED', {
      targetType: 'file',
      targetId: fileId,
      details: { moduleId: reference.moduleId, entityId: reference.entityId },
    });
    return referencesOf(trx, fileId);
  });
}

export interface RepairAnswer {
  fixed: string[];
  skipped: string[];
  pending: string[];
  /** 'Repaired {n} • Skipped {n} • Pending {n}' */
  summary: string;
}

type RepairOutcome = 'fixed' | 'skipped' | 'pending';

/** One file's repair, in its own transaction (docs/drive.md "References and repair"). */
async function repairOne(deps: DriveDeps, tenantId: string, fileId: string): Promise<RepairOutcome> {
  return deps.inTenant(tenantId, async (trx) => {
    const files = new FileStore(trx);
    const references = new ReferenceStore(trx);
    const file = await files.lock(fileId);
    if (!file) return 'skipped';
    const intents = await references.intents(fileId);
    const step = repairStep({
      orphanedRef: file.orphanedRef,
      status: file.status,
      references: (await references.forFile(fileId)).length,
      intents: intents.length,
    });
    if (step === 'skip') return 'skipped';
    if (step === 'wait') return 'pending';
    if (step === 'recreate') {
      let failures = 0;
      for (const intent of intents) {
        const written = await writeReference(trx, tenantId, fileId, intent);
        if ('reference' in written) {
          await references.removeIntent(fileId, intent);
        } else {
          failures += 1;
          await references.recordIntent({
            ...intent,
            lastError: written.error instanceof Error ? written.error.message : String(written.error),
          });
        }
      }
      if (failures > 0) return 'pending';
    } else {
      for (const intent of intents) await references.removeIntent(fileId, intent);
    }
    await files.update(fileId, { orphanedRef: false });
    return 'fixed';
  });
}

/**
 * POST /mutations/repair-refs: one file (fileId), or every orphaned file the caller may open (of these drives when
 * driveIds is given), repaired in batches of 10 in parallel, each file in its own transaction. Answers the fixed,
 * skipped and pending file ids and the summary line.
 */
export async function repairReferences(
  deps: DriveDeps,
  ctx: RequestContext,
  input: { fileId?: string; driveIds?: string[] },
): Promise<RepairAnswer> {
  const caller = callerOf(ctx);
  const candidates = await deps.inTenant(ctx.tenantId, async (trx) => {
    if (input.fileId !== undefined) {
      await readableFile(trx, caller, input.fileId);
      return [input.fileId];
    }
    for (const driveId of input.driveIds ?? []) await visibleDrive(trx, caller, driveId);
    const ids: string[] = [];
    for (const file of await new FileStore(trx).orphaned(input.driveIds)) {
      try {
        await readableFile(trx, caller, file.id);
        ids.push(file.id);
      } catch (error) {
        if (!(error instanceof HttpProblem) || error.detail !== FILE_NOT_FOUND) throw error;
      }
    }
    return ids;
  });
  const outcomes = await inBatches(candidates, (fileId) => repairOne(deps, ctx.tenantId, fileId));
  const answer: RepairAnswer = { fixed: [], skipped: [], pending: [], summary: '' };
  outcomes.forEach((outcome, index) => {
    const fileId = candidates[index] ?? '';
    if (outcome.status === 'rejected') {
      deps.logger.warn({ err: outcome.reason, fileId }, 'reference repair failed');
      answer.pending.push(fileId);
    } else {
      answer[outcome.value].push(fileId);
    }
  });
  answer.summary = repairSummary({
    fixed: answer.fixed.length,
    skipped: answer.skipped.length,
    pending: answer.pending.length,
  });
  if (candidates.length > 0) {
    await deps.inTenant(ctx.tenantId, (trx) =>
      deps.audit.write(trx, { tenantId: ctx.tenantId, userId: ctx.userId }, 'FILE_REFERENCES_REPAIRED', {
        targetType: 'file',
        targetIds: candidates,
        succeeded: answer.fixed.length,
        failed: answer.pending.length,
        details: { skipped: answer.skipped.length },
      }),
    );
  }
  return answer;
}
