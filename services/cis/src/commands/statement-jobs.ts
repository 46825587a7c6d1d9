import type { Knex } from '@workspace/kit';
import { JobStore, type JobPayload } from '../db/jobs.store.js';
import { jobQueued } from '../events/job-changes.js';
import type { Actor } from '../events/audit.js';

export const STATEMENT_JOB = 'statements.generate';

/** Queues the statement-generation job (cis.md section 4: on approval when the deduction is above 0). */
export async function queueStatementJob(
  trx: Knex.Transaction,
  actor: Actor,
  payload: JobPayload & { reason: string },
): Promise<string> {
  const id = await new JobStore(trx).enqueue({
    tenantId: actor.tenantId,
    type: STATEMENT_JOB,
    payload,
    performedBy: actor.userId,
  });
  await jobQueued(trx, id);
  return id;
}
