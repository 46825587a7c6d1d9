import { ApiRouter } from '@workspace/kit';
import type { IdentityContext } from '../context.js';
import { jwksView } from './signing-keys.schemas.js';

/** The public keys of identity's access tokens, for every verifier (served at the root, not under /v1). */
export function jwksRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/.well-known/jwks.json',
    summary: 'Public keys of identity’s access tokens (JWKS)',
    public: true,
    responses: { 200: { description: 'JWKS', schema: jwksView } },
    handler: () => Promise.resolve(jwksView.parse(context.signer.jwks())),
  });
}
