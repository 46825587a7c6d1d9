import { ApiRouter } from '@workspace/kit';
import { availableScopes, setAvailableScopes } from '../commands/role-bundles.js';
import type { IdentityContext } from '../context.js';
import { availableScopesBody, availableScopesView } from './available-scopes.schemas.js';

/** The tenant's permission whitelist: the scopes its users may hold. */
export function availableScopesRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/tenant/available-scopes',
      summary: 'The tenant’s permission whitelist (scopes its users may hold)',
      responses: { 200: { description: 'Scopes', schema: availableScopesView } },
      handler: ({ ctx }) => availableScopes(context, ctx.tenantId),
    })
    .route({
      method: 'put',
      path: '/tenant/available-scopes',
      summary:
        'Replace the permission whitelist (null lifts it), making available only scopes the caller holds; cached scopes of the tenant are dropped at once',
      scopes: ['roles.manage'],
      request: { body: availableScopesBody },
      responses: { 204: { description: 'Saved' } },
      handler: async ({ ctx, body }) => {
        await setAvailableScopes(context, { tenantId: ctx.tenantId, scopes: body.scopes, actor: ctx });
        return undefined;
      },
    });
}
