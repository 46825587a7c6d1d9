/**
 * The scope vocabulary of the product (spec workspace.md §6, cis.md §6, drive.md §6) and its rules: the catalogue,
 * the implications between scopes, the role templates, the effective-scope computation identity puts in access
 * tokens, the session scope-cache durations and the calls gate. Pure: no I/O.
 *
 * Strings the spec gives are used verbatim; the strings chosen where the spec only describes a scope are listed,
 * with the reasons, in docs/scopes.md.
 */

/** The modules scopes belong to (the first segment of the scope string; `*` belongs to system). */
export type ScopeModule =
  | 'schedule'
  | 'notes'
  | 'chat'
  | 'calls'
  | 'docs'
  | 'tenant'
  | 'users'
  | 'roles'
  | 'system'
  | 'cis'
  | 'drive'
  | 'backup';

/**
 * fine: one action. coarse: the spec's coarse strings and other umbrella scopes that imply a named set.
 * global: grants every scope of its module (`cis.manage`, `notes.manage_all`) or every scope (`*`,
 * `system.superadmin`).
 */
export type ScopeKind = 'fine' | 'coarse' | 'global';

interface CatalogueSource {
  scope: string;
  module: ScopeModule;
  kind: ScopeKind;
  /** Completes "You don't have permission to {description}". */
  description: string;
}

