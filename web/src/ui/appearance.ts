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

export function varyColour(hex: string, variation: AccentVariation): string {
  if (variation === 'default') return hex.toUpperCase();
  const shift = variations[variation];
  const hsl = new TinyColor(hex).toHsl();
  const clamp = (value: number) => Math.min(1, Math.max(0, value));
  return new TinyColor({
    h: hsl.h,
    s: clamp(hsl.s + shift.saturation / 100),
    l: clamp(hsl.l + shift.lightness / 100),
  })
    .toHexString()
    .toUpperCase();
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
  dangerColor?: string;
  dangerVariation?: AccentVariation;
}

/** antd's own Success and Error colours: what applies until an admin picks others. */
export const DEFAULT_SUCCESS = '#52C41A';
export const DEFAULT_DANGER = '#FF4D4F';

/** The Success and Danger colours the tenant's branding gives, variations applied (defaults when unset). */
export function statusColours(branding: Branding | undefined): { success: string; danger: string } {
  return {
    success: varyColour(branding?.successColor ?? DEFAULT_SUCCESS, branding?.successVariation ?? 'default'),
    danger: varyColour(branding?.dangerColor ?? DEFAULT_DANGER, branding?.dangerVariation ?? 'default'),
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
      colorPrimary: varyColour(appearance.accent, appearance.accentVariation),
      colorSuccess: success,
      colorError: danger,
      borderRadius: radius,
      fontSize: Math.round((14 * appearance.scale) / 100),
      fontFamily,
    },
  };
}
