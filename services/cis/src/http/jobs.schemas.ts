import { z } from 'zod';

export const jobParams = z.object({ id: z.uuid() });

export const jobStatus = z.enum(['pending', 'running', 'completed', 'failed']);

/** What a statement-generation job reports once completed. */
export const statementJobResult = z.object({
  /** The ids of the statements generated (the batch's success list; `errors` is its failed list). */
  succeeded: z.array(z.string()),
  generated: z.number(),
  failed: z.number(),
  skipped: z.number(),
  /** Generated statements (not yet issued) brought up to date with invoices paid since. */
  refreshed: z.number(),
  awaitingPayment: z.number(),
  errors: z.array(z.object({ subcontractorId: z.string(), subcontractor: z.string(), error: z.string() })),
});

/** A job as queued (its progress and result on GET /jobs/:id). */
export const queuedJob = z.object({
  id: z.string(),
  type: z.string(),
  status: jobStatus,
  progress: z.number(),
});

export const jobView = queuedJob.extend({
  /** Null until the job completes. */
  result: statementJobResult.nullable(),
  error: z.string().nullable(),
  performedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const jobResponse = z.object({ job: jobView });
