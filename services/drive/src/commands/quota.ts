import { HttpProblem, type Knex, type RequestContext } from '@workspace/kit';
import { UsageStore } from '../db/usage.store.js';
import { quotaRefusal, tierLimitBytes, type StorageTier } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';

/** The tier, or undefined when identity cannot say (drive.md §5: a failed quota check is non-fatal). */
export async function tierOf(
  deps: DriveDeps,
  tenantId: string,
  authorization: string,
): Promise<StorageTier | undefined> {
  try {
    return await deps.identity.storageTier(tenantId, authorization);
  } catch (error) {
    deps.logger.warn({ err: error, tenantId }, 'storage tier unknown: the quota check is skipped');
    return undefined;
  }
}

/** Thrown inside a transaction when the bytes do not fit; `quotaProblem` turns it into the answer. */
export class QuotaExceeded extends Error {
  constructor(readonly refusal: { message: string; remainingGB: number; requiredGB: number }) {
    super(refusal.message);
  }
}

/**
 * drive.md §5's quota check: the remaining space (the tier's limit, or the custom limit, minus what is used) is at
 * least `size`. A tier identity could not say, or a check that fails, is only a warning: the work continues.
 */
export async function checkQuota(
  deps: DriveDeps,
  trx: Knex.Transaction,
  tenantId: string,
  tier: StorageTier | undefined,
  size: number,
): Promise<void> {
  if (tier === undefined) return;
  let refusal: ReturnType<typeof quotaRefusal>;
  try {
    const usage = await new UsageStore(trx).get(tenantId);
    refusal = quotaRefusal(
      { limitBytes: tierLimitBytes(tier, usage.customLimit), usedBytes: usage.used },
      size,
    );
  } catch (error) {
    deps.logger.warn({ err: error, tenantId }, 'quota check failed; the upload continues');
    return;
  }
  if (refusal) throw new QuotaExceeded(refusal);
}

/**
 * The answer to an error of work that checked the quota: a QuotaExceeded becomes 413 STORAGE_LIMIT_EXCEEDED with
 * its GB figures, audited STORAGE_QUOTA_EXCEEDED in a transaction of its own (the work's rolled back); anything else
 * is answered as it is.
 */
export async function quotaProblem(
  deps: DriveDeps,
  ctx: RequestContext,
  error: unknown,
  target: { targetId: string; libraryId?: string; fileId?: string; size: number },
): Promise<unknown> {
  if (!(error instanceof QuotaExceeded)) return error;
  const { remainingGB, requiredGB } = error.refusal;
  await deps.inTenant(ctx.tenantId, (trx) =>
    deps.audit.write(trx, { tenantId: ctx.tenantId, userId: ctx.userId }, 'STORAGE_QUOTA_EXCEEDED', {
      targetType: 'storage',
      targetId: target.targetId,
      details: {
        libraryId: target.libraryId,
        fileId: target.fileId,
        size: target.size,
        remainingGB,
        requiredGB,
      },
    }),
  );
  return new HttpProblem(413, 'STORAGE_LIMIT_EXCEEDED', error.refusal.message, undefined, {
    remainingGB,
    requiredGB,
  });
}
