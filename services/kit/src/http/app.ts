import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Registry } from 'prom-client';
import type { Logger } from '../logger.js';
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
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

const callerBindings = (req: { ctx?: { tenantId: string; userId: string } }) =>
  req.ctx ? { tenantId: req.ctx.tenantId, userId: req.ctx.userId } : {};

/** Handler logs carry the caller too (the access log gets them through `customProps` when it is written). */
const withCallerInLogs: RequestHandler = (req, _res, next) => {
  if (req.ctx) req.log = req.log.child(callerBindings(req));
  next();
};

/**
 * The express app every service and the bff start from: helmet, request ids, JSON logs, metrics, health,
 * readiness, the OpenAPI document, token verification, the service's routers, then 404 and problem+json errors.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const lifecycle = options.lifecycle ?? { draining: false };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.use(helmet());
  app.use(
    pinoHttp({
      logger: options.logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      customProps: (req) => callerBindings(req as { ctx?: { tenantId: string; userId: string } }),
      autoLogging: { ignore: (req) => /^\/(healthz|readyz|metrics)$/.test(req.url) },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      serializers: {
        req: (req: { id: unknown; method: unknown; url: unknown }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
        res: (res: { statusCode: unknown }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
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
  if (options.auth) app.use(authenticate(options.auth), withCallerInLogs);
  for (const { basePath, api } of options.apis) app.use(basePath, api.router);

  app.use(notFoundHandler);
  app.use(problemHandler);
  return app;
}
