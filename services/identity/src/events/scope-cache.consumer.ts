import { hostname } from 'node:os';
import type { ConsumerDefinition } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';
import type { ScopeCache } from '../scope-cache.js';

/**
 * Every replica drops its cached scopes when any replica changes their inputs (role bundles, the whitelist, a user's
 * role or bundles), so a change applies at once everywhere. One group per replica (each must see every event),
 * reading only new events: a starting replica's cache is empty anyway.
 */
export function scopeCacheConsumer(scopeCache: () => ScopeCache): ConsumerDefinition {
  return {
    groupId: `identity-scope-cache-${hostname()}`,
    topics: { [identityEvents.roleBundleChanged.topic]: 'identity' },
    fromBeginning: false,
    handlers: Object.fromEntries(
      [identityEvents.roleBundleChanged, identityEvents.whitelistChanged, identityEvents.userUpdated].map(
        (definition) => [
          definition.type,
          (event: { tenantId: string }) => {
            scopeCache().invalidateTenant(event.tenantId);
            return Promise.resolve();
          },
        ],
      ),
    ),
  };
}
