import { z } from 'zod';
import { tenantView, userView } from '../identity-client.js';
import type { ForwardedOperation } from './service-proxy.js';

const footerLink = z.object({ id: z.string(), label: z.string(), url: z.string(), enabled: z.boolean() });

/** Footer settings as identity answers them, defaults filled in (identity validates what is saved). */
export const footerView = z.object({
  showFooter: z.boolean(),
  displayName: z.string(),
  showPoweredBy: z.boolean(),
  poweredByText: z.string(),
  showAbout: z.boolean(),
  aboutLabel: z.string(),
  aboutUrl: z.string(),
  showPrivacy: z.boolean(),
  privacyLabel: z.string(),
  privacyUrl: z.string(),
  showTerms: z.boolean(),
  termsLabel: z.string(),
  termsUrl: z.string(),
  links: z.array(footerLink),
});

/** The tenant's logo as identity describes it (kind, text, image type, size and version; not the bytes). */
export const logoView = z.object({
  kind: z.enum(['none', 'text', 'image']),
  text: z.string().nullable(),
  contentType: z.string().nullable(),
  size: z.number().int().nullable(),
  etag: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

/**
 * identity's calls the browser makes as they are, with the session's access token (identity checks the scopes and
 * takes the tenant from the token). The bff's own routes for identity are in workspace-routes.ts: those add a
 * fallback, a tenant check, a reshaped answer or the logo's bytes.
 */
export const identityForwards: ForwardedOperation[] = [
  {
    method: 'get',
    path: '/users/directory',
    summary:
      'The tenant’s colleagues (name, e-mail, username) for choosing people to share with or add to a drive',
    responses: {
      200: {
        description: 'Colleagues',
        schema: z.object({
          items: z.array(
            z.object({
              uid: z.string(),
              displayName: z.string(),
              fullName: z.string(),
              email: z.string(),
              username: z.string(),
            }),
          ),
        }),
      },
    },
  },
  {
    method: 'get',
    path: '/me',
    summary: 'The signed-in user and their tenant',
    responses: { 200: { description: 'Profile', schema: z.object({ user: userView, tenant: tenantView }) } },
  },
  {
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
  },
  {
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
  },
  {
    method: 'get',
    path: '/tenant',
    summary: 'The signed-in user’s tenant',
    responses: { 200: { description: 'Tenant', schema: tenantView } },
  },
  {
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
  },
  {
    method: 'get',
    path: '/tenant/footer',
    summary: 'The tenant’s footer settings, defaults filled in (the rendered footer and its settings panel)',
    responses: { 200: { description: 'Footer settings', schema: footerView } },
  },
  {
    method: 'put',
    path: '/tenant/footer',
    summary: 'Save the footer settings (tenant.edit_settings; CSRF header); identity validates every field',
    request: { body: z.record(z.string(), z.unknown()) },
    responses: { 200: { description: 'Saved', schema: footerView } },
  },
  {
    method: 'get',
    path: '/tenant/logo/settings',
    to: '/tenant/logo',
    summary: 'What the tenant’s logo is: none, a text logo, or an image (type, size and version for the URL)',
    responses: { 200: { description: 'Logo', schema: logoView } },
  },
  {
    method: 'put',
    path: '/tenant/logo',
    summary:
      'Set the logo: {kind: "text", text} (at most 30 characters) or {kind: "image", data: base64, fileName} (PNG, JPG or GIF by content, at most 2 MB); tenant.edit_settings; CSRF header',
    // identity's limit for the image (2 MB as base64, with a margin for its own clear answer); read after the session.
    bodyLimit: '6mb',
    request: { body: z.record(z.string(), z.unknown()) },
    responses: { 200: { description: 'Saved', schema: logoView } },
  },
  {
    method: 'delete',
    path: '/tenant/logo',
    summary: 'Remove the logo (tenant.edit_settings; CSRF header)',
    responses: { 204: { description: 'Removed' } },
  },
];
