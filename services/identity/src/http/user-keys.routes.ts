import { ApiRouter, problems } from '@workspace/kit';
import type { IdentityContext } from '../context.js';
import { presentPublicKey } from './user-keys.present.js';
import { publicKeyParams, publicKeyView } from './user-keys.schemas.js';

/** GET /v1/users/:uid/public-key: any signed-in member of the tenant may read a colleague's public key. */
export function userKeysRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/users/:uid/public-key',
    summary: 'A user’s public key (X25519), to seal data only that user can open',
    request: { params: publicKeyParams },
    responses: {
      200: { description: 'Public key', schema: publicKeyView },
      404: { description: 'No such user' },
    },
    handler: async ({ ctx, params }) => {
      const key = await context.inTenant(ctx.tenantId, (stores) => stores.users.publicKey(params.uid));
      if (!key) throw problems.notFound('User not found.');
      return presentPublicKey(key);
    },
  });
}
