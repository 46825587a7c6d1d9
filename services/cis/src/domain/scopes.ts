// The CIS scopes (cis.md §6): the catalogue identity assembles into the product's, the implications, the role
// templates, the ability table and the Role Permissions checklist. A user holds scope strings; an ability is
// granted by its fine scope, by the coarse scope that implies it, or by cis.manage; '*' grants everything.
import { closeScopes, STAR_SCOPE, type ModuleScopes, type ScopeDefinition } from '@workspace/rules';

const catalogue = [
  // CIS fine scopes (cis.md §6). The role-bundle checklist names are verbatim; the others are chosen.
  { scope: 'cis.settings.read', module: 'cis', kind: 'fine', description: 'view CIS settings' },
  { scope: 'cis.settings.write', module: 'cis', kind: 'fine', description: 'change CIS settings' },
  {
    scope: 'cis.pii.unmask',
    module: 'cis',
    kind: 'fine',
    description: 'see unmasked tax references and National Insurance numbers',
  },
  { scope: 'cis.sub.read', module: 'cis', kind: 'fine', description: 'view subcontractors' },
  {
    scope: 'cis.sub.write',
    module: 'cis',
    kind: 'fine',
    description: 'add, change or archive subcontractors',
  },
  { scope: 'cis.sub.verify', module: 'cis', kind: 'fine', description: 'verify subcontractors' },
  { scope: 'cis.inv.read', module: 'cis', kind: 'fine', description: 'view CIS invoices' },
  { scope: 'cis.inv.write', module: 'cis', kind: 'fine', description: 'create or edit CIS invoices' },
  { scope: 'cis.inv.approve', module: 'cis', kind: 'fine', description: 'approve CIS invoices' },
  { scope: 'cis.inv.pay', module: 'cis', kind: 'fine', description: 'mark CIS invoices as paid' },
  { scope: 'cis.stmt.issue', module: 'cis', kind: 'fine', description: 'issue CIS statements' },
  { scope: 'cis.ret.compile', module: 'cis', kind: 'fine', description: 'compile CIS returns' },
  { scope: 'cis.ret.submit', module: 'cis', kind: 'fine', description: 'submit CIS returns' },
  { scope: 'cis.audit.read', module: 'cis', kind: 'fine', description: 'view the CIS audit trail' },
  { scope: 'cis.io.import', module: 'cis', kind: 'fine', description: 'import CIS data' },
  { scope: 'cis.io.export', module: 'cis', kind: 'fine', description: 'export CIS data' },
  { scope: 'cis.jobs.run', module: 'cis', kind: 'fine', description: 'run CIS background jobs' },
  {
    scope: 'cis.portal.invite',
    module: 'cis',
    kind: 'fine',
    description: 'invite subcontractors to the portal',
  },
  // CIS coarse scopes (cis.md §6: read, write, approve, submit, export, import, manage).
  { scope: 'cis.read', module: 'cis', kind: 'coarse', description: 'view CIS records' },
  { scope: 'cis.write', module: 'cis', kind: 'coarse', description: 'change CIS records' },
  { scope: 'cis.approve', module: 'cis', kind: 'coarse', description: 'approve in CIS' },
  {
    scope: 'cis.submit',
    module: 'cis',
    kind: 'coarse',
    description: 'submit CIS returns to the tax authority',
  },
  { scope: 'cis.export', module: 'cis', kind: 'coarse', description: 'export from CIS' },
  { scope: 'cis.import', module: 'cis', kind: 'coarse', description: 'import into CIS' },
  { scope: 'cis.manage', module: 'cis', kind: 'global', description: 'manage everything in CIS' },
] as const satisfies readonly ScopeDefinition[];

export type CisScope = (typeof catalogue)[number]['scope'];

const scopeDescriptions: ReadonlyMap<string, string> = new Map(
  catalogue.map((entry) => [entry.scope, entry.description]),
);

/** What a CIS scope lets a role do, as people say it ('submit CIS returns'); any other scope as it is. */
export function cisScopeAction(scope: string): string {
  return scopeDescriptions.get(scope) ?? scope;
}

/** A CIS scope's name as a screen shows it ('Submit CIS returns' for cis.ret.submit); any other scope as it is. */
export function cisScopeName(scope: string): string {
  const action = scopeDescriptions.get(scope);
  return action ? action.charAt(0).toUpperCase() + action.slice(1) : scope;
}

/** Every CIS scope, in catalogue order: fine scopes, coarse scopes, cis.manage. */
export const CIS_SCOPES: readonly CisScope[] = Object.freeze(catalogue.map((entry) => entry.scope));
export const CIS_FINE_SCOPES: readonly CisScope[] = Object.freeze(
  catalogue.filter((entry) => entry.kind === 'fine').map((entry) => entry.scope),
);
export const CIS_COARSE_SCOPES: readonly CisScope[] = Object.freeze(
  catalogue.filter((entry) => entry.kind === 'coarse').map((entry) => entry.scope),
);
export const CIS_MANAGE_SCOPE = 'cis.manage' satisfies CisScope;

