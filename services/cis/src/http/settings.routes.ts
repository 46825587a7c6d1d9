import { ApiRouter } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { readSettings, rolePermissions, saveSettings, setRolePermissions } from '../commands/settings.js';
import { cisAbilities, settingsWarnings } from '../domain/index.js';
import { presentSettings } from './settings.present.js';
import {
  abilitiesResponse,
  bundleParams,
  bundleScopesBody,
  rolePermissionsResponse,
  settingsInput,
  settingsResponse,
} from './settings.schemas.js';

export function settingsRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/role-permissions',
      summary:
        'The Role Permissions checklist: each role bundle’s CIS scopes with the checklist’s errors and warnings',
      scopes: ['cis.settings.read'],
      responses: { 200: { description: 'Checklist', schema: rolePermissionsResponse } },
      handler: ({ req }) => rolePermissions(deps, req.headers.authorization ?? ''),
    })
    .route({
      method: 'put',
      path: '/role-permissions/:bundleId',
      summary: 'Set the CIS scopes of a role bundle (stored in identity; caches drop at once)',
      scopes: ['cis.settings.write'],
      request: { params: bundleParams, body: bundleScopesBody },
      responses: { 200: { description: 'Checklist', schema: rolePermissionsResponse } },
      handler: ({ ctx, params, body, req }) => {
        const actor = {
          tenantId: ctx.tenantId,
          userId: ctx.userId,
          authorization: req.headers.authorization ?? '',
        };
        return setRolePermissions(deps, actor, params.bundleId, body.scopes);
      },
    })
    .route({
      method: 'get',
      path: '/me/abilities',
      summary: "The caller's CIS abilities: the UI flags of cis.md section 6",
      responses: { 200: { description: 'Abilities', schema: abilitiesResponse } },
      handler: ({ ctx }) =>
        Promise.resolve({
          abilities: cisAbilities([...ctx.scopes]),
          testingTools: deps.config.CIS_TESTING_TOOLS,
        }),
    })
    .route({
      method: 'get',
      path: '/settings',
      summary: 'CIS settings (created with defaults on first read); the contractor UTR only masked',
      scopes: ['cis.settings.read'],
      responses: { 200: { description: 'Settings', schema: settingsResponse } },
      handler: async ({ ctx }) => presentSettings(await readSettings(deps, ctx.tenantId)),
    })
    .route({
      method: 'put',
      path: '/settings',
      summary: 'Save CIS settings; a blank UTR keeps the stored one (stored encrypted, shown masked)',
      scopes: ['cis.settings.write'],
      request: { body: settingsInput },
      responses: { 200: { description: 'Saved settings', schema: settingsResponse } },
      handler: async ({ ctx, body }) => ({
        ...presentSettings(await saveSettings(deps, ctx, body)),
        warnings: settingsWarnings(body),
      }),
    });
}
