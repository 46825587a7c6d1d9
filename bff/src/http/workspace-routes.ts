import { ApiRouter, HttpProblem, problems, UpstreamProblem } from '@workspace/kit';
import { z } from 'zod';
import { browserState, limit, requireSameTenant, requireStaff, type BffContext } from './context.js';

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

/**
 * The bff's own routes over identity: each adds something to identity's answer (the metadata fallback, a check that
 * a tenant the browser names is the session's, the effective scopes' second list, the logo's bytes). identity's
 * calls the browser makes as they are go through the service proxy (identity-forwards.ts).
 */
export function workspaceRoutes(context: BffContext): ApiRouter {
  const { config, identity } = context;
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/metadata',
      summary:
        'Tenant metadata for the sign-in page, for the tenant in the x-tenant-id header (the session’s when signed in); rate limited per client IP',
      public: true,
      responses: {
        200: { description: 'Metadata, or the fallback with error set', schema: metadataView },
        429: { description: 'Too many requests from this address (Retry-After)' },
      },
      handler: async ({ req, res }) => {
        // Unauthenticated, and it tells whether a tenant id exists: limited, so tenants cannot be enumerated fast.
        await limit(context.limits.metadata, req, res);
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
    });
}

/** Identity answered with a refusal (its body's message, if any, is the one to show). */
function refusedByIdentity(error: HttpProblem): error is UpstreamProblem {
  return error instanceof UpstreamProblem && (error.upstream.status ?? 0) >= 400;
}
