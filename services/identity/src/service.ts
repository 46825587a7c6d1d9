import { hostname } from 'node:os';
import { decodeEvent, FieldCipher, type ServiceDefinition } from '@workspace/kit';
import { cisEvents, identityEvents } from '@workspace/proto';
import { identityMigrations } from '../migrations/index.js';
import type { IdentityConfig } from './config.js';
import { IdentityContext } from './context.js';
import { identityRoutes } from './http/routes.js';
import { rateLimitRoutes } from './http/rate-limit-routes.js';
import { revokePortalAccess, sessionRoutes } from './http/session-routes.js';
import { IdentityLiveHub, liveRoutes } from './live.js';
import { IdentityMaintenance } from './maintenance.js';
import { profileFeatures, type ProfileFeatures } from './profile-features.js';
import { TokenSigner } from './tokens.js';

export const IDENTITY_SCHEMA = 'identity';

export interface IdentityService extends ServiceDefinition<IdentityConfig> {
  /** The running service's context (after start): the store, signer and scope cache. */
  context(): IdentityContext;
  /** The maintenance worker (after start): key rotation and clean-up; tests run it at once. */
  maintenance(): IdentityMaintenance;
  /** Users' public keys and avatars. */
  profile: ProfileFeatures;
}

export function identityService(config: IdentityConfig): IdentityService {
  const cipher = FieldCipher.fromConfig(config.IDENTITY_ENCRYPTION_KEYS);
  const profile = profileFeatures(config, cipher);
  let context: IdentityContext | undefined;
  let hub: IdentityLiveHub | undefined;
  let maintenance: IdentityMaintenance | undefined;
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
    profile,
    async setup(deps) {
      const signer = await TokenSigner.load(deps.db, cipher, {
        issuer: config.JWT_ISSUER,
        audience: config.JWT_AUDIENCE,
        // A retired key stays published while any token it signed can still be valid (portal tokens live longest),
        // plus ten minutes for clock skew and the verifiers' JWKS caches.
        publishRetiredForMs:
          (Math.max(config.ACCESS_TOKEN_TTL_SECONDS, config.PORTAL_SESSION_TTL_SECONDS) + 600) * 1000,
        activationDelayMs: config.SIGNING_KEY_ACTIVATION_SECONDS * 1000,
      });
      const ready = new IdentityContext(deps.db, config, cipher, signer, deps.logger, deps.source);
      context = ready;
      await profile.setup(deps);
      // Live updates (GET /v1/live): every replica hears the NOTIFY its peers send with each recorded change, and
      // drops its cached scopes of the tenant at once when their inputs changed (the consumer below does so too).
      hub = new IdentityLiveHub(config.DATABASE_URL, deps.logger, (tenantId, event) => {
        if (event !== 'tenant') ready.scopeCache.invalidateTenant(tenantId);
      });
    },
    maintenance: () => {
      if (!maintenance) throw new Error('identity has not started');
      return maintenance;
    },
    workers: (deps) => {
      maintenance = new IdentityMaintenance({
        db: deps.db,
        signer: current().signer,
        logger: deps.logger.child({ component: 'maintenance' }),
        intervalMs: config.MAINTENANCE_INTERVAL_SECONDS * 1000,
        rotateAfterMs: config.SIGNING_KEY_ROTATION_DAYS * 24 * 3600 * 1000,
      });
      return [...(hub ? [hub] : []), maintenance, ...profile.workers(deps)];
    },
    // Identity verifies the tokens it signs with its own public keys (reloaded when a token names a newer key).
    authKeys: () => current().signer.verificationKeys(),
    routes: () => {
      if (!hub) throw new Error('identity has not started');
      return [
        ...identityRoutes(current()),
        { basePath: '/v1', api: sessionRoutes(current()) },
        { basePath: '/v1', api: rateLimitRoutes(current()) },
        { basePath: '/v1', api: liveRoutes(hub) },
        ...profile.routes(current()),
      ];
    },
    consumers: () => [
      {
        // A subcontractor cis archives or deletes loses portal access at once: their portal sessions at every bff
        // replica end and their unused magic links expire. One group for all replicas (each event handled once).
        groupId: config.PORTAL_ACCESS_CONSUMER_GROUP,
        topics: [cisEvents['cis.subcontractor.archived'].topic],
        fromBeginning: false,
        handlers: Object.fromEntries(
          (
            [
              'cis.subcontractor.archived',
              'cis.subcontractor.deleted',
              'cis.subcontractor.bulk.archive',
              'cis.subcontractor.bulk.delete',
            ] as const
          ).map((type) => [
            type,
            async (event, trx) => {
              const activity = decodeEvent(cisEvents[type], event);
              const ids = [...new Set([activity.targetId, ...activity.targetIds].filter(Boolean))];
              const revoked = await revokePortalAccess(trx, event.tenantId, ids);
              if (revoked.sessions + revoked.links > 0) {
                current().logger.info(
                  { tenantId: event.tenantId, type, ...revoked },
                  'portal access revoked (cis)',
                );
              }
            },
          ]),
        ),
      },
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
