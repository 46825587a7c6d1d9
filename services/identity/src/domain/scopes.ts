/**
 * The scope vocabulary of the product (spec workspace.md §6, cis.md §6, drive.md §6), assembled from the modules'
 * declarations (./scope-registry.ts), and identity's own rules over it: the workspace role templates and the role
 * templates identity seeds. The pure rules (expansion, checks, effective scopes, cache durations) are
 * @workspace/rules'; this file binds them to the product's catalogue.
 *
 * Strings the spec gives are used verbatim; the strings chosen where the spec only describes a scope are listed,
 * with the reasons, in docs/scopes.md.
 */
import {
  assembleScopes,
  type RoleTemplateNameOf,
  type ScopeEntry as AnyScopeEntry,
  type ScopeModuleOf,
  type ScopeOf,
} from '@workspace/rules';
import { scopeModules } from './scope-registry.js';

export {
  CALL_SCOPES,
  CALLS_ENTITLEMENT,
  CALLS_FORBIDDEN_MESSAGE,
  CALLS_UPGRADE_MESSAGE,
  canStartCalls,
  normalizeRole,
  SCOPE_CACHE_TTL_MS,
  STAR_SCOPE,
  SUPERADMIN_SCOPE,
  type CallsGate,
  type EffectiveScopesInput,
  type Role,
  type ScopeCheckOptions,
  type ScopeKind,
} from '@workspace/rules';

/** Every scope string of the vocabulary. */
export type Scope = ScopeOf<typeof scopeModules>;
/** The modules scopes belong to (the first segment of the scope string; `*` belongs to system). */
export type ScopeModule = ScopeModuleOf<typeof scopeModules>;
export type ScopeEntry = AnyScopeEntry<Scope, ScopeModule>;

const model = assembleScopes(scopeModules);

/** The whole vocabulary, in catalogue order (module by module). */
export const scopeCatalogue: readonly ScopeEntry[] = model.catalogue;
/** Every scope string, in catalogue order. */
export const allScopes: readonly Scope[] = model.allScopes;
/**
 * Direct implications: holding the key grants each listed scope (and, transitively, what those grant). `*` is not
 * listed: it grants every scope (see expandScopes). Non-system scopes never imply system scopes.
 */
export const scopeImplications: Readonly<Partial<Record<Scope, readonly Scope[]>>> = model.implications;
export const {
  isKnownScope,
  isSystemScope,
  scopeEntry,
  impliedScopes,
  expandScopes,
  hasScope,
  computeEffectiveScopes,
  scopeCacheTtlMs,
  permissionDeniedMessage,
} = model;

/** The workspace's role templates (identity's own) and the modules' (from their declarations). */
export type RoleTemplateName =
  'admin' | 'manager' | 'editor' | 'viewer' | RoleTemplateNameOf<typeof scopeModules>;

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

/**
 * The bundle a module's template seeds: the template expanded within the catalogue, in catalogue order (so
 * cis-admin's cis.manage brings every CIS scope into the bundle; the other templates list fine scopes that imply
 * none of their own module's).
 */
const seededTemplate = (template: readonly string[]): readonly Scope[] => {
  const expanded = expandScopes(template);
  return allScopes.filter((scope) => expanded.has(scope) && !isSystemScope(scope));
};

/**
 * Role templates (workspace.md §6, drive.md §6, cis.md §6): the scopes a tenant's role bundle starts from. The
 * lists are what the bundle holds; the effective scopes are their expansion. admin, manager, editor and viewer are
 * the workspace's (identity's own); the others come from the modules' declarations.
 */
export const roleTemplates: Readonly<Record<RoleTemplateName, readonly Scope[]>> = Object.freeze({
  admin: model.tenantScopes,
  manager: managerTemplate,
  editor: editorTemplate,
  viewer: viewerTemplate,
  ...(Object.fromEntries(
    Object.entries(model.moduleRoleTemplates).map(([name, template]) => [name, seededTemplate(template)]),
  ) as Record<RoleTemplateNameOf<typeof scopeModules>, readonly Scope[]>),
});

export const roleTemplateNames = Object.freeze(Object.keys(roleTemplates)) as readonly RoleTemplateName[];
