import { z } from 'zod';
import { footerLinkTarget } from '../domain/appearance.js';
import { REGIONS, STORAGE_TIERS, tenantModule } from '../domain/tenant.js';

const hexColour = (label: string, example: string) =>
  z.string().regex(/^#[0-9a-fA-F]{6}$/, `${label} must be a hex colour such as ${example}`);
const colourVariation = z.enum(['default', 'lighter', 'darker', 'muted']);

/** The free variation sliders' shifts in percentage points (spec: saturation -100 to 100, lightness -50 to 50). */
export const saturationShift = z.number().int().min(-100).max(100);
export const lightnessShift = z.number().int().min(-50).max(50);

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

export const tenantView = z.object({
  id: z.string(),
  name: z.string(),
  region: z.enum(REGIONS),
  branding,
  modules: z.array(tenantModule),
  storageTier: z.enum(STORAGE_TIERS),
  entitlements: z.array(z.string()),
});

const footerUrl = z
  .string()
  .trim()
  .max(500)
  .refine(
    (value) => value === '' || footerLinkTarget(value) !== 'invalid',
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

export const updateTenantBody = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  branding: branding.optional(),
  modules: z.array(tenantModule).optional(),
});

/** PUT /tenant/storage-tier (super-administrators: the drive's tier change, docs/drive.md). */
export const storageTierBody = z.object({ storageTier: z.enum(STORAGE_TIERS) });

export const entitlementsView = z.object({ enabled: z.array(z.string()) });
