// The CIS role-bundle checklist (cis.md §6) over the ability table of ./scopes.ts.
import { SCOPE_CACHE_TTL_MS } from '@workspace/rules';
import { cisAbilities } from './scopes.js';

/** Permission lookups are cached per session (spec §6): 5 min standard, 10 min admin, 30 min system. */
export const PERMISSION_CACHE_TTL_MS = SCOPE_CACHE_TTL_MS;

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
