import { PgListener, type BackgroundWorker } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { runStatementJob } from '../commands/run-statement-job.js';
import { JobQueue, JobStore, type JobRecord } from '../db/jobs.store.js';
import { JOB_CHANNEL, jobChanged } from '../events/job-changes.js';

const MAX_ATTEMPTS = 5;

/**
 * Runs queued jobs (statement generation). Claims from the job queue with FOR UPDATE SKIP LOCKED so replicas
 * share the work; a job that throws is retried with backoff up to five attempts, then marked failed.
 */
export class JobWorker implements BackgroundWorker {
  readonly name = 'cis-jobs';
  private running = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly listener: PgListener;
  private readonly queue: JobQueue;

  constructor(private readonly deps: CisDeps) {
    this.queue = new JobQueue(deps.db);
    this.listener = new PgListener({
      databaseUrl: deps.config.DATABASE_URL,
      channel: JOB_CHANNEL,
      onNotify: () => this.wake?.(),
      onConnect: () => this.wake?.(),
      logger: deps.logger,
    });
  }

  start(): void {
    this.running = true;
    this.listener.start();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.listener.stop();
    await this.loop;
  }

  private isRunning(): boolean {
    return this.running;
  }

  private async run(): Promise<void> {
    while (this.isRunning()) {
      let worked = false;
      try {
        worked = await this.runOne();
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'job worker could not reach the database; retrying');
      }
      if (!worked && this.isRunning()) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.deps.config.CIS_JOB_POLL_MS);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  /** Claims one due job and runs it; false when there was none. */
  runOne(): Promise<boolean> {
    const { deps } = this;
    return this.queue.claim(async (claimed) => {
      const job = await deps.inTenant(claimed.tenantId, async (trx) => {
        const started = await new JobStore(trx).start(claimed.jobId);
        if (started) await jobChanged(trx, started);
        return started;
      });
      if (!job) {
        await claimed.remove();
        return;
      }
      try {
        const result = await runStatementJob(deps, job);
        await deps.inTenant(job.tenantId, async (trx) => {
          await new JobStore(trx).complete(job.id, result);
          await jobChanged(trx, { ...job, status: 'completed', progress: 100 });
        });
        await claimed.remove();
      } catch (error) {
        await this.failed(job, error, claimed);
      }
    });
  }

  /** A failed attempt: retried after 2^attempts seconds, or after the fifth marked failed and dequeued. */
  private async failed(
    job: JobRecord,
    error: unknown,
    claimed: { remove(): Promise<void>; retryAt(at: Date): Promise<void> },
  ): Promise<void> {
    this.deps.logger.error({ err: error, jobId: job.id }, 'job failed');
    const final = job.attempts >= MAX_ATTEMPTS;
    await this.deps.inTenant(job.tenantId, async (trx) => {
      await new JobStore(trx).attemptFailed(job.id, {
        status: final ? 'failed' : 'pending',
        error: final ? 'Batch statement generation failed' : null,
      });
      await jobChanged(trx, { ...job, status: final ? 'failed' : 'pending' });
    });
    if (final) await claimed.remove();
    else await claimed.retryAt(new Date(Date.now() + 2 ** job.attempts * 1_000));
  }
}
