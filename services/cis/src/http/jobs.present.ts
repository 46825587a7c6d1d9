import type { JobRecord } from '../db/jobs.store.js';
import { iso } from '../domain/timestamps.js';

export const presentJob = (row: JobRecord) => ({
  id: row.id,
  type: row.type,
  status: row.status,
  progress: row.progress,
  result: row.result ?? null,
  error: row.error,
  performedBy: row.performedBy,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});
