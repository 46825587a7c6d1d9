import type { ApiRouter } from '@workspace/kit';
import { requireOwnTenant } from '../commands/access.js';
import {
  assignFolder,
  createFolder,
  deleteFolder,
  folderByPath,
  listFolders,
  updateCounts,
  updateFolder,
} from '../commands/folders.js';
import { idempotencyKey } from '../commands/idempotency.js';
import type { DriveDeps } from '../drive-deps.js';
import {
  driveFoldersParams,
  folderAssignBody,
  folderAssignResponse,
  folderCreateBody,
  folderCreateResponse,
  folderDeleteBody,
  folderDeleteResponse,
  folderListResponse,
  folderPathQuery,
  folderPathResponse,
  folderUpdateBody,
  folderUpdateResponse,
  updateCountsBody,
  updateCountsResponse,
} from './folders.schemas.js';
import { driveRouter } from './router.js';

/** Folders of a drive and moving files between them (docs/drive.md "Folders"). */
export function folderRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'post',
      path: '/folders/create',
      summary: 'Create a folder in a drive (at its root or under a parent)',
      request: { body: folderCreateBody },
      status: 201,
      responses: { 201: { description: 'The new folder', schema: folderCreateResponse } },
      handler: ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return createFolder(deps, ctx, body, idempotencyKey(req));
      },
    })
    .route({
      method: 'post',
      path: '/folders/update',
      summary: 'Rename, recolour or move a folder (with its sub-folders)',
      request: { body: folderUpdateBody },
      responses: { 200: { description: 'The folder as it is now', schema: folderUpdateResponse } },
      handler: ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return updateFolder(deps, ctx, body, idempotencyKey(req));
      },
    })
    .route({
      method: 'post',
      path: '/folders/delete',
      summary: "Delete a folder and its sub-folders; their files move to the folder's parent",
      request: { body: folderDeleteBody },
      responses: { 200: { description: 'Folder deleted successfully', schema: folderDeleteResponse } },
      handler: ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return deleteFolder(deps, ctx, body, idempotencyKey(req));
      },
    })
    .route({
      method: 'post',
      path: '/folders/update-counts',
      summary: "Recount every folder's fileCount and totalSize in a drive",
      request: { body: updateCountsBody },
      responses: { 200: { description: 'How many folders were recounted', schema: updateCountsResponse } },
      handler: ({ ctx, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return updateCounts(deps, ctx, body.driveId);
      },
    })
    .route({
      method: 'get',
      path: '/drives/:driveId/folders',
      summary: "A drive's folders, oldest first, with their counts and the drive's and library's names",
      request: { params: driveFoldersParams },
      responses: { 200: { description: 'Folders', schema: folderListResponse } },
      handler: ({ ctx, params }) => listFolders(deps, ctx, params.driveId),
    })
    .route({
      method: 'get',
      path: '/drives/:driveId/folders/by-path',
      summary: 'The folder a slug chain names (/drive/folders/a/b), with its breadcrumbs',
      request: { params: driveFoldersParams, query: folderPathQuery },
      responses: { 200: { description: 'The folder and its breadcrumbs', schema: folderPathResponse } },
      handler: ({ ctx, params, query }) => folderByPath(deps, ctx, params.driveId, query.slugs),
    })
    .route({
      method: 'post',
      path: '/mutations/folder-assign',
      summary: "Move files into a folder of their drive, or to the drive's root (toFolderId null)",
      request: { body: folderAssignBody },
      responses: { 200: { description: 'File moved successfully', schema: folderAssignResponse } },
      handler: ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return assignFolder(deps, ctx, body, idempotencyKey(req));
      },
    });
}
