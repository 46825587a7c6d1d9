import { ApiRouter } from '@workspace/kit';
import { updateUserAccess } from '../commands/user-updates.js';
import type { IdentityContext } from '../context.js';
import { presentUser } from './users.present.js';
import {
  updateUserBody,
  userDirectoryView,
  userNamesQuery,
  userNamesView,
  userParams,
  usersView,
  userView,
} from './users.schemas.js';

/** How a colleague is named: their display name, else first and last name, else their e-mail address. */
const personName = (user: { displayName: string; firstName: string; lastName: string; email: string }) =>
  user.displayName.trim() || [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.email;

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
      method: 'get',
      path: '/users/names',
      summary:
        'The display names of the colleagues asked for, to any signed-in member of the tenant (who did what on a ' +
        'record or in activity); nothing else about them',
      request: { query: userNamesQuery },
      responses: { 200: { description: 'Names of the users found', schema: userNamesView } },
      handler: async ({ ctx, query }) => {
        const wanted = new Set(query.ids);
        const users = await context.inTenant(ctx.tenantId, (stores) => stores.users.users());
        return {
          items: users
            .filter((user) => wanted.has(user.uid))
            .map((user) => ({ uid: user.uid, displayName: personName(user) })),
        };
      },
    })
    .route({
      method: 'get',
      path: '/users/directory',
      summary:
        'The tenant’s colleagues (name, e-mail, username) for choosing people to share with or add to a ' +
        'drive, to any signed-in member of the tenant; nothing about their roles or access',
      responses: { 200: { description: 'Active colleagues', schema: userDirectoryView } },
      handler: async ({ ctx }) => {
        const users = await context.inTenant(ctx.tenantId, (stores) => stores.users.users());
        return {
          items: users.map((user) => ({
            uid: user.uid,
            displayName: personName(user),
            fullName: [user.firstName, user.lastName].filter(Boolean).join(' ').trim(),
            email: user.email,
            username: user.username ?? '',
          })),
        };
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
