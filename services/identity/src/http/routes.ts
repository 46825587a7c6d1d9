import { createHash, randomUUID } from 'node:crypto';
import { ApiRouter, HttpProblem, problems, randomToken, sha256Hex } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';
import type { Request } from 'express';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import type { IdentityStore, Tenant, TenantLogo, User } from '../db/store.js';
import {
  isKnownScope,
  isSystemScope,
  LOGO_IMAGE_MAX_BYTES,
  LOGO_IMAGE_TOO_LARGE,
  LOGO_IMAGE_WRONG_TYPE,
  logoImageType,
} from '../domain/index.js';
import {
  branding,
  defaultFooter,
  footerSettings,
  logoInput,
  logoView,
  tenantId,
  tenantModule,
  tenantView,
  themePreference,
  tokenResponse,
  userView,
} from './schemas.js';
import { tenantChangedData } from '../events.js';

const PORTAL_LINK_TTL_MS = 15 * 60_000;

const toTenantView = (tenant: Tenant) => ({
  id: tenant.id,
  name: tenant.name,
  region: tenant.region,
  branding: tenant.branding,
  modules: tenant.modules,
  storageTier: tenant.storageTier,
  entitlements: tenant.entitlements,
});

const toUserView = (user: User) => ({
  uid: user.uid,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  displayName: user.displayName,
  username: user.username,
  role: user.role,
  status: user.status,
  themePreference: user.themePreference,
  profilePhotoUrl: user.profilePhotoUrl,
  teamIds: user.teamIds,
  siteIds: user.siteIds,
  bundleIds: user.bundleIds,
});

const toLogoView = (logo: TenantLogo | undefined): z.infer<typeof logoView> => {
  if (!logo) {
    return { kind: 'none', text: null, contentType: null, size: null, etag: null, updatedAt: null };
  }
  if (logo.kind === 'text') {
    return {
      kind: 'text',
      text: logo.text,
      contentType: null,
      size: null,
      etag: null,
      updatedAt: logo.updatedAt.toISOString(),
    };
  }
  return {
    kind: 'image',
    text: null,
    contentType: logo.contentType,
    size: logo.size,
    etag: logo.sha256.slice(0, 32),
    updatedAt: logo.updatedAt.toISOString(),
  };
};

async function requireTenant(store: IdentityStore, id: string): Promise<Tenant> {
  const tenant = await store.tenant(id);
  if (!tenant) throw problems.notFound('Tenant not found.');
  return tenant;
}

async function requireUser(store: IdentityStore, uid: string): Promise<User> {
  const user = await store.user(uid);
  if (!user) throw problems.notFound('User not found.');
  return user;
}

const isCisScope = (scope: string) => scope.startsWith('cis.');

const scopeList = z
  .array(z.string())
  .max(500)
  .superRefine((scopes, ctx) => {
    for (const scope of scopes) {
      if (!isKnownScope(scope)) ctx.addIssue({ code: 'custom', message: `Unknown scope ${scope}` });
      else if (isSystemScope(scope)) ctx.addIssue({ code: 'custom', message: `${scope} is a system scope` });
    }
  });

