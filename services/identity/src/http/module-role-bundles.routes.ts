import { ApiRouter } from '@workspace/kit';
import { cisRoleBundles, saveCisRoleBundle } from '../commands/role-bundles.js';
import type { IdentityContext } from '../context.js';
import { presentModuleBundle } from './module-role-bundles.present.js';
import { cisScopesBody, moduleBundleParams, moduleBundlesView } from './module-role-bundles.schemas.js';

/** A module's view of the role bundles (CIS: its settings' Role Permissions checklist). */
export function moduleRoleBundlesRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/module-role-bundles/cis',
      summary: 'Every role bundle with only its CIS scopes (the CIS settings Role Permissions checklist)',
      scopes: ['cis.settings.read'],
      responses: { 200: { description: 'Bundles', schema: moduleBundlesView } },
      handler: async ({ ctx }) => ({
        items: (await cisRoleBundles(context, ctx.tenantId)).map(presentModuleBundle),
      }),
    })
    .route({
      method: 'put',
      path: '/module-role-bundles/cis/:bundleId',
      summary:
        'Replace the CIS scopes of a role bundle (its other scopes are kept); a caller can only grant CIS scopes they hold',
      scopes: ['cis.settings.write'],
      request: { params: moduleBundleParams, body: cisScopesBody },
      responses: { 204: { description: 'Saved' } },
      handler: async ({ ctx, params, body }) => {
        const input = { tenantId: ctx.tenantId, bundleId: params.bundleId, scopes: body.scopes };
        await saveCisRoleBundle(context, { ...input, actor: ctx });
        return undefined;
      },
    });
}
