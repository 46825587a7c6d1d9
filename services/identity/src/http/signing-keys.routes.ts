import { ApiRouter } from '@workspace/kit';
import type { IdentityContext } from '../context.js';
import { internalOnly } from './internal.js';
import { rotateBody, rotatedView, signingKeysView } from './signing-keys.schemas.js';

/** The signing keys, for operators: internal routes, called with the shared internal token only. */
export function signingKeysRoutes(context: IdentityContext): ApiRouter {
  const guard = internalOnly(context.config.INTERNAL_API_TOKEN);
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/internal/signing-keys',
      summary:
        'The signing keys: which signs, which are retired and until when they are published (operators)',
      public: true,
      guard,
      responses: { 200: { description: 'Newest first', schema: signingKeysView } },
      handler: async () => ({ items: await context.signer.list() }),
    })
    .route({
      method: 'post',
      path: '/internal/signing-keys/rotate',
      summary:
        'Rotate: a new key, published at once, signing after SIGNING_KEY_ACTIVATION_SECONDS (or at once with immediate); the others stop signing then and stay published until their tokens have expired, or leave the JWKS at once with revoke (a leaked key) (operators)',
      public: true,
      guard,
      request: { body: rotateBody },
      responses: {
        200: { description: 'The new key and the keys it replaced', schema: rotatedView },
      },
      handler: async ({ body }) => {
        const rotated = await context.signer.rotate({ immediate: body.immediate, revoke: body.revoke });
        context.logger.info(
          { ...rotated, immediate: body.immediate, revoke: body.revoke },
          'signing key rotated (on request)',
        );
        return rotated;
      },
    });
}