const catalogueSource = [
  // Schedule (workspace.md §6). Coarse strings verbatim; fine names chosen (docs/scopes.md).
  { scope: 'schedule.read', module: 'schedule', kind: 'coarse', description: 'view the schedule' },
  { scope: 'schedule.write', module: 'schedule', kind: 'coarse', description: 'add or change events' },
  { scope: 'schedule.manage', module: 'schedule', kind: 'coarse', description: 'manage the schedule' },
  {
    scope: 'schedule.view_own',
    module: 'schedule',
    kind: 'fine',
    description: 'view your own calendars and events',
  },
  {
    scope: 'schedule.view_team',
    module: 'schedule',
    kind: 'fine',
    description: "view your team's calendars and events",
  },
  { scope: 'schedule.view_all', module: 'schedule', kind: 'fine', description: 'view all calendars' },
  {
    scope: 'schedule.edit_own',
    module: 'schedule',
    kind: 'fine',
    description: 'add or edit events in your own calendars',
  },
  {
    scope: 'schedule.edit_team',
    module: 'schedule',
    kind: 'fine',
    description: "add or edit events in your team's calendars",
  },
  { scope: 'schedule.manage_calendars', module: 'schedule', kind: 'fine', description: 'manage calendars' },

  // Notes (workspace.md §6). notes.share is chosen; the rest verbatim.
  { scope: 'notes.view', module: 'notes', kind: 'coarse', description: 'view notes' },
  { scope: 'notes.create', module: 'notes', kind: 'coarse', description: 'create notes' },
  { scope: 'notes.edit', module: 'notes', kind: 'coarse', description: 'edit notes' },
  { scope: 'notes.delete', module: 'notes', kind: 'coarse', description: 'delete notes' },
  { scope: 'notes.share', module: 'notes', kind: 'fine', description: 'share notes' },
  { scope: 'notes.manage_all', module: 'notes', kind: 'global', description: 'manage all notes' },

  // Chat and calls (workspace.md §6), verbatim.
  { scope: 'chat.messages.view', module: 'chat', kind: 'coarse', description: 'view chat messages' },
  { scope: 'chat.messages.send', module: 'chat', kind: 'coarse', description: 'send chat messages' },
  { scope: 'chat.groups.manage', module: 'chat', kind: 'coarse', description: 'manage chat groups' },
  { scope: 'chat.calls.voice', module: 'chat', kind: 'fine', description: 'start voice calls' },
  { scope: 'chat.calls.video', module: 'chat', kind: 'fine', description: 'start video calls' },
  { scope: 'calls.room.create', module: 'calls', kind: 'fine', description: 'create call rooms' },

  // Documents (workspace.md §6, drive.md §6), verbatim.
  { scope: 'docs.view', module: 'docs', kind: 'coarse', description: 'view documents' },
  { scope: 'docs.edit', module: 'docs', kind: 'coarse', description: 'edit documents' },
  { scope: 'docs.manage', module: 'docs', kind: 'coarse', description: 'manage documents' },

  // Tenant, roles and users (workspace.md §6), verbatim.
  {
    scope: 'tenant.view_settings',
    module: 'tenant',
    kind: 'coarse',
    description: 'view organisation settings',
  },
  {
    scope: 'tenant.edit_settings',
    module: 'tenant',
    kind: 'coarse',
    description: 'change organisation settings, branding and footer',
  },
  { scope: 'roles.manage', module: 'roles', kind: 'coarse', description: 'manage roles and permissions' },
  { scope: 'users.view', module: 'users', kind: 'coarse', description: 'view users' },
  { scope: 'users.manage', module: 'users', kind: 'coarse', description: 'manage users' },
  {
    scope: 'users.scrub_pii',
    module: 'users',
    kind: 'coarse',
    description: "erase users' personal data",
  },

  // System (platform) scopes: held only by super-admins, need no tenant.
  { scope: '*', module: 'system', kind: 'global', description: 'do everything' },
  { scope: 'system.superadmin', module: 'system', kind: 'global', description: 'administer the platform' },
  { scope: 'system.tenants.create', module: 'system', kind: 'coarse', description: 'create organisations' },

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

  // Drive (drive.md §6). drive.read/write/manage, drive.admin and backup.* are verbatim; the fine names follow
  // the spec's coarse-mapping words (file.share, drive.share, manage_all, replace_version, exports.create, ...).
  { scope: 'drive.read', module: 'drive', kind: 'coarse', description: 'read files in the drive' },
  { scope: 'drive.write', module: 'drive', kind: 'coarse', description: 'change files in the drive' },
  { scope: 'drive.manage', module: 'drive', kind: 'coarse', description: 'manage the drive' },
  { scope: 'drive.view', module: 'drive', kind: 'fine', description: 'open the drive' },
  { scope: 'drive.drives.list', module: 'drive', kind: 'fine', description: 'list drives' },
  { scope: 'drive.drives.create', module: 'drive', kind: 'fine', description: 'create drives' },
  { scope: 'drive.drives.manage', module: 'drive', kind: 'fine', description: 'manage drives' },
  { scope: 'drive.share', module: 'drive', kind: 'fine', description: 'share drives with people' },
  { scope: 'drive.libraries.create', module: 'drive', kind: 'fine', description: 'create libraries' },
  { scope: 'drive.libraries.manage', module: 'drive', kind: 'fine', description: 'manage libraries' },
  { scope: 'drive.file.upload', module: 'drive', kind: 'fine', description: 'upload files' },
  { scope: 'drive.file.read', module: 'drive', kind: 'fine', description: 'open and download files' },
  { scope: 'drive.file.rename', module: 'drive', kind: 'fine', description: 'rename files' },
  { scope: 'drive.file.move', module: 'drive', kind: 'fine', description: 'move files' },
  {
    scope: 'drive.file.replace_version',
    module: 'drive',
    kind: 'fine',
    description: 'replace file versions',
  },
  { scope: 'drive.file.soft_delete', module: 'drive', kind: 'fine', description: 'move files to the trash' },
  { scope: 'drive.file.restore', module: 'drive', kind: 'fine', description: 'restore files from the trash' },
  { scope: 'drive.file.hard_delete', module: 'drive', kind: 'fine', description: 'permanently delete files' },
  { scope: 'drive.file.share', module: 'drive', kind: 'fine', description: 'share files' },
  { scope: 'drive.attachment.add', module: 'drive', kind: 'fine', description: 'add attachments' },
  { scope: 'drive.attachment.remove', module: 'drive', kind: 'fine', description: 'remove attachments' },
  {
    scope: 'drive.attachment.promote',
    module: 'drive',
    kind: 'fine',
    description: 'promote attachments into the drive',
  },
  {
    scope: 'drive.attachment.resolve_access',
    module: 'drive',
    kind: 'fine',
    description: 'resolve access to attachments',
  },
  { scope: 'drive.exports.create', module: 'drive', kind: 'fine', description: 'create shares' },
  { scope: 'drive.exports.share', module: 'drive', kind: 'fine', description: 'publish share links' },
  { scope: 'drive.exports.revoke', module: 'drive', kind: 'fine', description: 'revoke shares' },
  {
    scope: 'drive.exports.view_audit',
    module: 'drive',
    kind: 'fine',
    description: 'view the audit of shares',
  },
  {
    scope: 'drive.exports.template.manage',
    module: 'drive',
    kind: 'fine',
    description: 'manage export templates',
  },
  { scope: 'drive.audit.read', module: 'drive', kind: 'fine', description: 'read the drive audit log' },
  { scope: 'drive.pii.read', module: 'drive', kind: 'fine', description: 'read personal data in the drive' },
  {
    scope: 'drive.pii.write',
    module: 'drive',
    kind: 'fine',
    description: 'change personal data in the drive',
  },
  { scope: 'drive.folders.create', module: 'drive', kind: 'fine', description: 'create folders' },
  { scope: 'drive.folders.manage', module: 'drive', kind: 'fine', description: 'edit or delete folders' },
  { scope: 'drive.signatures.view', module: 'drive', kind: 'fine', description: 'view signature requests' },
  { scope: 'drive.signatures.create', module: 'drive', kind: 'fine', description: 'request signatures' },
  { scope: 'drive.signatures.sign', module: 'drive', kind: 'fine', description: 'sign documents' },
  {
    scope: 'drive.signatures.manage',
    module: 'drive',
    kind: 'fine',
    description: 'manage signature requests',
  },
  {
    scope: 'drive.manage_all',
    module: 'drive',
    kind: 'coarse',
    description: 'delete, restore and share any file and manage libraries and folders',
  },
  { scope: 'drive.admin', module: 'drive', kind: 'coarse', description: 'administer the drive' },
  { scope: 'backup.view_status', module: 'backup', kind: 'fine', description: 'view backup status' },
  { scope: 'backup.restore', module: 'backup', kind: 'fine', description: 'restore backups' },
  { scope: 'backup.manage', module: 'backup', kind: 'coarse', description: 'manage backups' },
] as const satisfies readonly CatalogueSource[];

