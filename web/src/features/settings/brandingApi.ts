import type { LogoInput, LogoView } from '@workspace/identity/contract';
import { api } from '../../app/api';
import type { Branding } from '../../ui/appearance';

/** The tenant branding calls of the bff: colours (PATCH /api/tenant) and the logo. tenant.edit_settings to change. */
export const brandingApi = api.enhanceEndpoints({ addTagTypes: ['Logo'] }).injectEndpoints({
  endpoints: (build) => ({
    /** What the tenant's logo is; the image itself is at /api/tenant/logo?v=<etag>. */
    logoSettings: build.query<LogoView, undefined>({
      query: () => '/tenant/logo/settings',
      providesTags: ['Logo'],
    }),
    saveLogo: build.mutation<LogoView, LogoInput>({
      query: (body) => ({ url: '/tenant/logo', method: 'PUT', body }),
      invalidatesTags: ['Logo'],
    }),
    deleteLogo: build.mutation<null, undefined>({
      query: () => ({ url: '/tenant/logo', method: 'DELETE' }),
      invalidatesTags: ['Logo'],
    }),
    /** Replaces the tenant's branding; the session (which carries it, and so the theme) is fetched again. */
    saveBranding: build.mutation<unknown, Branding>({
      query: (branding) => ({ url: '/tenant', method: 'PATCH', body: { branding } }),
      invalidatesTags: ['Session'],
    }),
  }),
});

export const { useLogoSettingsQuery, useSaveLogoMutation, useDeleteLogoMutation, useSaveBrandingMutation } =
  brandingApi;
