import { ApiRouter } from '@workspace/kit';
import { effectiveScopes } from '../commands/effective-scopes.js';
import { requireTenant, requireUser } from '../commands/records.js';
import { updateOwnProfile } from '../commands/user-updates.js';
import type { IdentityContext } from '../context.js';
import { effectiveScopesView, profileView, updateMeBody } from './me.schemas.js';
import { presentTenant } from './tenant.present.js';
import { presentUser } from './users.present.js';
import { userView } from './users.schemas.js';

/** The signed-in user's own profile, tenant and effective scopes. */
export function meRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/me',
      summary: 'The signed-in user and their tenant',
      responses: { 200: { description: 'Profile', schema: profileView } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (stores) => ({
          user: presentUser(await requireUser(stores, ctx.userId)),
          tenant: presentTenant(await requireTenant(stores, ctx.tenantId)),
        })),
    })
    .route({
      method: 'patch',
      path: '/me',
      summary: 'Change the signed-in user’s status or appearance settings',
      request: { body: updateMeBody },
      responses: { 200: { description: 'Updated', schema: userView } },
      handler: async ({ ctx, body }) => presentUser(await updateOwnProfile(context, ctx, body)),
    })
    .route({
      method: 'get',
      path: '/me/effective-scopes',
      summary: 'The signed-in user’s effective scopes (cached 5/10/30 minutes, refreshed on any change)',
      responses: { 200: { description: 'Scopes', schema: effectiveScopesView } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (stores) => {
          const tenant = await requireTenant(stores, ctx.tenantId);
          const user = await requireUser(stores, ctx.userId);
          return { granted: await effectiveScopes(context.scopeCache, stores, tenant, user) };
        }),
    });
}
