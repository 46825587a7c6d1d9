import type { ApiRouter } from '@workspace/kit';
import { idempotencyKey } from '../commands/idempotency.js';
import { cancelUpload, completeUpload, grantUpload, registerUploadedFile } from '../commands/uploads.js';
import type { DriveDeps } from '../drive-deps.js';
import { driveRouter } from './router.js';
import { presentUploadedFile } from './uploads.present.js';
import {
  cancelledResponse,
  completeUploadBody,
  grantUploadBody,
  registeredResponse,
  registerFileBody,
  uploadGrantResponse,
  uploadParams,
} from './uploads.schemas.js';

const problem = (description: string) => ({ description });

/**
 * Uploads straight to the region's object store (docs/drive.md "Uploads"): a grant with presigned part URLs, the
 * browser's PUTs to the object store, then completion (or the spec's files/register) with the service's checks.
 * Permissions are the library's (drive.md §6), checked by the commands: a readOnly library's new version needs only
 * drive.file.replace_version, so the routes themselves require no one scope.
 */
export function uploadRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'post',
      path: '/uploads',
      summary:
        'An upload grant: permission, quota, library policy and configured limits checked, then a presigned PUT URL per 5 MiB part',
      request: { body: grantUploadBody },
      status: 201,
      responses: {
        201: { description: 'Granted', schema: uploadGrantResponse },
        400: problem("'No file'"),
        403: problem('No upload permission'),
        409: problem('Versioning refused'),
        413: problem('STORAGE_LIMIT_EXCEEDED or FILE_TOO_LARGE'),
        415: problem('FILE_TYPE_NOT_ALLOWED'),
        422: problem('E_POLICY_BLOCKED'),
        503: problem('The object store is not reachable'),
      },
      handler: ({ ctx, body, req }) =>
        grantUpload(deps, ctx, req.headers.authorization ?? '', body, idempotencyKey(req)),
    })
    .route({
      method: 'post',
      path: '/uploads/:id/complete',
      summary:
        'Completes an upload: parts assembled, size, SHA-256 and content checked, the file (or version) registered',
      request: { params: uploadParams, body: completeUploadBody },
      responses: {
        200: { description: 'Registered', schema: registeredResponse },
        404: problem('Not the caller’s upload'),
        409: problem('Cancelled or expired'),
        422: problem('SIZE_MISMATCH, CHECKSUM_MISMATCH or CONTENT_MISMATCH: nothing saved'),
        503: problem('The object store is not reachable: nothing saved'),
      },
      handler: async ({ ctx, params, body, req }) => {
        idempotencyKey(req);
        const done = await completeUpload(
          deps,
          ctx,
          req.headers.authorization ?? '',
          params.id,
          body.checksum,
          body.reference,
        );
        return { ...done, file: presentUploadedFile(done.file) };
      },
    })
    .route({
      method: 'delete',
      path: '/uploads/:id',
      summary: 'Cancel Upload: the multipart upload aborted and anything written removed',
      request: { params: uploadParams },
      responses: { 200: { description: 'Cancelled', schema: cancelledResponse } },
      handler: ({ ctx, params, req }) => {
        idempotencyKey(req);
        return cancelUpload(deps, ctx, params.id);
      },
    })
    .route({
      method: 'post',
      path: '/files/register',
      summary:
        'drive.md §7 files/register: registers the object an upload grant wrote (the checks of complete)',
      request: { body: registerFileBody },
      responses: {
        200: {
          description:
            'Registered: ok, code and the file (code FILE_REF_WRITE_FAILED: registered, the module reference not written)',
          schema: registeredResponse,
        },
        403: problem('A reference asked for without drive.attachment.add'),
        404: problem("'Upload completed but file metadata not found'"),
      },
      handler: async ({ ctx, body, req }) => {
        idempotencyKey(req);
        const done = await registerUploadedFile(deps, ctx, req.headers.authorization ?? '', body);
        return { ...done, file: presentUploadedFile(done.file) };
      },
    });
}
