import { ApiRouter } from '@workspace/kit';
import type { IdentityContext } from '../context.js';
import { RateLimitStore } from '../db/rate-limits.store.js';
import { internalOnly } from './internal.js';
import { bucketParams, decisionView, hitBody } from './rate-limits.schemas.js';

/** The bff's shared rate limits (sign-in, callback, magic-link redemption): internal, shared token only. */
export function rateLimitsRoutes(context: IdentityContext): ApiRouter {
  const windows = new RateLimitStore(context.db);
  return new ApiRouter().route({
    method: 'post',
    path: '/internal/rate-limits/:bucket/hit',
    summary:
      'Count one attempt against each key of a bucket, or refuse it when a key has used its limit in the window (bff only)',
    public: true,
    guard: internalOnly(context.config.INTERNAL_API_TOKEN),
    request: { params: bucketParams, body: hitBody },
    responses: {
      200: {
        description: 'Whether the attempt may go ahead, and when to retry if not',
        schema: decisionView,
      },
    },
    handler: ({ params, body }) => windows.hit(params.bucket, body.keys, body.limit, body.windowMs),
  });
}