/** Sign-in, refresh, logout and link redemption: called by the bff only (internal token). */
function authRoutes(context: IdentityContext): ApiRouter {
  const internal = (req: Request) => {
    context.requireInternal(req);
  };
  const issueSession = async (store: IdentityStore, tenant: Tenant, user: User) => {
    const scopes = await context.effectiveScopes(store, tenant, user);
    const accessToken = await context.signer.sign({
      tenantId: tenant.id,
      subject: user.uid,
      role: user.role,
      scopes,
      ttlSeconds: context.config.ACCESS_TOKEN_TTL_SECONDS,
    });
    return { accessToken, expiresIn: context.config.ACCESS_TOKEN_TTL_SECONDS, scopes };
  };

  /**
   * A new refresh token, valid REFRESH_TOKEN_TTL_SECONDS but never past the chain's absolute end (a sign-in starts a
   * chain ending REFRESH_SESSION_MAX_LIFETIME_SECONDS later; each rotation keeps that end).
   */
  const newRefreshToken = async (
    trx: Parameters<Parameters<IdentityContext['inTenant']>[1]>[1],
    tenantId: string,
    uid: string,
    chainEnd = new Date(Date.now() + context.config.REFRESH_SESSION_MAX_LIFETIME_SECONDS * 1000),
  ) => {
    const refreshToken = `${tenantId}.${randomToken()}`;
    const expiresAt = new Date(
      Math.min(Date.now() + context.config.REFRESH_TOKEN_TTL_SECONDS * 1000, chainEnd.getTime()),
    );
    await trx('refresh_sessions').insert({
      session_id: randomUUID(),
      tenant_id: tenantId,
      uid,
      token_hash: sha256Hex(refreshToken),
      expires_at: expiresAt,
      absolute_expires_at: chainEnd,
    });
    return {
      refreshToken,
      refreshExpiresIn: Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
    };
  };

  const tenantOfRefreshToken = (token: string): string => {
    const tenant = token.split('.')[0] ?? '';
    if (!tenantId.safeParse(tenant).success) throw problems.unauthorized('The session is not valid.');
    return tenant;
  };

  return new ApiRouter()
    .route({
      method: 'post',
      path: '/auth/authorize',
      summary: 'Start sign-in: the IdP authorization URL with PKCE, state and nonce (bff only)',
      public: true,
      guard: internal,
      request: {
        body: z.object({ tenantId, redirectUri: z.url(), loginHint: z.string().max(200).optional() }),
      },
      responses: {
        200: {
          description: 'Where to send the browser, and the checks to keep for the callback',
          schema: z.object({
            authorizationUrl: z.string(),
            state: z.string(),
            nonce: z.string(),
            codeVerifier: z.string(),
          }),
        },
      },
      handler: async ({ body }) => {
        const tenant = await context.inTenant(body.tenantId, (store) => requireTenant(store, body.tenantId));
        try {
          return await context.oidc.authorize(context.idpFor(tenant), body.redirectUri, body.loginHint);
        } catch (error) {
          context.logger.error({ err: error, tenantId: tenant.id }, 'IdP discovery failed');
          throw problems.unavailable('The sign-in provider is not reachable. Try again shortly.');
        }
      },
    })
    .route({
      method: 'post',
      path: '/auth/callback',
      summary: 'Finish sign-in: exchange the code, map the IdP subject to a user, issue tokens (bff only)',
      public: true,
      guard: internal,
      request: {
        body: z.object({
          tenantId,
          callbackUrl: z.url(),
          state: z.string().min(1),
          nonce: z.string().min(1),
          codeVerifier: z.string().min(43).max(128),
        }),
      },
      responses: {
        200: {
          description: 'Signed in',
          schema: tokenResponse.extend({ user: userView, scopes: z.array(z.string()), tenant: tenantView }),
        },
      },
      handler: async ({ body }) => {
        const tenant = await context.inTenant(body.tenantId, (store) => requireTenant(store, body.tenantId));
        let identity;
        try {
          identity = await context.oidc.complete(context.idpFor(tenant), body.callbackUrl, body);
        } catch (error) {
          context.logger.warn({ err: error, tenantId: tenant.id }, 'sign-in callback rejected');
          throw problems.unauthorized('Sign-in could not be completed. Please try again.');
        }
        return context.inTenant(tenant.id, async (store, trx) => {
          const user = await store.userBySubjectOrEmail(identity.subject, identity.email);
          if (!user) throw problems.forbidden('Your account is not set up for this organisation.');
          const session = await issueSession(store, tenant, user);
          const refresh = await newRefreshToken(trx, tenant.id, user.uid);
          return { ...session, ...refresh, user: toUserView(user), tenant: toTenantView(tenant) };
        });
      },
    })
    .route({
      method: 'post',
      path: '/auth/refresh',
      summary: 'Rotate a refresh token and issue a new access token with current scopes (bff only)',
      public: true,
      guard: internal,
      request: { body: z.object({ refreshToken: z.string().min(20).max(200) }) },
      responses: {
        200: { description: 'Refreshed', schema: tokenResponse.extend({ scopes: z.array(z.string()) }) },
      },
      handler: async ({ body }) => {
        const tenant = tenantOfRefreshToken(body.refreshToken);
        const hash = sha256Hex(body.refreshToken);
        const outcome = await context.inTenant(tenant, async (store, trx) => {
          const session = (await trx('refresh_sessions').where({ token_hash: hash }).forUpdate().first()) as
            | {
                session_id: string;
                uid: string;
                revoked_at: Date | null;
                expires_at: Date;
                absolute_expires_at: Date;
              }
            | undefined;
          // Unknown, expired, or past the chain's absolute lifetime (however regularly it was used).
          if (!session || session.expires_at <= new Date() || session.absolute_expires_at <= new Date())
            return { error: 'The session has expired. Please sign in again.' };
          if (session.revoked_at) {
            // A rotated token used again: someone holds a copy. End every session of that user.
            await trx('refresh_sessions')
              .where({ uid: session.uid })
              .whereNull('revoked_at')
              .update({ revoked_at: trx.fn.now() });
            // And the user's browser sessions at every bff replica (ADR 0025).
            await trx('bff_sessions').where({ kind: 'staff', tenant_id: tenant, subject: session.uid }).del();
            context.logger.warn(
              { tenantId: tenant, userId: session.uid },
              'a rotated refresh token was used again: every session of the user ended',
            );
            return { error: 'The session is no longer valid. Please sign in again.' };
          }
          await trx('refresh_sessions')
            .where({ session_id: session.session_id })
            .update({ revoked_at: trx.fn.now() });
          const tenantRecord = await requireTenant(store, tenant);
          const user = await requireUser(store, session.uid);
          const issued = await issueSession(store, tenantRecord, user);
          const refresh = await newRefreshToken(trx, tenant, user.uid, session.absolute_expires_at);
          return { value: { ...issued, ...refresh } };
        });
        if ('error' in outcome) throw problems.unauthorized(outcome.error);
        return outcome.value;
      },
    })
    .route({
      method: 'post',
      path: '/auth/logout',
      summary: 'End a session: revoke its refresh token (bff only)',
      public: true,
      guard: internal,
      request: { body: z.object({ refreshToken: z.string().min(20).max(200) }) },
      responses: { 204: { description: 'Signed out' } },
      handler: async ({ body }) => {
        const tenant = tenantOfRefreshToken(body.refreshToken);
        await context.inTenant(tenant, (_store, trx) =>
          trx('refresh_sessions')
            .where({ token_hash: sha256Hex(body.refreshToken) })
            .whereNull('revoked_at')
            .update({ revoked_at: trx.fn.now() }),
        );
        return undefined;
      },
    })
    .route({
      method: 'post',
      path: '/portal/links/redeem',
      summary: 'Redeem a portal magic link (single use, 15 minutes) into a portal session (bff only)',
      public: true,
      guard: internal,
      request: { body: z.object({ tenantId, token: z.string().min(20).max(100) }) },
      responses: {
        200: {
          description: 'A portal session limited to one subcontractor',
          schema: z.object({
            accessToken: z.string(),
            expiresIn: z.number().int(),
            subcontractorId: z.string(),
            tenant: z.object({ id: z.string(), name: z.string() }),
          }),
        },
      },
      handler: async ({ body }) => {
        const hash = sha256Hex(body.token);
        return context.inTenant(body.tenantId, async (store, trx) => {
          const link = (await trx('portal_links').where({ token_hash: hash }).forUpdate().first()) as
            | { link_id: string; subcontractor_id: string; expires_at: Date; redeemed_at: Date | null }
            | undefined;
          if (!link) throw new HttpProblem(404, 'link_invalid', 'This link is not valid.');
          if (link.redeemed_at) {
            throw new HttpProblem(
              410,
              'link_used',
              'This link has already been used. Ask your contractor for a new one.',
            );
          }
          if (link.expires_at <= new Date()) {
            throw new HttpProblem(
              410,
              'link_expired',
              'This link has expired. Ask your contractor for a new one.',
            );
          }
          await trx('portal_links').where({ link_id: link.link_id }).update({ redeemed_at: trx.fn.now() });
          await context.record(trx, identityEvents.portalLinkRedeemed, {
            tenantId: body.tenantId,
            aggregateId: link.link_id,
            data: {
              linkId: link.link_id,
              subcontractorId: link.subcontractor_id,
              expiresAt: link.expires_at.toISOString(),
              actor: 'portal',
            },
          });
          const tenant = await requireTenant(store, body.tenantId);
          const accessToken = await context.signer.sign({
            tenantId: tenant.id,
            subject: `portal:${link.subcontractor_id}`,
            role: 'subcontractor',
            scopes: ['portal.self'],
            ttlSeconds: context.config.PORTAL_SESSION_TTL_SECONDS,
            claims: { sctr: link.subcontractor_id },
          });
          return {
            accessToken,
            expiresIn: context.config.PORTAL_SESSION_TTL_SECONDS,
            subcontractorId: link.subcontractor_id,
            tenant: { id: tenant.id, name: tenant.name },
          };
        });
      },
    });
}

