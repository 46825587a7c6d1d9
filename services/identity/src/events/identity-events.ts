import { recordEvent, type NewEvent } from '@workspace/kit';
import type { DescMessage } from '@bufbuild/protobuf';
import type { EventDefinition } from '@workspace/proto';
import type { TenantStores } from '../db/stores.js';
import type { Tenant } from '../db/tenants.store.js';
import type { User } from '../db/users.store.js';
import { notifyLive, type LiveChange } from './live.js';

/** Records identity's events in the outbox of the change's transaction (published after it commits). */
export class IdentityEventRecorder {
  constructor(private readonly source: string) {}

  /**
   * Records an identity event in the outbox and, for tenant, user, whitelist and role-bundle events, sends the live
   * notification of GET /v1/live in the same transaction (`change` says which parts changed).
   */
  async record<Schema extends DescMessage>(
    stores: TenantStores,
    definition: EventDefinition<Schema>,
    event: NewEvent<Schema>,
    change?: LiveChange,
  ): Promise<string> {
    const eventId = await recordEvent(stores.trx, this.source, definition, event);
    await notifyLive(stores.live, definition.type, event, change);
    return eventId;
  }
}

/** The data of identity.tenant.created / identity.tenant.updated for a tenant as it now stands. */
export function tenantChangedData(
  tenant: Pick<Tenant, 'id' | 'name' | 'region' | 'modules' | 'storageTier' | 'entitlements'>,
) {
  return {
    tenantId: tenant.id,
    name: tenant.name,
    region: tenant.region,
    enabledModules: tenant.modules.filter((module) => module.enabled).map((module) => module.id),
    storageTier: tenant.storageTier,
    entitlements: tenant.entitlements,
  };
}

/** The data of identity.user.updated for a user as they now stand. */
export const userUpdatedData = (user: User, changedBy: string) => ({
  uid: user.uid,
  role: user.role,
  status: user.status,
  bundleIds: user.bundleIds,
  changedBy,
});
