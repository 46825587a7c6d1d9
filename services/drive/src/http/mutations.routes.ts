import type { ApiRouter } from '@workspace/kit';
import { z } from 'zod';
import { requireOwnTenant } from '../commands/access.js';
import { idempotencyKey } from '../commands/idempotency.js';
import { repairReferences } from '../commands/references.js';
import { deleteFile, deleteFiles, emptyTrash, purgeFile, restoreFiles } from '../commands/trash.js';
import type { DriveDeps } from '../drive-deps.js';
import {
  bulkDeleteResponse,
  deleteRequest,
  deleteResponse,
  emptyTrashRequest,
  emptyTrashResponse,
  purgeRequest,
  purgeResponse,
  repairRefsRequest,
  repairRefsResponse,
  restoreRequest,
  restoreResponse,
} from './mutations.schemas.js';
import { driveRouter } from './router.js';

/** Trash, restore, purge, Empty Trash and reference repair (drive.md §7 calls; docs/drive.md). */
export function mutationRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'post',
      path: '/mutations/delete',
      summary:
        'Move a file to the trash, or delete it for good (permanent, hard delete); with fileIds, the caller’s own files only',
      request: { body: deleteRequest },
      responses: {
        200: { description: 'Deleted', schema: z.union([deleteResponse, bulkDeleteResponse]) },
        403: { description: 'Refused by the library’s delete rules, or none of the files is the caller’s' },
        404: { description: 'File not found' },
        409: { description: 'Already in the trash' },
        422: { description: 'Failed to delete all files' },
      },
      handler: async ({ ctx, body, req }) => {
        requireOwnTenant(ctx, body.tenantId);
        const key = idempotencyKey(req);
        return body.fileIds === undefined
          ? deleteFile(deps, ctx, { fileId: body.fileId ?? '', permanent: body.permanent }, key)
          : deleteFiles(deps, ctx, { fileIds: body.fileIds, permanent: body.permanent }, key);
      },
    })
    .route({
      method: 'post',
      path: '/mutations/restore',
      summary: 'Restore files from the trash (a taken name gets the next free one)',
      request: { body: restoreRequest },
      responses: {
        200: { description: 'Restored', schema: restoreResponse },
        403: { description: 'No restore permission' },
        404: { description: 'File not found' },
        409: { description: 'Not in the trash' },
        413: { description: 'STORAGE_LIMIT_EXCEEDED: its bytes no longer fit in the quota' },
      },
      handler: async ({ ctx, body, req }) => {
        requireOwnTenant(ctx, body.tenantId);
        return restoreFiles(
          deps,
          ctx,
          body.fileId === undefined ? { fileIds: body.fileIds ?? [] } : { fileId: body.fileId },
          idempotencyKey(req),
          req.headers.authorization ?? '',
        );
      },
    })
    .route({
      method: 'post',
      path: '/mutations/purge',
      summary:
        'Delete a file for good: objects, record, versions, stars, views, share entries and references',
      request: { body: purgeRequest },
      responses: {
        200: { description: 'Purged', schema: purgeResponse },
        403: { description: 'No hard delete permission, or refused by the library’s delete rules' },
        404: { description: 'File not found' },
      },
      handler: async ({ ctx, body, req }) => {
        requireOwnTenant(ctx, body.tenantId);
        return purgeFile(deps, ctx, body.fileId, idempotencyKey(req));
      },
    })
    .route({
      method: 'post',
      path: '/mutations/empty-trash',
      summary: 'Purge every trashed file the caller may purge (of one drive when given)',
      request: { body: emptyTrashRequest },
      responses: {
        200: { description: 'Emptied', schema: emptyTrashResponse },
        403: { description: 'No hard delete permission' },
      },
      handler: async ({ ctx, body, req }) => {
        requireOwnTenant(ctx, body.tenantId);
        return emptyTrash(
          deps,
          ctx,
          body.driveId === undefined ? {} : { driveId: body.driveId },
          idempotencyKey(req),
        );
      },
    })
    .route({
      method: 'post',
      path: '/mutations/repair-refs',
      summary: 'Repair orphaned file references in batches of 10: fixed, skipped and pending lists',
      scopes: ['drive.attachment.add'],
      request: { body: repairRefsRequest },
      responses: {
        200: { description: 'Repair summary', schema: repairRefsResponse },
        404: { description: 'File or drive not found' },
      },
      handler: async ({ ctx, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return repairReferences(deps, ctx, {
          ...(body.fileId === undefined ? {} : { fileId: body.fileId }),
          ...(body.driveIds === undefined ? {} : { driveIds: body.driveIds }),
        });
      },
    });
}
