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
import { browserState, requireStaff, type BffContext } from './context.js';

/** Response headers a service's answer keeps on its way to the browser. */
const FORWARDED_HEADERS = [
  'content-type',
  'content-disposition',
  'cache-control',
  'x-record-count',
  'x-accel-buffering',
] as const;

type RequestSchemas = { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType };

/**
 * One browser path forwarded to one path of the service. Its schemas validate the request (the parsed body is
 * what the service gets) and document the operation in the bff's /openapi.json; the answer goes on as the service
 * gave it.
 */
export type ForwardedOperation = Pick<
  RouteDefinition<RequestSchemas>,
  'method' | 'path' | 'summary' | 'scopes' | 'request' | 'responses'
> & {
  /** The service's path for it, under the client's base URL (default: the browser path). */
  to?: string;
};

export interface ServiceProxyOptions {
  /** The service's name in messages, e.g. 'cis'. */
  service: string;
  /** The kit's client for the service (undefined: not deployed here). Its base URL holds the API version path. */
  client: ServiceClient | undefined;
  /** Whose session carries the token: staff (default) or the subcontractor portal's (reads and submissions). */
  session?: 'staff' | 'portal';
  /**
   * What is forwarded: every path under `/api/<prefix>` (the service documents them itself), only `GET
   * /api/<prefix>` (one read, e.g. a stream), or the listed operations (under the service's path `at`, e.g. /v1).
   */
  forward:
    | { prefix: string }
    | { prefix: string; single: { summary: string } }
    | { operations: ForwardedOperation[]; at?: string };
}

/**
 * Forwards browser calls to a domain service with the signed-in user's access token. The service takes the
 * tenant from that token alone, so nothing the browser sends can name another tenant. Bodies stream both ways
 * (CSV, PDF and Server-Sent Events) and the service's answer, refusals included, reaches the browser as it gave
 * it; no answer at all is the kit client's 503. The session, CSRF and rate limits are the bff's as for every /api
 * call.
 */
export function serviceProxy(context: BffContext, options: ServiceProxyOptions): ApiRouter {
  const forward = async (req: Request, res: Response, path: string, body: unknown): Promise<undefined> => {
    const accessToken =
      options.session === 'portal'
        ? browserState(req).portal?.accessToken
        : (await requireStaff(context, req, res)).accessToken;
    if (!accessToken) throw problems.unauthorized();
    if (!options.client)
      throw new HttpProblem(503, 'unavailable', `The ${options.service} service is not available.`);
    const streaming = req.get('accept')?.includes('text/event-stream') === true;
    const hungUp = new AbortController();
    req.on('close', () => {
      hungUp.abort();
    });
    const hasBody = !['GET', 'HEAD'].includes(req.method);
    const requestId = req.get('x-request-id');
    const upstream = await options.client.open(req.method as HttpMethod, {
      path,
      caller: { accessToken },
      headers: {
        accept: req.get('accept') ?? 'application/json',
        ...(requestId ? { 'x-request-id': requestId } : {}),
      },
      ...(hasBody ? { body: body ?? {} } : {}),
      signal: hungUp.signal,
      ...(streaming ? { timeoutMs: null } : {}),
    });
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
      if (!hungUp.signal.aborted) context.logger.warn({ err: error }, 'proxied response interrupted');
      if (!res.writableEnded) res.end();
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
  if ('single' in what) {
    return api.route({
      method: 'get',
      path: `/${what.prefix}`,
      summary: what.single.summary,
      public: true,
      responses: answer,
      handler: ({ req, res }) => forward(req, res, under(req), undefined),
    });
  }
  const methods =
    options.session === 'portal' ? (['get', 'post'] as const) : (['get', 'post', 'put', 'delete'] as const);
  for (const method of methods) {
    api.route({
      method,
      path: `/${what.prefix}/*path`,
      summary: `The ${what.prefix} service's API (see its own /openapi.json), with the session's access token`,
      public: true,
      responses: answer,
      handler: ({ req, res }) => forward(req, res, under(req), req.body),
    });
  }
  return api;
}

function queryOf(req: Request): string {
  const at = req.originalUrl.indexOf('?');
  return at === -1 ? '' : req.originalUrl.slice(at);
}
