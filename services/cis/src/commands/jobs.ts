import { problems } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { JobStore, type JobRecord } from '../db/jobs.store.js';

/** One of the tenant's background jobs (404 for another tenant's). */
export function readJob(deps: CisDeps, tenantId: string, id: string): Promise<JobRecord> {
  return deps.inTenant(tenantId, async (trx) => {
    const row = await new JobStore(trx).find(id);
    if (!row) throw problems.notFound('Job not found');
    return row;
  });
}
