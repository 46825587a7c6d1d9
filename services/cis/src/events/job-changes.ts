import { notify } from '@workspace/kit';
import type { Knex } from '@workspace/kit';
import type { JobStatus } from '../db/jobs.store.js';

/** Channel that wakes the job workers. */
export const JOB_CHANNEL = 'cis_jobs';
/** Each change of a job's state (status, progress), for its streams at every replica. */
export const JOB_CHANGES_CHANNEL = 'cis_job_changes';

/** Wakes the job workers of every replica for a newly queued job (when the transaction commits). */
export async function jobQueued(trx: Knex.Transaction, jobId: string): Promise<void> {
  await notify(trx, JOB_CHANNEL, jobId);
}

/** Tells the job's streams at every replica (`GET /jobs/:id/stream`) its new state, when the change commits. */
export async function jobChanged(
  trx: Knex.Transaction,
  job: { id: string; tenantId: string; status: JobStatus; progress: number },
): Promise<void> {
  const payload = { tenantId: job.tenantId, id: job.id, status: job.status, progress: job.progress };
  await notify(trx, JOB_CHANGES_CHANNEL, JSON.stringify(payload));
}
