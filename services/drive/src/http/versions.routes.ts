import type { ApiRouter } from '@workspace/kit';
import { idempotencyKey } from '../commands/idempotency.js';
import { listVersions, restoreVersion } from '../commands/versions.js';
import type { DriveDeps } from '../drive-deps.js';
import { driveRouter } from './router.js';
import { isoTime, presentUploadedFile } from './uploads.present.js';
import {
  fileParams,
  restoredResponse,
  restoreVersionBody,
  versionParams,
  versionsResponse,
} from './versions.schemas.js';
import { tenantQuery } from './common.schemas.js';

/** A file's versions and their restore (drive.md §4: versions follow the tier, the drive's settings and scopes). */
export function versionRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'get',
      path: '/files/:id/versions',
      summary: "A file's versions, newest first, the current one marked",
      request: { params: fileParams, query: tenantQuery },
      responses: { 200: { description: 'Versions', schema: versionsResponse } },
      handler: async ({ ctx, params, query }) => {
        const answer = await listVersions(deps, ctx, params.id, query.tenantId);
        return {
          ...answer,
          versions: answer.versions.map((version) => ({
            version: version.version,
            size: version.size,
            checksum: version.checksum,
            mimeType: version.mimeType,
            note: version.note,
            createdBy: version.createdBy,
            createdAt: isoTime(version.createdAt),
            current: version.current,
          })),
        };
      },
    })
    .route({
      method: 'post',
      path: '/files/:id/versions/:version/restore',
      summary: "Restores a version: its bytes become the file's new current version (FILE_VERSION_RESTORED)",
      request: { params: versionParams, body: restoreVersionBody },
      responses: {
        200: { description: 'Restored', schema: restoredResponse },
        403: { description: 'No replace-version permission' },
        409: { description: 'Versioning refused (tier, drive, legal hold)' },
      },
      handler: async ({ ctx, params, body, req }) => {
        const done = await restoreVersion(
          deps,
          ctx,
          req.headers.authorization ?? '',
          { fileId: params.id, version: params.version, tenantId: body.tenantId },
          idempotencyKey(req),
        );
        return { restoredFrom: done.restoredFrom, file: presentUploadedFile(done.file) };
      },
    });
}
