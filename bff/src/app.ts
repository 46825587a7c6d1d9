import {
  ApiRouter,
  createLogger,
  createMetricsRegistry,
  createServiceApp,
  runService,
  ServiceClient,
  type LifecycleState,
  type Logger,
  type RunningService,
} from '@workspace/kit';
import type { Express } from 'express';
import { isSecureOrigin, type BffConfig } from './config.js';
import { SignInSealer } from './cookies.js';
import { authRoutes } from './http/auth-routes.js';
import { identityForwards } from './http/identity-forwards.js';
import { csrfGuard, loadBrowserState, noStore, type BffContext } from './http/context.js';
import { portalInviteRoute } from './http/portal-invite-route.js';
import { portalRoutes } from './http/portal-routes.js';
import { serviceProxy } from './http/service-proxy.js';
import { webBundles } from './http/web-bundles.js';
import { workspaceRoutes } from './http/workspace-routes.js';
import { IdentityClient } from './identity-client.js';
import { SharedRateLimiter } from './rate-limit.js';
import { contentSecurityPolicyDirectives } from './security.js';
import { IdentitySessionStore } from './identity-session-store.js';
import { CachedSessionStore } from './session-store.js';
import {
  PortalSessions,
  StaffSessions,
  sessionKeyer,
  type PortalSession,
  type StaffSession,
} from './sessions.js';

export interface BffDeps {
  logger?: Logger;
  /** How the bff reaches identity (tests count calls through it). */
  fetch?: typeof fetch;
  /** The clock of sessions, token expiry, the sign-in cookie and rate limits (tests move it). */
  now?: () => number;
}

export interface Bff {
  app: Express;
  lifecycle: LifecycleState;
  logger: Logger;
  context: BffContext;
  /** Releases the session stores (they hold nothing in the process: the sessions stay at identity). */
  close(): void;
}

const RATE_WINDOW_MS = 60_000;

/**
 * The backend-for-frontend: the kit's service app (health, readiness, metrics, OpenAPI, problem+json) with the
 * browser's concerns in front of the /api routes: a strict CSP, sessions from cookies, CSRF and rate limits.
 */
