import { ApiRouter, PgListener, problems, serveSse, type BackgroundWorker, type Knex } from '@workspace/kit';
import { z } from 'zod';
import { JOB_CHANGES_CHANNEL, JOB_CHANNEL, type CisContext } from './context.js';
import { iso, looseObject } from './http/common.js';
import type { InvoiceRow } from './http/invoices.js';
import type { JobChangeHub } from './http/stream.js';
import { generateStatement, refreshStatement, StatementError } from './http/statements.js';

interface JobRow {
  id: string;
  tenant_id: string;
  type: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  progress: number;
  payload: { invoiceIds?: string[]; taxMonth?: string; reason?: string };
  result: unknown;
  error: string | null;
  attempts: number;
  performed_by: string;
  created_at: Date;
  updated_at: Date;
}

export const jobView = (row: JobRow) => ({
  id: row.id,
  type: row.type,
  status: row.status,
  progress: row.progress,
  result: row.result ?? null,
  error: row.error,
  performedBy: row.performed_by,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export interface StatementJobResult {
  /** The ids of the statements generated (the batch's success list; `errors` is its failed list). */
  succeeded: string[];
  generated: number;
  failed: number;
  skipped: number;
  /** Generated statements (not yet issued) brought up to date with invoices paid since. */
  refreshed: number;
  awaitingPayment: number;
  errors: { subcontractorId: string; subcontractor: string; error: string }[];
}

const MAX_ATTEMPTS = 5;

/** Tells the job's streams at every replica (`GET /jobs/:id/stream`) its new state, when the change commits. */
async function jobChanged(
  trx: Knex.Transaction,
  job: Pick<JobRow, 'id' | 'tenant_id' | 'status' | 'progress'>,
): Promise<void> {
  const payload = { tenantId: job.tenant_id, id: job.id, status: job.status, progress: job.progress };
  await trx.raw('SELECT pg_notify(?, ?)', [JOB_CHANGES_CHANNEL, JSON.stringify(payload)]);
}

/**
 * Runs queued jobs (statement generation). Claims from `job_queue` with FOR UPDATE SKIP LOCKED so replicas share
 * the work; a job that throws is retried with backoff up to five attempts, then marked failed. Each statement is
 * its own transaction, so progress is visible while it runs and a crash loses nothing that was generated.
 */
export class JobWorker implements BackgroundWorker {
  readonly name = 'cis-jobs';
  private running = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly listener: PgListener;

  constructor(private readonly context: CisContext) {
    this.listener = new PgListener({
      databaseUrl: context.config.DATABASE_URL,
      channel: JOB_CHANNEL,
      onNotify: () => this.wake?.(),
      onConnect: () => this.wake?.(),
      logger: context.logger,
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
        this.context.logger.warn({ err: error }, 'job worker could not reach the database; retrying');
      }
      if (!worked && this.isRunning()) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.context.config.CIS_JOB_POLL_MS);
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
  async runOne(): Promise<boolean> {
    const { db } = this.context;
    return db.transaction(async (queueTrx) => {
      const claimed = (await queueTrx('job_queue')
        .where('run_after', '<=', queueTrx.fn.now())
        .orderBy('run_after')
        .forUpdate()
        .skipLocked()
        .first()) as { job_id: string; tenant_id: string } | undefined;
      if (!claimed) return false;
      const job = await this.context.inTenant(claimed.tenant_id, async (trx) => {
        const [row] = await trx<JobRow>('jobs')
          .where({ id: claimed.job_id })
          .update({ status: 'running', attempts: trx.raw('attempts + 1'), updated_at: trx.fn.now() })
          .returning('*');
        if (row) await jobChanged(trx, row);
        return row;
      });
      if (!job) {
        await queueTrx('job_queue').where({ job_id: claimed.job_id }).delete();
        return true;
      }
      try {
        const result = await this.execute(job);
        await this.context.inTenant(job.tenant_id, async (trx) => {
          await trx('jobs')
            .where({ id: job.id })
            .update({
              status: 'completed',
              progress: 100,
              result: JSON.stringify(result),
              updated_at: new Date(),
            });
          await jobChanged(trx, { ...job, status: 'completed', progress: 100 });
        });
        await queueTrx('job_queue').where({ job_id: job.id }).delete();
      } catch (error) {
        this.context.logger.error({ err: error, jobId: job.id }, 'job failed');
        const final = job.attempts >= MAX_ATTEMPTS;
        await this.context.inTenant(job.tenant_id, async (trx) => {
          await trx('jobs')
            .where({ id: job.id })
            .update({
              status: final ? 'failed' : 'pending',
              error: final ? 'Batch statement generation failed' : null,
              updated_at: new Date(),
            });
          await jobChanged(trx, { ...job, status: final ? 'failed' : 'pending' });
        });
        if (final) await queueTrx('job_queue').where({ job_id: job.id }).delete();
        else
          await queueTrx('job_queue')
            .where({ job_id: job.id })
            .update({ run_after: new Date(Date.now() + 2 ** job.attempts * 1_000) });
      }
      return true;
    });
  }

  private async execute(job: JobRow): Promise<StatementJobResult> {
    if (job.type !== 'statements.generate') throw new Error(`Unknown job type ${job.type}`);
    const targets = await this.context.inTenant(job.tenant_id, (trx) => this.targets(trx, job));
    const result: StatementJobResult = {
      succeeded: [],
      generated: 0,
      failed: 0,
      skipped: 0,
      refreshed: 0,
      awaitingPayment: targets.awaitingPayment,
      errors: [],
    };
    for (const [index, target] of targets.pairs.entries()) {
      await this.context.inTenant(job.tenant_id, async (trx) => {
        const exists = await trx<{ id: string; subcontractor_id: string; tax_month: string }>('statements')
          .where({ subcontractor_id: target.subcontractorId, tax_month: target.taxMonth })
          .first('id');
        if (exists) {
          if (await refreshStatement(trx, job.performed_by, target.subcontractorId, target.taxMonth))
            result.refreshed += 1;
          else result.skipped += 1;
        } else {
          try {
            const statement = await trx.transaction((inner) =>
              generateStatement(
                this.context,
                inner,
                job.tenant_id,
                job.performed_by,
                target.subcontractorId,
                target.taxMonth,
              ),
            );
            result.succeeded.push(statement.id);
            result.generated += 1;
          } catch (error) {
            if (!(error instanceof StatementError)) throw error;
            result.failed += 1;
            result.errors.push({
              subcontractorId: target.subcontractorId,
              subcontractor: target.name,
              error: error.message,
            });
          }
        }
        const progress = Math.floor(((index + 1) / targets.pairs.length) * 99);
        await trx('jobs').where({ id: job.id }).update({ progress, updated_at: new Date() });
        await jobChanged(trx, { ...job, status: 'running', progress });
      });
    }
    if (targets.pairs.length > 0 && job.payload.reason === 'generate-all') {
      await this.context.inTenant(job.tenant_id, (trx) =>
        this.context.audit(trx, job.tenant_id, job.performed_by, 'cis.statement.bulk.generate', {
          targetType: 'statement',
          ...(job.payload.taxMonth ? { taxMonth: job.payload.taxMonth } : {}),
          succeeded: result.generated,
          failed: result.failed,
          summary: `Generate All: ${result.generated} statements generated, ${result.failed} failed`,
        }),
      );
    }
    return result;
  }

  /** The (subcontractor, tax month) pairs a job covers: a whole month, or the paid months of given invoices. */
  private async targets(trx: Knex.Transaction, job: JobRow) {
    const base = trx<InvoiceRow>('invoices')
      .whereNull('deleted_at')
      .whereIn('status', ['approved', 'paid'])
      .where('cis_deduction_p', '>=', 0);
    const rows: Pick<InvoiceRow, 'subcontractor_id' | 'subcontractor_name' | 'tax_month' | 'status'>[] = job
      .payload.taxMonth
      ? await base
          .clone()
          .where({ tax_month: job.payload.taxMonth, status: 'paid' })
          .select('subcontractor_id', 'subcontractor_name', 'tax_month', 'status')
      : await base
          .clone()
          .whereIn('id', job.payload.invoiceIds ?? [])
          .select('subcontractor_id', 'subcontractor_name', 'tax_month', 'status');
    const pairs = new Map<string, { subcontractorId: string; taxMonth: string; name: string }>();
    let awaitingPayment = 0;
    for (const row of rows) {
      if (row.status !== 'paid' || !row.tax_month) {
        awaitingPayment += 1;
        continue;
      }
      pairs.set(`${row.subcontractor_id}:${row.tax_month}`, {
        subcontractorId: row.subcontractor_id,
        taxMonth: row.tax_month,
        name: row.subcontractor_name,
      });
    }
    return { pairs: [...pairs.values()], awaitingPayment };
  }
}

/** The states after which a job changes no more: its stream ends there. */
const FINAL_STATES = new Set(['completed', 'failed']);

const jobState = (data: string): { id?: string; status?: string } => {
  try {
    return JSON.parse(data) as { id?: string; status?: string };
  } catch {
    return {};
  }
};

export function jobRoutes(context: CisContext, hub: JobChangeHub): ApiRouter {
  const readJob = (tenantId: string, id: string) =>
    context.inTenant(tenantId, async (trx) => {
      const row = await trx<JobRow>('jobs').where({ id }).first();
      if (!row) throw problems.notFound('Job not found');
      return row;
    });
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/jobs/:id',
      summary: 'A background job: status, progress and result',
      scopes: ['cis.inv.read'],
      request: { params: z.object({ id: z.uuid() }) },
      responses: { 200: { description: 'The job', schema: z.object({ job: looseObject }) } },
      handler: async ({ ctx, params }) => ({ job: jobView(await readJob(ctx.tenantId, params.id)) }),
    })
    .route({
      method: 'get',
      path: '/jobs/:id/stream',
      summary:
        'Server-Sent Events of one job: `job` {id, status, progress} now and on each change, until completed or failed (then GET /jobs/:id has the result)',
      scopes: ['cis.inv.read'],
      request: { params: z.object({ id: z.uuid() }) },
      responses: { 200: { description: 'text/event-stream' } },
      handler: async ({ ctx, params, req, res }) => {
        // 404 before the stream opens, for a job that is not the tenant's.
        await readJob(ctx.tenantId, params.id);
        await serveSse(hub, ctx.tenantId, req, res, {
          filter: (message) => message.event === 'job' && jobState(message.data).id === params.id,
          last: (message) => FINAL_STATES.has(jobState(message.data).status ?? ''),
          initial: async () => {
            const row = await readJob(ctx.tenantId, params.id);
            const { id, status, progress } = jobView(row);
            return [{ event: 'job', data: JSON.stringify({ id, status, progress }) }];
          },
        });
      },
    });
}
