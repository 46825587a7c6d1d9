// The public site's pages (the bff serves each of these paths the site's entry: bff/src/http/web-bundles.ts
// SITE_PAGES, with `/`), and the home page's sections (the spec's anchors).

export const SITE_PATHS = ['/', '/login', '/vision', '/help', '/terms', '/privacy'] as const;
export type SitePath = (typeof SITE_PATHS)[number];

export const isSitePath = (path: string): path is SitePath =>
  (SITE_PATHS as readonly string[]).includes(path);

/** The home page's sections, in order: #top, #industries, #process, #about. */
export const HOME_SECTIONS = [
  { id: 'top', label: 'Home' },
  { id: 'industries', label: 'Industries' },
  { id: 'process', label: 'Process' },
  { id: 'about', label: 'About' },
] as const;

/** The document title of each page. */
export const PAGE_TITLES: Record<SitePath | 'not-found', string> = {
  '/': 'Workspace · CIS, documents and a subcontractor portal for UK contractors',
  '/login': 'Sign in · Workspace',
  '/vision': 'Our vision · Workspace',
  '/help': 'Help · Workspace',
  '/terms': 'Terms of service · Workspace',
  '/privacy': 'Privacy notice · Workspace',
  'not-found': 'Page not found · Workspace',
};
