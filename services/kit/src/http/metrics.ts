import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Records `http_request_duration_seconds` by method, route template (never the raw path) and status. */
export function httpMetrics(registry: Registry): RequestHandler {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return (req, res, next) => {
    const end = histogram.startTimer({ method: req.method });
    res.on('finish', () => {
      const routePath = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof routePath === 'string' ? req.baseUrl + routePath : 'unmatched';
      end({ route, status_code: res.statusCode });
    });
    next();
  };
}
