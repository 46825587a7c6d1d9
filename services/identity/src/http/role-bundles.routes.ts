import { ApiRouter } from '@workspace/kit';
import { saveRoleBundle } from '../commands/role-bundles.js';
import type { IdentityContext } from '../context.js';
import { presentRoleBundle } from './role-bundles.present.js';
import { roleBundleBody, roleBundleParams, roleBundlesView } from './role-bundles.schemas.js';

/** The tenant's role bundles. */
export function roleBundlesRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/role-bundles',
      summary: 'The tenant’s role bundles',
      scopes: ['roles.manage'],
      responses: { 200: { description: 'Bundles', schema: roleBundlesView } },
      handler: async ({ ctx }) => {
        const bundles = await context.inTenant(ctx.tenantId, (stores) => stores.bundles.bundles());
        return { items: bundles.map(presentRoleBundle) };
      },
    })
    .route({
      method: 'put',
      path: '/role-bundles/:bundleId',
      summary:
        'Create or replace a role bundle (granting only scopes the caller holds; the admin bundle by an administrator only); cached scopes of the tenant are dropped at once',
      scopes: ['roles.manage'],
      request: { params: roleBundleParams, body: roleBundleBody },
      responses: { 204: { description: 'Saved' } },
      handler: async ({ ctx, params, body }) => {
        const input = { tenantId: ctx.tenantId, bundleId: params.bundleId, actor: ctx, ...body };
        await saveRoleBundle(context, input);
        return undefined;
      },
    });
}
