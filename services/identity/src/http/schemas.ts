import { z } from 'zod';
import { REGIONS, ROLES, STORAGE_TIERS, USER_STATUSES } from '../db/store.js';
import {
  LOGO_IMAGE_MAX_BYTES,
  LOGO_IMAGE_TOO_LARGE,
  LOGO_TEXT_MAX,
  LOGO_TEXT_TOO_LONG,
} from '../domain/logo.js';

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

const hexColour = (label: string, example: string) =>
  z.string().regex(/^#[0-9a-fA-F]{6}$/, `${label} must be a hex colour such as ${example}`);
const colourVariation = z.enum(['default', 'lighter', 'darker', 'muted']);
/** The free variation sliders' shifts in percentage points (spec: saturation -100 to 100, lightness -50 to 50). */
const saturationShift = z.number().int().min(-100).max(100);
const lightnessShift = z.number().int().min(-50).max(50);

/**
 * The tenant's branding: the accent colour, and the Success and Danger colours with their variations (applied to
 * everyone's theme as antd's colorSuccess and colorError). A key left out means the default.
 */
export const branding = z.object({
  accentColor: hexColour('Accent colour', '#1677FF').optional(),
  accentHsl: z.string().max(40).optional(),
  successColor: hexColour('Success colour', '#52C41A').optional(),
  successVariation: colourVariation.optional(),
  successSaturation: saturationShift.optional(),
  successLightness: lightnessShift.optional(),
  dangerColor: hexColour('Danger colour', '#FF4D4F').optional(),
  dangerVariation: colourVariation.optional(),
  dangerSaturation: saturationShift.optional(),
  dangerLightness: lightnessShift.optional(),
});

/** What the tenant's logo is: none, a text logo or an image (its type, size and a version tag, not its bytes). */
export const logoView = z.object({
  kind: z.enum(['none', 'text', 'image']),
  text: z.string().nullable(),
  contentType: z.string().nullable(),
  size: z.number().int().nullable(),
  etag: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

/** A base64 string of at most 2 MB decoded, with a margin so that a little too much gets the clear message. */
const LOGO_BASE64_MAX = Math.ceil((LOGO_IMAGE_MAX_BYTES * 2) / 3) * 4;

export const logoInput = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    text: z.string().trim().min(1, 'Enter the text of the logo.').max(LOGO_TEXT_MAX, LOGO_TEXT_TOO_LONG),
  }),
  z.object({
    kind: z.literal('image'),
    /** The file's bytes, base64. Its type is read from its content; the name is kept for nothing but logs. */
    data: z
      .string()
      .min(1, 'Choose an image file.')
      .max(LOGO_BASE64_MAX, LOGO_IMAGE_TOO_LARGE)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The image must be sent as base64.'),
    fileName: z.string().max(255).optional(),
  }),
]);

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
  accentSaturation: saturationShift.optional(),
  accentLightness: lightnessShift.optional(),
  /** The surface presets chosen for light and dark mode (web/src/ui/appearance.ts; unknown ids show Classic). */
  surfaceLight: z.string().max(40).optional(),
  surfaceDark: z.string().max(40).optional(),
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