/** Public: what a signed-out browser may learn about a tenant (the spec's /api/metadata). */
function publicRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/tenants/:tenantId/metadata',
    summary: 'Tenant metadata for the sign-in page: id, region, branding, name',
    public: true,
    request: { params: z.object({ tenantId }) },
    responses: {
      200: {
        description: 'Metadata',
        schema: z.object({ id: z.string(), name: z.string(), databaseRegion: z.string(), branding }),
      },
    },
    handler: async ({ params }) => {
      const tenant = await context.inTenant(params.tenantId, (store) =>
        requireTenant(store, params.tenantId),
      );
      return { id: tenant.id, name: tenant.name, databaseRegion: tenant.region, branding: tenant.branding };
    },
  });
}

/** The signed-in user's own profile, tenant and effective scopes. */
function selfRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/me',
      summary: 'The signed-in user and their tenant',
      responses: {
        200: { description: 'Profile', schema: z.object({ user: userView, tenant: tenantView }) },
      },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) => ({
          user: toUserView(await requireUser(store, ctx.userId)),
          tenant: toTenantView(await requireTenant(store, ctx.tenantId)),
        })),
    })
    .route({
      method: 'patch',
      path: '/me',
      summary: 'Change the signed-in user’s status or appearance settings',
      request: {
        body: z.object({
          status: z.enum(['active', 'busy', 'unavailable']).optional(),
          themePreference: themePreference.optional(),
        }),
      },
      responses: { 200: { description: 'Updated', schema: userView } },
      handler: ({ ctx, body }) =>
        context.inTenant(ctx.tenantId, async (store, trx) => {
          const current = await requireUser(store, ctx.userId);
          const user = await store.updateUser(ctx.userId, {
            ...(body.status ? { status: body.status } : {}),
            ...(body.themePreference
              ? { themePreference: { ...current.themePreference, ...body.themePreference } }
              : {}),
          });
          if (!user) throw problems.notFound('User not found.');
          if (body.status) {
            await context.record(
              trx,
              identityEvents.userUpdated,
              {
                tenantId: ctx.tenantId,
                aggregateId: user.uid,
                data: {
                  uid: user.uid,
                  role: user.role,
                  status: user.status,
                  bundleIds: user.bundleIds,
                  changedBy: ctx.userId,
                },
              },
              { changed: ['status'] },
            );
          }
          return toUserView(user);
        }),
    })
    .route({
      method: 'get',
      path: '/me/effective-scopes',
      summary: 'The signed-in user’s effective scopes (cached 5/10/30 minutes, refreshed on any change)',
      responses: { 200: { description: 'Scopes', schema: z.object({ granted: z.array(z.string()) }) } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) => {
          const tenant = await requireTenant(store, ctx.tenantId);
          const user = await requireUser(store, ctx.userId);
          return { granted: await context.effectiveScopes(store, tenant, user) };
        }),
    });
}

