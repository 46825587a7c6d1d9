import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ApiRouter,
  HttpProblem,
  problems,
  type HttpMethod,
  type RouteDefinition,
  type ServiceClient,
} from '@workspace/kit';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { enforceLimit, type RateLimiter } from '../rate-limit.js';
import { csrfTokensMatch } from '../security.js';
import type { StaffSession } from '../sessions.js';
import { CSRF_HEADER, browserState, limitKeys, requireStaff, type BffContext } from './context.js';

/** Response headers a service's answer keeps on its way to the browser. */
const FORWARDED_HEADERS = [
  'content-type',
  'content-disposition',
  'cache-control',
  'x-record-count',
  'x-accel-buffering',
  'content-range',
  'accept-ranges',
  'etag',
  'last-modified',
  'retry-after',
] as const;

/**
 * Request headers a browser's call keeps on its way to the service (besides accept and x-request-id): a mutation's
 * idempotency key, a share link's viewer token (what its passcode gave), a range of a file.
 */
const FORWARDED_REQUEST_HEADERS = ['x-idempotency-key', 'x-share-token', 'range', 'if-none-match'] as const;

type RequestSchemas = { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType };

/**
 * One browser path forwarded to one path of the service. Its schemas validate the request (the parsed body is
 * what the service gets) and document the operation in the bff's /openapi.json; the answer goes on as the service
 * gave it.
 */
export type ForwardedOperation = Pick<
  RouteDefinition<RequestSchemas>,
  'method' | 'path' | 'summary' | 'scopes' | 'request' | 'responses' | 'bodyLimit'
> & {
  /** The service's path for it, under the client's base URL (default: the browser path). */
  to?: string;
};

/** A path under a forwarded prefix that needs more than the prefix's defaults. */
export interface ForwardedRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Under the prefix, in express syntax: '/invoices/import', '/jobs/:id/stream'. */
  path: string;
  summary: string;
  /** A JSON body larger than the bff's default (e.g. a CSV import), read only once the session has been checked. */
  bodyLimit?: string;
  /**
   * Scopes the staff session must hold before the body is read (the service checks them again): a large body is
   * parsed only for a user who may use the route. Staff forwards only.
   */
  scopes?: string[];
  /** Each call counts against this limiter (its key: the signed-in user or portal subcontractor) first. */
  rateLimit?: RateLimiter;
  /**
   * A Server-Sent-Event stream: forwarded without the upstream timeout, counted against the user's stream cap and
   * closed when the session ends. No other forward is ever without the timeout, whatever its Accept header says.
   */
  stream?: boolean;
}

export interface ServiceProxyOptions {
  /** The service's name in messages, e.g. 'cis'. */
  service: string;
  /** The kit's client for the service (undefined: not deployed here). Its base URL holds the API version path. */
  client: ServiceClient | undefined;
  /**
   * Whose session carries the token: staff (default), the subcontractor portal's (reads and submissions), or
   * `public`: no session needed (the drive's public share links); a staff session's token goes along when the
   * browser has one (on a change, only with its CSRF token), so tenant and restricted shares open for colleagues.
   */
  session?: 'staff' | 'portal' | 'public';
  /** Every call counts against this limiter first, per client IP and signed-in user (the public forwards). */
  rateLimit?: RateLimiter;
  /**
   * What is forwarded: every path under `/api/<prefix>` (the service documents them itself; `routes` are the paths
   * with a larger body, a rate limit or a stream), only `GET /api/<prefix>` (one read, e.g. a stream), or the listed
   * operations (under the service's path `at`, e.g. /v1).
   */
  forward:
    | { prefix: string; routes?: ForwardedRoute[] }
    | { prefix: string; single: { summary: string; stream?: boolean } }
    | { operations: ForwardedOperation[]; at?: string };
}

/** What a forwarded path may not hold: dots, slashes and backslashes percent-encoded, and backslashes (URL parsers resolve them). */
const ESCAPING = /%2e|%2f|%5c|\\/i;

/**
 * Whether `path` (a browser path under a forwarded prefix, with its query) stays under the service's API at
 * `baseUrl` once a URL parser has resolved it. Dot segments, and anything a parser may turn into one, are refused
 * outright, and the resolved URL must still lie under the base path (so `/%2e%2e/metrics` never reaches /metrics).
 */
