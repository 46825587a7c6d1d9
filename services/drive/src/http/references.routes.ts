import { fileParams } from './common.schemas.js';
import type { ApiRouter } from '@workspace/kit';
import { requireOwnTenant } from '../commands/access.js';
import { idempotencyKey } from '../commands/idempotency.js';
import { addReference, listReferences, removeReference } from '../commands/references.js';
import type { DriveDeps } from '../drive-deps.js';
import {
  addReferenceRequest,
  addReferenceResponse,
  referenceParams,
  referencesResponse,
} from './references.schemas.js';
import { driveRouter } from './router.js';

/** A file's module references (drive.md §3 file reference): list, attach, detach. */
export function referenceRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'get',
      path: '/files/:id/references',
      summary: 'The file’s module references and its refs counters',
      request: { params: fileParams },
      responses: {
        200: { description: 'References', schema: referencesResponse },
        404: { description: 'File not found' },
      },
      handler: ({ ctx, params }) => listReferences(deps, ctx, params.id),
    })
    .route({
      method: 'post',
      path: '/files/:id/references',
      summary: 'Attach the file to a module’s entity (referenceType default attachment)',
      scopes: ['drive.attachment.add'],
      request: { params: fileParams, body: addReferenceRequest },
      status: 201,
      responses: {
        201: { description: 'Attached', schema: addReferenceResponse },
        404: { description: 'File not found' },
        409: { description: 'The file is in the trash' },
        500: { description: 'FILE_REF_WRITE_FAILED: Reference creation failed' },
      },
      handler: async ({ ctx, params, body, req }) => {
        requireOwnTenant(ctx, body.tenantId);
        return addReference(
          deps,
          ctx,
          params.id,
          {
            moduleId: body.moduleId,
            entityId: body.entityId,
            referenceType: body.referenceType,
            metadata: body.metadata,
          },
          idempotencyKey(req),
        );
      },
    })
    .route({
      method: 'delete',
      path: '/files/:id/references/:referenceId',
      summary: 'Detach the file from a module’s entity (the file stays)',
      scopes: ['drive.attachment.remove'],
      request: { params: referenceParams },
      responses: {
        200: { description: 'Detached', schema: referencesResponse },
        404: { description: 'File or reference not found' },
      },
      handler: ({ ctx, params }) => removeReference(deps, ctx, params.id, params.referenceId),
    });
}
