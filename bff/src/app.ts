import {
  ApiRouter,
  createLogger,
  createManagementApp,
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
import { SignInSealer, cookieNames } from './cookies.js';
import { authRoutes } from './http/auth-routes.js';
import { identityForwards } from './http/identity-forwards.js';
import { csrfGuard, loadBrowserState, noStore, type BffContext } from './http/context.js';
import { portalInviteRoute } from './http/portal-invite-route.js';
import { portalRoutes } from './http/portal-routes.js';
import { serviceProxy } from './http/service-proxy.js';
import { siteRoutes } from './http/site-routes.js';
import { webBundles } from './http/web-bundles.js';
import { workspaceRoutes } from './http/workspace-routes.js';
import { IdentityClient } from './identity-client.js';
import { SharedRateLimiter } from './rate-limit.js';
import { SessionStreams } from './streams.js';
import { contentSecurityPolicyDirectives, permissionsPolicy } from './security.js';
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
  /** The operational endpoints' app when MANAGEMENT_PORT is set (then `app` does not serve them). */
  management?: Express;
  lifecycle: LifecycleState;
  logger: Logger;
  context: BffContext;
  /** Releases the session stores (they hold nothing in the process: the sessions stay at identity). */
  close(): void;
}

const RATE_WINDOW_MS = 60_000;
/** The window of the portal sign-in link requests' limits (ADR 0055). */
const PORTAL_LINK_WINDOW_MS = 15 * 60_000;

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
      ? new CachedSessionStore(store, {
          ttlMs: config.SESSION_CACHE_MS,
          now,
          // A test's clock runs the cache too (the cache's own monotonic clock otherwise).
          ...(deps.now ? { clock: { now: deps.now } } : {}),
        })
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
  const limiter = (bucket: string, limit = config.SIGNIN_RATE_LIMIT_PER_MINUTE, windowMs = RATE_WINDOW_MS) =>
    new SharedRateLimiter({
      bucket,
      limit,
      windowMs,
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
    limits: {
      login: limiter('login'),
      callback: limiter('callback'),
      redeem: limiter('redeem'),
      metadata: limiter('metadata', config.METADATA_RATE_LIMIT_PER_MINUTE),
      invite: limiter('invite', config.INVITE_RATE_LIMIT_PER_MINUTE),
      portalSubmit: limiter('portal-submit', config.PORTAL_SUBMIT_RATE_LIMIT_PER_MINUTE),
      publicShares: limiter('public-shares', config.PUBLIC_SHARE_RATE_LIMIT_PER_MINUTE),
      auditEvents: limiter('audit-events', config.AUDIT_EVENT_RATE_LIMIT_PER_MINUTE),
      projectRequests: limiter('project-requests', config.PROJECT_REQUEST_RATE_LIMIT_PER_HOUR, 3_600_000),
      portalLinkAddress: limiter(
        'portal-link-address',
        config.PORTAL_LINK_REQUESTS_PER_ADDRESS,
        PORTAL_LINK_WINDOW_MS,
      ),
      portalLinkIp: limiter('portal-link-ip', config.PORTAL_LINK_REQUESTS_PER_IP, PORTAL_LINK_WINDOW_MS),
    },
    streams: new SessionStreams({
      perUser: config.STREAMS_PER_USER,
      checkIntervalMs: config.STREAM_SESSION_CHECK_MS,
      // The stores themselves, not the sessions' load: looking a session up for a stream is not activity.
      sessionAlive: async (kind, key) =>
        (await (kind === 'staff' ? staffStore.get(key) : portalStore.get(key))) !== undefined,
      logger,
    }),
    secure,
    cookies: cookieNames(secure),
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

  const drive = (path: string) =>
    config.DRIVE_URL
      ? new ServiceClient({
          service: 'drive',
          baseUrl: `${config.DRIVE_URL}${path}`,
          timeoutMs: config.SERVICE_TIMEOUT_MS,
          logger,
        })
      : undefined;

  const audit = (path: string) =>
    config.AUDIT_URL
      ? new ServiceClient({
          service: 'audit',
          baseUrl: `${config.AUDIT_URL}${path}`,
          timeoutMs: config.SERVICE_TIMEOUT_MS,
          logger,
        })
      : undefined;

  const notification = (path: string) =>
    config.NOTIFICATION_URL
      ? new ServiceClient({
          service: 'notification',
          baseUrl: `${config.NOTIFICATION_URL}${path}`,
          timeoutMs: config.SERVICE_TIMEOUT_MS,
          internalToken: config.INTERNAL_API_TOKEN,
          logger,
        })
      : undefined;

  // Mounted first at '/': middleware only (no operations), so /api gets sessions and CSRF.
  const browser = new ApiRouter();
  browser.router.use(permissionsPolicy);
  browser.router.use('/api', noStore, loadBrowserState(context), csrfGuard);

  const apis: { basePath: string; api: ApiRouter }[] = [
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
      api: serviceProxy(context, {
        service: 'cis',
        client: cis('/v1'),
        forward: {
          prefix: 'cis',
          routes: [
            {
              method: 'post',
              path: '/invoices/import',
              summary:
                'Import invoices from CSV (forwarded to cis); the one cis body larger than the default',
              // An invoice import passes through as one JSON body, read only for a user who may import: just above
              // cis's own limit for it (IMPORT_BODY_BYTES, twice the 5 MB file plus the envelope), so cis answers.
              bodyLimit: '11mb',
              scopes: ['cis.io.import', 'cis.inv.write'],
            },
            {
              method: 'get',
              path: '/invoices/stream',
              summary: 'Live invoice changes of the tenant (Server-Sent Events from cis)',
              stream: true,
            },
            {
              method: 'get',
              path: '/jobs/:id/stream',
              summary: "A background job's progress (Server-Sent Events from cis)",
              stream: true,
            },
          ],
        },
      }),
    },
    {
      basePath: '/api',
      api: serviceProxy(context, {
        service: 'cis',
        client: cis('/v1/portal'),
        session: 'portal',
        forward: {
          prefix: 'portal/cis',
          routes: [
            {
              method: 'post',
              path: '/invoices',
              summary:
                "Submit an invoice from the subcontractor portal (forwarded to cis's /v1/portal/invoices)",
              rateLimit: context.limits.portalSubmit,
            },
            {
              method: 'put',
              path: '/subcontractors/:id',
              summary:
                "The subcontractor changes their own contact details and addresses (forwarded to cis's /v1/portal/subcontractors/:id; CSRF header)",
            },
          ],
        },
      }),
    },
    {
      basePath: '/api',
      api: serviceProxy(context, {
        service: 'drive',
        client: drive('/v1'),
        forward: {
          prefix: 'drive',
          routes: [
            {
              method: 'get',
              path: '/files/stream',
              summary: "Live changes of the drive's file lists (Server-Sent Events from the drive)",
              stream: true,
            },
            {
              method: 'post',
              path: '/signatures/:taskId/sign',
              summary:
                'Sign a PDF with a drawn signature (a PNG data URL, up to 512 KB; forwarded to the drive)',
              // The drive reads up to 1 MB for it; just above, so the drive answers an oversized signature itself.
              bodyLimit: '1100kb',
            },
          ],
        },
      }),
    },
    {
      basePath: '/api',
      // The public share page (/share/{shareId}): no session needed, limited per client IP (ADR 0049).
      api: serviceProxy(context, {
        service: 'drive',
        client: drive('/v1/public/shares'),
        session: 'public',
        rateLimit: context.limits.publicShares,
        forward: { prefix: 'public/shares' },
      }),
    },
    {
      basePath: '/api',
      // The audit screen (entries, CSV, live entries, verify) and the web's audit_logEvent; the audit service checks
      // the read scopes and takes tenant and actor from the token (docs/audit.md "The audit screen").
      api: serviceProxy(context, {
        service: 'audit',
        client: audit('/v1'),
        forward: {
          prefix: 'audit',
          routes: [
            {
              method: 'post',
              path: '/client-events',
              summary:
                "audit_logEvent: a client-side action { action, targetId, payload } written to the tenant's audit trail (tenant and actor from the session); 202 { accepted, id }",
              rateLimit: context.limits.auditEvents,
            },
            {
              method: 'get',
              path: '/entries/stream',
              summary:
                "New entries of the tenant's audit trail as they are stored (Server-Sent Events from audit)",
              stream: true,
            },
          ],
        },
      }),
    },
    {
      basePath: '/api',
      // The signed-in user's own in-app notifications (the bell, ADR 0052): /api/notification/* goes to the service's
      // /v1/notifications/* only, with the user's token; its e-mail API stays for services (internal token) alone.
      api: serviceProxy(context, {
        service: 'notification',
        client: notification('/v1/notifications'),
        forward: {
          prefix: 'notification',
          routes: [
            {
              method: 'get',
              path: '',
              summary: "The signed-in user's notifications, newest first, with the unread count",
            },
            {
              method: 'get',
              path: '/stream',
              summary:
                "Live changes of the signed-in user's notifications (Server-Sent Events from notification)",
              stream: true,
            },
          ],
        },
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
            stream: true,
          },
        },
      }),
    },
    { basePath: '/api', api: siteRoutes(context, notification('/v1')) },
    ...(config.STATIC_DIR ? [{ basePath: '/', api: webBundles(context, config.STATIC_DIR) }] : []),
  ];

  const lifecycle: LifecycleState = { draining: false };
  const operational = {
    name: 'bff',
    description: 'Workspace backend-for-frontend: the only HTTP surface browsers talk to',
    logger,
    metrics: createMetricsRegistry('bff'),
    lifecycle,
    readiness: { identity: () => identity.healthy() },
    apis,
  };
  const app = createServiceApp({
    ...operational,
    trustProxy: config.TRUST_PROXY,
    // Behind the ingress, health, metrics and the OpenAPI document are on the management port only.
    separateManagement: config.MANAGEMENT_PORT !== undefined,
    // One helmet pass for every answer, with the SPAs' strict CSP (the kit's endpoints get it too).
    helmet: {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: contentSecurityPolicyDirectives(secure, config.OBJECT_STORE_PUBLIC_URL),
      },
      frameguard: { action: 'deny' },
    },
  });
  return {
    app,
    ...(config.MANAGEMENT_PORT === undefined ? {} : { management: createManagementApp(operational) }),
    lifecycle,
    logger,
    context,
    close: () => {
      context.streams.closeAll();
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
    host: config.LISTEN_HOST,
    ...(bff.management && config.MANAGEMENT_PORT !== undefined
      ? { management: { app: bff.management, port: config.MANAGEMENT_PORT } }
      : {}),
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