/** Every scope string of the vocabulary. */
export type Scope = (typeof catalogueSource)[number]['scope'];

export interface ScopeEntry {
  scope: Scope;
  module: ScopeModule;
  kind: ScopeKind;
  /** System scopes are platform scopes: held only by super-admins and valid without a tenant. */
  system: boolean;
  description: string;
}

/** The whole vocabulary, in catalogue order (module by module). */
export const scopeCatalogue: readonly ScopeEntry[] = Object.freeze(
  catalogueSource.map((entry): ScopeEntry => Object.freeze({ ...entry, system: entry.module === 'system' })),
);

const catalogueByScope: ReadonlyMap<string, ScopeEntry> = new Map(
  scopeCatalogue.map((entry) => [entry.scope, entry]),
);

/** Every scope string, in catalogue order. */
export const allScopes: readonly Scope[] = Object.freeze(scopeCatalogue.map((entry) => entry.scope));

/** The star scope: grants every scope. */
export const STAR_SCOPE = '*';
/** The scope a super-admin always holds. */
export const SUPERADMIN_SCOPE = 'system.superadmin';

export function isKnownScope(scope: string): scope is Scope {
  return catalogueByScope.has(scope);
}

/** Platform scopes (`*`, `system.*`). Unknown strings are not system scopes. */
export function isSystemScope(scope: string): boolean {
  return catalogueByScope.get(scope)?.system ?? false;
}

export function scopeEntry(scope: string): ScopeEntry | undefined {
  return catalogueByScope.get(scope);
}

const scopesOfModule = (module: ScopeModule): Scope[] =>
  scopeCatalogue.filter((entry) => entry.module === module).map((entry) => entry.scope);

const scheduleFine = [
  'schedule.view_own',
  'schedule.view_team',
  'schedule.view_all',
  'schedule.edit_own',
  'schedule.edit_team',
  'schedule.manage_calendars',
] as const satisfies readonly Scope[];

