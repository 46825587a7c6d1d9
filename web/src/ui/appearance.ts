import { TinyColor } from '@ctrl/tinycolor';
import { theme as antdTheme, type ThemeConfig } from 'antd';
import { FONTS } from '@workspace/identity/appearance';
import type { ThemePreference } from '@workspace/identity/contract';

// The choices are those identity accepts in a user's theme preference (PUT /v1/me).
export type ThemeMode = NonNullable<ThemePreference['mode']>;
export type NavigationLayout = NonNullable<ThemePreference['layout']>;
export type CornerRadius = NonNullable<ThemePreference['radius']>;
export type Scale = NonNullable<ThemePreference['scale']>;
export type AccentVariation = NonNullable<ThemePreference['accentVariation']>;

export interface Appearance {
  mode: ThemeMode;
  layout: NavigationLayout;
  radius: CornerRadius;
  scale: Scale;
  font: string;
  accent: string;
  accentVariation: AccentVariation;
  /**
   * Free shifts from the Choose Primary Color sliders, in percentage points (saturation -100 to 100, lightness -50
   * to 50). Added later: when both are absent (older saved values) the shift is `accentVariation`'s preset.
   */
  accentSaturation?: number;
  accentLightness?: number;
  /** The surface preset (`SurfacePreset.id`) used in light mode and in dark mode; absent means `classic`. */
  surfaceLight?: string;
  surfaceDark?: string;
}

export const layouts: { value: NavigationLayout; label: string }[] = [
  { value: 'topbar', label: 'Top bar' },
  { value: 'sidebar', label: 'Sidebar' },
  { value: 'topbar-nav', label: 'Top bar with navigation' },
];

export const radii: { value: CornerRadius; label: string; px: number }[] = [
  { value: 'none', label: 'None', px: 0 },
  { value: 'small', label: 'Small', px: 4 },
  { value: 'medium', label: 'Medium', px: 8 },
  { value: 'large', label: 'Large', px: 12 },
  { value: 'full', label: 'Full', px: 20 },
];

export const scales: Scale[] = [75, 90, 100, 110, 125];

export const fonts = FONTS;

/** An accent colour: its name, its hex value and the same colour as CSS hsl() (rounded to whole units). */
export interface AccentColour {
  name: string;
  value: string;
  hsl: string;
}

/** The 27 accent colours (the spec names the count, not the values: these are ours, see docs/web.md). */
export const accentColours: AccentColour[] = [
  { name: 'Blue', value: '#1677FF', hsl: 'hsl(215, 100%, 54%)' },
  { name: 'Sky', value: '#0EA5E9', hsl: 'hsl(199, 89%, 48%)' },
  { name: 'Cyan', value: '#06B6D4', hsl: 'hsl(189, 94%, 43%)' },
  { name: 'Teal', value: '#14B8A6', hsl: 'hsl(173, 80%, 40%)' },
  { name: 'Emerald', value: '#10B981', hsl: 'hsl(160, 84%, 39%)' },
  { name: 'Green', value: '#22C55E', hsl: 'hsl(142, 71%, 45%)' },
  { name: 'Lime', value: '#84CC16', hsl: 'hsl(84, 81%, 44%)' },
  { name: 'Yellow', value: '#EAB308', hsl: 'hsl(45, 93%, 47%)' },
  { name: 'Amber', value: '#F59E0B', hsl: 'hsl(38, 92%, 50%)' },
  { name: 'Orange', value: '#F97316', hsl: 'hsl(25, 95%, 53%)' },
  { name: 'Red', value: '#EF4444', hsl: 'hsl(0, 84%, 60%)' },
  { name: 'Rose', value: '#F43F5E', hsl: 'hsl(350, 89%, 60%)' },
  { name: 'Pink', value: '#EC4899', hsl: 'hsl(330, 81%, 60%)' },
  { name: 'Fuchsia', value: '#D946EF', hsl: 'hsl(292, 84%, 61%)' },
  { name: 'Purple', value: '#A855F7', hsl: 'hsl(271, 91%, 65%)' },
  { name: 'Violet', value: '#8B5CF6', hsl: 'hsl(258, 90%, 66%)' },
  { name: 'Indigo', value: '#6366F1', hsl: 'hsl(239, 84%, 67%)' },
  { name: 'Navy', value: '#1E3A8A', hsl: 'hsl(224, 64%, 33%)' },
  { name: 'Slate', value: '#64748B', hsl: 'hsl(215, 16%, 47%)' },
  { name: 'Stone', value: '#78716C', hsl: 'hsl(25, 5%, 45%)' },
  { name: 'Brick', value: '#B45309', hsl: 'hsl(26, 90%, 37%)' },
  { name: 'Forest', value: '#166534', hsl: 'hsl(143, 64%, 24%)' },
  { name: 'Ocean', value: '#0E7490', hsl: 'hsl(193, 82%, 31%)' },
  { name: 'Plum', value: '#7E22CE', hsl: 'hsl(272, 72%, 47%)' },
  { name: 'Berry', value: '#BE185D', hsl: 'hsl(335, 78%, 42%)' },
  { name: 'Graphite', value: '#374151', hsl: 'hsl(217, 19%, 27%)' },
  { name: 'Safety', value: '#EA580C', hsl: 'hsl(21, 90%, 48%)' },
];

