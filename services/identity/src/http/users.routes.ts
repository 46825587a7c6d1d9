import { ApiRouter } from '@workspace/kit';
import { updateUserAccess } from '../commands/user-updates.js';
import type { IdentityContext } from '../context.js';
import { presentUser } from './users.present.js';
import { updateUserBody, userParams, usersView, userView } from './users.schemas.js';

/** The tenant's users: the list, and an administrator's changes to a user's role or role bundles. */
export function usersRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/users',
      summary: 'The tenant’s users',
      scopes: ['users.view'],
      responses: { 200: { description: 'Users', schema: usersView } },
      handler: async ({ ctx }) => {
        const users = await context.inTenant(ctx.tenantId, (stores) => stores.users.users());
        return { items: users.map(presentUser) };
      },
    })
    .route({
      method: 'patch',
      path: '/users/:uid',
      summary: 'Change a user’s role or role bundles; their cached scopes are dropped at once',
      scopes: ['users.manage'],
      request: { params: userParams, body: updateUserBody },
      responses: { 200: { description: 'Updated', schema: userView } },
      handler: async ({ ctx, params, body }) =>
        presentUser(await updateUserAccess(context, ctx, params.uid, body)),
    });
}
