// The CIS top bar's reading of the path: which section, and list, detail or form mode.

export type CisSection =
  'dashboard' | 'subcontractors' | 'invoices' | 'statements' | 'returns' | 'analytics' | 'settings';
export type CisMode = 'list' | 'detail' | 'form';

const sections: readonly CisSection[] = [
  'subcontractors',
  'invoices',
  'statements',
  'returns',
  'analytics',
  'settings',
];

export const sectionTitles: Record<CisSection, string> = {
  dashboard: 'CIS Dashboard',
  subcontractors: 'Subcontractors',
  invoices: 'Invoices',
  statements: 'Statements',
  returns: 'Returns',
  analytics: 'Analytics',
  settings: 'CIS Settings',
};

/** The section a path is in: subcontractors, invoices, statements, returns, analytics, settings, else dashboard. */
export function cisSection(pathname: string): CisSection {
  const segment = pathname.split('/')[2] ?? '';
  return (sections as readonly string[]).includes(segment) ? (segment as CisSection) : 'dashboard';
}

/** list: a section's own page; form: new, edit or import; detail: one record. */
export function cisMode(pathname: string): CisMode {
  const parts = pathname.split('/').filter(Boolean);
  if (parts.length <= 2) return 'list';
  const last = parts[parts.length - 1];
  if (last === 'new' || last === 'edit' || last === 'import') return 'form';
  return 'detail';
}