export function staysUnderBase(baseUrl: string, path: string): boolean {
  const at = path.indexOf('?');
  const pathname = at === -1 ? path : path.slice(0, at);
  if (ESCAPING.test(pathname)) return false;
  if (pathname.split('/').some((segment) => segment === '.' || segment === '..')) return false;
  if (!URL.canParse(`${baseUrl}${path}`)) return false;
  const base = new URL(baseUrl);
  const resolved = new URL(`${baseUrl}${path}`);
  const root = base.pathname.replace(/\/+$/, '');
  return (
    resolved.origin === base.origin &&
    (resolved.pathname === root || resolved.pathname.startsWith(`${root}/`))
  );
}

/**
 * Forwards browser calls to a domain service with the signed-in user's access token. The service takes the
 * tenant from that token alone, so nothing the browser sends can name another tenant. Bodies stream both ways
 * (CSV, PDF and Server-Sent Events) and the service's answer, refusals included, reaches the browser as it gave
 * it; no answer at all is the kit client's 503. The session, CSRF and rate limits are the bff's as for every /api
 * call; a forwarded path stays under the service's API path (else 404), and the session is checked before a body
 * is read.
 */
export function serviceProxy(context: BffContext, options: ServiceProxyOptions): ApiRouter {
  const portal = options.session === 'portal';
  const open = options.session === 'public';
  /** A public call's staff session, when the browser has a live one (and, on a change, its CSRF token). */
  const optionalStaff = async (req: Request): Promise<StaffSession | undefined> => {
    const session = browserState(req).staff;
    if (!session) return undefined;
    const safe = req.method === 'GET' || req.method === 'HEAD';
    if (!safe && !csrfTokensMatch(session.csrfToken, req.get(CSRF_HEADER))) return undefined;
    return context.staff.fresh(session).catch(() => undefined);
  };
  const forward = async (
    req: Request,
    res: Response,
    path: string,
    body: unknown,
    route: Pick<ForwardedRoute, 'rateLimit' | 'stream'> = {},
  ): Promise<undefined> => {
    if (open && options.rateLimit) await enforceLimit(options.rateLimit, limitKeys(req), res);
    const staff = portal
      ? undefined
      : open
        ? await optionalStaff(req)
        : await requireStaff(context, req, res);
    const portalSession = portal ? browserState(req).portal : undefined;
    const accessToken = staff?.accessToken ?? portalSession?.accessToken;
    if (!accessToken && !open) throw problems.unauthorized();
    // Who the call is: the signed-in user or the portal's subcontractor (rate limits and the stream cap count it).
    const who = staff
      ? `${staff.tenantId}:${staff.uid}`
      : `${portalSession?.tenantId}:${portalSession?.subcontractorId}`;
    if (route.rateLimit) await enforceLimit(route.rateLimit, [`${staff ? 'user' : 'portal'}:${who}`], res);
    if (!options.client)
      throw new HttpProblem(503, 'unavailable', `The ${options.service} service is not available.`);
    const streaming = route.stream === true;
    const hungUp = new AbortController();
    // The browser hung up before the answer was complete. (The request's own 'close' is no sign of it: it fires as
    // soon as a body has been read, which aborted a write forwarded without an await before this point.)
    res.on('close', () => {
      if (!res.writableFinished) hungUp.abort();
    });
    const release = streaming
      ? context.streams.add(
          staff
            ? { kind: 'staff', who: `staff:${who}`, sessionKey: staff.key }
            : { kind: 'portal', who: `portal:${who}`, sessionKey: portalSession?.key ?? '' },
          () => {
            // The session has ended: the service's stream stops and the browser's ends (it reconnects to a 401).
            hungUp.abort();
            if (!res.writableEnded) res.end();
          },
        )
      : undefined;
    try {
      const hasBody = !['GET', 'HEAD'].includes(req.method);
      const headers: Record<string, string> = { accept: req.get('accept') ?? 'application/json' };
      for (const name of ['x-request-id', ...FORWARDED_REQUEST_HEADERS]) {
        const value = req.get(name);
        if (value) headers[name] = value;
      }
      const upstream = await options.client.open(req.method as HttpMethod, {
        path,
        caller: accessToken ? { accessToken } : 'anonymous',
        headers,
        // A redirect (a download handed to the object store's presigned URL) is the browser's to follow.
        redirect: 'manual',
        ...(hasBody ? { body: body ?? {} } : {}),
        signal: hungUp.signal,
        ...(streaming ? { timeoutMs: null } : {}),
      });
      res.status(upstream.status);
      for (const name of FORWARDED_HEADERS) {
        const value = upstream.headers.get(name);
        if (value) res.set(name, value);
      }
      const location = redirectTarget(upstream, options.client.baseUrl);
      if (location) res.set('location', location);
      if (streaming) res.flushHeaders();
      try {
        if (upstream.body) await pipeline(Readable.fromWeb(upstream.body as never), res);
        else res.end();
      } catch (error) {
        if (!hungUp.signal.aborted) context.logger.warn({ err: error }, 'proxied response interrupted');
        if (!res.writableEnded) res.end();
      }
    } catch (error) {
      // Closed (browser gone, or its session ended) before the service answered: nothing left to say.
      if (!hungUp.signal.aborted) throw error;
      if (!res.writableEnded) res.end();
    } finally {
      release?.();
    }
    return undefined;
  };
  const api = new ApiRouter();
  const answer = { 200: { description: "The service's answer, as it gave it" } };
  const { forward: what } = options;
  if ('operations' in what) {
    for (const { to, ...operation } of what.operations) {
      api.route({
        ...operation,
        handler: ({ req, res, body }) =>
          forward(req, res, `${what.at ?? ''}${to ?? operation.path}${queryOf(req)}`, body),
      });
    }
    return api;
  }
  const under = (req: Request) => {
    const path = req.originalUrl.slice(`/api/${what.prefix}`.length);
    return path === '' || path.startsWith('/') || path.startsWith('?') ? path : `/${path}`;
  };
  // Before any body is read: a session of the proxy's kind, and a path that stays under the service's API.
  const guard = (req: Request) => {
    const state = browserState(req);
    if (!open && !(portal ? state.portal : state.staff)) throw problems.unauthorized();
    if (options.client && !staysUnderBase(options.client.baseUrl, under(req))) {
      throw problems.notFound(`No route for ${req.method} ${req.path}.`);
    }
  };
  if ('single' in what) {
    const route = { stream: what.single.stream ?? false };
    return api.route({
      method: 'get',
      path: `/${what.prefix}`,
      summary: what.single.summary,
      public: true,
      guard,
      responses: answer,
      handler: ({ req, res }) => forward(req, res, under(req), undefined, route),
    });
  }
  for (const route of what.routes ?? []) {
    api.route({
      method: route.method,
      path: `/${what.prefix}${route.path}`,
      summary: route.summary,
      ...(route.scopes && !portal ? { scopes: route.scopes } : { public: true }),
      guard,
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      responses: answer,
      handler: ({ req, res }) =>
        forward(req, res, under(req), route.method === 'get' ? undefined : req.body, route),
    });
  }
  const methods = portal || open ? (['get', 'post'] as const) : (['get', 'post', 'put', 'delete'] as const);
  for (const method of methods) {
    api.route({
      method,
      path: `/${what.prefix}/*path`,
      summary: `The ${what.prefix} service's API (see its own /openapi.json), with the session's access token`,
      public: true,
      guard,
      responses: answer,
      handler: ({ req, res }) => forward(req, res, under(req), req.body),
    });
  }
  return api;
}

/**
 * Where a service's redirect sends the browser: an absolute http(s) URL away from the service's own (internal)
 * origin, such as an object store's presigned URL; anything else is not passed on.
 */
function redirectTarget(upstream: globalThis.Response, serviceBase: string): string | undefined {
  if (upstream.status < 300 || upstream.status >= 400) return undefined;
  const location = upstream.headers.get('location');
  if (!location || !URL.canParse(location)) return undefined;
  const target = new URL(location);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
  return target.origin === new URL(serviceBase).origin ? undefined : target.href;
}

function queryOf(req: Request): string {
  const at = req.originalUrl.indexOf('?');
  return at === -1 ? '' : req.originalUrl.slice(at);
}
