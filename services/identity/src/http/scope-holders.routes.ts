import { ApiRouter, problems } from '@workspace/kit';
import { z } from 'zod';
import { effectiveScopes } from '../commands/effective-scopes.js';
import type { IdentityContext } from '../context.js';
import { hasScope, isKnownScope } from '../domain/index.js';
import { internalOnly } from './internal.js';

const scopeHoldersQuery = z.object({
  scope: z.string().min(1).max(100).refine(isKnownScope, { message: 'Unknown scope' }),
});
const scopeHoldersView = z.object({ items: z.array(z.object({ uid: z.string() })) });

/**
 * Who in a tenant holds a scope (their effective scopes: role, bundles, the tenant's whitelist), for services that
 * tell people about work waiting for them (notification: the users who may approve an invoice). Internal token only;
 * ids only, nothing else about the users.
 */
export function scopeHoldersRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/internal/tenants/:tenantId/scope-holders',
    summary: 'The users of a tenant who hold a scope (ids only; internal services)',
    public: true,
    guard: internalOnly(context.config.INTERNAL_API_TOKEN),
    request: { params: z.object({ tenantId: z.string().min(1).max(63) }), query: scopeHoldersQuery },
    responses: { 200: { description: 'The holders', schema: scopeHoldersView } },
    handler: async ({ params, query }) =>
      context.inTenant(params.tenantId, async (stores) => {
        const tenant = await stores.tenants.tenant(params.tenantId);
        if (!tenant) throw problems.notFound('Tenant not found');
        const holders: { uid: string }[] = [];
        for (const user of await stores.users.users()) {
          const scopes = await effectiveScopes(context.scopeCache, stores, tenant, user);
          if (hasScope(new Set(scopes), query.scope)) holders.push({ uid: user.uid });
        }
        return { items: holders };
      }),
  });
}
