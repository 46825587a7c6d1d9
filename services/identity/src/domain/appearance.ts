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

const hasControlCharacter = (text: string) => {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
};

/**
 * Where a footer link's address leads (security review L14): `same-site` for a path on this site (`/…`), `external`
 * for an http(s) web address, `invalid` for anything else. `//host` and `/\host` are not paths: browsers read
 * both as another host, and drop tabs and line breaks first (`/<tab>/host`), so control characters are refused.
 */
export function footerLinkTarget(url: string): 'same-site' | 'external' | 'invalid' {
  if (hasControlCharacter(url)) return 'invalid';
  if (/^\/(?![/\\])/.test(url)) return 'same-site';
  if (/^https?:\/\/[^/\\]/.test(url)) return 'external';
  return 'invalid';
}
