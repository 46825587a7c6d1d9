// CIS permissions (spec §6). A user holds scope strings; an ability is granted by its fine scope, by the
// coarse scope the table names, or by cis.manage; '*' grants everything.

export const CIS_FINE_SCOPES = [
  'cis.settings.read',
  'cis.settings.write',
  'cis.pii.unmask',
  'cis.sub.read',
  'cis.sub.write',
  'cis.sub.verify',
  'cis.inv.read',
  'cis.inv.write',
  'cis.inv.approve',
  'cis.inv.pay',
  'cis.stmt.issue',
  'cis.ret.compile',
  'cis.ret.submit',
  'cis.audit.read',
  'cis.io.import',
  'cis.io.export',
  'cis.jobs.run',
  'cis.portal.invite',
] as const;

export const CIS_COARSE_SCOPES = [
  'cis.read',
  'cis.write',
  'cis.approve',
  'cis.submit',
  'cis.export',
  'cis.import',
] as const;

export const CIS_MANAGE_SCOPE = 'cis.manage';

/** Every CIS scope: fine scopes, cis.manage, coarse scopes. */
export const CIS_SCOPES = [...CIS_FINE_SCOPES, CIS_MANAGE_SCOPE, ...CIS_COARSE_SCOPES] as const;
export type CisScope = (typeof CIS_SCOPES)[number];

export interface CisAbilities {
  /** Any CIS scope at all: the module shows in navigation. */
  canView: boolean;
  /** Edit settings (the settings screen's Save): cis.settings.write or cis.manage. */
  canManage: boolean;
  canViewSettings: boolean;
  canUnmask: boolean;
  canReadSubcontractors: boolean;
  canWriteSubcontractors: boolean;
  canVerify: boolean;
  canReadInvoices: boolean;
  /** Create and edit invoices (new, edit, delete, bulk delete, bulk select). */
  canWrite: boolean;
  canPay: boolean;
  canApprove: boolean;
  canIssueStatements: boolean;
  canCompile: boolean;
  canSubmit: boolean;
  canImport: boolean;
  canExport: boolean;
  canRunJobs: boolean;
  canInvite: boolean;
  canReadAudit: boolean;
}

/** The abilities of a set of scopes (spec §6 table). */
export function cisAbilities(scopes: readonly string[]): CisAbilities {
  const held = new Set(scopes);
  const all = held.has('*') || held.has(CIS_MANAGE_SCOPE);
  const any = (...names: string[]): boolean => all || names.some((n) => held.has(n));
  return {
    canView: held.has('*') || scopes.some((s) => (CIS_SCOPES as readonly string[]).includes(s)),
    canManage: any('cis.settings.write'),
    canViewSettings: any('cis.settings.read', 'cis.read'),
    canUnmask: any('cis.pii.unmask'),
    canReadSubcontractors: any('cis.sub.read', 'cis.read'),
    canWriteSubcontractors: any('cis.sub.write', 'cis.write'),
    canVerify: any('cis.sub.verify', 'cis.write'),
    canReadInvoices: any('cis.inv.read', 'cis.read'),
    canWrite: any('cis.inv.write', 'cis.write'),
    canPay: any('cis.inv.pay', 'cis.write'),
    canApprove: any('cis.inv.approve', 'cis.approve'),
    canIssueStatements: any('cis.stmt.issue', 'cis.write'),
    canCompile: any('cis.ret.compile', 'cis.write'),
    canSubmit: any('cis.ret.submit', 'cis.submit'),
    canImport: any('cis.io.import', 'cis.import'),
    canExport: any('cis.io.export', 'cis.export'),
    canRunJobs: any('cis.jobs.run'),
    canInvite: any('cis.portal.invite'),
    canReadAudit: any('cis.audit.read', 'cis.read'),
  };
}

/** Role templates (spec §6). */
export const CIS_ROLE_TEMPLATES = {
  'cis-admin': [...CIS_FINE_SCOPES, CIS_MANAGE_SCOPE],
  'cis-accountant': [
    'cis.settings.read',
    'cis.sub.read',
    'cis.inv.read',
    'cis.inv.write',
    'cis.inv.approve',
    'cis.stmt.issue',
    'cis.ret.compile',
    'cis.audit.read',
    'cis.io.export',
  ],
  'cis-clerk': ['cis.settings.read', 'cis.sub.read', 'cis.inv.read', 'cis.audit.read'],
} as const satisfies Record<string, readonly CisScope[]>;

/** Permission lookups are cached per session (spec §6): 5 min standard, 10 min admin, 30 min system. */
export const PERMISSION_CACHE_TTL_MS = {
  standard: 5 * 60_000,
  admin: 10 * 60_000,
  system: 30 * 60_000,
} as const;

export interface RoleBundle {
  id: string;
  name?: string;
  scopes: readonly string[];
}

export interface RolePermissionCheck {
  errors: string[];
  warnings: string[];
}

/**
 * The role-bundle checklist (spec §6). A bundle's abilities count (so coarse scopes and cis.manage
 * satisfy a dependency). Per bundle — errors: submit without compile; settings write without settings read;
 * invoice approve without invoice read. Warnings: export without invoice read or return compile; pay without
 * invoice read; jobs run without audit read; invoice write and approve together (separation of duties).
 * Across bundles — warnings: none can edit settings; none can submit returns.
 */
export function checkRolePermissions(bundles: readonly RoleBundle[]): RolePermissionCheck {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const bundle of bundles) {
    const label = `Role '${bundle.name?.trim() || bundle.id}'`;
    const a = cisAbilities(bundle.scopes);
    if (a.canSubmit && !a.canCompile) errors.push(`${label}: cis.ret.submit requires cis.ret.compile`);
    if (a.canManage && !a.canViewSettings)
      errors.push(`${label}: cis.settings.write requires cis.settings.read`);
    if (a.canApprove && !a.canReadInvoices) errors.push(`${label}: cis.inv.approve requires cis.inv.read`);
    if (a.canExport && (!a.canReadInvoices || !a.canCompile)) {
      const missing = [!a.canReadInvoices && 'cis.inv.read', !a.canCompile && 'cis.ret.compile'].filter(
        Boolean,
      );
      warnings.push(`${label}: cis.io.export without ${missing.join(' and ')} can export little`);
    }
    if (a.canPay && !a.canReadInvoices) warnings.push(`${label}: cis.inv.pay without cis.inv.read`);
    if (a.canRunJobs && !a.canReadAudit) warnings.push(`${label}: cis.jobs.run without cis.audit.read`);
    if (a.canWrite && a.canApprove) {
      warnings.push(`${label}: can both create and approve invoices (separation of duties)`);
    }
  }
  const abilities = bundles.map((b) => cisAbilities(b.scopes));
  if (!abilities.some((a) => a.canManage)) {
    warnings.push('No role can edit CIS settings (cis.settings.write or cis.manage)');
  }
  if (!abilities.some((a) => a.canSubmit)) {
    warnings.push('No role can submit returns (cis.ret.submit, cis.submit or cis.manage)');
  }
  return { errors, warnings };
}
