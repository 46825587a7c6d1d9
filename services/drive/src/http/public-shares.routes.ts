import { ApiRouter, type RequestContext } from '@workspace/kit';
import type { Request, Response } from 'express';
import {
  sharedFile,
  unlockShare,
  viewPublicShare,
  type PublicRequest,
  type PublicShareTools,
  type SharedFileAnswer,
} from '../commands/public-shares.js';
import { ViewerTokens } from '../commands/share-links.js';
import type { DriveDeps } from '../drive-deps.js';
import {
  publicFileParams,
  publicShareParams,
  publicShareQuery,
  publicShareView,
  unlockBody,
  viewerTokenResponse,
} from './public-shares.schemas.js';

export const VIEWER_TOKEN_HEADER = 'x-share-token';

const publicRequest = (
  req: Request,
  ctx: RequestContext | undefined,
  shareId: string,
  query: { tenantId: string; token?: string | undefined },
): PublicRequest => {
  const header = req.headers[VIEWER_TOKEN_HEADER];
  return {
    shareId,
    tenantId: query.tenantId,
    ctx,
    authorization: req.headers.authorization,
    viewerToken: typeof header === 'string' ? header : query.token,
  };
};

function answerFile(res: Response, answer: SharedFileAnswer): void {
  res.setHeader('cache-control', 'no-store');
  if (answer.kind === 'redirect') {
    res.redirect(302, answer.url);
    return;
  }
  const encoded = encodeURIComponent(answer.fileName);
  res
    .status(200)
    .type(answer.mimeType)
    .setHeader('content-disposition', `${answer.disposition}; filename*=UTF-8''${encoded}`)
    .send(answer.bytes);
}

/**
 * The public share link's routes (the bff forwards /api/public/shares/* here without a session). Not a driveRouter:
 * the region checked is the share's tenant's (the link's ?tenantId=), not a caller's. A bearer token is optional
 * (tenant and restricted shares need one); a passcode's viewer token comes as X-Share-Token or ?token=.
 */
export function publicShareRoutes(deps: DriveDeps): ApiRouter {
  const tools: PublicShareTools = { deps, tokens: new ViewerTokens(deps.config, deps.logger) };
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/public/shares/:shareId',
      summary: 'The public share view: name, files (name, size, type) and policy',
      public: true,
      request: { params: publicShareParams, query: publicShareQuery },
      responses: {
        200: { description: 'The share', schema: publicShareView },
        401: { description: 'sign_in_required or passcode_required' },
        403: { description: 'not_shared_with_you' },
        404: { description: 'share_not_found' },
        410: { description: 'share_expired or share_revoked' },
        423: { description: 'passcode_locked' },
      },
      handler: ({ ctx, params, query, req }) =>
        viewPublicShare(tools, publicRequest(req, ctx, params.shareId, query)),
    })
    .route({
      method: 'post',
      path: '/public/shares/:shareId/unlock',
      summary: "The share's passcode: a viewer token when right; each wrong one counted (423 at the maximum)",
      public: true,
      request: { params: publicShareParams, query: publicShareQuery, body: unlockBody },
      responses: {
        200: { description: 'A viewer token', schema: viewerTokenResponse },
        401: { description: 'wrong_passcode' },
        423: { description: 'passcode_locked' },
      },
      handler: ({ ctx, params, query, body, req }) =>
        unlockShare(tools, publicRequest(req, ctx, params.shareId, query), body.passcode),
    })
    .route({
      method: 'get',
      path: '/public/shares/:shareId/files/:fileId/preview',
      summary: 'A file of the share inline: a redirect to the object store, or watermarked bytes',
      public: true,
      request: { params: publicFileParams, query: publicShareQuery },
      responses: { 200: { description: 'Watermarked bytes' }, 302: { description: 'Presigned URL' } },
      handler: async ({ ctx, params, query, req, res }) => {
        const answer = await sharedFile(
          tools,
          publicRequest(req, ctx, params.shareId, query),
          params.fileId,
          'preview',
        );
        answerFile(res, answer);
        return undefined;
      },
    })
    .route({
      method: 'get',
      path: '/public/shares/:shareId/files/:fileId/download',
      summary: 'A file of the share as a download (allowDownload): a redirect, or watermarked bytes',
      public: true,
      request: { params: publicFileParams, query: publicShareQuery },
      responses: {
        200: { description: 'Watermarked bytes' },
        302: { description: 'Presigned URL' },
        403: { description: 'download_not_allowed' },
        409: { description: 'watermark_unsupported' },
      },
      handler: async ({ ctx, params, query, req, res }) => {
        const answer = await sharedFile(
          tools,
          publicRequest(req, ctx, params.shareId, query),
          params.fileId,
          'download',
        );
        answerFile(res, answer);
        return undefined;
      },
    });
}
