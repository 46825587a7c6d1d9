import { TinyColor } from '@ctrl/tinycolor';
import { theme as antdTheme, type ThemeConfig } from 'antd';

export type ThemeMode = 'light' | 'dark' | 'system';
export type NavigationLayout = 'topbar' | 'sidebar' | 'topbar-nav';
export type CornerRadius = 'none' | 'small' | 'medium' | 'large' | 'full';
export type Scale = 75 | 90 | 100 | 110 | 125;
export type AccentVariation = 'default' | 'lighter' | 'darker' | 'muted';

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

export const fonts = [
  'Inter',
  'Outfit',
  'Plus Jakarta Sans',
  'DM Sans',
  'Space Grotesk',
  'Roboto',
  'Open Sans',
  'Lato',
  'System',
] as const;

/** The 27 accent colours (the spec names the count, not the values: these are ours, see docs/web.md). */
export const accentColours: { name: string; value: string }[] = [
  { name: 'Blue', value: '#1677FF' },
  { name: 'Sky', value: '#0EA5E9' },
  { name: 'Cyan', value: '#06B6D4' },
  { name: 'Teal', value: '#14B8A6' },
  { name: 'Emerald', value: '#10B981' },
  { name: 'Green', value: '#22C55E' },
  { name: 'Lime', value: '#84CC16' },
  { name: 'Yellow', value: '#EAB308' },
  { name: 'Amber', value: '#F59E0B' },
  { name: 'Orange', value: '#F97316' },
  { name: 'Red', value: '#EF4444' },
  { name: 'Rose', value: '#F43F5E' },
  { name: 'Pink', value: '#EC4899' },
  { name: 'Fuchsia', value: '#D946EF' },
  { name: 'Purple', value: '#A855F7' },
  { name: 'Violet', value: '#8B5CF6' },
  { name: 'Indigo', value: '#6366F1' },
  { name: 'Navy', value: '#1E3A8A' },
  { name: 'Slate', value: '#64748B' },
  { name: 'Stone', value: '#78716C' },
  { name: 'Brick', value: '#B45309' },
  { name: 'Forest', value: '#166534' },
  { name: 'Ocean', value: '#0E7490' },
  { name: 'Plum', value: '#7E22CE' },
  { name: 'Berry', value: '#BE185D' },
  { name: 'Graphite', value: '#374151' },
  { name: 'Safety', value: '#EA580C' },
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
};

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

export function buildTheme(appearance: Appearance, prefersDark: boolean, branding?: Branding): ThemeConfig {
  const { success, danger } = statusColours(branding);
  const radius = radii.find((entry) => entry.value === appearance.radius)?.px ?? 8;
  const fontFamily =
    appearance.font === 'System'
      ? 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
      : `"${appearance.font}", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  return {
    algorithm: isDark(appearance.mode, prefersDark) ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: accentOf(appearance),
      colorSuccess: success,
      colorError: danger,
      borderRadius: radius,
      fontSize: Math.round((14 * appearance.scale) / 100),
      fontFamily,
    },
  };
}
