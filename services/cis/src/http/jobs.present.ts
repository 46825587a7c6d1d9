import type { z } from 'zod';
import type { StatementJobResult } from '../commands/run-statement-job.js';
import type { JobRecord } from '../db/jobs.store.js';
import { timestamp } from './http-helpers.js';
import type { jobView } from './jobs.schemas.js';

export const presentJob = (row: JobRecord): z.input<typeof jobView> => ({
  id: row.id,
  type: row.type,
  status: row.status,
  progress: row.progress,
  // Statement generation is the only job there is (STATEMENT_JOB): its result is a StatementJobResult.
  result: (row.result ?? null) as StatementJobResult | null,
  error: row.error,
  performedBy: row.performedBy,
  createdAt: timestamp(row.createdAt),
  updatedAt: timestamp(row.updatedAt),
});