/** The spec's variation defaults: saturation and lightness shifts. */
export const variations: Record<
  Exclude<AccentVariation, 'default'>,
  { saturation: number; lightness: number }
> = {
  lighter: { saturation: 0, lightness: 15 },
  darker: { saturation: 5, lightness: -10 },
  muted: { saturation: -20, lightness: 5 },
};

export const defaultAppearance: Appearance = {
  mode: 'light',
  layout: 'topbar',
  radius: 'medium',
  scale: 100,
  font: 'Inter',
  accent: '#1677FF',
  accentVariation: 'default',
  surfaceLight: 'classic',
  surfaceDark: 'classic',
};

/**
 * A dark or light surface palette (the spec's "dark and light palette: name, primary, elevated, surface, border";
 * it shows no values, these are ours, listed in docs/web.md). `primary` is the background of the content (cards,
 * the top bar, tables), `elevated` that of what floats above it (menus, dialogs, popovers), `surface` the page
 * behind the content, `border` the lines between them.
 */
export interface SurfacePreset {
  id: string;
  name: string;
  primary: string;
  elevated: string;
  surface: string;
  border: string;
}

/** The light presets; Classic (antd's own light colours) is the default. */
export const lightSurfaces: SurfacePreset[] = [
  {
    id: 'classic',
    name: 'Classic',
    primary: '#FFFFFF',
    elevated: '#FFFFFF',
    surface: '#F5F5F5',
    border: '#D9D9D9',
  },
  {
    id: 'paper',
    name: 'Paper',
    primary: '#FFFDF8',
    elevated: '#FFFFFF',
    surface: '#F4EFE6',
    border: '#DDD5C7',
  },
  {
    id: 'cool',
    name: 'Cool',
    primary: '#FFFFFF',
    elevated: '#FFFFFF',
    surface: '#EEF2F7',
    border: '#CBD5E1',
  },
  {
    id: 'mist',
    name: 'Mist',
    primary: '#F8FAFC',
    elevated: '#FFFFFF',
    surface: '#E2E8F0',
    border: '#B8C2CF',
  },
];

/** The dark presets; Classic (antd's own dark colours) is the default. */
export const darkSurfaces: SurfacePreset[] = [
  {
    id: 'classic',
    name: 'Classic',
    primary: '#141414',
    elevated: '#1F1F1F',
    surface: '#000000',
    border: '#424242',
  },
  {
    id: 'midnight',
    name: 'Midnight',
    primary: '#111827',
    elevated: '#1F2937',
    surface: '#0B1120',
    border: '#374151',
  },
  {
    id: 'charcoal',
    name: 'Charcoal',
    primary: '#1C1C1E',
    elevated: '#2C2C2E',
    surface: '#121212',
    border: '#48484A',
  },
  {
    id: 'navy',
    name: 'Navy',
    primary: '#12203A',
    elevated: '#1B2B45',
    surface: '#0A1628',
    border: '#2C3E5C',
  },
];

