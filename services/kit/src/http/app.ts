import express, { type Express } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { Registry } from 'prom-client';
import type { TrustProxy } from '../config.js';
import type { Logger } from '../logger.js';
import { accessLog } from './access-log.js';
import { buildOpenApiDocument, type ApiRouter } from './api.js';
import { authenticate, type AuthOptions } from './auth.js';
import { httpMetrics } from './metrics.js';
import { notFoundHandler, problemHandler } from './problem.js';

export type ReadinessCheck = () => Promise<boolean>;

/** Shared between the app and the lifecycle: while draining, `/readyz` answers 503 so traffic moves away. */
export interface LifecycleState {
  draining: boolean;
}

/** What the operational endpoints (/healthz, /readyz, /metrics, /openapi.json) are built from. */
export interface ManagementAppOptions {
  name: string;
  version?: string;
  description?: string;
  logger: Logger;
  metrics: Registry;
  /** Named checks for `/readyz`, e.g. database and bus. */
  readiness: Record<string, ReadinessCheck>;
  /** The routers whose operations `/openapi.json` documents. */
  apis: { basePath: string; api: ApiRouter }[];
  lifecycle?: LifecycleState;
}

export interface ServiceAppOptions extends ManagementAppOptions {
  /** Token verification; every non-public route needs it. */
  auth?: AuthOptions;
  /** express `trust proxy`: which proxies may tell the client's address (TRUST_PROXY; default none). */
  trustProxy?: TrustProxy;
  /**
   * The JSON body limit of every route that declares none (default `DEFAULT_BODY_LIMIT`, 256 kB). Bodies are read by
   * each route after its scope check, never before authentication.
   */
  bodyLimit?: string;
  /**
   * The operational endpoints are served by a management app of their own (`createManagementApp`, on
   * MANAGEMENT_PORT), not by this one: the public port answers 404 for them. Default false (one port, local runs).
   */
  separateManagement?: boolean;
  /** helmet's options for every answer (default: helmet's defaults); the bff sets the SPAs' CSP here. */
  helmet?: HelmetOptions;
  /**
   * Checks every JSON answer against its route's success schema; a mismatch is a 500 naming the route and the
   * fields. Default: on when VALIDATE_RESPONSES=1 (the kit's testing helpers set it, so every test harness checks).
   */
  validateResponses?: boolean;
}

/** Health, readiness (503 while draining), the metrics and the OpenAPI document, on `app`. */
function mountOperationalEndpoints(app: Express, options: ManagementAppOptions): void {
  const lifecycle = options.lifecycle ?? { draining: false };
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const entries = Object.entries(options.readiness);
    const results = await Promise.all(entries.map(([, check]) => check().catch(() => false)));
    const checks = Object.fromEntries(entries.map(([name], i) => [name, results[i] ? 'up' : 'down']));
    const ready = !lifecycle.draining && results.every(Boolean);
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : lifecycle.draining ? 'draining' : 'not ready', checks });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(options.metrics.contentType).send(await options.metrics.metrics());
  });
  const openApi = buildOpenApiDocument(
    {
      title: options.name,
      version: options.version ?? '0.1.0',
      ...(options.description ? { description: options.description } : {}),
    },
    options.apis,
  );
  app.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
}

/**
 * The operational endpoints alone, for the management port (MANAGEMENT_PORT): probes and the metrics scraper reach
 * them there, and the ingress, which routes only to the public port, never does. Everything else is a 404.
 */
export function createManagementApp(options: ManagementAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(helmet());
  app.use(accessLog(options.logger));
  mountOperationalEndpoints(app, options);
  app.use(notFoundHandler);
  app.use(problemHandler);
  return app;
}

/**
 * The express app every service and the bff start from: helmet, request ids, JSON logs, metrics, health,
 * readiness, the OpenAPI document (unless `separateManagement`), token verification, the service's routers, then
 * 404 and problem+json errors.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.use(helmet(options.helmet));
  app.use(accessLog(options.logger));
  app.use(httpMetrics(options.metrics));
  if (!options.separateManagement) mountOperationalEndpoints(app, options);

  if (options.auth) app.use(authenticate(options.auth));
  const validateResponses = options.validateResponses ?? process.env.VALIDATE_RESPONSES === '1';
  for (const { basePath, api } of options.apis) {
    api.validateResponses ||= validateResponses;
    if (options.bodyLimit) api.bodyLimit = options.bodyLimit;
    app.use(basePath, api.router);
  }

  app.use(notFoundHandler);
  app.use(problemHandler);
  return app;
}
