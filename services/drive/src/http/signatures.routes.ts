import type { ApiRouter } from '@workspace/kit';
import type { Request } from 'express';
import { requireOwnTenant } from '../commands/access.js';
import { idempotencyKey } from '../commands/idempotency.js';
import { declineTask, listSignatures, requestSignature, signTask } from '../commands/signatures.js';
import type { DriveDeps } from '../drive-deps.js';
import { driveRouter } from './router.js';
import {
  declineBody,
  declineResponse,
  signatureListQuery,
  signatureRequestBody,
  signatureTaskParams,
  signBody,
  signTaskListResponse,
  signTaskResponse,
} from './signatures.schemas.js';

const authorizationOf = (req: Request): string => req.headers.authorization ?? '';

/** Signature requests on PDFs (docs/drive.md "Signatures", ADR 0048). */
export function signatureRoutes(deps: DriveDeps): ApiRouter {
  return driveRouter(deps)
    .route({
      method: 'post',
      path: '/signatures',
      summary: 'Ask a colleague to sign a PDF (one pending request per file and assignee)',
      request: { body: signatureRequestBody },
      status: 201,
      responses: { 201: { description: 'Signature request sent', schema: signTaskResponse } },
      handler: ({ ctx, req, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return requestSignature(deps, ctx, authorizationOf(req), body, idempotencyKey(req));
      },
    })
    .route({
      method: 'get',
      path: '/signatures',
      summary:
        "The caller's signature requests: assigned to them or created by them, pending, signed or declined",
      request: { query: signatureListQuery },
      responses: { 200: { description: 'Signature requests, newest first', schema: signTaskListResponse } },
      handler: ({ ctx, req, query }) => listSignatures(deps, ctx, authorizationOf(req), query),
    })
    .route({
      method: 'post',
      path: '/signatures/:taskId/sign',
      summary:
        'Sign a PDF (the spec’s embedSignature): the drawn signature is stored and stamped into a new version of the PDF',
      request: { params: signatureTaskParams, body: signBody },
      bodyLimit: '1mb',
      responses: { 200: { description: 'PDF signed successfully', schema: signTaskResponse } },
      handler: ({ ctx, req, params, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return signTask(deps, ctx, authorizationOf(req), params.taskId, body.signature, idempotencyKey(req));
      },
    })
    .route({
      method: 'post',
      path: '/signatures/:taskId/decline',
      summary: 'Decline to sign, with a reason',
      request: { params: signatureTaskParams, body: declineBody },
      responses: { 200: { description: 'The declined request', schema: declineResponse } },
      handler: ({ ctx, req, params, body }) => {
        requireOwnTenant(ctx, body.tenantId);
        return declineTask(deps, ctx, authorizationOf(req), params.taskId, body.reason, idempotencyKey(req));
      },
    });
}
