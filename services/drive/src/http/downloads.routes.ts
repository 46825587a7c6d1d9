import type { ApiRouter } from '@workspace/kit';
import { requireOwnTenant } from '../commands/access.js';
import { downloadFile, previewFile, thumbnailUrl } from '../commands/downloads.js';
import type { DriveDeps } from '../drive-deps.js';
import { downloadResponse, fileReadQuery, previewResponse } from './downloads.schemas.js';
import { tenantQuery } from './common.schemas.js';
import { fileIdParam } from './files.schemas.js';
import { driveRouter } from './router.js';

const wantsJson = (accept: string | undefined): boolean => (accept ?? '').includes('application/json');

/** Download, preview and thumbnails: every byte comes from the object store through a short-lived presigned URL. */
export function downloadRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'get',
      path: '/download',
      summary:
        'Download a file (FILE_DOWNLOADED): a 302 to a presigned GET saving it under its name, or {url} with Accept: application/json',
      request: { query: fileReadQuery },
      responses: {
        200: { description: 'With Accept: application/json', schema: downloadResponse },
        302: { description: 'To the presigned URL' },
      },
      handler: async ({ ctx, query, req, res }) => {
        requireOwnTenant(ctx, query.tenantId);
        const download = await downloadFile(deps, ctx, query);
        if (wantsJson(req.headers.accept)) return download;
        res.set('Cache-Control', 'no-store').redirect(302, download.url);
        return undefined;
      },
    })
    .route({
      method: 'get',
      path: '/preview',
      summary:
        "What the preview shows: text of CSV, text, code and JSON (up to 1 MB), an inline URL for PDF, image, video and audio, else 'Preview not available for this file type'",
      request: { query: fileReadQuery },
      responses: { 200: { description: 'The preview', schema: previewResponse } },
      handler: async ({ ctx, query }) => {
        requireOwnTenant(ctx, query.tenantId);
        return previewFile(deps, ctx, query);
      },
    })
    .route({
      method: 'get',
      path: '/files/:id/thumbnail',
      summary: "A 302 to the current version's JPEG thumbnail (images and PDFs), 404 while there is none",
      request: { params: fileIdParam, query: tenantQuery },
      responses: { 302: { description: 'To the presigned thumbnail' } },
      handler: async ({ ctx, params, query, res }) => {
        requireOwnTenant(ctx, query.tenantId);
        res
          .set('Cache-Control', 'private, max-age=300')
          .redirect(302, await thumbnailUrl(deps, ctx, params.id));
      },
    });
}
