// The scope model (spec workspace.md §6): what a module declares about its scopes (the catalogue, the implications
// between them, its role templates) and the pure rules over the assembled catalogue (expansion, checks, effective
// scopes, the scope-cache durations). Each module owns its declaration; identity assembles them (its
// domain/scope-registry.ts) and puts the effective scopes in access tokens. docs/scopes.md lists the strings.

/**
 * fine: one action. coarse: the spec's coarse strings and other umbrella scopes that imply a named set.
 * global: grants every scope of its module (`cis.manage`, `notes.manage_all`) or every scope (`*`,
 * `system.superadmin`).
 */
export type ScopeKind = 'fine' | 'coarse' | 'global';

export interface ScopeDefinition {
  scope: string;
  /** The first segment of the scope string (`*` belongs to system). */
  module: string;
  kind: ScopeKind;
  /** Completes "You don't have permission to {description}". */
  description: string;
}

/** What a module declares: its scopes in catalogue order, their direct implications, its role templates. */
export interface ModuleScopes {
  readonly catalogue: readonly ScopeDefinition[];
  /** Holding the key grants each listed scope (and, transitively, what those grant). */
  readonly implications?: Readonly<Record<string, readonly string[]>>;
  /** Role templates the module adds to the tenant's seeded role bundles. */
  readonly roleTemplates?: Readonly<Record<string, readonly string[]>>;
}

/** A catalogue scope as the assembled catalogue holds it. */
export interface ScopeEntry<S extends string = string, M extends string = string> {
  scope: S;
  module: M;
  kind: ScopeKind;
  /** System scopes are platform scopes: held only by super-admins and valid without a tenant. */
  system: boolean;
  description: string;
}

/** The module of platform scopes. */
export const SYSTEM_MODULE = 'system';
/** The star scope: grants every scope. */
export const STAR_SCOPE = '*';
/** The scope a super-admin always holds. */
export const SUPERADMIN_SCOPE = 'system.superadmin';

export interface ScopeCheckOptions {
  /** The caller's super-admin claim: passes every check. */
  superAdmin?: boolean;
  /** False when the caller acts without a tenant: then only system scopes can pass. Default true. */
  hasTenant?: boolean;
}

/**
 * Whether an already expanded scope set passes a check for `scope` (`system`: whether it is a system scope): a
 * super-admin claim passes everything; without a tenant only system scopes can pass; otherwise `*` or the scope.
 */
export function passesScopeCheck(
  effective: ReadonlySet<string>,
  scope: string,
  system: boolean,
  opts: ScopeCheckOptions = {},
): boolean {
  if (opts.superAdmin === true) return true;
  if (opts.hasTenant === false && !system) return false;
  return effective.has(STAR_SCOPE) || effective.has(scope);
}

/**
 * The closure of `granted` under `implied` (the scopes one scope implies directly). Unknown strings are kept as
 * they are and imply nothing.
 */
export function closeScopes(
  granted: Iterable<string>,
  implied: (scope: string) => readonly string[],
): Set<string> {
  const result = new Set<string>();
  const pending = [...granted];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (result.has(next)) continue;
    result.add(next);
    for (const scope of implied(next)) if (!result.has(scope)) pending.push(scope);
  }
  return result;
}

/** The role claim's values (workspace.md §6: admin, and the default standard). */
export type Role = 'admin' | 'standard';

/** Role from the token claim: 'admin' stays admin; a missing claim or any other value is standard. */
export function normalizeRole(claim: unknown): Role {
  return claim === 'admin' ? 'admin' : 'standard';
}

/** Session scope-cache durations (workspace.md §9, cis.md §6, drive.md §9): 5 min standard, 10 admin, 30 system. */
export const SCOPE_CACHE_TTL_MS = Object.freeze({
  standard: 300_000,
  admin: 600_000,
  system: 1_800_000,
});

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

/** The scope strings of a list of module declarations. */
export type ScopeOf<M extends readonly ModuleScopes[]> = M[number]['catalogue'][number]['scope'];
/** The module names of a list of module declarations. */
export type ScopeModuleOf<M extends readonly ModuleScopes[]> = M[number]['catalogue'][number]['module'];

/** The names of the role templates a list of module declarations adds. */
export type RoleTemplateNameOf<M extends readonly ModuleScopes[]> = M[number] extends infer Declared
  ? Declared extends { roleTemplates: infer Templates }
    ? keyof Templates & string
    : never
  : never;

