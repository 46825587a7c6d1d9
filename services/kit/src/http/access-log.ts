import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request id: the caller's `x-request-id` when it is safe, else a new UUID; echoed in the response. */
    id: string;
    /** A logger bound to the request id and, once authenticated, the tenant and user. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** A request that takes longer than this is slow: its line says `slow: true` and is a warning (spec: 1000 ms). */
export const SLOW_REQUEST_MS = 1000;
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const caller = (req: { ctx?: { tenantId: string; userId: string } }) =>
  req.ctx ? { tenantId: req.ctx.tenantId, userId: req.ctx.userId } : {};

/**
 * Request ids and one structured access-log line per request (`request completed`: method, path without the
 * query string, route status, duration, tenant and user), a warning with `slow: true` past SLOW_REQUEST_MS.
 * `req.log` is created on first use, so a request that logs nothing else costs one log call.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    let bound: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (bound ??= logger.child({ reqId: id, ...caller(req) })),
      set: (value: Logger) => {
        bound = value;
      },
    });
    if (!QUIET_PATHS.has(req.path)) {
      res.on('finish', () => {
        const status = res.statusCode;
        const durationMs = Math.round((performance.now() - started) * 10) / 10;
        const slow = durationMs > SLOW_REQUEST_MS;
        const line = {
          reqId: id,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status,
          durationMs,
          ...(slow ? { slow } : {}),
          ...caller(req),
        };
        if (status >= 500) logger.error(line, 'request completed');
        else if (slow) logger.warn(line, 'request completed');
        else logger.info(line, 'request completed');
      });
    }
    next();
  };
}