/** Tenant settings, the permission whitelist, role bundles, users and portal links (admin scopes). */
function adminRoutes(context: IdentityContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/tenant',
      summary: 'The caller’s tenant',
      responses: { 200: { description: 'Tenant', schema: tenantView } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) =>
          toTenantView(await requireTenant(store, ctx.tenantId)),
        ),
    })
    .route({
      method: 'patch',
      path: '/tenant',
      summary: 'Change the tenant’s name, branding or modules',
      scopes: ['tenant.edit_settings'],
      request: {
        body: z.object({
          name: z.string().trim().min(1).max(120).optional(),
          branding: branding.optional(),
          modules: z.array(tenantModule).optional(),
        }),
      },
      responses: { 200: { description: 'Updated', schema: tenantView } },
      handler: ({ ctx, body }) =>
        context.inTenant(ctx.tenantId, async (store, trx) => {
          await store.updateTenant(ctx.tenantId, body);
          const tenant = await requireTenant(store, ctx.tenantId);
          await context.record(
            trx,
            identityEvents.tenantUpdated,
            {
              tenantId: tenant.id,
              aggregateId: tenant.id,
              data: tenantChangedData(tenant),
            },
            { changed: Object.keys(body) },
          );
          return toTenantView(tenant);
        }),
    })
    .route({
      method: 'get',
      path: '/tenant/footer',
      summary: 'The tenant’s footer settings (defaults filled in)',
      responses: { 200: { description: 'Footer settings', schema: footerSettings } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store, trx) => {
          const tenant = await requireTenant(store, ctx.tenantId);
          const row: { footer: Record<string, unknown> } | undefined = await trx('tenants')
            .where({ tenant_id: ctx.tenantId })
            .first('footer');
          const footer = { ...defaultFooter(tenant.name), ...row?.footer };
          return { ...footer, displayName: footer.displayName || tenant.name };
        }),
    })
    .route({
      method: 'put',
      path: '/tenant/footer',
      summary: 'Save the tenant’s footer settings',
      scopes: ['tenant.edit_settings'],
      request: { body: footerSettings },
      responses: { 200: { description: 'Saved', schema: footerSettings } },
      handler: ({ ctx, body }) =>
        context.inTenant(ctx.tenantId, async (store, trx) => {
          const tenant = await requireTenant(store, ctx.tenantId);
          await trx('tenants')
            .where({ tenant_id: ctx.tenantId })
            .update({ footer: JSON.stringify(body), updated_at: trx.fn.now() });
          await context.record(
            trx,
            identityEvents.tenantUpdated,
            {
              tenantId: tenant.id,
              aggregateId: tenant.id,
              data: tenantChangedData(tenant),
            },
            { changed: ['footer'] },
          );
          return { ...body, displayName: body.displayName || tenant.name };
        }),
    })
    .route({
      method: 'get',
      path: '/tenant/logo',
      summary:
        'What the tenant’s logo is: none, a text logo, or an image (type, size, version; not its bytes)',
      responses: { 200: { description: 'Logo', schema: logoView } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) =>
          toLogoView(await store.logo(ctx.tenantId, { withImage: false })),
        ),
    })
    .route({
      method: 'get',
      path: '/tenant/logo/image',
      summary: 'The tenant’s image logo, base64, with its content type (the bff serves the bytes)',
      responses: {
        200: {
          description: 'Image',
          schema: z.object({ contentType: z.string(), etag: z.string(), data: z.string() }),
        },
        404: { description: 'No image logo' },
      },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) => {
          const logo = await store.logo(ctx.tenantId, { withImage: true });
          if (logo?.kind !== 'image') throw problems.notFound('This organisation has no image logo.');
          return {
            contentType: logo.contentType,
            etag: logo.sha256.slice(0, 32),
            data: logo.image.toString('base64'),
          };
        }),
    })
    .route({
      method: 'put',
      path: '/tenant/logo',
      summary:
        'Set the tenant’s logo: text (at most 30 characters) or an image (PNG, JPG or GIF by content, at most 2 MB)',
      scopes: ['tenant.edit_settings'],
      request: { body: logoInput },
      responses: { 200: { description: 'Saved', schema: logoView } },
      handler: ({ ctx, body }) => {
        let logo: Parameters<IdentityStore['saveLogo']>[1];
        if (body.kind === 'text') {
          logo = { kind: 'text', text: body.text };
        } else {
          const image = Buffer.from(body.data, 'base64');
          if (image.length > LOGO_IMAGE_MAX_BYTES) {
            throw problems.validation([{ field: 'body.data', message: LOGO_IMAGE_TOO_LARGE }]);
          }
          // The type comes from the content's signature bytes, never from the file name.
          const contentType = logoImageType(image);
          if (!contentType)
            throw problems.validation([{ field: 'body.data', message: LOGO_IMAGE_WRONG_TYPE }]);
          logo = {
            kind: 'image',
            contentType,
            image,
            sha256: createHash('sha256').update(image).digest('hex'),
          };
        }
        return context.inTenant(ctx.tenantId, async (store, trx) => {
          const tenant = await requireTenant(store, ctx.tenantId);
          await store.saveLogo(ctx.tenantId, logo, ctx.userId);
          await context.record(
            trx,
            identityEvents.tenantUpdated,
            {
              tenantId: tenant.id,
              aggregateId: tenant.id,
              data: tenantChangedData(tenant),
            },
            { changed: ['logo'] },
          );
          return toLogoView(await store.logo(ctx.tenantId, { withImage: false }));
        });
      },
    })
    .route({
      method: 'delete',
      path: '/tenant/logo',
      summary: 'Remove the tenant’s logo (the organisation’s name shows again)',
      scopes: ['tenant.edit_settings'],
      responses: { 204: { description: 'Removed' } },
      handler: async ({ ctx }) => {
        await context.inTenant(ctx.tenantId, async (store, trx) => {
          const tenant = await requireTenant(store, ctx.tenantId);
          if (!(await store.deleteLogo(ctx.tenantId))) return;
          await context.record(
            trx,
            identityEvents.tenantUpdated,
            {
              tenantId: tenant.id,
              aggregateId: tenant.id,
              data: tenantChangedData(tenant),
            },
            { changed: ['logo'] },
          );
        });
        return undefined;
      },
    })
    .route({
      method: 'get',
      path: '/tenant/available-scopes',
      summary: 'The tenant’s permission whitelist (scopes its users may hold)',
      responses: {
        200: {
          description: 'Scopes',
          schema: z.object({ scopes: z.array(z.string()), restricted: z.boolean() }),
        },
      },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) => {
          const tenant = await requireTenant(store, ctx.tenantId);
          const { allScopes } = await import('../domain/index.js');
          return tenant.availableScopes
            ? { scopes: tenant.availableScopes, restricted: true }
            : { scopes: allScopes.filter((scope) => !isSystemScope(scope)), restricted: false };
        }),
    })
    .route({
      method: 'put',
      path: '/tenant/available-scopes',
      summary:
        'Replace the permission whitelist (null lifts it); cached scopes of the tenant are dropped at once',
      scopes: ['roles.manage'],
      request: { body: z.object({ scopes: scopeList.nullable() }) },
      responses: { 204: { description: 'Saved' } },
      handler: async ({ ctx, body }) => {
        await context.inTenant(ctx.tenantId, async (store, trx) => {
          await store.setAvailableScopes(ctx.tenantId, body.scopes);
          await context.record(trx, identityEvents.whitelistChanged, {
            tenantId: ctx.tenantId,
            aggregateId: ctx.tenantId,
            data: {
              availableScopes: body.scopes ?? [],
              changedBy: ctx.userId,
              restricted: body.scopes !== null,
            },
          });
        });
        context.scopeCache.invalidateTenant(ctx.tenantId);
        return undefined;
      },
    })
    .route({
      method: 'get',
      path: '/tenant/entitlements',
      summary: 'The tenant’s entitlements (e.g. calls.voip)',
      responses: { 200: { description: 'Entitlements', schema: z.object({ enabled: z.array(z.string()) }) } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) => ({
          enabled: (await requireTenant(store, ctx.tenantId)).entitlements,
        })),
    })
    .route({
      method: 'get',
      path: '/role-bundles',
      summary: 'The tenant’s role bundles',
      scopes: ['roles.manage'],
      responses: {
        200: {
          description: 'Bundles',
          schema: z.object({
            items: z.array(
              z.object({
                id: z.string(),
                name: z.string(),
                scopes: z.array(z.string()),
                template: z.string().nullable(),
              }),
            ),
          }),
        },
      },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) => ({ items: await store.bundles() })),
    })
    .route({
      method: 'put',
      path: '/role-bundles/:bundleId',
      summary: 'Create or replace a role bundle; cached scopes of the tenant are dropped at once',
      scopes: ['roles.manage'],
      request: {
        params: z.object({
          bundleId: z
            .string()
            .regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, 'Bundle id must be lowercase letters, digits, _ or -'),
        }),
        body: z.object({ name: z.string().trim().min(1).max(80), scopes: scopeList }),
      },
      responses: { 204: { description: 'Saved' } },
      handler: async ({ ctx, params, body }) => {
        await context.inTenant(ctx.tenantId, async (store, trx) => {
          await store.upsertBundle(ctx.tenantId, {
            id: params.bundleId,
            name: body.name,
            scopes: body.scopes,
            template: null,
          });
          await context.record(trx, identityEvents.roleBundleChanged, {
            tenantId: ctx.tenantId,
            aggregateId: params.bundleId,
            data: { bundleId: params.bundleId, scopes: body.scopes, deleted: false, changedBy: ctx.userId },
          });
        });
        context.scopeCache.invalidateTenant(ctx.tenantId);
        return undefined;
      },
    })
    .route({
      method: 'get',
      path: '/module-role-bundles/cis',
      summary: 'Every role bundle with only its CIS scopes (the CIS settings Role Permissions checklist)',
      scopes: ['cis.settings.read'],
      responses: {
        200: {
          description: 'Bundles',
          schema: z.object({
            items: z.array(z.object({ id: z.string(), name: z.string(), scopes: z.array(z.string()) })),
          }),
        },
      },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) => ({
          items: (await store.bundles()).map((bundle) => ({
            id: bundle.id,
            name: bundle.name,
            scopes: bundle.scopes.filter(isCisScope),
          })),
        })),
    })
    .route({
      method: 'put',
      path: '/module-role-bundles/cis/:bundleId',
      summary:
        'Replace the CIS scopes of a role bundle (its other scopes are kept); a caller can only grant CIS scopes they hold',
      scopes: ['cis.settings.write'],
      request: {
        params: z.object({ bundleId: z.string().max(41) }),
        body: z.object({
          scopes: scopeList.refine((scopes) => scopes.every(isCisScope), 'Only CIS scopes can be set here'),
        }),
      },
      responses: { 204: { description: 'Saved' } },
      handler: async ({ ctx, params, body }) => {
        await context.inTenant(ctx.tenantId, async (store, trx) => {
          const bundle = (await store.bundles()).find((candidate) => candidate.id === params.bundleId);
          if (!bundle) throw problems.notFound('Role bundle not found.');
          const current = new Set(bundle.scopes.filter(isCisScope));
          const raised = body.scopes.find(
            (scope) => !current.has(scope) && !ctx.scopes.has(scope) && !ctx.scopes.has('*'),
          );
          if (raised) throw problems.forbidden(`You cannot grant ${raised}: you do not hold it.`);
          const scopes = [...bundle.scopes.filter((scope) => !isCisScope(scope)), ...new Set(body.scopes)];
          await store.upsertBundle(ctx.tenantId, { ...bundle, scopes });
          await context.record(trx, identityEvents.roleBundleChanged, {
            tenantId: ctx.tenantId,
            aggregateId: bundle.id,
            data: { bundleId: bundle.id, scopes, deleted: false, changedBy: ctx.userId },
          });
        });
        context.scopeCache.invalidateTenant(ctx.tenantId);
        return undefined;
      },
    })
    .route({
      method: 'get',
      path: '/users',
      summary: 'The tenant’s users',
      scopes: ['users.view'],
      responses: { 200: { description: 'Users', schema: z.object({ items: z.array(userView) }) } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (store) => ({ items: (await store.users()).map(toUserView) })),
    })
    .route({
      method: 'patch',
      path: '/users/:uid',
      summary: 'Change a user’s role or role bundles; their cached scopes are dropped at once',
      scopes: ['users.manage'],
      request: {
        params: z.object({ uid: z.uuid() }),
        body: z.object({
          role: z.enum(['admin', 'standard']).optional(),
          bundleIds: z.array(z.string().max(41)).max(50).optional(),
        }),
      },
      responses: { 200: { description: 'Updated', schema: userView } },
      handler: async ({ ctx, params, body }) => {
        // Role changes cannot raise the caller: only an administrator grants the admin role, and nobody changes
        // their own role (another administrator must).
        if (body.role !== undefined && params.uid === ctx.userId) {
          throw problems.forbidden('You cannot change your own role.');
        }
        if (body.role === 'admin' && ctx.role !== 'admin') {
          throw problems.forbidden('Only an administrator can make someone an administrator.');
        }
        const user = await context.inTenant(ctx.tenantId, async (store, trx) => {
          if (body.bundleIds) {
            const known = new Set((await store.bundles()).map((bundle) => bundle.id));
            const unknown = body.bundleIds.filter((id) => !known.has(id));
            if (unknown.length > 0) {
              throw problems.validation(
                unknown.map((id) => ({ field: 'body.bundleIds', message: `Unknown role bundle ${id}` })),
              );
            }
          }
          const updated = await store.updateUser(params.uid, body);
          if (!updated) throw problems.notFound('User not found.');
          await context.record(
            trx,
            identityEvents.userUpdated,
            {
              tenantId: ctx.tenantId,
              aggregateId: updated.uid,
              data: {
                uid: updated.uid,
                role: updated.role,
                status: updated.status,
                bundleIds: updated.bundleIds,
                changedBy: ctx.userId,
              },
            },
            { changed: Object.keys(body) },
          );
          return updated;
        });
        context.scopeCache.invalidateTenant(ctx.tenantId);
        return toUserView(user);
      },
    })
    .route({
      method: 'post',
      path: '/portal/links',
      summary:
        'Create a portal magic link for a subcontractor (15 minutes, single use; only its hash is kept)',
      scopes: ['cis.portal.invite'],
      status: 201,
      request: { body: z.object({ subcontractorId: z.string().min(1).max(64) }) },
      responses: {
        201: {
          description: 'The link, to show once and send by email',
          schema: z.object({
            magicLink: z.string(),
            expiresAt: z.string(),
            expiresIn: z.string(),
            tenantName: z.string(),
          }),
        },
      },
      handler: ({ ctx, body }) =>
        context.inTenant(ctx.tenantId, async (store, trx) => {
          const tenant = await requireTenant(store, ctx.tenantId);
          const token = randomToken();
          const linkId = randomUUID();
          const expiresAt = new Date(Date.now() + PORTAL_LINK_TTL_MS);
          await trx('portal_links').insert({
            link_id: linkId,
            tenant_id: ctx.tenantId,
            subcontractor_id: body.subcontractorId,
            token_hash: sha256Hex(token),
            expires_at: expiresAt,
            created_by: ctx.userId,
          });
          await context.record(trx, identityEvents.portalLinkCreated, {
            tenantId: ctx.tenantId,
            aggregateId: linkId,
            data: {
              linkId,
              subcontractorId: body.subcontractorId,
              expiresAt: expiresAt.toISOString(),
              actor: ctx.userId,
            },
          });
          const url = new URL(context.config.PORTAL_LOGIN_URL);
          url.searchParams.set('tid', ctx.tenantId);
          url.searchParams.set('token', token);
          return {
            magicLink: url.toString(),
            expiresAt: expiresAt.toISOString(),
            expiresIn: '15 minutes',
            tenantName: tenant.name,
          };
        }),
    });
}

export function identityRoutes(context: IdentityContext) {
  return [
    { basePath: '/v1', api: authRoutes(context) },
    { basePath: '/v1', api: publicRoutes(context) },
    { basePath: '/v1', api: selfRoutes(context) },
    { basePath: '/v1', api: adminRoutes(context) },
    {
      basePath: '',
      api: new ApiRouter().route({
        method: 'get',
        path: '/.well-known/jwks.json',
        summary: 'Public keys of identity’s access tokens (JWKS)',
        public: true,
        responses: {
          200: {
            description: 'JWKS',
            schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
          },
        },
        handler: () => Promise.resolve(context.signer.jwks()),
      }),
    },
  ];
}