const driveManageAll = [
  'drive.file.soft_delete',
  'drive.file.restore',
  'drive.file.hard_delete',
  'drive.file.share',
  'drive.share',
  'drive.libraries.create',
  'drive.libraries.manage',
  'drive.folders.create',
  'drive.folders.manage',
] as const satisfies readonly Scope[];

/**
 * Direct implications: holding the key grants each listed scope (and, transitively, what those grant). `*`
 * is not listed: it grants every scope (see expandScopes). Non-system scopes never imply system scopes.
 */
export const scopeImplications: Readonly<Partial<Record<Scope, readonly Scope[]>>> = {
  // Schedule: fine scopes map to the coarse ones (view_own, view_team, view_all -> schedule.read; edit_own,
  // edit_team, manage_calendars -> schedule.write); a coarse scope alone grants only the narrowest fine scope;
  // wider fine scopes include the narrower ones; manage grants the whole module.
  'schedule.read': ['schedule.view_own'],
  'schedule.write': ['schedule.read', 'schedule.edit_own'],
  'schedule.manage': ['schedule.read', 'schedule.write', ...scheduleFine],
  'schedule.view_own': ['schedule.read'],
  'schedule.view_team': ['schedule.read', 'schedule.view_own'],
  'schedule.view_all': ['schedule.read', 'schedule.view_team'],
  'schedule.edit_own': ['schedule.write', 'schedule.view_own'],
  'schedule.edit_team': ['schedule.write', 'schedule.edit_own', 'schedule.view_team'],
  'schedule.manage_calendars': ['schedule.write', 'schedule.view_all'],

  // Notes: every notes action needs to see the note; notes.manage_all implies all notes scopes.
  'notes.create': ['notes.view'],
  'notes.edit': ['notes.view'],
  'notes.delete': ['notes.view'],
  'notes.share': ['notes.view'],
  'notes.manage_all': ['notes.view', 'notes.create', 'notes.edit', 'notes.delete', 'notes.share'],

  // Chat.
  'chat.messages.send': ['chat.messages.view'],
  'chat.groups.manage': ['chat.messages.view', 'chat.messages.send'],

  // Documents, tenant settings, users: manage > edit > view.
  'docs.edit': ['docs.view'],
  'docs.manage': ['docs.edit', 'docs.view'],
  'tenant.edit_settings': ['tenant.view_settings'],
  'users.manage': ['users.view'],

  // System: the super-admin scope passes everything.
  'system.superadmin': ['*'],

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
  // cis.manage grants everything in CIS (filled in below).

  // Drive coarse mapping (drive.md §6): fine scopes give the coarse ones.
  'drive.file.read': ['drive.read'],
  'drive.file.upload': ['drive.write'],
  'drive.file.rename': ['drive.write'],
  'drive.file.move': ['drive.write'],
  'drive.file.replace_version': ['drive.write'],
  'drive.file.soft_delete': ['drive.write'],
  'drive.file.restore': ['drive.write'],
  'drive.attachment.add': ['drive.write'],
  'drive.attachment.remove': ['drive.write'],
  'drive.attachment.promote': ['drive.write'],
  'drive.exports.create': ['drive.write'],
  'drive.file.hard_delete': ['drive.manage'],
  'drive.file.share': ['drive.manage'],
  'drive.share': ['drive.manage'],
  'drive.exports.share': ['drive.manage'],
  'drive.exports.revoke': ['drive.manage'],
  'drive.exports.view_audit': ['drive.manage'],
  'drive.exports.template.manage': ['drive.manage'],
  'drive.attachment.resolve_access': ['drive.manage'],
  // Managing a resource includes creating (and, for drives, listing) it.
  'drive.drives.create': ['drive.drives.list'],
  'drive.drives.manage': ['drive.drives.create', 'drive.drives.list'],
  'drive.libraries.manage': ['drive.libraries.create'],
  'drive.folders.manage': ['drive.folders.create'],
  'drive.signatures.create': ['drive.signatures.view'],
  'drive.signatures.sign': ['drive.signatures.view'],
  'drive.signatures.manage': ['drive.signatures.view', 'drive.signatures.create', 'drive.signatures.sign'],
  // Manage-all: delete, restore, share, library and folder management.
  'drive.manage_all': ['drive.manage', ...driveManageAll],
  // drive.admin: every drive and export scope except personal data (drive.pii.*), which stays explicit.
  'drive.admin': [
    'drive.manage',
    'drive.manage_all',
    'drive.view',
    'drive.drives.manage',
    'drive.file.upload',
    'drive.file.read',
    'drive.file.rename',
    'drive.file.move',
    'drive.file.replace_version',
    'drive.attachment.add',
    'drive.attachment.remove',
    'drive.attachment.promote',
    'drive.attachment.resolve_access',
    'drive.exports.create',
    'drive.exports.share',
    'drive.exports.revoke',
    'drive.exports.view_audit',
    'drive.exports.template.manage',
    'drive.audit.read',
    'drive.signatures.manage',
  ],

  // Backups.
  'backup.manage': ['backup.view_status', 'backup.restore'],
};

