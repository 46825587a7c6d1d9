import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { requireContext, requireScopes, type RequestContext } from './auth.js';
import { problems, type FieldError } from './problem.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface RequestSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

type Parsed<S, K extends keyof RequestSchemas> =
  S extends Record<K, infer T extends z.ZodType> ? z.infer<T> : undefined;

export interface RouteInput<S extends RequestSchemas> {
  params: Parsed<S, 'params'>;
  query: Parsed<S, 'query'>;
  body: Parsed<S, 'body'>;
}

export type ResponseSchemas = Record<number, { description: string; schema?: z.ZodType }>;

/** The schema a route declared for its success status (undefined when it declared none). */
type SuccessSchema<R, St extends number> = St extends keyof R
  ? R[St] extends { schema: infer T extends z.ZodType }
    ? T
    : undefined
  : undefined;

/**
 * A schema's input as a handler's return is checked against it. An "any object" (a `Record<string, unknown>`, or the
 * extra keys of a loose object) accepts any object, interfaces included, which TypeScript's index signatures refuse.
 */
type Relaxed<T> = T extends readonly (infer U)[]
  ? readonly Relaxed<U>[]
  : T extends Date
    ? T
    : T extends object
      ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Relaxed<T[K]> }
      : T;

/**
 * What a handler may return: the input of its success schema (what `res.json` sends), or nothing when it answered
 * itself or has nothing to say (204). Without a success schema, anything.
 */
export type HandlerResult<R, St extends number> =
  SuccessSchema<R, St> extends z.ZodType ? Relaxed<z.input<SuccessSchema<R, St>>> | undefined : unknown;

export interface RouteDefinition<
  S extends RequestSchemas,
  R extends ResponseSchemas = ResponseSchemas,
  St extends number = 200,
> {
  method: Method;
  path: string;
  summary: string;
  /** Scopes the caller must hold; an empty list still requires a signed-in caller unless `public` is set. */
  scopes?: string[];
  public?: boolean;
  /** A route of the subcontractor portal: portal sessions only (staff tokens refused). By default, staff only. */
  portal?: boolean;
  /**
   * Runs before the body is read and validated (e.g. an internal-caller check), so a refused caller learns nothing
   * of the schema and sends no body the service parses.
   */
  guard?: (req: Request) => void;
  /**
   * Largest JSON body this route reads (express syntax, e.g. '16mb'); default the router's `bodyLimit`. Read after
   * the route's scope check and guard, so only a caller allowed to use the route gets a large body parsed.
   */
  bodyLimit?: string;
  request?: S;
  /** Success status; default 200. A handler that returns nothing answers 204. */
  status?: St;
  /** Documented in the OpenAPI document; the success status's schema also types (and in tests checks) the answer. */
  responses: R;
  handler: (
    input: RouteInput<S> & { ctx: RequestContext; req: Request; res: Response },
  ) => Promise<HandlerResult<R, St>>;
}

