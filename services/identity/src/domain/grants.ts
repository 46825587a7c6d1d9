/**
 * No self-escalation in identity's user and role routes (security review L1): a caller grants only what they hold,
 * never changes their own access, and only an administrator grants or takes away administration. Pure rules; the
 * commands give them the stored state and turn a refusal into a 403 with its message.
 */
import { expandScopes, isSystemScope } from './scopes.js';

/** The signed-in caller: their role and their effective scopes (the token's, closed under the implications). */
export interface Grantor {
  userId: string;
  role: string;
  scopes: ReadonlySet<string>;
}

/** The bundle every tenant gets from the admin role template (seed-tenant.ts): it carries administration. */
export const ADMIN_BUNDLE_ID = 'admin';

/**
 * What a caller may grant: a scope they hold, or any tenant scope for an administrator (the admin role carries every
 * non-system scope; the whitelist narrows their token too, and must not stop them lifting it).
 */
const holds = (grantor: Pick<Grantor, 'scopes' | 'role'>, scope: string) =>
  grantor.scopes.has('*') || grantor.scopes.has(scope) || (grantor.role === 'admin' && !isSystemScope(scope));

const isAdministrator = (grantor: Grantor) => grantor.role === 'admin' || grantor.scopes.has('*');

export const cannotGrant = (scope: string) => `You cannot grant ${scope}: you do not hold it.`;

/**
 * The first scope `requested` adds to `current` that the caller does not hold; undefined when there is none. Both
 * sides count with their implications (a bundle with `cis.manage` already grants `cis.inv.read`); the requested
 * scopes as written are named first.
 */
export function firstUnheldGrant(
  grantor: Pick<Grantor, 'scopes' | 'role'>,
  requested: Iterable<string>,
  current: Iterable<string>,
): string | undefined {
  const before = expandScopes(current);
  const asWritten = [...requested];
  for (const scope of [...asWritten, ...expandScopes(asWritten)]) {
    if (!before.has(scope) && !holds(grantor, scope)) return scope;
  }
  return undefined;
}

/**
 * Why a change to a user's role or role bundles is refused, or undefined when it is allowed. `bundleScopes` gives
 * the scopes of each bundle the change adds.
 */
export function userAccessRefusal(input: {
  grantor: Grantor;
  target: { uid: string; role: string; bundleIds: readonly string[] };
  changes: { role?: string | undefined; bundleIds?: readonly string[] | undefined };
  bundleScopes: (bundleId: string) => readonly string[];
}): string | undefined {
  const { grantor, target, changes } = input;
  const self = target.uid === grantor.userId;
  if (changes.role !== undefined && self) return 'You cannot change your own role.';
  if (changes.bundleIds !== undefined && self) return 'You cannot change your own role bundles.';
  if (changes.role === 'admin' && !isAdministrator(grantor)) {
    return 'Only an administrator can make someone an administrator.';
  }
  if (
    changes.role !== undefined &&
    changes.role !== target.role &&
    target.role === 'admin' &&
    !isAdministrator(grantor)
  ) {
    return 'Only an administrator can change an administrator’s role.';
  }
  if (changes.bundleIds === undefined) return undefined;
  const before = new Set(target.bundleIds);
  const after = new Set(changes.bundleIds);
  const adminBundleMoved = before.has(ADMIN_BUNDLE_ID) !== after.has(ADMIN_BUNDLE_ID);
  if (adminBundleMoved && !isAdministrator(grantor)) {
    return 'Only an administrator can give or take away the admin role bundle.';
  }
  for (const bundleId of after) {
    if (before.has(bundleId)) continue;
    const unheld = firstUnheldGrant(grantor, input.bundleScopes(bundleId), []);
    if (unheld) return cannotGrant(unheld);
  }
  return undefined;
}

/** Why saving a role bundle is refused: it raises scopes the caller does not hold, or it is the admin bundle. */
export function roleBundleRefusal(input: {
  grantor: Grantor;
  bundleId: string;
  requested: readonly string[];
  current: readonly string[];
}): string | undefined {
  if (input.bundleId === ADMIN_BUNDLE_ID && !isAdministrator(input.grantor)) {
    return 'Only an administrator can change the admin role bundle.';
  }
  const unheld = firstUnheldGrant(input.grantor, input.requested, input.current);
  return unheld ? cannotGrant(unheld) : undefined;
}