/** The implications with cis.manage filled in: everything in CIS. */
const implicationsOf: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ...Object.entries(scopeImplications),
  ['cis.manage', scopesOfModule('cis').filter((scope) => scope !== 'cis.manage')],
]);

/** The scopes a scope implies directly (cis.manage: every other CIS scope; `*`: every scope). */
export function impliedScopes(scope: string): readonly string[] {
  if (scope === STAR_SCOPE) return allScopes;
  return implicationsOf.get(scope) ?? [];
}

/**
 * The closure of `granted` under the implications: `*` grants every catalogue scope, manage and umbrella scopes
 * their sets, fine scopes their coarse scopes. Unknown strings are kept as they are and imply nothing.
 */
export function expandScopes(granted: Iterable<string>): Set<string> {
  const result = new Set<string>();
  const pending = [...granted];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (result.has(next)) continue;
    result.add(next);
    for (const implied of impliedScopes(next)) if (!result.has(implied)) pending.push(implied);
  }
  return result;
}

export interface ScopeCheckOptions {
  /** The caller's super-admin claim: passes every check. */
  superAdmin?: boolean;
  /** False when the caller acts without a tenant: then only system scopes can pass. Default true. */
  hasTenant?: boolean;
}

/**
 * Whether an already expanded scope set passes a check for `scope`: a super-admin claim passes everything;
 * without a tenant only system scopes can pass; otherwise `*` or the scope itself.
 */
export function hasScope(
  effective: ReadonlySet<string>,
  scope: string,
  opts: ScopeCheckOptions = {},
): boolean {
  if (opts.superAdmin === true) return true;
  if (opts.hasTenant === false && !isSystemScope(scope)) return false;
  return effective.has(STAR_SCOPE) || effective.has(scope);
}

/** The role claim's values (workspace.md §6: admin, and the default standard). */
export type Role = 'admin' | 'standard';

/** Role from the token claim: 'admin' stays admin; a missing claim or any other value is standard. */
export function normalizeRole(claim: unknown): Role {
  return claim === 'admin' ? 'admin' : 'standard';
}

export type RoleTemplateName =
  'admin' | 'manager' | 'editor' | 'viewer' | 'cis-admin' | 'cis-accountant' | 'cis-clerk';

const adminTemplate: readonly Scope[] = scopeCatalogue
  .filter((entry) => !entry.system)
  .map((entry) => entry.scope);

const managerTemplate = [
  // Drive: view, write, delete (to the trash and back), share, folders; not hard delete, libraries, PII, admin.
  'drive.view',
  'drive.drives.list',
  'drive.drives.create',
  'drive.file.read',
  'drive.file.upload',
  'drive.file.rename',
  'drive.file.move',
  'drive.file.replace_version',
  'drive.file.soft_delete',
  'drive.file.restore',
  'drive.file.share',
  'drive.attachment.add',
  'drive.attachment.remove',
  'drive.exports.create',
  'drive.folders.create',
  'drive.folders.manage',
  'drive.signatures.view',
  'drive.signatures.create',
  'drive.signatures.sign',
  // Schedule: the team's calendars, all calendars visible, calendars managed.
  'schedule.view_team',
  'schedule.edit_team',
  'schedule.manage_calendars',
  // Notes, chat, calls, documents in full; tenant settings and users read-only.
  'notes.view',
  'notes.create',
  'notes.edit',
  'notes.delete',
  'notes.share',
  'chat.messages.view',
  'chat.messages.send',
  'chat.groups.manage',
  'calls.room.create',
  'chat.calls.voice',
  'chat.calls.video',
  'docs.view',
  'docs.edit',
  'docs.manage',
  'tenant.view_settings',
  'users.view',
] as const satisfies readonly Scope[];

