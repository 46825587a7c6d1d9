import { ApiRouter, serveSse } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { readJob } from '../commands/jobs.js';
import type { JobChangeHub } from '../workers/change-hubs.js';
import { presentJob } from './jobs.present.js';
import { jobParams, jobResponse } from './jobs.schemas.js';

/** The states after which a job changes no more: its stream ends there. */
const FINAL_STATES = new Set(['completed', 'failed']);

const jobState = (data: string): { id?: string; status?: string } => {
  try {
    return JSON.parse(data) as { id?: string; status?: string };
  } catch {
    return {};
  }
};

export function jobRoutes(deps: CisDeps, hub: JobChangeHub): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/jobs/:id',
      summary: 'A background job: status, progress and result',
      scopes: ['cis.inv.read'],
      request: { params: jobParams },
      responses: { 200: { description: 'The job', schema: jobResponse } },
      handler: async ({ ctx, params }) => ({ job: presentJob(await readJob(deps, ctx.tenantId, params.id)) }),
    })
    .route({
      method: 'get',
      path: '/jobs/:id/stream',
      summary:
        'Server-Sent Events of one job: `job` {id, status, progress} now and on each change, until completed or failed (then GET /jobs/:id has the result)',
      scopes: ['cis.inv.read'],
      request: { params: jobParams },
      responses: { 200: { description: 'text/event-stream' } },
      handler: async ({ ctx, params, req, res }) => {
        // 404 before the stream opens, for a job that is not the tenant's.
        await readJob(deps, ctx.tenantId, params.id);
        await serveSse(hub, ctx.tenantId, req, res, {
          filter: (message) => message.event === 'job' && jobState(message.data).id === params.id,
          last: (message) => FINAL_STATES.has(jobState(message.data).status ?? ''),
          initial: async () => {
            const { id, status, progress } = await readJob(deps, ctx.tenantId, params.id);
            return [{ event: 'job', data: JSON.stringify({ id, status, progress }) }];
          },
        });
      },
    });
}
