import { ApiRouter, problems, safeEqual } from '@workspace/kit';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { CisDeps } from '../cis-deps.js';
import { returnForDrive, statementForDrive, type DriveDocument } from '../commands/drive-documents.js';
import { sendDocument } from './http-helpers.js';

/** Only the drive, with the token both are configured with (CIS_DOCUMENTS_TOKEN); none configured: no caller. */
function driveOnly(token: string | undefined, req: Request): void {
  const sent = req.headers['x-internal-token'];
  if (token === undefined || typeof sent !== 'string' || !safeEqual(sent, token)) {
    throw problems.unauthorized('This endpoint is for internal services only.');
  }
}

const params = z.object({ kind: z.enum(['statements', 'returns']), id: z.string().min(1).max(100) });
const query = z.object({ tenantId: z.string().min(1).max(100) });

function send(res: Response, document: DriveDocument): void {
  res.set('X-Document-Ref', document.ref).set('X-Tax-Month', document.taxMonth);
  sendDocument(res, {
    type: document.contentType,
    disposition: 'attachment',
    filename: document.fileName,
    body: document.body,
  });
}

/**
 * The one route the drive calls (drive ADR 0046): an issued statement's PDF or a submitted return's CIS300 XML, by
 * id, for the drive to file in the CIS drive's restricted library.
 */
export function driveDocumentRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/internal/drive-documents/:kind/:id',
    summary: "An issued statement's PDF or a submitted return's CIS300 XML, for the drive (internal token)",
    public: true,
    guard: (req) => {
      driveOnly(deps.config.CIS_DOCUMENTS_TOKEN, req);
    },
    request: { params, query },
    responses: {
      200: { description: 'The document (X-Document-Ref: which version of it; X-Tax-Month)' },
      401: { description: 'Not the drive' },
      404: { description: 'No such issued statement or submitted return in the tenant' },
    },
    handler: async ({ params: { kind, id }, query: { tenantId }, res }) => {
      send(
        res,
        kind === 'statements'
          ? await statementForDrive(deps, tenantId, id)
          : await returnForDrive(deps, tenantId, id),
      );
    },
  });
}
