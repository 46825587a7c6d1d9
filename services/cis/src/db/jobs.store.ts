import { camelise, type Camelised } from '@workspace/kit';
import { randomUUID } from 'node:crypto';
import type { Knex } from '@workspace/kit';

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface JobPayload {
  invoiceIds?: string[];
  taxMonth?: string;
  reason?: string;
}

interface JobRow {
  id: string;
  tenant_id: string;
  type: string;
  status: JobStatus;
  progress: number;
  payload: JobPayload;
  result: unknown;
  error: string | null;
  attempts: number;
  performed_by: string;
  created_at: Date;
  updated_at: Date;
}

export type JobRecord = Camelised<JobRow>;

/** The tenant's background jobs (their state and result): the only code touching `jobs`. */
export class JobStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** Records a pending job and puts it on the queue; answers its id. */
  async enqueue(job: {
    tenantId: string;
    type: string;
    payload: JobPayload;
    performedBy: string;
  }): Promise<string> {
    const id = randomUUID();
    await this.trx('jobs').insert({
      id,
      tenant_id: job.tenantId,
      type: job.type,
      status: 'pending',
      progress: 0,
      payload: JSON.stringify(job.payload),
      performed_by: job.performedBy,
    });
    await this.trx('job_queue').insert({ job_id: id, tenant_id: job.tenantId });
    return id;
  }

  async find(id: string): Promise<JobRecord | undefined> {
    const row = await this.trx<JobRow>('jobs').where({ id }).first();
    return row ? camelise(row) : undefined;
  }

  /** Marks a claimed job running, counting the attempt; undefined when the job is gone. */
  async start(id: string): Promise<JobRecord | undefined> {
    const { trx } = this;
    const [row] = await trx<JobRow>('jobs')
      .where({ id })
      .update({ status: 'running', attempts: trx.raw('attempts + 1'), updated_at: trx.fn.now() })
      .returning('*');
    return row ? camelise(row) : undefined;
  }

  async progress(id: string, progress: number): Promise<void> {
    await this.trx('jobs').where({ id }).update({ progress, updated_at: new Date() });
  }

  async complete(id: string, result: unknown): Promise<void> {
    await this.trx('jobs')
      .where({ id })
      .update({ status: 'completed', progress: 100, result: JSON.stringify(result), updated_at: new Date() });
  }

  /** After a failed attempt: pending again (to be retried), or failed with the error a person reads. */
  async attemptFailed(
    id: string,
    outcome: { status: 'pending' | 'failed'; error: string | null },
  ): Promise<void> {
    await this.trx('jobs')
      .where({ id })
      .update({ status: outcome.status, error: outcome.error, updated_at: new Date() });
  }
}

/** A job claimed from the queue, with what the worker can do with its queue entry. */
export interface ClaimedJob {
  jobId: string;
  tenantId: string;
  /** Takes the job off the queue. */
  remove(): Promise<void>;
  /** Keeps the job queued, due again at `at`. */
  retryAt(at: Date): Promise<void>;
}

/**
 * The queue of due jobs, across tenants (the worker claims whichever tenant's job is due first, so it works on
 * the pool itself, not in one tenant's transaction): the only code touching `job_queue` besides enqueueing.
 */
export class JobQueue {
  constructor(private readonly db: Knex) {}

  /**
   * Claims the first due job with FOR UPDATE SKIP LOCKED (replicas share the work) and runs `work` while the
   * claim holds; false when no job was due.
   */
  claim(work: (job: ClaimedJob) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (queueTrx) => {
      const claimed = (await queueTrx('job_queue')
        .where('run_after', '<=', queueTrx.fn.now())
        .orderBy('run_after')
        .forUpdate()
        .skipLocked()
        .first()) as { job_id: string; tenant_id: string } | undefined;
      if (!claimed) return false;
      await work({
        jobId: claimed.job_id,
        tenantId: claimed.tenant_id,
        remove: async () => {
          await queueTrx('job_queue').where({ job_id: claimed.job_id }).delete();
        },
        retryAt: async (at) => {
          await queueTrx('job_queue').where({ job_id: claimed.job_id }).update({ run_after: at });
        },
      });
      return true;
    });
  }

  /** Jobs waiting or running. */
  async depth(): Promise<number> {
    const row = await this.db('job_queue').count<{ count: number }[]>('* as count').first();
    return row?.count ?? 0;
  }

  /** When the oldest due job became due (undefined when none is). */
  async oldestDue(): Promise<Date | undefined> {
    const { db } = this;
    const row = await db('job_queue')
      .where('run_after', '<=', db.fn.now())
      .min<{ oldest: Date | null }[]>('run_after as oldest')
      .first();
    return row?.oldest ? new Date(row.oldest) : undefined;
  }
}
