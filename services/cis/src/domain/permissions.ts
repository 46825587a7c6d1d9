// The CIS role-bundle checklist (cis.md §6) over the ability table of ./scopes.ts.
import { SCOPE_CACHE_TTL_MS, STAR_SCOPE } from '@workspace/rules';
import { CIS_MANAGE_SCOPE, cisAbilities, cisScopeAction } from './scopes.js';

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
 * The role-bundle checklist (spec §6), in words a user reads (what a role can do, never the scope strings). A
 * bundle's abilities count (so coarse scopes and cis.manage satisfy a dependency). Per bundle — errors: submit
 * without compile; settings write without settings read; invoice approve without invoice read. Warnings: export
 * without invoice read or return compile; pay without invoice read; jobs run without audit read; invoice write and
 * approve together (separation of duties), except for an administrator's bundle (cis.manage, or every scope), which
 * holds everything by design and could grant itself anything it lacked. Across bundles — warnings: none can edit
 * settings; none can submit returns.
 */
export function checkRolePermissions(bundles: readonly RoleBundle[]): RolePermissionCheck {
  const errors: string[] = [];
  const warnings: string[] = [];
  const can = cisScopeAction;
  for (const bundle of bundles) {
    const label = `Role '${bundle.name?.trim() || bundle.id}'`;
    const a = cisAbilities(bundle.scopes);
    const administrator = bundle.scopes.includes(CIS_MANAGE_SCOPE) || bundle.scopes.includes(STAR_SCOPE);
    if (a.canSubmit && !a.canCompile)
      errors.push(`${label} can ${can('cis.ret.submit')} but not ${can('cis.ret.compile')}`);
    if (a.canManage && !a.canViewSettings)
      errors.push(`${label} can ${can('cis.settings.write')} but not ${can('cis.settings.read')}`);
    if (a.canApprove && !a.canReadInvoices)
      errors.push(`${label} can ${can('cis.inv.approve')} but not ${can('cis.inv.read')}`);
    if (a.canExport && (!a.canReadInvoices || !a.canCompile)) {
      const missing = [
        !a.canReadInvoices && can('cis.inv.read'),
        !a.canCompile && can('cis.ret.compile'),
      ].filter(Boolean);
      warnings.push(
        `${label} can ${can('cis.io.export')} but not ${missing.join(' or ')}, so it can export little`,
      );
    }
    if (a.canPay && !a.canReadInvoices)
      warnings.push(`${label} can ${can('cis.inv.pay')} but not ${can('cis.inv.read')}`);
    if (a.canRunJobs && !a.canReadAudit)
      warnings.push(`${label} can ${can('cis.jobs.run')} but not ${can('cis.audit.read')}`);
    if (a.canWrite && a.canApprove && !administrator) {
      warnings.push(`${label} can both create and approve invoices (separation of duties)`);
    }
  }
  const abilities = bundles.map((b) => cisAbilities(b.scopes));
  if (!abilities.some((a) => a.canManage)) warnings.push(`No role can ${can('cis.settings.write')}`);
  if (!abilities.some((a) => a.canSubmit)) warnings.push(`No role can ${can('cis.ret.submit')}`);
  return { errors, warnings };
}
