import type { ApiRouter } from '@workspace/kit';
import { idempotencyKey } from '../commands/idempotency.js';
import {
  createShare,
  getShare,
  listShares,
  rebuildShare,
  revokeShare,
  shareLinkCopied,
  updateShareSettings,
} from '../commands/shares.js';
import type { DriveDeps } from '../drive-deps.js';
import { driveRouter } from './router.js';
import {
  createShareBody,
  listSharesQuery,
  rebuildResponse,
  revokeShareBody,
  shareDetailResponse,
  shareIdParam,
  shareListResponse,
  shareSettingsBody,
  shareTenantBody,
  shareTenantQuery,
  shareView,
} from './shares.schemas.js';

/** Shares (exports) for staff: create, list, one, settings, rebuild, revoke, link copied (docs/drive.md). */
export function shareRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'post',
      path: '/mutations/share',
      summary:
        'Create a share of files of one library (X-Idempotency-Key); 422 share_validation_failed lists each refused file and its reason',
      request: { body: createShareBody },
      status: 201,
      responses: {
        201: { description: 'The share', schema: shareView },
        403: { description: "You don't have permission to share files" },
        422: { description: 'Files that cannot be shared, each with its reason (refusals)' },
      },
      handler: ({ ctx, body, req }) => createShare(deps, ctx, body, idempotencyKey(req)),
    })
    .route({
      method: 'get',
      path: '/shares',
      summary:
        'The shares the caller sees, newest change first, with counts per status (All Shares / Active / Expired)',
      request: { query: listSharesQuery },
      responses: { 200: { description: 'Shares and counts', schema: shareListResponse } },
      handler: ({ ctx, query }) => listShares(deps, ctx, query),
    })
    .route({
      method: 'get',
      path: '/shares/:shareId',
      summary: 'One share with its files',
      request: { params: shareIdParam, query: shareTenantQuery },
      responses: { 200: { description: 'The share', schema: shareDetailResponse } },
      handler: ({ ctx, params, query }) => getShare(deps, ctx, params.shareId, query.tenantId),
    })
    .route({
      method: 'post',
      path: '/shares/:shareId/settings',
      summary:
        "A share's visibility, allowed users, policy and passcode (a new passcode unlocks a locked link)",
      request: { params: shareIdParam, body: shareSettingsBody },
      responses: { 200: { description: 'The share', schema: shareView } },
      handler: ({ ctx, params, body, req }) =>
        updateShareSettings(deps, ctx, params.shareId, body, idempotencyKey(req)),
    })
    .route({
      method: 'post',
      path: '/shares/:shareId/rebuild',
      summary: "Take the share's purged and trashed files out of it: 'Removed {n} missing file(s).'",
      request: { params: shareIdParam, body: shareTenantBody },
      responses: { 200: { description: 'How many went', schema: rebuildResponse } },
      handler: ({ ctx, params, body, req }) =>
        rebuildShare(deps, ctx, params.shareId, body.tenantId, idempotencyKey(req)),
    })
    .route({
      method: 'post',
      path: '/shares/:shareId/revoke',
      summary: "Revoke a share and its link for good (reason default 'Manual revocation')",
      request: { params: shareIdParam, body: revokeShareBody },
      responses: { 200: { description: 'The share', schema: shareView } },
      handler: ({ ctx, params, body, req }) =>
        revokeShare(deps, ctx, params.shareId, body, idempotencyKey(req)),
    })
    .route({
      method: 'post',
      path: '/shares/:shareId/link-copied',
      summary: 'The Share Links dialog copied the link (audited SHARE_LINK_COPIED)',
      request: { params: shareIdParam, body: shareTenantBody },
      responses: { 204: { description: 'Recorded' } },
      handler: async ({ ctx, params, body }) => {
        await shareLinkCopied(deps, ctx, params.shareId, body.tenantId);
        return undefined;
      },
    });
}
