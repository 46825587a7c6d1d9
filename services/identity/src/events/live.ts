import { identityEvents } from '@workspace/proto';
import type { LiveNotificationStore } from '../db/live-notifications.store.js';

/** The live event each recorded identity event becomes (portal links are not shown live). */
const liveEventOf: Record<string, 'tenant' | 'user' | 'whitelist' | 'roles'> = {
  [identityEvents.tenantCreated.type]: 'tenant',
  [identityEvents.tenantUpdated.type]: 'tenant',
  [identityEvents.userCreated.type]: 'user',
  [identityEvents.userUpdated.type]: 'user',
  [identityEvents.whitelistChanged.type]: 'whitelist',
  [identityEvents.roleBundleChanged.type]: 'roles',
};

/** What a subscriber learns: ids and which parts changed, never names, emails or scopes. */
export interface LiveChange {
  /** e.g. tenant: ['branding'], ['logo'], ['modules'], ['footer']; user: ['status'], ['role', 'bundleIds']. */
  changed?: string[];
}

/**
 * Sends the live notification of a recorded identity event inside its transaction: it goes out only if the change
 * commits, to every replica (PostgreSQL NOTIFY).
 */
export async function notifyLive(
  live: LiveNotificationStore,
  type: string,
  event: { tenantId: string; aggregateId: string; data?: unknown },
  change: LiveChange = {},
): Promise<void> {
  const name = liveEventOf[type];
  if (!name) return;
  const source = (event.data ?? {}) as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  if (name === 'user') data.uid = event.aggregateId;
  if (name === 'roles') {
    data.bundleId = event.aggregateId;
    data.deleted = source.deleted === true;
  }
  if (name === 'whitelist') data.restricted = source.restricted === true;
  if (change.changed) data.changed = change.changed;
  await live.notify({ tenantId: event.tenantId, event: name, data });
}
