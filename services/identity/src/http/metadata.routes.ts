import { ApiRouter } from '@workspace/kit';
import { z } from 'zod';
import { requireTenant } from '../commands/records.js';
import type { IdentityContext } from '../context.js';
import { tenantId } from '../domain/tenant.js';
import { metadataView } from './metadata.schemas.js';

/** Public: what a signed-out browser may learn about a tenant (the spec's /api/metadata). */
export function metadataRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/tenants/:tenantId/metadata',
    summary: 'Tenant metadata for the sign-in page: id, region, branding, name',
    public: true,
    request: { params: z.object({ tenantId }) },
    responses: { 200: { description: 'Metadata', schema: metadataView } },
    handler: async ({ params }) => {
      const tenant = await context.inTenant(params.tenantId, (stores) =>
        requireTenant(stores, params.tenantId),
      );
      return { id: tenant.id, name: tenant.name, databaseRegion: tenant.region, branding: tenant.branding };
    },
  });
}
