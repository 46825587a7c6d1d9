import { problems } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';
import type { IdentityContext } from '../context.js';
import type { User } from '../db/users.store.js';
import { userUpdatedData } from '../events/identity-events.js';
import { requireUser } from './records.js';

/** Who asks for a change: the signed-in caller. */
export interface Actor {
  tenantId: string;
  userId: string;
  role: string;
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

/** A user's role or role bundles, changed by an administrator; the tenant's cached scopes are dropped at once. */
export async function updateUserAccess(
  context: IdentityContext,
  actor: Actor,
  uid: string,
  changes: { role?: User['role'] | undefined; bundleIds?: string[] | undefined },
): Promise<User> {
  // Role changes cannot raise the caller: only an administrator grants the admin role, and nobody changes their
  // own role (another administrator must).
  if (changes.role !== undefined && uid === actor.userId) {
    throw problems.forbidden('You cannot change your own role.');
  }
  if (changes.role === 'admin' && actor.role !== 'admin') {
    throw problems.forbidden('Only an administrator can make someone an administrator.');
  }
  const user = await context.inTenant(actor.tenantId, async (stores) => {
    if (changes.bundleIds) {
      const known = new Set((await stores.bundles.bundles()).map((bundle) => bundle.id));
      const unknown = changes.bundleIds.filter((id) => !known.has(id));
      if (unknown.length > 0) {
        throw problems.validation(
          unknown.map((id) => ({ field: 'body.bundleIds', message: `Unknown role bundle ${id}` })),
        );
      }
    }
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
