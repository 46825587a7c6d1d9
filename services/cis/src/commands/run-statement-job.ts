import { inSavepoint } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { JobStore, type JobRecord } from '../db/jobs.store.js';
import { StatementStore } from '../db/statements.store.js';
import { jobChanged } from '../events/job-changes.js';
import { STATEMENT_JOB } from './statement-jobs.js';
import { generateStatement, refreshStatement, StatementError } from './statements.js';

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

interface Target {
  subcontractorId: string;
  taxMonth: string;
  name: string;
}

/** The (subcontractor, tax month) pairs a job covers: a whole month, or the paid months of given invoices. */
async function targetsOf(deps: CisDeps, job: JobRecord) {
  const rows = await deps.inTenant(job.tenantId, (trx) =>
    new InvoiceStore(trx).forStatementJob({
      ...(job.payload.taxMonth
        ? { taxMonth: job.payload.taxMonth }
        : { invoiceIds: job.payload.invoiceIds ?? [] }),
    }),
  );
  const pairs = new Map<string, Target>();
  let awaitingPayment = 0;
  for (const row of rows) {
    if (row.status !== 'paid' || !row.taxMonth) {
      awaitingPayment += 1;
      continue;
    }
    pairs.set(`${row.subcontractorId}:${row.taxMonth}`, {
      subcontractorId: row.subcontractorId,
      taxMonth: row.taxMonth,
      name: row.subcontractorName,
    });
  }
  return { pairs: [...pairs.values()], awaitingPayment };
}

/**
 * Runs a statement-generation job: each (subcontractor, tax month) pair is its own transaction, so progress is
 * visible while it runs and a crash loses nothing that was generated. An existing statement is refreshed (while
 * not issued) or skipped; a pair that cannot be generated is reported in `errors`. Generate All ends with one
 * bulk audit entry.
 */
export async function runStatementJob(deps: CisDeps, job: JobRecord): Promise<StatementJobResult> {
  if (job.type !== STATEMENT_JOB) throw new Error(`Unknown job type ${job.type}`);
  const actor = { tenantId: job.tenantId, userId: job.performedBy };
  const targets = await targetsOf(deps, job);
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
    await deps.inTenant(job.tenantId, async (trx) => {
      if (await new StatementStore(trx).exists(target.subcontractorId, target.taxMonth)) {
        if (await refreshStatement(trx, job.performedBy, target.subcontractorId, target.taxMonth))
          result.refreshed += 1;
        else result.skipped += 1;
      } else {
        try {
          const statement = await inSavepoint(trx, (inner) =>
            generateStatement(deps, inner, actor, target.subcontractorId, target.taxMonth),
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
      await new JobStore(trx).progress(job.id, progress);
      await jobChanged(trx, { ...job, status: 'running', progress });
    });
  }
  if (targets.pairs.length > 0 && job.payload.reason === 'generate-all') {
    await deps.inTenant(job.tenantId, (trx) =>
      deps.audit.write(trx, actor, 'cis.statement.bulk.generate', {
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
