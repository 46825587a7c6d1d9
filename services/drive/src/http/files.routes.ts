import { serveSse, type ApiRouter } from '@workspace/kit';
import { callerOf, requireOwnTenant } from '../commands/access.js';
import { listFiles, liveDriveIds, requireView, type FileCountCache } from '../commands/file-list.js';
import {
  clearRecent,
  clearStars,
  readFileDetail,
  renameFile,
  setStar,
  shareFileWithUsers,
} from '../commands/files.js';
import { idempotencyKey } from '../commands/idempotency.js';
import type { DriveDeps } from '../drive-deps.js';
import type { LiveListChange } from '../domain/index.js';
import type { FileChangeHub } from '../workers/file-changes.js';
import { presentFile } from './files.present.js';
import {
  clearedResponse,
  fileListQuery,
  fileListResponse,
  fileResponse,
  renameBody,
  shareWithBody,
  shareWithResponse,
} from './files.schemas.js';
import { fileParams, tenantQuery } from './common.schemas.js';
import { driveRouter } from './router.js';

/** The file list, one file, rename, Share File with users, stars and Recent, and the list's live updates. */
export function fileRoutes(deps: DriveDeps, counts: FileCountCache, hub: FileChangeHub): ApiRouter {
  return driveRouter(deps)
    .route({
      // Before /files/:id, which would otherwise take 'stream' for an id.
      method: 'get',
      path: '/files/stream',
      summary:
        'Server-Sent Events: `files` with {driveId, action} whenever a file of a drive the caller sees changes (the list refetches)',
      request: { query: tenantQuery },
      responses: { 200: { description: 'text/event-stream' } },
      handler: async ({ ctx, query, req, res }) => {
        requireOwnTenant(ctx, query.tenantId);
        const caller = callerOf(ctx);
        requireView(caller);
        const visibleDrives = () => liveDriveIds(deps, ctx.tenantId, caller);
        let drives = await visibleDrives();
        await serveSse(hub, ctx.tenantId, req, res, {
          filter: (message) => {
            const change = JSON.parse(message.data) as LiveListChange;
            if (change.action !== 'access') return drives.has(change.driveId);
            // Who sees what may have changed (a member added or removed, a drive archived): work the reader's drives
            // out again before the changes after this one, and pass it on so the list refetches now.
            return visibleDrives().then(
              (latest) => {
                drives = latest;
                return true;
              },
              (error: unknown) => {
                deps.logger.warn(
                  { err: error },
                  "the file list stream could not re-read the reader's drives",
                );
                return true;
              },
            );
          },
        });
      },
    })
    .route({
      method: 'get',
      path: '/files',
      summary:
        'The file list: a view (all, mine, shared, recent, starred, trash), filters, search by file or owner name, sort and a page; only files the caller may open',
      request: { query: fileListQuery },
      responses: { 200: { description: 'A page of files and the total', schema: fileListResponse } },
      handler: async ({ ctx, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        const page = await listFiles(deps, counts, ctx.tenantId, callerOf(ctx), {
          ...query,
          direction: query.order,
        });
        return { ...page, items: page.items.map(presentFile) };
      },
    })
    .route({
      method: 'delete',
      path: '/files/recent',
      summary: "Clear Recent: the caller's opened and uploaded files leave their Recent view",
      request: { query: tenantQuery },
      responses: { 200: { description: 'How many entries were cleared', schema: clearedResponse } },
      handler: ({ ctx, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        return clearRecent(deps, ctx);
      },
    })
    .route({
      method: 'delete',
      path: '/files/stars',
      summary: "Clear Stars: every star of the caller's",
      request: { query: tenantQuery },
      responses: { 200: { description: 'How many stars were cleared', schema: clearedResponse } },
      handler: ({ ctx, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        return clearStars(deps, ctx);
      },
    })
    .route({
      method: 'get',
      path: '/files/:id',
      summary: 'One file the caller may open',
      request: { params: fileParams, query: tenantQuery },
      responses: { 200: { description: 'The file', schema: fileResponse } },
      handler: async ({ ctx, params, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        return { file: presentFile(await readFileDetail(deps, ctx, params.id)) };
      },
    })
    .route({
      method: 'patch',
      path: '/files/:id',
      summary:
        'Rename a file (drive.file.rename and write access to its library); a name taken in the same folder gets " (2)"',
      request: { params: fileParams, body: renameBody },
      responses: { 200: { description: 'The renamed file', schema: fileResponse } },
      handler: async ({ ctx, params, body, req }) => {
        requireOwnTenant(ctx, body.tenantId);
        return {
          file: presentFile(await renameFile(deps, ctx, params.id, body.name, idempotencyKey(req))),
        };
      },
    })
    .route({
      method: 'post',
      path: '/files/:id/share-with',
      summary:
        'Share File with users: at least one, never the caller; the file becomes shared (FILE_SHARED, "File sharing settings updated")',
      request: { params: fileParams, body: shareWithBody },
      responses: { 200: { description: 'The shared file', schema: shareWithResponse } },
      handler: async ({ ctx, params, body, req }) => {
        requireOwnTenant(ctx, body.tenantId);
        const shared = await shareFileWithUsers(deps, ctx, params.id, body.userIds, idempotencyKey(req));
        return { file: presentFile(shared.file), message: shared.message };
      },
    })
    .route({
      method: 'put',
      path: '/files/:id/star',
      summary: 'Star a file (for the caller)',
      request: { params: fileParams, query: tenantQuery },
      responses: { 204: { description: 'Starred' } },
      handler: async ({ ctx, params, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        await setStar(deps, ctx, params.id, true);
      },
    })
    .route({
      method: 'delete',
      path: '/files/:id/star',
      summary: 'Unstar a file (for the caller)',
      request: { params: fileParams, query: tenantQuery },
      responses: { 204: { description: 'Unstarred' } },
      handler: async ({ ctx, params, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        await setStar(deps, ctx, params.id, false);
      },
    });
}