/** The preset `id` names in `presets`, else the first (Classic). */
export function surfaceOf(presets: SurfacePreset[], id: string | undefined): SurfacePreset {
  const found = presets.find((preset) => preset.id === id) ?? presets[0];
  if (!found) throw new Error('no surface presets');
  return found;
}

/** The surfaces the appearance gives in the mode in force. */
export function surfacesFor(appearance: Appearance, dark: boolean): SurfacePreset {
  return dark
    ? surfaceOf(darkSurfaces, appearance.surfaceDark)
    : surfaceOf(lightSurfaces, appearance.surfaceLight);
}

/**
 * The platform super-admins' own theme: whatever the tenant's branding, a super-admin (scope `system.superadmin`)
 * works under the platform's colours, so it is plain that they act with platform powers. Their own mode, layout,
 * radius, scale, font and surfaces still apply; the accent and the Success and Danger colours are the platform's.
 */
export const PLATFORM_THEME = {
  name: 'Platform',
  accent: '#0F766E',
  success: '#15803D',
  danger: '#B91C1C',
} as const;

/** The scope that marks a platform super-admin in the session (identity gives it with the super-admin claim). */
export const SUPER_ADMIN_SCOPE = 'system.superadmin';

export function isSuperAdmin(scopes: readonly string[] | undefined): boolean {
  return scopes?.includes(SUPER_ADMIN_SCOPE) ?? false;
}

/** A saturation and lightness shift in percentage points. */
export interface ColourShift {
  saturation: number;
  lightness: number;
}

/** The spec's slider bounds (WS-470). */
export const SATURATION_RANGE = { min: -100, max: 100 } as const;
export const LIGHTNESS_RANGE = { min: -50, max: 50 } as const;

const clampTo = (value: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Number.isFinite(value) ? value : 0));

/** The shift a preset stands for: Reset to Default (`default`) is no shift. */
export function shiftOf(variation: AccentVariation): ColourShift {
  return variation === 'default' ? { saturation: 0, lightness: 0 } : { ...variations[variation] };
}

/** A shift held within the slider bounds, in whole points. */
export function clampShift(shift: ColourShift): ColourShift {
  return {
    saturation: Math.round(clampTo(shift.saturation, SATURATION_RANGE.min, SATURATION_RANGE.max)),
    lightness: Math.round(clampTo(shift.lightness, LIGHTNESS_RANGE.min, LIGHTNESS_RANGE.max)),
  };
}

/** The preset whose shift this is, or undefined for a free (slider) shift. No shift is `default`. */
export function presetOf(shift: ColourShift): AccentVariation | undefined {
  const presets: AccentVariation[] = ['default', 'lighter', 'darker', 'muted'];
  return presets.find((preset) => {
    const candidate = shiftOf(preset);
    return candidate.saturation === shift.saturation && candidate.lightness === shift.lightness;
  });
}

/**
 * The saved shift: the free slider values when either is saved, else the preset of `variation` (values saved
 * before the sliders existed carry only the preset).
 */
export function savedShift(
  variation: AccentVariation | undefined,
  saturation: number | undefined,
  lightness: number | undefined,
): ColourShift {
  if (typeof saturation === 'number' || typeof lightness === 'number') {
    return clampShift({ saturation: saturation ?? 0, lightness: lightness ?? 0 });
  }
  return shiftOf(variation ?? 'default');
}

/**
 * Shift a colour in HSL: keep the hue, add the shifts (clamped to the slider bounds) to saturation and lightness
 * in percentage points, clamp the results to 0 to 100 %, back to upper-case hex. No shift gives the colour itself.
 */
export function adjustColour(hex: string, shift: ColourShift): string {
  const { saturation, lightness } = clampShift(shift);
  if (saturation === 0 && lightness === 0) return new TinyColor(hex).toHexString().toUpperCase();
  const hsl = new TinyColor(hex).toHsl();
  const clamp = (value: number) => Math.min(1, Math.max(0, value));
  return new TinyColor({
    h: hsl.h,
    s: clamp(hsl.s + saturation / 100),
    l: clamp(hsl.l + lightness / 100),
  })
    .toHexString()
    .toUpperCase();
}