const editorTemplate = [
  // Drive: view, write, share, folder create; no delete, restore, folder management.
  'drive.view',
  'drive.drives.list',
  'drive.file.read',
  'drive.file.upload',
  'drive.file.rename',
  'drive.file.move',
  'drive.file.replace_version',
  'drive.file.share',
  'drive.attachment.add',
  'drive.attachment.remove',
  'drive.folders.create',
  'drive.signatures.view',
  'drive.signatures.sign',
  // Schedule: view own and team, edit own.
  'schedule.view_team',
  'schedule.edit_own',
  // Notes without delete; chat and calls; documents edit; users listed for the share dialogs.
  'notes.view',
  'notes.create',
  'notes.edit',
  'notes.share',
  'chat.messages.view',
  'chat.messages.send',
  'chat.calls.voice',
  'chat.calls.video',
  'docs.view',
  'docs.edit',
  'users.view',
] as const satisfies readonly Scope[];

const viewerTemplate = [
  // Read-only drive, own schedule, notes, documents, chat; nothing that writes.
  'drive.view',
  'drive.drives.list',
  'drive.file.read',
  'drive.signatures.view',
  'schedule.view_own',
  'notes.view',
  'docs.view',
  'chat.messages.view',
] as const satisfies readonly Scope[];

const cisAccountantTemplate = [
  'cis.settings.read',
  'cis.sub.read',
  'cis.inv.read',
  'cis.inv.write',
  'cis.inv.approve',
  'cis.stmt.issue',
  'cis.ret.compile',
  'cis.audit.read',
  'cis.io.export',
] as const satisfies readonly Scope[];

const cisClerkTemplate = [
  'cis.settings.read',
  'cis.sub.read',
  'cis.inv.read',
  'cis.audit.read',
] as const satisfies readonly Scope[];

/**
 * Role templates (workspace.md §6, drive.md §6, cis.md §6): the scopes a tenant's role bundle starts from. The
 * lists are what the bundle holds; the effective scopes are their expansion.
 */
export const roleTemplates: Readonly<Record<RoleTemplateName, readonly Scope[]>> = Object.freeze({
  admin: adminTemplate,
  manager: managerTemplate,
  editor: editorTemplate,
  viewer: viewerTemplate,
  'cis-admin': scopesOfModule('cis'),
  'cis-accountant': cisAccountantTemplate,
  'cis-clerk': cisClerkTemplate,
});

export const roleTemplateNames = Object.freeze(Object.keys(roleTemplates)) as readonly RoleTemplateName[];

export interface EffectiveScopesInput {
  /** The role claim (see normalizeRole). Admins get the admin template on top of their bundles. */
  role: Role;
  /** The super-admin claim. */
  superAdmin: boolean;
  /** The scopes of each role bundle the user holds in the tenant. */
  bundleScopes: readonly (readonly string[])[];
  /** The tenant's permission whitelist (available scopes); null means no limit. */
  availableScopes: ReadonlySet<string> | null;
  /** False when the user acts without a tenant: non-system scopes need a tenant. Default true. */
  hasTenant?: boolean;
}

/**
 * The effective scopes identity puts in a token, sorted and unique.
 *
 * - Super-admin: `*` and every catalogue scope (every system scope only, when there is no tenant); the claim
 *   passes everything, so neither bundles nor the whitelist apply.
 * - Otherwise: the bundles' scopes plus the admin template for role admin, expanded; unknown strings dropped;
 *   limited to the tenant's whitelist, itself expanded (whitelisting `cis.read` makes the CIS read scopes
 *   available); system scopes dropped; nothing at all without a tenant.
 *
 * The result is closed under the implications (the intersection of two closed sets is closed, and no non-system
 * scope implies a system one), so services check it with a plain membership test.
 */
