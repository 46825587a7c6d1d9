import { z } from 'zod';
import { FONTS } from '../domain/appearance.js';
import { ROLES, USER_STATUSES } from '../domain/tenant.js';
import { lightnessShift, saturationShift } from './tenant.schemas.js';

export const themePreference = z.object({
  mode: z.enum(['light', 'dark', 'system']).optional(),
  layout: z.enum(['topbar', 'sidebar', 'topbar-nav']).optional(),
  radius: z.enum(['none', 'small', 'medium', 'large', 'full']).optional(),
  scale: z.union([z.literal(75), z.literal(90), z.literal(100), z.literal(110), z.literal(125)]).optional(),
  font: z.enum(FONTS).optional(),
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

export const userParams = z.object({ uid: z.uuid() });

export const updateUserBody = z.object({
  role: z.enum(['admin', 'standard']).optional(),
  bundleIds: z.array(z.string().max(41)).max(50).optional(),
});

export const usersView = z.object({ items: z.array(userView) });

/** `?ids=uid,uid,…`: the colleagues whose names a screen shows (at most 100 at once). */
export const userNamesQuery = z.object({
  ids: z
    .string()
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.uuid()).min(1).max(100)),
});

export const userNamesView = z.object({
  items: z.array(z.object({ uid: z.string(), displayName: z.string() })),
});

/**
 * The colleague directory: every staff user of the tenant with what a person picking colleagues needs
 * (the Share File dialog and Create Shared Drive's people, drive.md §2), to any signed-in member of the tenant.
 */
export const userDirectoryView = z.object({
  items: z.array(
    z.object({
      uid: z.string(),
      displayName: z.string(),
      fullName: z.string(),
      email: z.string(),
      username: z.string(),
    }),
  ),
});