export function varyColour(hex: string, variation: AccentVariation): string {
  return adjustColour(hex, shiftOf(variation));
}

/** The accent the theme uses: the chosen colour with its saved shift. */
export function accentOf(appearance: Appearance): string {
  return adjustColour(
    appearance.accent,
    savedShift(appearance.accentVariation, appearance.accentSaturation, appearance.accentLightness),
  );
}

export const MOBILE_BREAKPOINT = 768;

/** Under 768 px wide the classic top bar is always used, whatever the saved layout. */
export function effectiveLayout(layout: NavigationLayout, width: number): NavigationLayout {
  return width < MOBILE_BREAKPOINT ? 'topbar' : layout;
}

export function isDark(mode: ThemeMode, prefersDark: boolean): boolean {
  return mode === 'dark' || (mode === 'system' && prefersDark);
}

/** The tenant's branding as the shell reads it (identity's `tenants.branding`). */
export interface Branding {
  accentColor?: string;
  accentHsl?: string;
  successColor?: string;
  successVariation?: AccentVariation;
  /** Free slider shifts (added with the sliders; absent means the variation's preset). */
  successSaturation?: number;
  successLightness?: number;
  dangerColor?: string;
  dangerVariation?: AccentVariation;
  dangerSaturation?: number;
  dangerLightness?: number;
}

/**
 * The tenant's accent as a hex colour: `accentColor` when set, else `accentHsl` (CSS hsl, with or without the
 * `hsl()` wrapper: "hsl(210 100% 50%)", "210, 100%, 50%"); undefined when neither gives a valid colour.
 */
export function tenantAccent(branding: Branding | undefined): string | undefined {
  if (branding?.accentColor) return branding.accentColor;
  const hsl = branding?.accentHsl?.trim();
  if (!hsl) return undefined;
  const colour = new TinyColor(/^hsla?\(/i.test(hsl) ? hsl : `hsl(${hsl})`);
  return colour.isValid && colour.format === 'hsl' ? colour.toHexString().toUpperCase() : undefined;
}

/** antd's own Success and Error colours: what applies until an admin picks others. */
export const DEFAULT_SUCCESS = '#52C41A';
export const DEFAULT_DANGER = '#FF4D4F';

/** The Success and Danger colours the tenant's branding gives, variations applied (defaults when unset). */
export function statusColours(branding: Branding | undefined): { success: string; danger: string } {
  return {
    success: adjustColour(
      branding?.successColor ?? DEFAULT_SUCCESS,
      savedShift(branding?.successVariation, branding?.successSaturation, branding?.successLightness),
    ),
    danger: adjustColour(
      branding?.dangerColor ?? DEFAULT_DANGER,
      savedShift(branding?.dangerVariation, branding?.dangerSaturation, branding?.dangerLightness),
    ),
  };
}

export function buildTheme(
  appearance: Appearance,
  prefersDark: boolean,
  branding?: Branding,
  options: { superAdmin?: boolean } = {},
): ThemeConfig {
  const platform = options.superAdmin === true;
  const { success, danger } = platform
    ? { success: PLATFORM_THEME.success, danger: PLATFORM_THEME.danger }
    : statusColours(branding);
  const dark = isDark(appearance.mode, prefersDark);
  const surfaces = surfacesFor(appearance, dark);
  const radius = radii.find((entry) => entry.value === appearance.radius)?.px ?? 8;
  const fontFamily =
    appearance.font === 'System'
      ? 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
      : `"${appearance.font}", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  return {
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: platform ? PLATFORM_THEME.accent : accentOf(appearance),
      colorSuccess: success,
      colorError: danger,
      borderRadius: radius,
      fontSize: Math.round((14 * appearance.scale) / 100),
      fontFamily,
      colorBgContainer: surfaces.primary,
      colorBgElevated: surfaces.elevated,
      colorBgLayout: surfaces.surface,
      colorBorder: surfaces.border,
    },
  };
}