const implications: Readonly<Partial<Record<CisScope, readonly CisScope[]>>> = {
  // CIS ability table (cis.md §6). Coarse scopes grant fine ones, never the other way and never each other.
  'cis.read': ['cis.settings.read', 'cis.sub.read', 'cis.inv.read', 'cis.audit.read'],
  'cis.write': [
    'cis.sub.write',
    'cis.sub.verify',
    'cis.inv.write',
    'cis.inv.pay',
    'cis.stmt.issue',
    'cis.ret.compile',
  ],
  'cis.approve': ['cis.inv.approve'],
  'cis.submit': ['cis.ret.submit'],
  'cis.import': ['cis.io.import'],
  'cis.export': ['cis.io.export'],
  // cis.manage grants everything in CIS.
  [CIS_MANAGE_SCOPE]: CIS_SCOPES.filter((scope) => scope !== CIS_MANAGE_SCOPE),
};

/** Role templates (cis.md §6): cis-admin has every fine scope plus cis.manage. */
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

/** What the CIS module declares to identity's scope registry. */
export const cisScopes = {
  catalogue,
  implications,
  roleTemplates: CIS_ROLE_TEMPLATES,
} as const satisfies ModuleScopes;

/**
 * The ability table (cis.md §6), in the order of the abilities response: the response field, the spec's name of
 * the ability, and the fine scope that grants it (coarse scopes and cis.manage imply fine scopes).
 */
const CIS_ABILITY_TABLE = [
  ['canManage', 'editSettings', 'cis.settings.write'],
  ['canViewSettings', 'viewSettings', 'cis.settings.read'],
  ['canUnmask', 'unmaskPii', 'cis.pii.unmask'],
  ['canReadSubcontractors', 'viewSubcontractors', 'cis.sub.read'],
  ['canWriteSubcontractors', 'manageSubcontractors', 'cis.sub.write'],
  ['canVerify', 'verifySubcontractors', 'cis.sub.verify'],
  ['canReadInvoices', 'viewInvoices', 'cis.inv.read'],
  ['canWrite', 'createInvoices', 'cis.inv.write'],
  ['canPay', 'payInvoices', 'cis.inv.pay'],
  ['canApprove', 'approveInvoices', 'cis.inv.approve'],
  ['canIssueStatements', 'issueStatements', 'cis.stmt.issue'],
  ['canCompile', 'compileReturns', 'cis.ret.compile'],
  ['canSubmit', 'submitReturns', 'cis.ret.submit'],
  ['canImport', 'importData', 'cis.io.import'],
  ['canExport', 'exportData', 'cis.io.export'],
  ['canRunJobs', 'runJobs', 'cis.jobs.run'],
  ['canInvite', 'portalInvite', 'cis.portal.invite'],
  ['canReadAudit', 'viewAudit', 'cis.audit.read'],
] as const satisfies readonly (readonly [string, string, CisScope])[];

type AbilityRow = (typeof CIS_ABILITY_TABLE)[number];
/** The spec's names of the CIS abilities. */
export type CisAbility = AbilityRow[1];

/** Each CIS ability and the fine scope it needs (coarse and manage scopes expand into them). */
export const cisAbilityScopes = Object.freeze(
  Object.fromEntries(CIS_ABILITY_TABLE.map(([, ability, scope]) => [ability, scope])),
) as { readonly [Row in AbilityRow as Row[1]]: Row[2] };

/** The abilities response: `canView` (any CIS scope: the module shows in navigation) and one flag per ability. */
export interface CisAbilities extends Record<AbilityRow[0], boolean> {
  canView: boolean;
}

const impliedWithinCis = (scope: string): readonly string[] =>
  scope === STAR_SCOPE ? CIS_SCOPES : (implications[scope as CisScope] ?? []);

/** The abilities of a set of scopes (cis.md §6 table). */
export function cisAbilities(scopes: readonly string[]): CisAbilities {
  const held = closeScopes(scopes, impliedWithinCis);
  const abilities = {
    canView: scopes.some(
      (scope) => scope === STAR_SCOPE || (CIS_SCOPES as readonly string[]).includes(scope),
    ),
  } as CisAbilities;
  for (const [field, , scope] of CIS_ABILITY_TABLE) abilities[field] = held.has(scope);
  return abilities;
}

/** The scopes of the Role Permissions checklist (cis.md section 6, verbatim). */
export const CHECKLIST_SCOPES: readonly CisScope[] = Object.freeze([
  'cis.ret.submit',
  'cis.ret.compile',
  'cis.settings.read',
  'cis.settings.write',
  'cis.inv.read',
  'cis.inv.write',
  'cis.inv.approve',
  'cis.inv.pay',
  'cis.io.export',
  'cis.jobs.run',
  'cis.audit.read',
  'cis.manage',
]);
