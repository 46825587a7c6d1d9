// Who may open the audit log (docs/audit.md "The audit screen"): the audit service's read scopes. audit.read reads
// every entry of the tenant (and verifies the chain); cis.audit.read and drive.audit.read their module's entries.

export const AUDIT_READ = 'audit.read';
export const MODULE_AUDIT_READ: Readonly<Record<string, string>> = {
  cis: 'cis.audit.read',
  drive: 'drive.audit.read',
};
export const AUDIT_READ_SCOPES: readonly string[] = [AUDIT_READ, ...Object.values(MODULE_AUDIT_READ)];

const holds = (scopes: readonly string[], scope: string) => scopes.includes(scope) || scopes.includes('*');

/** Whether the user may open the audit log at all (any audit read scope). */
export function canReadAudit(scopes: readonly string[]): boolean {
  return AUDIT_READ_SCOPES.some((scope) => holds(scopes, scope));
}

/** Whether the user reads the whole trail and may verify the chain (audit.read). */
export function readsWholeTrail(scopes: readonly string[]): boolean {
  return holds(scopes, AUDIT_READ);
}

/** The modules whose entries the user reads: 'all' with audit.read, else those of their module audit scopes. */
export function readableModules(scopes: readonly string[]): 'all' | string[] {
  if (readsWholeTrail(scopes)) return 'all';
  return Object.entries(MODULE_AUDIT_READ)
    .filter(([, scope]) => scopes.includes(scope))
    .map(([module]) => module);
}