export function computeEffectiveScopes(input: EffectiveScopesInput): string[] {
  const hasTenant = input.hasTenant ?? true;
  if (input.superAdmin) {
    const scopes = hasTenant ? allScopes : allScopes.filter((scope) => isSystemScope(scope));
    return [...scopes].sort();
  }
  if (!hasTenant) return [];
  const granted: string[] = input.bundleScopes.flat();
  if (input.role === 'admin') granted.push(...roleTemplates.admin);
  const available = input.availableScopes === null ? null : expandScopes(input.availableScopes);
  return [...expandScopes(granted)]
    .filter((scope) => isKnownScope(scope) && !isSystemScope(scope))
    .filter((scope) => available === null || available.has(scope))
    .sort();
}

/** Session scope-cache durations (workspace.md §9, cis.md §6, drive.md §9). */
export const SCOPE_CACHE_TTL_MS = Object.freeze({
  standard: 300_000,
  admin: 600_000,
  system: 1_800_000,
});

/** How long a session may cache its scopes: 30 min when any system scope is held, else 10 min admin, 5 min. */
export function scopeCacheTtlMs(input: { role: string; scopes: Iterable<string> }): number {
  for (const scope of input.scopes) if (isSystemScope(scope)) return SCOPE_CACHE_TTL_MS.system;
  return normalizeRole(input.role) === 'admin' ? SCOPE_CACHE_TTL_MS.admin : SCOPE_CACHE_TTL_MS.standard;
}

/** The entitlement calls need (workspace.md §6). */
export const CALLS_ENTITLEMENT = 'calls.voip';
/** Any one of these scopes lets a user start calls. */
export const CALL_SCOPES = Object.freeze([
  'calls.room.create',
  'chat.calls.voice',
  'chat.calls.video',
] as const satisfies readonly Scope[]);
export const CALLS_UPGRADE_MESSAGE = 'Upgrade to enable Calls';
export const CALLS_FORBIDDEN_MESSAGE = "You don't have permission to start calls";

export type CallsGate = { allowed: true; reason: null } | { allowed: false; reason: string };

/**
 * The calls button gate: the tenant needs the calls.voip entitlement (else 'Upgrade to enable Calls', checked
 * first), and the user one of the call scopes (else "You don't have permission to start calls").
 */
export function canStartCalls(
  entitlements: Iterable<string>,
  scopes: Iterable<string>,
  opts: ScopeCheckOptions = {},
): CallsGate {
  if (!new Set(entitlements).has(CALLS_ENTITLEMENT)) return { allowed: false, reason: CALLS_UPGRADE_MESSAGE };
  const held = new Set(scopes);
  if (!CALL_SCOPES.some((scope) => hasScope(held, scope, opts)))
    return { allowed: false, reason: CALLS_FORBIDDEN_MESSAGE };
  return { allowed: true, reason: null };
}

/** The Access Restricted page text for a missing scope: "You don't have permission to {action}". */
export function permissionDeniedMessage(scope: string): string {
  const action = catalogueByScope.get(scope)?.description ?? 'perform this action';
  return `You don't have permission to ${action}`;
}

/** The CIS abilities of cis.md §6 and the fine scope each needs (coarse and manage scopes expand into them). */
export const cisAbilityScopes = Object.freeze({
  viewSettings: 'cis.settings.read',
  editSettings: 'cis.settings.write',
  unmaskPii: 'cis.pii.unmask',
  viewSubcontractors: 'cis.sub.read',
  viewInvoices: 'cis.inv.read',
  viewAudit: 'cis.audit.read',
  manageSubcontractors: 'cis.sub.write',
  verifySubcontractors: 'cis.sub.verify',
  createInvoices: 'cis.inv.write',
  payInvoices: 'cis.inv.pay',
  issueStatements: 'cis.stmt.issue',
  compileReturns: 'cis.ret.compile',
  approveInvoices: 'cis.inv.approve',
  submitReturns: 'cis.ret.submit',
  importData: 'cis.io.import',
  exportData: 'cis.io.export',
  runJobs: 'cis.jobs.run',
  portalInvite: 'cis.portal.invite',
} as const satisfies Record<string, Scope>);

export type CisAbility = keyof typeof cisAbilityScopes;
