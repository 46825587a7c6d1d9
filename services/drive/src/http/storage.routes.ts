import type { ApiRouter } from '@workspace/kit';
import { idempotencyKey } from '../commands/idempotency.js';
import { changeTier, storageSummary, trackStorage } from '../commands/storage.js';
import type { DriveDeps } from '../drive-deps.js';
import { driveRouter } from './router.js';
import {
  changeTierBody,
  storageQuery,
  storageResponse,
  trackStorageBody,
  trackStorageResponse,
} from './storage.schemas.js';

/** The tenant's storage: tier, capacity, use and usage stats (drive.md §3, §5, §9). */
export function storageRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'get',
      path: '/storage',
      summary:
        "The tenant's storage: tier, cap, used, remaining GB (the toolbar's), features, per-type counters, daily and monthly usage",
      request: { query: storageQuery },
      responses: {
        200: { description: 'Storage summary', schema: storageResponse },
        400: { description: "'Tenant ID is required'" },
      },
      handler: ({ ctx, query, req }) =>
        storageSummary(deps, ctx, req.headers.authorization ?? '', query.tenantId),
    })
    .route({
      method: 'post',
      path: '/storage/track',
      summary:
        'drive.md §7 storage/track: accepted and not applied (the drive accounts usage itself at register, version and purge)',
      request: { body: trackStorageBody },
      responses: { 200: { description: 'What was done: nothing', schema: trackStorageResponse } },
      handler: ({ ctx, body, req }) => {
        idempotencyKey(req);
        return Promise.resolve(trackStorage(ctx, body));
      },
    })
    .route({
      method: 'post',
      path: '/storage/tier',
      summary:
        "Change the tenant's storage tier (identity's record) and custom limit (the drive's); super-administrators only",
      scopes: ['system.superadmin'],
      request: { body: changeTierBody },
      responses: {
        200: { description: 'The new storage summary', schema: storageResponse },
        400: { description: "'Tenant ID is required'" },
        403: { description: 'Not a super-administrator' },
      },
      handler: ({ ctx, body, req }) => {
        idempotencyKey(req);
        return changeTier(deps, ctx, req.headers.authorization ?? '', body);
      },
    });
}