interface RegisteredOperation {
  method: Method;
  path: string;
  summary: string;
  scopes: string[];
  public: boolean;
  request: RequestSchemas;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

function fieldErrors(location: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: [location, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

/** Thrown (a 500, and the test fails) when a handler's answer does not match its declared response schema. */
export class ResponseSchemaError extends Error {
  constructor(
    readonly route: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(
      `The answer of ${route} does not match its response schema: ${issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}`,
    );
    this.name = 'ResponseSchemaError';
  }
}

function checkResponse(
  definition: { method: Method; path: string; responses: ResponseSchemas },
  status: number,
  result: unknown,
): void {
  const schema = definition.responses[status]?.schema;
  if (!schema) return;
  const parsed = schema.safeParse(result);
  if (!parsed.success) {
    throw new ResponseSchemaError(
      `${definition.method.toUpperCase()} ${definition.path}`,
      parsed.error.issues,
    );
  }
}

/**
 * The JSON body every route reads unless it declares its own `bodyLimit`. The largest ordinary body is a bulk
 * action's 5,000 ids (about 195 kB); the few routes that take files (CSV import, logo, e-mail attachments) declare
 * theirs (docs/adr/0032).
 */
export const DEFAULT_BODY_LIMIT = '256kb';

const jsonParsers = new Map<string, RequestHandler>();

/** One express.json parser per limit (a parser holds nothing per request). */
function jsonParser(limit: string): RequestHandler {
  let parser = jsonParsers.get(limit);
  if (!parser) {
    parser = express.json({ limit });
    jsonParsers.set(limit, parser);
  }
  return parser;
}

/**
 * An express router whose routes are declared with zod schemas. The same schemas validate each request (every
 * field error is reported) and produce the service's OpenAPI document.
 */
export class ApiRouter {
  readonly router = Router();
  readonly operations: RegisteredOperation[] = [];

  /** Checks each JSON answer against the route's success schema (tests: VALIDATE_RESPONSES=1); a mismatch is a 500. */
  validateResponses = false;

  /** The JSON body limit of routes without their own (the app sets its `bodyLimit` here). */
  bodyLimit = DEFAULT_BODY_LIMIT;

  route<S extends RequestSchemas, R extends ResponseSchemas, St extends number = 200>(
    definition: RouteDefinition<S, R, St>,
  ): this {
    const request = definition.request ?? ({} as S);
    const scopes = definition.scopes ?? [];
    this.operations.push({
      method: definition.method,
      path: definition.path,
      summary: definition.summary,
      scopes,
      public: definition.public ?? false,
      request,
      responses: definition.responses,
    });
    const guards: RequestHandler[] = definition.public
      ? []
      : [requireScopes(scopes, { audience: definition.portal ? 'portal' : 'staff' })];
    const { guard } = definition;
    if (guard) {
      guards.push((req, _res, next) => {
        guard(req);
        next();
      });
    }
    // The body is read only now, after the caller passed the route's checks, and with the route's own limit.
    const readBody: RequestHandler = (req, res, next) => {
      jsonParser(definition.bodyLimit ?? this.bodyLimit)(req, res, next);
    };
    this.router[definition.method](
      definition.path,
      ...guards,
      readBody,
      async (req: Request, res: Response) => {
        const errors: FieldError[] = [];
        const parse = (location: keyof RequestSchemas, value: unknown): unknown => {
          const schema = request[location];
          if (!schema) return undefined;
          const result = schema.safeParse(value ?? {});
          if (result.success) return result.data;
          errors.push(...fieldErrors(location, result.error));
          return undefined;
        };
        const input = {
          params: parse('params', req.params),
          query: parse('query', req.query),
          body: parse('body', req.body),
        } as RouteInput<S>;
        if (errors.length > 0) throw problems.validation(errors);
        const ctx = definition.public ? (req.ctx as RequestContext) : requireContext(req.ctx);
        const result = await definition.handler({ ...input, ctx, req, res });
        if (!res.headersSent) {
          if (result === undefined) {
            res.status(204).end();
            return;
          }
          const status = definition.status ?? 200;
          if (this.validateResponses) checkResponse(definition, status, result);
          res.status(status).json(result);
        }
      },
    );
    return this;
  }
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): unknown {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
}

function parameters(location: 'path' | 'query', schema: z.ZodType | undefined): unknown[] {
  if (!schema) return [];
  const json = toJsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

/** OpenAPI 3.1 document for the routers' operations (all mounted under `basePath`). */
export function buildOpenApiDocument(
  info: { title: string; version: string; description?: string },
  mounts: { basePath: string; api: ApiRouter }[],
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { basePath, api } of mounts) {
    for (const operation of api.operations) {
      const path = (basePath + operation.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const responses: Record<string, unknown> = {};
      for (const [status, response] of Object.entries(operation.responses)) {
        responses[status] = {
          description: response.description,
          ...(response.schema
            ? { content: { 'application/json': { schema: toJsonSchema(response.schema, 'output') } } }
            : {}),
        };
      }
      responses.default = {
        description: 'Problem details (RFC 9457)',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      };
      paths[path] ??= {};
      paths[path][operation.method] = {
        summary: operation.summary,
        ...(operation.public ? { security: [] } : {}),
        ...(operation.scopes.length > 0 ? { 'x-required-scopes': operation.scopes } : {}),
        parameters: [
          ...parameters('path', operation.request.params),
          ...parameters('query', operation.request.query),
        ],
        ...(operation.request.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: toJsonSchema(operation.request.body, 'input') } },
              },
            }
          : {}),
        responses,
      };
    }
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string' },
            instance: { type: 'string' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['field', 'message'],
                properties: { field: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}
