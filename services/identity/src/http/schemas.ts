import { z } from 'zod';
import { REGIONS, ROLES, STORAGE_TIERS, USER_STATUSES } from '../db/store.js';

/** The spec's tenant id pattern: lowercase letters, digits, underscore, hyphen, starting with a letter or digit. */
export const tenantId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,62}$/,
    'Tenant id must be lowercase letters, digits, _ or -, starting with a letter or digit',
  );

export const tenantModule = z.object({
  id: z.string().min(1).max(40),
  enabled: z.boolean(),
  config: z.record(z.string(), z.unknown()).default({}),
});

export const branding = z.object({
  accentColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Accent colour must be a hex colour such as #1677FF')
    .optional(),
  accentHsl: z.string().max(40).optional(),
});

export const tenantView = z.object({
  id: z.string(),
  name: z.string(),
  region: z.enum(REGIONS),
  branding,
  modules: z.array(tenantModule),
  storageTier: z.enum(STORAGE_TIERS),
  entitlements: z.array(z.string()),
});

export const themePreference = z.object({
  mode: z.enum(['light', 'dark', 'system']).optional(),
  layout: z.enum(['topbar', 'sidebar', 'topbar-nav']).optional(),
  radius: z.enum(['none', 'small', 'medium', 'large', 'full']).optional(),
  scale: z.union([z.literal(75), z.literal(90), z.literal(100), z.literal(110), z.literal(125)]).optional(),
  font: z
    .enum([
      'Inter',
      'Outfit',
      'Plus Jakarta Sans',
      'DM Sans',
      'Space Grotesk',
      'Roboto',
      'Open Sans',
      'Lato',
      'System',
    ])
    .optional(),
  accent: z.string().max(40).optional(),
  accentVariation: z.enum(['lighter', 'darker', 'muted', 'default']).optional(),
});

export const userView = z.object({
  uid: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  themePreference: themePreference,
  profilePhotoUrl: z.string().nullable(),
  teamIds: z.array(z.string()),
  siteIds: z.array(z.string()),
  bundleIds: z.array(z.string()),
});

const footerUrl = z
  .string()
  .trim()
  .max(500)
  .refine(
    (value) => value === '' || value.startsWith('/') || /^https?:\/\//.test(value),
    'Enter a web address (https://…) or a path (/…)',
  );

/**
 * Footer settings: the Display footer switch, display name (the tenant name when empty), Powered by, About /
 * Privacy / Terms each with a show switch, label and URL, and custom links.
 */
export const footerSettings = z.object({
  showFooter: z.boolean(),
  displayName: z.string().trim().max(120),
  showPoweredBy: z.boolean(),
  poweredByText: z.string().trim().max(120),
  showAbout: z.boolean(),
  aboutLabel: z.string().trim().max(60),
  aboutUrl: footerUrl,
  showPrivacy: z.boolean(),
  privacyLabel: z.string().trim().max(60),
  privacyUrl: footerUrl,
  showTerms: z.boolean(),
  termsLabel: z.string().trim().max(60),
  termsUrl: footerUrl,
  links: z
    .array(
      z.object({
        id: z.string().min(1).max(40),
        label: z.string().trim().min(1, 'A link needs a label').max(60),
        url: footerUrl.refine((value) => value !== '', 'A link needs a web address'),
        enabled: z.boolean(),
      }),
    )
    .max(20),
});

export type FooterSettings = z.infer<typeof footerSettings>;

/** The footer is visible by default, with Powered by, Privacy and Terms; About appears once it has an address. */
export const defaultFooter = (tenantName: string): FooterSettings => ({
  showFooter: true,
  displayName: tenantName,
  showPoweredBy: true,
  poweredByText: 'Powered by Workspace',
  showAbout: false,
  aboutLabel: 'About',
  aboutUrl: '',
  showPrivacy: true,
  privacyLabel: 'Privacy',
  privacyUrl: '/privacy',
  showTerms: true,
  termsLabel: 'Terms',
  termsUrl: '/terms',
  links: [],
});

export const tokenResponse = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int(),
  refreshToken: z.string(),
  refreshExpiresIn: z.number().int(),
});
