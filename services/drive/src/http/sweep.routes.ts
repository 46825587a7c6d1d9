import { problems, type ApiRouter } from '@workspace/kit';
import type { Registry } from 'prom-client';
import { sweep, sweepMetrics } from '../commands/sweep.js';
import type { DriveDeps } from '../drive-deps.js';
import { driveRouter } from './router.js';
import { sweepRequest, sweepResponse } from './sweep.schemas.js';

/** POST /admin/sweep: the sweep now, for an operator (docs/runbook.md "Drive sweep"). */
export function sweepRoutes(deps: DriveDeps, registry: Registry): ApiRouter {
  const metrics = sweepMetrics(registry);
  return driveRouter(deps).route({
    method: 'post',
    path: '/admin/sweep',
    summary:
      'Sweep now: objects without a record removed (older than the upload grant TTL), records without an object flagged missing; the caller’s tenant, or the region for system.superadmin',
    scopes: ['drive.admin'],
    request: { body: sweepRequest },
    responses: {
      200: { description: 'What the sweep found and did', schema: sweepResponse },
      403: { description: 'A region sweep without system.superadmin' },
    },
    handler: async ({ ctx, body }) => {
      if (body.region && !ctx.scopes.has('system.superadmin')) {
        throw problems.forbidden('A region sweep requires the system.superadmin permission.');
      }
      return sweep(deps, body.region ? { metrics } : { tenantId: ctx.tenantId, metrics });
    },
  });
}