/** The rules over one assembled catalogue (see assembleScopes). */
export interface ScopeModel<S extends string, M extends string> {
  /** The whole vocabulary, in catalogue order (module by module, in the order of the modules given). */
  catalogue: readonly ScopeEntry<S, M>[];
  /** Every scope string, in catalogue order. */
  allScopes: readonly S[];
  /** Every non-system scope, in catalogue order: what the admin role is given on top of its bundles. */
  tenantScopes: readonly S[];
  /** The implications of every module, merged (the global scope of a module lists its module in full). */
  implications: Readonly<Partial<Record<S, readonly S[]>>>;
  /** Every module's role templates, merged, in the order of the modules given. */
  moduleRoleTemplates: Readonly<Record<string, readonly S[]>>;
  isKnownScope: (scope: string) => scope is S;
  /** Platform scopes (`*`, `system.*`). Unknown strings are not system scopes. */
  isSystemScope: (scope: string) => boolean;
  scopeEntry: (scope: string) => ScopeEntry<S, M> | undefined;
  /** The scopes a scope implies directly (`*`: every scope). */
  impliedScopes: (scope: string) => readonly string[];
  /**
   * The closure of `granted` under the implications: `*` grants every catalogue scope, manage and umbrella scopes
   * their sets, fine scopes their coarse scopes. Unknown strings are kept as they are and imply nothing.
   */
  expandScopes: (granted: Iterable<string>) => Set<string>;
  /** passesScopeCheck with the catalogue's system scopes. */
  hasScope: (effective: ReadonlySet<string>, scope: string, opts?: ScopeCheckOptions) => boolean;
  /**
   * The effective scopes identity puts in a token, sorted and unique.
   *
   * - Super-admin: `*` and every catalogue scope (every system scope only, when there is no tenant); the claim
   *   passes everything, so neither bundles nor the whitelist apply.
   * - Otherwise: the bundles' scopes plus the admin template (every non-system scope) for role admin, expanded;
   *   unknown strings dropped; limited to the tenant's whitelist, itself expanded (whitelisting `cis.read` makes
   *   the CIS read scopes available); system scopes dropped; nothing at all without a tenant.
   *
   * The result is closed under the implications (the intersection of two closed sets is closed, and no non-system
   * scope implies a system one), so services check it with a plain membership test.
   */
  computeEffectiveScopes: (input: EffectiveScopesInput) => string[];
  /** How long a session may cache its scopes: 30 min when any system scope is held, else 10 min admin, 5 min. */
  scopeCacheTtlMs: (input: { role: string; scopes: Iterable<string> }) => number;
  /** The Access Restricted page text for a missing scope: "You don't have permission to {action}". */
  permissionDeniedMessage: (scope: string) => string;
}

/** One catalogue from the modules' declarations, and the rules over it. A scope declared twice is refused. */
export function assembleScopes<const Modules extends readonly ModuleScopes[]>(
  modules: Modules,
): ScopeModel<ScopeOf<Modules>, ScopeModuleOf<Modules>> {
  type S = ScopeOf<Modules>;
  type M = ScopeModuleOf<Modules>;
  const catalogue: readonly ScopeEntry<S, M>[] = Object.freeze(
    modules.flatMap((declared) =>
      declared.catalogue.map((entry): ScopeEntry<S, M> =>
        Object.freeze({
          scope: entry.scope,
          module: entry.module,
          kind: entry.kind,
          description: entry.description,
          system: entry.module === SYSTEM_MODULE,
        }),
      ),
    ),
  );
  const byScope = new Map<string, ScopeEntry<S, M>>();
  for (const entry of catalogue) {
    if (byScope.has(entry.scope)) throw new Error(`Scope ${entry.scope} is declared twice`);
    byScope.set(entry.scope, entry);
  }
  const allScopes: readonly S[] = Object.freeze(catalogue.map((entry) => entry.scope));
  const implications = Object.freeze(
    Object.assign({}, ...modules.map((declared) => declared.implications ?? {})) as Partial<
      Record<S, readonly S[]>
    >,
  );
  const implicationsOf: ReadonlyMap<string, readonly string[]> = new Map(Object.entries(implications));
  const moduleRoleTemplates = Object.freeze(
    Object.assign({}, ...modules.map((declared) => declared.roleTemplates ?? {})) as Record<
      string,
      readonly S[]
    >,
  );
  const isSystemScope = (scope: string): boolean => byScope.get(scope)?.system ?? false;
  const isKnownScope = (scope: string): scope is S => byScope.has(scope);
  const impliedScopes = (scope: string): readonly string[] =>
    scope === STAR_SCOPE ? allScopes : (implicationsOf.get(scope) ?? []);
  const expandScopes = (granted: Iterable<string>): Set<string> => closeScopes(granted, impliedScopes);
  const tenantScopes: readonly S[] = Object.freeze(
    catalogue.filter((entry) => !entry.system).map((entry) => entry.scope),
  );

  return {
    catalogue,
    allScopes,
    tenantScopes,
    implications,
    moduleRoleTemplates,
    isKnownScope,
    isSystemScope,
    scopeEntry: (scope) => byScope.get(scope),
    impliedScopes,
    expandScopes,
    hasScope: (effective, scope, opts = {}) => passesScopeCheck(effective, scope, isSystemScope(scope), opts),
    computeEffectiveScopes(input) {
      const hasTenant = input.hasTenant ?? true;
      if (input.superAdmin) {
        const scopes = hasTenant ? allScopes : allScopes.filter((scope) => isSystemScope(scope));
        return [...scopes].sort();
      }
      if (!hasTenant) return [];
      const granted: string[] = input.bundleScopes.flat();
      if (input.role === 'admin') granted.push(...tenantScopes);
      const available = input.availableScopes === null ? null : expandScopes(input.availableScopes);
      return [...expandScopes(granted)]
        .filter((scope) => isKnownScope(scope) && !isSystemScope(scope))
        .filter((scope) => available === null || available.has(scope))
        .sort();
    },
    scopeCacheTtlMs(input) {
      for (const scope of input.scopes) if (isSystemScope(scope)) return SCOPE_CACHE_TTL_MS.system;
      return normalizeRole(input.role) === 'admin' ? SCOPE_CACHE_TTL_MS.admin : SCOPE_CACHE_TTL_MS.standard;
    },
    permissionDeniedMessage(scope) {
      const action = byScope.get(scope)?.description ?? 'perform this action';
      return `You don't have permission to ${action}`;
    },
  };
}
