import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiRouter, HttpProblem, problems } from '@workspace/kit';
import type { Request, Response } from 'express';
import { browserState, requireStaff, type BffContext } from './context.js';

/** Response headers a service's answer keeps on its way to the browser. */
const FORWARDED_HEADERS = [
  'content-type',
  'content-disposition',
  'cache-control',
  'x-record-count',
  'x-accel-buffering',
] as const;

export interface ServiceProxyOptions {
  /** The browser-facing prefix under /api, e.g. 'cis'. */
  prefix: string;
  /** The service's base URL and API version path, e.g. http://cis:8080/v1 (undefined: not deployed here). */
  target: string | undefined;
  timeoutMs: number;
  /** Whose session carries the token: staff (default) or the subcontractor portal's (reads and submissions). */
  session?: 'staff' | 'portal';
  /** Forward only `GET /api/<prefix>` itself (one read, e.g. a stream), with this summary; not the paths under it. */
  single?: { summary: string };
}

/**
 * Forwards `/api/<prefix>/*` to a domain service with the signed-in user's access token. The service takes the
 * tenant from that token alone, so nothing the browser sends can name another tenant. Bodies stream both ways
 * (CSV, PDF and Server-Sent Events); the session, CSRF and rate limits are the bff's as for every /api call.
 * The routes themselves are in the service's own /openapi.json.
 */
export function serviceProxy(context: BffContext, options: ServiceProxyOptions): ApiRouter {
  const serviceName = options.prefix.split('/').at(-1) ?? options.prefix;
  const forward = async ({ req, res }: { req: Request; res: Response }) => {
    const accessToken =
      options.session === 'portal'
        ? browserState(req).portal?.accessToken
        : (await requireStaff(context, req, res)).accessToken;
    if (!accessToken) throw problems.unauthorized();
    if (!options.target)
      throw new HttpProblem(503, 'unavailable', `The ${serviceName} service is not available.`);
    const path = req.originalUrl.slice(`/api/${options.prefix}`.length);
    const url = `${options.target}${path === '' || path.startsWith('/') || path.startsWith('?') ? path : `/${path}`}`;
    const streaming = req.get('accept')?.includes('text/event-stream') === true;
    const controller = new AbortController();
    const timer = streaming
      ? undefined
      : setTimeout(() => {
          controller.abort();
        }, options.timeoutMs);
    req.on('close', () => {
      controller.abort();
    });
    const hasBody = !['GET', 'HEAD'].includes(req.method);
    let upstream: globalThis.Response;
    try {
      upstream = await fetch(url, {
        method: req.method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: req.get('accept') ?? 'application/json',
          ...(req.get('x-request-id') ? { 'x-request-id': req.get('x-request-id') ?? '' } : {}),
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(hasBody ? { body: JSON.stringify(req.body ?? {}) } : {}),
        signal: controller.signal,
      });
    } catch (error) {
      clearTimeout(timer);
      context.logger.warn({ err: error, prefix: options.prefix }, 'service unreachable');
      throw new HttpProblem(503, 'unavailable', `The ${serviceName} service is temporarily unavailable.`);
    }
    res.status(upstream.status);
    for (const name of FORWARDED_HEADERS) {
      const value = upstream.headers.get(name);
      if (value) res.set(name, value);
    }
    if (streaming) res.flushHeaders();
    try {
      if (upstream.body) await pipeline(Readable.fromWeb(upstream.body as never), res);
      else res.end();
    } catch (error) {
      if (!controller.signal.aborted) context.logger.warn({ err: error }, 'proxied response interrupted');
      if (!res.writableEnded) res.end();
    } finally {
      clearTimeout(timer);
    }
  };
  const api = new ApiRouter();
  if (options.single) {
    return api.route({
      method: 'get',
      path: `/${options.prefix}`,
      summary: options.single.summary,
      public: true,
      responses: { 200: { description: "The service's answer, as it gave it" } },
      handler: forward,
    });
  }
  const methods =
    options.session === 'portal' ? (['get', 'post'] as const) : (['get', 'post', 'put', 'delete'] as const);
  for (const method of methods) {
    api.route({
      method,
      path: `/${options.prefix}/*path`,
      summary: `The ${options.prefix} service's API (see its own /openapi.json), with the session's access token`,
      public: true,
      responses: { 200: { description: "The service's answer, as it gave it" } },
      handler: forward,
    });
  }
  return api;
}
