import { ApiRouter } from '@workspace/kit';
import { requireTenant } from '../commands/records.js';
import { saveFooter, tenantFooter, updateTenant } from '../commands/tenant-settings.js';
import type { IdentityContext } from '../context.js';
import { presentFooter, presentTenant } from './tenant.present.js';
import {
  entitlementsView,
  footerSettings,
  storageTierBody,
  tenantView,
  updateTenantBody,
} from './tenant.schemas.js';

/** The caller's tenant: its settings, footer and entitlements. */
export function tenantRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/tenant',
      summary: 'The caller’s tenant',
      responses: { 200: { description: 'Tenant', schema: tenantView } },
      handler: async ({ ctx }) =>
        presentTenant(await context.inTenant(ctx.tenantId, (stores) => requireTenant(stores, ctx.tenantId))),
    })
    .route({
      method: 'patch',
      path: '/tenant',
      summary: 'Change the tenant’s name, branding or modules',
      scopes: ['tenant.edit_settings'],
      request: { body: updateTenantBody },
      responses: { 200: { description: 'Updated', schema: tenantView } },
      handler: async ({ ctx, body }) => presentTenant(await updateTenant(context, ctx.tenantId, body)),
    })
    .route({
      method: 'put',
      path: '/tenant/storage-tier',
      summary: 'Change the tenant’s storage tier (super-administrators; the drive’s POST /v1/storage/tier)',
      scopes: ['system.superadmin'],
      request: { body: storageTierBody },
      responses: { 200: { description: 'Updated', schema: tenantView } },
      handler: async ({ ctx, body }) => presentTenant(await updateTenant(context, ctx.tenantId, body)),
    })
    .route({
      method: 'get',
      path: '/tenant/footer',
      summary: 'The tenant’s footer settings (defaults filled in)',
      responses: { 200: { description: 'Footer settings', schema: footerSettings } },
      handler: async ({ ctx }) => presentFooter(await tenantFooter(context, ctx.tenantId)),
    })
    .route({
      method: 'put',
      path: '/tenant/footer',
      summary: 'Save the tenant’s footer settings',
      scopes: ['tenant.edit_settings'],
      request: { body: footerSettings },
      responses: { 200: { description: 'Saved', schema: footerSettings } },
      handler: async ({ ctx, body }) => presentFooter(await saveFooter(context, ctx.tenantId, body)),
    })
    .route({
      method: 'get',
      path: '/tenant/entitlements',
      summary: 'The tenant’s entitlements (e.g. calls.voip)',
      responses: { 200: { description: 'Entitlements', schema: entitlementsView } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (stores) => ({
          enabled: (await requireTenant(stores, ctx.tenantId)).entitlements,
        })),
    });
}
