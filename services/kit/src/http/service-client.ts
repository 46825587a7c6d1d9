import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { z } from 'zod';
import { HttpProblem, type FieldError } from './problem.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who a call speaks for: the calling service itself (the shared internal token), the signed-in user (their
 * `authorization` header as the caller received it, or their access token), or nobody (a public endpoint).
 */
export type ServiceCaller = 'internal' | { authorization: string } | { accessToken: string } | 'anonymous';

/** What a service's failure said, as far as it said it (problem+json members; all optional). */
export interface UpstreamAnswer {
  /** The upstream's status; undefined when it did not answer (refused, reset, timed out). */
  status: number | undefined;
  code?: string;
  detail?: string;
  errors?: FieldError[];
  /** The answer's JSON body, as the service sent it (undefined when there was none or it was not JSON). */
  body?: unknown;
}

/** A call to another service that failed: what the caller's own client answers, and what the service said. */
export class UpstreamProblem extends HttpProblem {
  constructor(
    status: number,
    code: string,
    detail: string,
    errors: FieldError[] | undefined,
    readonly service: string,
    readonly upstream: UpstreamAnswer,
    options?: { cause?: unknown },
  ) {
    super(status, code, detail, errors);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export interface ServiceClientOptions {
  /** The service's name, for messages and logs (e.g. 'identity'). */
  service: string;
  /** e.g. http://identity:8080 (a trailing slash is ignored). */
  baseUrl: string;
  /** Per call, unless the call says otherwise. */
  timeoutMs: number;
  /** The shared INTERNAL_API_TOKEN, sent as x-internal-token by calls made as 'internal'. */
  internalToken?: string;
  logger?: Logger;
  fetch?: typeof fetch;
  /** When the service does not answer: 503 with this code ('unavailable') and detail. */
  unavailable?: { code?: string; detail?: string };
  /**
   * How a refusal maps: the upstream's own code and detail when it gave them, else these. A 5xx answer becomes a
   * 502 unless `serverErrors` is 'pass' (then the upstream's status is kept).
   */
  failure?: {
    code?: string;
    detail?: string | ((status: number) => string);
    serverErrors?: 'bad-gateway' | 'pass';
  };
  /** Retries of idempotent calls that got no answer or a 502/503/504; default 2, backing off from 100 ms. */
  retry?: { retries: number; backoffMs: number };
}

export interface ServiceRequest<S extends z.ZodType | undefined = undefined> {
  path: string;
  /** Appended as a query string (undefined values left out). */
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  caller?: ServiceCaller;
  /** The answer is parsed with this (a mismatch is a 502); without it the JSON is returned as it came. */
  schema?: S;
  /** Marks a POST or PATCH as safe to repeat (GET, HEAD, PUT and DELETE are). */
  idempotent?: boolean;
  /** This call's timeout (ms); null: none (a stream the caller ends). */
  timeoutMs?: number | null;
  headers?: Record<string, string>;
  /** Ends the call early (e.g. when the browser hung up). */
  signal?: AbortSignal;
  /** This call's 503 detail when the service does not answer. */
  unavailable?: string;
  /** 'manual': a redirect is the answer (a proxy passes it on) rather than followed; default 'follow'. */
  redirect?: 'follow' | 'manual';
}

type Answer<S> = S extends z.ZodType ? z.output<S> : unknown;

const problemDocument = z.object({
  code: z.string().optional(),
  detail: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const RETRIED_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * One client for service-to-service HTTP: JSON in and out, a timeout on every call, the internal token or the
 * user's token, and failures as HttpProblem (the upstream's status, code, detail and field errors for a refusal;
 * a 502 for a 5xx or an answer of the wrong shape; a 503 when the service does not answer). Only idempotent calls
 * are retried, and never after a timeout: the timeout is the caller's budget for the whole call.
 */
export class ServiceClient {
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly retry: { retries: number; backoffMs: number };

  constructor(private readonly options: ServiceClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
    this.retry = options.retry ?? { retries: 2, backoffMs: 100 };
  }

  get<S extends z.ZodType | undefined = undefined>(request: ServiceRequest<S>): Promise<Answer<S>> {
    return this.request('GET', request);
  }

  post<S extends z.ZodType | undefined = undefined>(request: ServiceRequest<S>): Promise<Answer<S>> {
    return this.request('POST', request);
  }

  put<S extends z.ZodType | undefined = undefined>(request: ServiceRequest<S>): Promise<Answer<S>> {
    return this.request('PUT', request);
  }

  patch<S extends z.ZodType | undefined = undefined>(request: ServiceRequest<S>): Promise<Answer<S>> {
    return this.request('PATCH', request);
  }

  delete<S extends z.ZodType | undefined = undefined>(request: ServiceRequest<S>): Promise<Answer<S>> {
    return this.request('DELETE', request);
  }

  /** A JSON call: the parsed answer (undefined for 204), or an UpstreamProblem. */
  async request<S extends z.ZodType | undefined = undefined>(
    method: HttpMethod,
    request: ServiceRequest<S>,
  ): Promise<Answer<S>> {
    const response = await this.open(method, request);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.unreachable(method, request, error);
    }
    if (!response.ok) throw this.refusal(method, request.path, response.status, text);
    const json = text === '' ? undefined : parseJson(text);
    if (!request.schema) return json as Answer<S>;
    const parsed = request.schema.safeParse(json);
    if (parsed.success) return parsed.data as Answer<S>;
    this.options.logger?.error(
      { method, path: request.path, status: response.status, issues: parsed.error.issues.slice(0, 5) },
      `${this.options.service} answered in an unexpected shape`,
    );
    throw new UpstreamProblem(
      502,
      `${this.options.service}_bad_response`,
      `The ${this.options.service} service answered unexpectedly.`,
      undefined,
      this.options.service,
      { status: response.status, body: json },
    );
  }

  /**
   * The service's answer as it came, body unread, whatever its status (a proxy streams it on). Only no answer at
   * all is a problem (the 503).
   */
  async open(method: HttpMethod, request: ServiceRequest<z.ZodType | undefined>): Promise<Response> {
    const retries = IDEMPOTENT.has(method) || request.idempotent === true ? this.retry.retries : 0;
    for (let attempt = 0; ; attempt += 1) {
      const { init, timeout } = this.init(method, request);
      let response: Response | undefined;
      try {
        response = await this.fetch(this.url(request), init);
      } catch (error) {
        const gaveUp = timeout?.aborted === true || request.signal?.aborted === true;
        if (attempt >= retries || gaveUp) throw this.unreachable(method, request, error);
      }
      if (response && (attempt >= retries || !RETRIED_STATUSES.has(response.status))) return response;
      await response?.body?.cancel();
      await sleep(this.retry.backoffMs * 2 ** attempt);
    }
  }

  /** Readiness: the service answers `path` (default /healthz) with a 2xx within the timeout (at most 2 s). */
  async healthy(path = '/healthz'): Promise<boolean> {
    try {
      const response = await this.fetch(`${this.baseUrl}${path}`, {
        signal: AbortSignal.timeout(Math.min(this.options.timeoutMs, 2000)),
      });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  private url(request: ServiceRequest<z.ZodType | undefined>): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) search.set(name, String(value));
    }
    const query = search.toString();
    return `${this.baseUrl}${request.path}${query === '' ? '' : `${request.path.includes('?') ? '&' : '?'}${query}`}`;
  }

  private init(
    method: HttpMethod,
    request: ServiceRequest<z.ZodType | undefined>,
  ): { init: RequestInit; timeout: AbortSignal | undefined } {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    const caller = request.caller ?? 'anonymous';
    if (caller === 'internal') {
      if (this.options.internalToken === undefined) {
        throw new Error(`The ${this.options.service} client has no internal token for an internal call`);
      }
      headers['x-internal-token'] = this.options.internalToken;
    } else if (caller !== 'anonymous') {
      headers.authorization =
        'authorization' in caller ? caller.authorization : `Bearer ${caller.accessToken}`;
    }
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const timeoutMs = request.timeoutMs === undefined ? this.options.timeoutMs : request.timeoutMs;
    const timeout = timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs);
    const signals = [timeout, request.signal].filter((signal) => signal !== undefined);
    const init: RequestInit = {
      method,
      headers,
      ...(request.redirect ? { redirect: request.redirect } : {}),
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      ...(signals.length === 0
        ? {}
        : { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) }),
    };
    return { init, timeout };
  }

  private unreachable(
    method: HttpMethod,
    request: ServiceRequest<z.ZodType | undefined>,
    error: unknown,
  ): UpstreamProblem {
    const { service } = this.options;
    this.options.logger?.warn({ err: error, method, path: request.path }, `${service} is not reachable`);
    return new UpstreamProblem(
      503,
      this.options.unavailable?.code ?? 'unavailable',
      request.unavailable ??
        this.options.unavailable?.detail ??
        `The ${service} service is temporarily unavailable.`,
      undefined,
      service,
      { status: undefined },
      { cause: error },
    );
  }

  private refusal(method: HttpMethod, path: string, status: number, text: string): UpstreamProblem {
    const { service, failure } = this.options;
    const body = text === '' ? undefined : parseJson(text);
    const parsed = problemDocument.safeParse(body);
    const document = parsed.success ? parsed.data : {};
    if (status >= 500) this.options.logger?.warn({ method, path, status }, `${service} failed`);
    const fallbackDetail =
      typeof failure?.detail === 'function'
        ? failure.detail(status)
        : (failure?.detail ?? STATUS_CODES[status] ?? `The ${service} service refused the request.`);
    return new UpstreamProblem(
      status >= 500 && failure?.serverErrors !== 'pass' ? 502 : status,
      document.code ?? failure?.code ?? 'upstream_failed',
      document.detail ?? fallbackDetail,
      document.errors,
      service,
      { status, ...document, body },
    );
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
