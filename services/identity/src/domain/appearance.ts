// The fonts a user's theme preference may name (PUT /v1/me's themePreference.font), in the order the web's
// appearance settings offer them. Browser-safe and import-free: the web takes it from `@workspace/identity/appearance`.
export const FONTS = [
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
