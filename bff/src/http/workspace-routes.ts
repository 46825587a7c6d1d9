import { ApiRouter, HttpProblem, problems, UpstreamProblem } from '@workspace/kit';
import { z } from 'zod';
import { footerView, logoView, tenantView, userView } from '../identity-client.js';
import { browserState, requireSameTenant, requireStaff, type BffContext } from './context.js';

/** The spec's fallbacks when tenant metadata cannot be fetched. */
export const METADATA_FALLBACK_REGION = 'uk';
export const METADATA_FETCH_ERROR = 'Fetch error';

const metadataView = z.object({
  id: z.string(),
  name: z.string().nullable(),
  databaseRegion: z.string(),
  branding: z.record(z.string(), z.unknown()),
  /** Why the metadata could not be fetched (then the region is the fallback), else null. */
  error: z.string().nullable(),
});

const tenantIdParameter = z.string().max(63).optional();

export function workspaceRoutes(context: BffContext): ApiRouter {
  const { config, identity } = context;
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/metadata',
      summary:
        'Tenant metadata for the sign-in page, for the tenant in the x-tenant-id header (the session’s when signed in)',
      public: true,
      responses: { 200: { description: 'Metadata, or the fallback with error set', schema: metadataView } },
      handler: async ({ req }) => {
        const session = browserState(req).staff;
        const tenantId = req.get('x-tenant-id')?.trim() || session?.tenantId || config.DEFAULT_TENANT;
        if (!tenantId) {
          throw problems.badRequest('The x-tenant-id header is required.', [
            { field: 'header.x-tenant-id', message: 'Required' },
          ]);
        }
        if (session) requireSameTenant(session, tenantId);
        try {
          return { ...(await identity.metadata(tenantId)), error: null };
        } catch (error) {
          if (!(error instanceof HttpProblem)) throw error;
          return {
            id: tenantId,
            name: null,
            databaseRegion: METADATA_FALLBACK_REGION,
            branding: {},
            // identity's message when its answer carried one (the spec's "response's error message"), else the
            // spec's 'Fetch error'; the bff's own message when identity did not answer.
            error: (refusedByIdentity(error) ? error.upstream.detail : error.detail) ?? METADATA_FETCH_ERROR,
          };
        }
      },
    })
    .route({
      method: 'get',
      path: '/tenant/available-scopes',
      summary: 'The tenant’s permission whitelist; tid must be the session’s tenant (else 404)',
      request: { query: z.object({ tid: tenantIdParameter }) },
      responses: {
        200: {
          description: 'Scopes',
          schema: z.object({ scopes: z.array(z.string()), restricted: z.boolean() }),
        },
      },
      handler: async ({ query, req, res }) => {
        const session = await requireStaff(context, req, res);
        requireSameTenant(session, query.tid);
        return identity.availableScopes(session.accessToken);
      },
    })
    .route({
      method: 'get',
      path: '/v1/auth/effective-scopes',
      summary: 'The signed-in user’s effective scopes (granted and effective carry the same list)',
      responses: {
        200: {
          description: 'Scopes',
          schema: z.object({ granted: z.array(z.string()), effective: z.array(z.string()) }),
        },
      },
      handler: async ({ req, res }) => {
        const session = await requireStaff(context, req, res);
        const { granted } = await identity.effectiveScopes(session.accessToken);
        return { granted, effective: granted };
      },
    })
    .route({
      method: 'get',
      path: '/entitlements',
      summary: 'The tenant’s entitlements (never cached); tenantId must be the session’s tenant (else 404)',
      request: { query: z.object({ tenantId: tenantIdParameter }) },
      responses: { 200: { description: 'Entitlements', schema: z.object({ enabled: z.array(z.string()) }) } },
      handler: async ({ query, req, res }) => {
        const session = await requireStaff(context, req, res);
        requireSameTenant(session, query.tenantId);
        res.setHeader('Cache-Control', 'no-store');
        return identity.entitlements(session.accessToken);
      },
    })
    .route({
      method: 'get',
      path: '/me',
      summary: 'The signed-in user and their tenant',
      responses: {
        200: { description: 'Profile', schema: z.object({ user: userView, tenant: tenantView }) },
      },
      handler: async ({ req, res }) => identity.me((await requireStaff(context, req, res)).accessToken),
    })
    .route({
      method: 'patch',
      path: '/me',
      summary: 'Change the signed-in user’s status or appearance settings (CSRF header)',
      request: {
        body: z.object({
          status: z.enum(['active', 'busy', 'unavailable']).optional(),
          themePreference: z.record(z.string(), z.unknown()).optional(),
        }),
      },
      responses: { 200: { description: 'Updated', schema: userView } },
      handler: async ({ body, req, res }) =>
        identity.updateMe((await requireStaff(context, req, res)).accessToken, body),
    })
    .route({
      method: 'post',
      path: '/portal/sessions/revoke',
      summary:
        'End a subcontractor’s portal sessions at once (every bff replica refuses them) and expire their unused magic links (cis.portal.invite; CSRF header)',
      scopes: ['cis.portal.invite'],
      request: { body: z.object({ subcontractorId: z.string().min(1).max(64) }) },
      responses: {
        200: {
          description: 'How many sessions ended and links expired',
          schema: z.object({ revoked: z.number(), linksExpired: z.number() }),
        },
      },
      handler: async ({ body, req, res }) =>
        identity.revokePortalSessions(
          (await requireStaff(context, req, res)).accessToken,
          body.subcontractorId,
        ),
    })
    .route({
      method: 'get',
      path: '/tenant',
      summary: 'The signed-in user’s tenant',
      responses: { 200: { description: 'Tenant', schema: tenantView } },
      handler: async ({ req, res }) => identity.tenant((await requireStaff(context, req, res)).accessToken),
    })
    .route({
      method: 'patch',
      path: '/tenant',
      summary: 'Change the tenant’s name, branding or modules (tenant.edit_settings; CSRF header)',
      request: {
        body: z.object({
          name: z.string().max(120).optional(),
          branding: z.record(z.string(), z.unknown()).optional(),
          modules: z
            .array(z.looseObject({ id: z.string(), enabled: z.boolean() }))
            .max(50)
            .optional(),
        }),
      },
      responses: { 200: { description: 'Updated', schema: tenantView } },
      handler: async ({ body, req, res }) =>
        identity.updateTenant((await requireStaff(context, req, res)).accessToken, body),
    })
    .route({
      method: 'get',
      path: '/tenant/footer',
      summary:
        'The tenant’s footer settings, defaults filled in (the rendered footer and its settings panel)',
      responses: { 200: { description: 'Footer settings', schema: footerView } },
      handler: async ({ req, res }) => identity.footer((await requireStaff(context, req, res)).accessToken),
    })
    .route({
      method: 'put',
      path: '/tenant/footer',
      summary: 'Save the footer settings (tenant.edit_settings; CSRF header); identity validates every field',
      request: { body: z.record(z.string(), z.unknown()) },
      responses: { 200: { description: 'Saved', schema: footerView } },
      handler: async ({ body, req, res }) =>
        identity.saveFooter((await requireStaff(context, req, res)).accessToken, body),
    })
    .route({
      method: 'get',
      path: '/tenant/logo/settings',
      summary:
        'What the tenant’s logo is: none, a text logo, or an image (type, size and version for the URL)',
      responses: { 200: { description: 'Logo', schema: logoView } },
      handler: async ({ req, res }) => {
        const logo = await identity.logo((await requireStaff(context, req, res)).accessToken);
        res.setHeader('Cache-Control', 'no-store');
        return logo;
      },
    })
    .route({
      method: 'get',
      path: '/tenant/logo',
      summary:
        'The tenant’s image logo as bytes (PNG, JPEG or GIF as identity read it from the content); ?v=<etag> may be cached',
      request: { query: z.object({ v: z.string().max(64).optional() }) },
      responses: {
        200: { description: 'The image' },
        304: { description: 'Not modified (If-None-Match)' },
        404: { description: 'No image logo' },
      },
      handler: async ({ query, req, res }) => {
        const image = await identity.logoImage((await requireStaff(context, req, res)).accessToken);
        const etag = `"${image.etag}"`;
        res.setHeader('ETag', etag);
        // A versioned URL (the SPA adds the current etag) may be kept; the bare URL is revalidated each time.
        res.setHeader(
          'Cache-Control',
          query.v === image.etag ? 'private, max-age=86400, immutable' : 'private, no-cache',
        );
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
        res.setHeader('Content-Disposition', 'inline; filename="logo"');
        if (req.get('if-none-match') === etag) {
          res.status(304).end();
          return null;
        }
        const bytes = Buffer.from(image.data, 'base64');
        res.status(200).type(image.contentType).setHeader('Content-Length', String(bytes.length));
        res.end(bytes);
        return null;
      },
    })
    .route({
      method: 'put',
      path: '/tenant/logo',
      summary:
        'Set the logo: {kind: "text", text} (at most 30 characters) or {kind: "image", data: base64, fileName} (PNG, JPG or GIF by content, at most 2 MB); tenant.edit_settings; CSRF header',
      request: { body: z.record(z.string(), z.unknown()) },
      responses: { 200: { description: 'Saved', schema: logoView } },
      handler: async ({ body, req, res }) =>
        identity.saveLogo((await requireStaff(context, req, res)).accessToken, body),
    })
    .route({
      method: 'delete',
      path: '/tenant/logo',
      summary: 'Remove the logo (tenant.edit_settings; CSRF header)',
      responses: { 204: { description: 'Removed' } },
      handler: async ({ req, res }) => {
        await identity.deleteLogo((await requireStaff(context, req, res)).accessToken);
        return undefined;
      },
    });
}

/** Identity answered with a refusal (its body's message, if any, is the one to show). */
function refusedByIdentity(error: HttpProblem): error is UpstreamProblem {
  return error instanceof UpstreamProblem && (error.upstream.status ?? 0) >= 400;
}
