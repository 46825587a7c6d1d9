import { FieldCipher, ServiceClient, type ApiRouter, type ServiceDefinition } from '@workspace/kit';
import { identityEvents } from '@workspace/proto';
import { identityMigrations } from '../migrations/index.js';
import { httpPhotoFetcher, AvatarCache } from './commands/avatars.js';
import { TokenSigner } from './commands/token-signer.js';
import type { IdentityConfig } from './config.js';
import { IdentityContext } from './context.js';
import { cisSubcontractorConsumer } from './events/cis-subcontractor.consumer.js';
import { scopeCacheConsumer } from './events/scope-cache.consumer.js';
import { authRoutes } from './http/auth.routes.js';
import { availableScopesRoutes } from './http/available-scopes.routes.js';
import { avatarsRoutes } from './http/avatars.routes.js';
import { jwksRoutes } from './http/jwks.routes.js';
import { liveRoutes } from './http/live.routes.js';
import { meRoutes } from './http/me.routes.js';
import { metadataRoutes } from './http/metadata.routes.js';
import { moduleRoleBundlesRoutes } from './http/module-role-bundles.routes.js';
import { portalLinksRoutes } from './http/portal-links.routes.js';
import { rateLimitsRoutes } from './http/rate-limits.routes.js';
import { roleBundlesRoutes } from './http/role-bundles.routes.js';
import { sessionsRoutes } from './http/sessions.routes.js';
import { signingKeysRoutes } from './http/signing-keys.routes.js';
import { tenantLogoRoutes } from './http/tenant-logo.routes.js';
import { tenantRoutes } from './http/tenant.routes.js';
import { userKeysRoutes } from './http/user-keys.routes.js';
import { usersRoutes } from './http/users.routes.js';
import { scopeHoldersRoutes } from './http/scope-holders.routes.js';
import { AvatarCleanupWorker } from './workers/avatar-cleanup.worker.js';
import { IdentityLiveHub } from './workers/live-hub.worker.js';
import { IdentityMaintenance } from './workers/maintenance.worker.js';
import { PortalLinkRequestWorker } from './workers/portal-link-requests.worker.js';

export const IDENTITY_SCHEMA = 'identity';

/** What identity serves about each user beside their account: their avatar (the spec's avatar cache). */
export interface ProfileFeatures {
  avatars: AvatarCache;
}

export interface IdentityService extends ServiceDefinition<IdentityConfig> {
  /** The running service's context (after start): the database, signer and scope cache. */
  context(): IdentityContext;
  /** The maintenance worker (after start): key rotation and clean-up; tests run it at once. */
  maintenance(): IdentityMaintenance;
  /** Users' avatars. */
  profile: ProfileFeatures;
}

/** What a test may swap: the signing keys' clock (Date.now by default), moved on instead of waited for. */
export interface IdentitySeams {
  now?: () => number;
}

export function identityService(config: IdentityConfig, seams: IdentitySeams = {}): IdentityService {
  const cipher = FieldCipher.fromConfig(config.IDENTITY_ENCRYPTION_KEYS);
  // Profile photos are fetched over https; plain http only where the IdP may be too (local development, tests).
  const avatars = new AvatarCache(httpPhotoFetcher({ allowHttp: config.OIDC_ALLOW_HTTP }));
  let context: IdentityContext | undefined;
  let hub: IdentityLiveHub | undefined;
  let maintenance: IdentityMaintenance | undefined;
  let linkRequests: PortalLinkRequestWorker | undefined;
  const current = () => {
    if (!context) throw new Error('identity has not started');
    return context;
  };
  const v1 = (api: ApiRouter) => ({ basePath: '/v1', api });
  return {
    name: 'identity',
    schema: IDENTITY_SCHEMA,
    migrations: identityMigrations,
    publishes: Object.values(identityEvents),
    context: current,
    profile: { avatars },
    async setup(deps) {
      const signer = await TokenSigner.load(deps.db, cipher, {
        issuer: config.JWT_ISSUER,
        audience: config.JWT_AUDIENCE,
        // A retired key stays published while any token it signed can still be valid (portal tokens live longest),
        // plus ten minutes for clock skew and the verifiers' JWKS caches.
        publishRetiredForMs:
          (Math.max(config.ACCESS_TOKEN_TTL_SECONDS, config.PORTAL_SESSION_TTL_SECONDS) + 600) * 1000,
        activationDelayMs: config.SIGNING_KEY_ACTIVATION_SECONDS * 1000,
        ...(seams.now ? { now: seams.now } : {}),
      });
      const ready = new IdentityContext(deps.db, config, cipher, signer, deps.logger, deps.source);
      context = ready;
      // Live updates (GET /v1/live): every replica hears the NOTIFY its peers send with each recorded change, and
      // drops its cached scopes of the tenant at once when their inputs changed (the scope-cache consumer does so too).
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
      const avatarCleanup = new AvatarCleanupWorker(avatars, deps.logger.child({ component: 'avatars' }));
      // The requested portal sign-in links are sent through cis (ADR 0055); without CIS_URL none are queued.
      linkRequests = config.CIS_URL
        ? new PortalLinkRequestWorker(
            current(),
            new ServiceClient({
              service: 'cis',
              baseUrl: config.CIS_URL,
              timeoutMs: 10_000,
              logger: deps.logger,
            }),
            config.PORTAL_LINK_REQUEST_POLL_MS,
          )
        : undefined;
      if (!linkRequests) deps.logger.warn('CIS_URL is not set: requested portal sign-in links are not sent');
      return [...(hub ? [hub] : []), maintenance, avatarCleanup, ...(linkRequests ? [linkRequests] : [])];
    },
    // Identity verifies the tokens it signs with its own public keys (reloaded when a token names a newer key).
    authKeys: () => current().signer.verificationKeys(),
    routes: () => {
      if (!hub) throw new Error('identity has not started');
      const ctx = current();
      return [
        v1(authRoutes(ctx)),
        v1(portalLinksRoutes(ctx, () => linkRequests?.wake())),
        v1(metadataRoutes(ctx)),
        v1(meRoutes(ctx)),
        v1(tenantRoutes(ctx)),
        v1(tenantLogoRoutes(ctx)),
        v1(availableScopesRoutes(ctx)),
        v1(roleBundlesRoutes(ctx)),
        v1(moduleRoleBundlesRoutes(ctx)),
        v1(usersRoutes(ctx)),
        v1(scopeHoldersRoutes(ctx)),
        { basePath: '', api: jwksRoutes(ctx) },
        v1(sessionsRoutes(ctx)),
        v1(signingKeysRoutes(ctx)),
        v1(rateLimitsRoutes(ctx)),
        v1(liveRoutes(hub)),
        v1(userKeysRoutes(ctx)),
        v1(avatarsRoutes(ctx, avatars)),
      ];
    },
    consumers: (deps) => [
      cisSubcontractorConsumer(config.PORTAL_ACCESS_CONSUMER_GROUP, deps.logger),
      scopeCacheConsumer(() => current().scopeCache),
    ],
  };
}
