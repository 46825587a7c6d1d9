import { hostname } from 'node:os';
import { FieldCipher, type ServiceDefinition } from '@workspace/kit';
import { createLocalJWKSet } from 'jose';
import { identityEvents } from '@workspace/proto';
import { identityMigrations } from '../migrations/001_identity.js';
import type { IdentityConfig } from './config.js';
import { IdentityContext } from './context.js';
import { identityRoutes } from './http/routes.js';
import { IdentityLiveHub, liveRoutes } from './live.js';
import { TokenSigner } from './tokens.js';

export const IDENTITY_SCHEMA = 'identity';

export interface IdentityService extends ServiceDefinition<IdentityConfig> {
  /** The running service's context (after start): the store, signer and scope cache. */
  context(): IdentityContext;
}

export function identityService(config: IdentityConfig): IdentityService {
  const cipher = FieldCipher.fromConfig(config.IDENTITY_ENCRYPTION_KEYS);
  let context: IdentityContext | undefined;
  let hub: IdentityLiveHub | undefined;
  const current = () => {
    if (!context) throw new Error('identity has not started');
    return context;
  };
  return {
    name: 'identity',
    schema: IDENTITY_SCHEMA,
    migrations: identityMigrations,
    // An image logo (up to 2 MB) arrives base64 in JSON (about 2.7 MB); the margin lets a somewhat larger file get
    // the clear "at most 2 MB" answer rather than the body parser's 413.
    bodyLimit: '6mb',
    publishes: Object.values(identityEvents),
    context: current,
    async setup(deps) {
      const signer = await TokenSigner.load(deps.db, cipher, config.JWT_ISSUER, config.JWT_AUDIENCE);
      const ready = new IdentityContext(deps.db, config, cipher, signer, deps.logger, deps.source);
      context = ready;
      // Live updates (GET /v1/live): every replica hears the NOTIFY its peers send with each recorded change, and
      // drops its cached scopes of the tenant at once when their inputs changed (the consumer below does so too).
      hub = new IdentityLiveHub(config.DATABASE_URL, deps.logger, (tenantId, event) => {
        if (event !== 'tenant') ready.scopeCache.invalidateTenant(tenantId);
      });
    },
    workers: () => (hub ? [hub] : []),
    // Identity verifies the tokens it signs with its own public keys.
    authKeys: () => createLocalJWKSet(current().signer.jwks()),
    routes: () => {
      if (!hub) throw new Error('identity has not started');
      return [...identityRoutes(current()), { basePath: '/v1', api: liveRoutes(hub) }];
    },
    consumers: () => [
      {
        // Every replica drops its cached scopes when any replica changes their inputs (role bundles, the whitelist,
        // a user's role or bundles), so a change applies at once everywhere. One group per replica (each must see
        // every event), reading only new events: a starting replica's cache is empty anyway.
        groupId: `identity-scope-cache-${hostname()}`,
        topics: [identityEvents.roleBundleChanged.topic],
        fromBeginning: false,
        handlers: Object.fromEntries(
          [identityEvents.roleBundleChanged, identityEvents.whitelistChanged, identityEvents.userUpdated].map(
            (definition) => [
              definition.type,
              (event: { tenantId: string }) => {
                current().scopeCache.invalidateTenant(event.tenantId);
                return Promise.resolve();
              },
            ],
          ),
        ),
      },
    ],
  };
}
