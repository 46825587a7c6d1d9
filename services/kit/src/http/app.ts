import express, { type Express } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { Registry } from 'prom-client';
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

export interface ServiceAppOptions {
  name: string;
  version?: string;
  description?: string;
  logger: Logger;
  metrics: Registry;
  /** Token verification; every non-public route needs it. */
  auth?: AuthOptions;
  /** Named checks for `/readyz`, e.g. database and bus. */
  readiness: Record<string, ReadinessCheck>;
  apis: { basePath: string; api: ApiRouter }[];
  lifecycle?: LifecycleState;
  trustProxy?: boolean;
  bodyLimit?: string;
  /** helmet's options for every answer (default: helmet's defaults); the bff sets the SPAs' CSP here. */
  helmet?: HelmetOptions;
  /**
   * Checks every JSON answer against its route's success schema; a mismatch is a 500 naming the route and the
   * fields. Default: on when VALIDATE_RESPONSES=1 (the kit's testing helpers set it, so every test harness checks).
   */
  validateResponses?: boolean;
}

/**
 * The express app every service and the bff start from: helmet, request ids, JSON logs, metrics, health,
 * readiness, the OpenAPI document, token verification, the service's routers, then 404 and problem+json errors.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const lifecycle = options.lifecycle ?? { draining: false };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.use(helmet(options.helmet));
  app.use(accessLog(options.logger));
  app.use(httpMetrics(options.metrics));

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

  app.use(express.json({ limit: options.bodyLimit ?? '1mb' }));
  if (options.auth) app.use(authenticate(options.auth));
  const validateResponses = options.validateResponses ?? process.env.VALIDATE_RESPONSES === '1';
  for (const { basePath, api } of options.apis) {
    api.validateResponses ||= validateResponses;
    app.use(basePath, api.router);
  }

  app.use(notFoundHandler);
  app.use(problemHandler);
  return app;
}
