import { ApiRouter, problems } from '@workspace/kit';
import { deleteTenantLogo, setTenantLogo } from '../commands/tenant-logo.js';
import type { IdentityContext } from '../context.js';
import { presentLogo, presentLogoImage } from './tenant-logo.present.js';
import { logoImageView, logoInput, logoView } from './tenant-logo.schemas.js';

/** The tenant's logo: what it is, its image, and setting or removing it. */
export function tenantLogoRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/tenant/logo',
      summary:
        'What the tenant’s logo is: none, a text logo, or an image (type, size, version; not its bytes)',
      responses: { 200: { description: 'Logo', schema: logoView } },
      handler: async ({ ctx }) =>
        presentLogo(
          await context.inTenant(ctx.tenantId, (stores) =>
            stores.logos.logo(ctx.tenantId, { withImage: false }),
          ),
        ),
    })
    .route({
      method: 'get',
      path: '/tenant/logo/image',
      summary: 'The tenant’s image logo, base64, with its content type (the bff serves the bytes)',
      responses: {
        200: { description: 'Image', schema: logoImageView },
        404: { description: 'No image logo' },
      },
      handler: async ({ ctx }) => {
        const logo = await context.inTenant(ctx.tenantId, (stores) =>
          stores.logos.logo(ctx.tenantId, { withImage: true }),
        );
        if (logo?.kind !== 'image') throw problems.notFound('This organisation has no image logo.');
        return presentLogoImage(logo);
      },
    })
    .route({
      method: 'put',
      path: '/tenant/logo',
      summary:
        'Set the tenant’s logo: text (at most 30 characters) or an image (PNG, JPG or GIF by content, at most 2 MB)',
      scopes: ['tenant.edit_settings'],
      // An image logo (up to 2 MB) arrives base64 in JSON (about 2.7 MB); the margin lets a somewhat larger file get
      // the clear "at most 2 MB" answer rather than the body parser's 413.
      bodyLimit: '6mb',
      request: { body: logoInput },
      responses: { 200: { description: 'Saved', schema: logoView } },
      handler: async ({ ctx, body }) =>
        presentLogo(await setTenantLogo(context, { tenantId: ctx.tenantId, logo: body, actor: ctx.userId })),
    })
    .route({
      method: 'delete',
      path: '/tenant/logo',
      summary: 'Remove the tenant’s logo (the organisation’s name shows again)',
      scopes: ['tenant.edit_settings'],
      responses: { 204: { description: 'Removed' } },
      handler: async ({ ctx }) => {
        await deleteTenantLogo(context, ctx.tenantId);
        return undefined;
      },
    });
}
