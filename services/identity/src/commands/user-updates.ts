import { problems } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';
import type { IdentityContext } from '../context.js';
import type { User } from '../db/users.store.js';
import { userAccessRefusal, type Grantor } from '../domain/index.js';
import { userUpdatedData } from '../events/identity-events.js';
import { requireUser } from './records.js';

/** Who asks for a change: the signed-in caller, with their effective scopes. */
export interface Actor extends Grantor {
  tenantId: string;
}

/** The signed-in user's own status or appearance settings (merged into the saved ones). */
export function updateOwnProfile(
  context: IdentityContext,
  actor: Pick<Actor, 'tenantId' | 'userId'>,
  changes: { status?: User['status'] | undefined; themePreference?: Record<string, unknown> | undefined },
): Promise<User> {
  return context.inTenant(actor.tenantId, async (stores) => {
    const current = await requireUser(stores, actor.userId);
    const user = await stores.users.updateUser(actor.userId, {
      ...(changes.status ? { status: changes.status } : {}),
      ...(changes.themePreference
        ? { themePreference: { ...current.themePreference, ...changes.themePreference } }
        : {}),
    });
    if (!user) throw problems.notFound('User not found.');
    if (changes.status) {
      await context.record(
        stores,
        identityEvents.userUpdated,
        { tenantId: actor.tenantId, aggregateId: user.uid, data: userUpdatedData(user, actor.userId) },
        { changed: ['status'] },
      );
    }
    return user;
  });
}

/**
 * A user's role or role bundles, changed by someone with `users.manage`; the tenant's cached scopes are dropped at
 * once. No change raises the caller (domain/grants.ts): nobody changes their own role or bundles, a bundle is given
 * only by someone holding its scopes, and only an administrator gives or takes away administration.
 */
export async function updateUserAccess(
  context: IdentityContext,
  actor: Actor,
  uid: string,
  changes: { role?: User['role'] | undefined; bundleIds?: string[] | undefined },
): Promise<User> {
  const user = await context.inTenant(actor.tenantId, async (stores) => {
    const bundles = new Map((await stores.bundles.bundles()).map((bundle) => [bundle.id, bundle.scopes]));
    if (changes.bundleIds) {
      const unknown = changes.bundleIds.filter((id) => !bundles.has(id));
      if (unknown.length > 0) {
        throw problems.validation(
          unknown.map((id) => ({ field: 'body.bundleIds', message: `Unknown role bundle ${id}` })),
        );
      }
    }
    const target = await requireUser(stores, uid);
    const refusal = userAccessRefusal({
      grantor: actor,
      target,
      changes,
      bundleScopes: (bundleId) => bundles.get(bundleId) ?? [],
    });
    if (refusal) throw problems.forbidden(refusal);
    const updated = await stores.users.updateUser(uid, {
      ...(changes.role === undefined ? {} : { role: changes.role }),
      ...(changes.bundleIds === undefined ? {} : { bundleIds: changes.bundleIds }),
    });
    if (!updated) throw problems.notFound('User not found.');
    await context.record(
      stores,
      identityEvents.userUpdated,
      { tenantId: actor.tenantId, aggregateId: updated.uid, data: userUpdatedData(updated, actor.userId) },
      { changed: Object.keys(changes) },
    );
    return updated;
  });
  context.scopeCache.invalidateTenant(actor.tenantId);
  return user;
}