export function createBff(config: BffConfig, deps: BffDeps = {}): Bff {
  const logger = deps.logger ?? createLogger({ name: 'bff', level: config.LOG_LEVEL });
  const now = deps.now ?? Date.now;
  const secure = isSecureOrigin(config);
  const identity = new IdentityClient({
    baseUrl: config.IDENTITY_URL,
    internalToken: config.INTERNAL_API_TOKEN,
    timeoutMs: config.IDENTITY_TIMEOUT_MS,
    logger: logger.child({ component: 'identity-client' }),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  // Sessions live in identity's PostgreSQL (ADR 0025): every bff replica accepts every session, and identity can end
  // a subcontractor's portal sessions; each replica serves a session it read from memory for SESSION_CACHE_MS.
  const cached = <T extends object>(store: IdentitySessionStore<T>) =>
    config.SESSION_CACHE_MS > 0
      ? new CachedSessionStore(store, { ttlMs: config.SESSION_CACHE_MS, now })
      : store;
  const staffStore = cached(
    new IdentitySessionStore<StaffSession>({
      identity,
      kind: 'staff',
      describe: (session) => ({ tenantId: session.tenantId, subject: session.uid }),
      secret: config.SESSION_SECRET,
      now,
    }),
  );
  const portalStore = cached(
    new IdentitySessionStore<PortalSession>({
      identity,
      kind: 'portal',
      describe: (session) => ({ tenantId: session.tenantId, subject: session.subcontractorId }),
      secret: config.SESSION_SECRET,
      now,
    }),
  );
  const limiter = (bucket: string) =>
    new SharedRateLimiter({
      bucket,
      limit: config.SIGNIN_RATE_LIMIT_PER_MINUTE,
      windowMs: RATE_WINDOW_MS,
      secret: config.SESSION_SECRET,
      identity,
      logger,
      now,
    });
  const context: BffContext = {
    config,
    identity,
    staff: new StaffSessions({
      store: staffStore,
      identity,
      keyOf: sessionKeyer(config.SESSION_SECRET, 'staff'),
      now,
      idleTimeoutMs: config.SESSION_IDLE_TIMEOUT_SECONDS * 1000,
      absoluteTimeoutMs: config.SESSION_ABSOLUTE_TIMEOUT_SECONDS * 1000,
      logger,
    }),
    portal: new PortalSessions({
      store: portalStore,
      keyOf: sessionKeyer(config.SESSION_SECRET, 'portal'),
      now,
    }),
    signIn: new SignInSealer(config.SESSION_SECRET, now),
    limits: { login: limiter('login'), callback: limiter('callback'), redeem: limiter('redeem') },
    secure,
    logger,
  };

  // The domain services the bff forwards to, each under its API version path (undefined: not deployed here).
  const cis = (path: string) =>
    config.CIS_URL
      ? new ServiceClient({
          service: 'cis',
          baseUrl: `${config.CIS_URL}${path}`,
          timeoutMs: config.SERVICE_TIMEOUT_MS,
          logger,
        })
      : undefined;

  // Mounted first at '/': middleware only (no operations), so /api gets sessions and CSRF.
  const browser = new ApiRouter();
  browser.router.use('/api', noStore, loadBrowserState(context), csrfGuard);

  const lifecycle: LifecycleState = { draining: false };
  const app = createServiceApp({
    name: 'bff',
    description: 'Workspace backend-for-frontend: the only HTTP surface browsers talk to',
    logger,
    metrics: createMetricsRegistry('bff'),
    lifecycle,
    trustProxy: config.TRUST_PROXY,
    // One helmet pass for every answer, with the SPAs' strict CSP (the kit's endpoints get it too).
    helmet: {
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicyDirectives(secure) },
      frameguard: { action: 'deny' },
    },
    // CSV imports (10,000+ rows) pass through as one JSON body.
    bodyLimit: '16mb',
    readiness: { identity: () => identity.healthy() },
    apis: [
      { basePath: '/', api: browser },
      { basePath: '/api', api: authRoutes(context) },
      { basePath: '/api', api: workspaceRoutes(context) },
      { basePath: '/api', api: portalRoutes(context) },
      {
        basePath: '/api',
        api: serviceProxy(context, {
          service: 'identity',
          client: identity.http,
          forward: { operations: identityForwards, at: '/v1' },
        }),
      },
      { basePath: '/api', api: portalInviteRoute(context, cis('/v1')) },
      {
        basePath: '/api',
        api: serviceProxy(context, { service: 'cis', client: cis('/v1'), forward: { prefix: 'cis' } }),
      },
      {
        basePath: '/api',
        api: serviceProxy(context, {
          service: 'cis',
          client: cis('/v1/portal'),
          session: 'portal',
          forward: { prefix: 'portal/cis' },
        }),
      },
      {
        basePath: '/api',
        api: serviceProxy(context, {
          service: 'live',
          client: new ServiceClient({
            service: 'live',
            baseUrl: `${config.IDENTITY_URL}/v1/live`,
            timeoutMs: config.SERVICE_TIMEOUT_MS,
            logger,
          }),
          forward: {
            prefix: 'live',
            single: {
              summary:
                "Live updates of the signed-in user's tenant (Server-Sent Events from identity's /v1/live: tenant, user, whitelist, roles)",
            },
          },
        }),
      },
      ...(config.STATIC_DIR ? [{ basePath: '/', api: webBundles(context, config.STATIC_DIR) }] : []),
    ],
  });
  return {
    app,
    lifecycle,
    logger,
    context,
    close: () => {
      staffStore.close();
      portalStore.close();
    },
  };
}

export interface RunningBff extends RunningService {
  bff: Bff;
}

/** Listens on config.PORT (0 picks a free port) with the kit's graceful shutdown. */
export async function startBff(config: BffConfig, deps: BffDeps = {}): Promise<RunningBff> {
  const bff = createBff(config, deps);
  const running = await runService({
    app: bff.app,
    port: config.PORT,
    logger: bff.logger,
    lifecycle: bff.lifecycle,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    onShutdown: [
      () => {
        bff.close();
        return Promise.resolve();
      },
    ],
  });
  return { ...running, bff };
}
