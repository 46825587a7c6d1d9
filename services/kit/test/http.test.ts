import { jest } from '@jest/globals';
import request from 'supertest';
import { z } from 'zod';
import {
  ApiRouter,
  createLogger,
  createMetricsRegistry,
  createServiceApp,
  HttpProblem,
  ResponseSchemaError,
} from '../src/index.js';
import { allFakeableBut, createTestIssuer, type TestIssuer } from '../src/testing/index.js';

let issuer: TestIssuer;

function buildApp(readiness: Record<string, () => Promise<boolean>> = {}) {
  const api = new ApiRouter()
    .route({
      method: 'post',
      path: '/invoices',
      summary: 'Create',
      scopes: ['cis.invoices.create'],
      request: {
        body: z.object({
          grossP: z.number().int('Gross must be whole pence').min(0, 'Gross must not be negative'),
          reference: z.string().min(1, 'Reference is required'),
        }),
        query: z.object({ dryRun: z.enum(['true', 'false']).optional() }),
      },
      status: 201,
      responses: {
        201: { description: 'Created', schema: z.object({ grossP: z.number(), tenantId: z.string() }) },
      },
      handler: ({ body, ctx }) => Promise.resolve({ grossP: body.grossP, tenantId: ctx.tenantId }),
    })
    .route({
      method: 'get',
      path: '/boom',
      summary: 'Fails',
      scopes: [],
      responses: { 200: { description: 'Never' } },
      handler: () => Promise.reject(new Error('database password is hunter2 at /srv/app.ts:10')),
    })
    .route({
      method: 'get',
      path: '/conflict',
      summary: 'Conflicts',
      public: true,
      responses: { 200: { description: 'Never' } },
      handler: () =>
        Promise.reject(new HttpProblem(409, 'duplicate_statement', 'A statement already exists.')),
    });
  return createServiceApp({
    name: 'test',
    logger: createLogger({ name: 'test', level: 'silent' }),
    metrics: createMetricsRegistry('test'),
    auth: { keys: issuer.keys, issuer: issuer.issuer, audience: issuer.audience },
    readiness,
    apis: [{ basePath: '/api', api }],
  });
}

beforeAll(async () => {
  issuer = await createTestIssuer();
});

const bearer = async (scopes: string[]) => `Bearer ${await issuer.token({ tenantId: 'acme', scopes })}`;

describe('problem+json errors', () => {
  it('lists every field error of an invalid request', async () => {
    const res = await request(buildApp())
      .post('/api/invoices?dryRun=maybe')
      .set('authorization', await bearer(['cis.invoices.create']))
      .send({ grossP: -1 });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: '/problems/validation_failed',
      title: 'Bad Request',
      status: 400,
      code: 'validation_failed',
    });
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'body.grossP', message: 'Gross must not be negative' },
        { field: 'body.reference', message: expect.any(String) },
        { field: 'query.dryRun', message: expect.any(String) },
      ]),
    );
    expect(res.body.errors).toHaveLength(3);
  });

  it('answers 400 with a problem for a body that is not JSON', async () => {
    const res = await request(buildApp())
      .post('/api/invoices')
      .set('authorization', await bearer(['cis.invoices.create']))
      .set('content-type', 'application/json')
      .send('{"grossP":');
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('The request body is not valid JSON.');
  });

  it('answers 401 without a token, and for a token signed by someone else or expired', async () => {
    const app = buildApp();
    const none = await request(app).post('/api/invoices').send({ grossP: 1, reference: 'x' });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('unauthorized');

    const stranger = await createTestIssuer();
    const forged = await stranger.token({ tenantId: 'acme', scopes: ['*'] });
    const bad = await request(app)
      .post('/api/invoices')
      .set('authorization', `Bearer ${forged}`)
      .send({ grossP: 1, reference: 'x' });
    expect(bad.status).toBe(401);
    expect(bad.body.detail).toBe('The access token is not valid.');

    const expired = await issuer.token({ tenantId: 'acme', scopes: ['*'], expiresIn: '-1m' });
    const old = await request(app)
      .post('/api/invoices')
      .set('authorization', `Bearer ${expired}`)
      .send({ grossP: 1, reference: 'x' });
    expect(old.status).toBe(401);
    expect(old.body.detail).toBe('The access token has expired.');
  });

  it('stops accepting a verified (cached) token once it expires', async () => {
    const app = buildApp();
    const token = await issuer.token({ tenantId: 'acme', scopes: ['*'], expiresIn: '2s' });
    const send = () =>
      request(app)
        .post('/api/invoices')
        .set('authorization', `Bearer ${token}`)
        .send({ grossP: 1, reference: 'x' });
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);
    // Only Date is faked, moved 2.1 s on (past the token's expiry): nothing waits, timers and I/O stay real.
    jest.useFakeTimers({ doNotFake: allFakeableBut('Date'), now: Date.now() });
    try {
      jest.setSystemTime(Date.now() + 2_100);
      const late = await send();
      expect(late.status).toBe(401);
      expect(late.body.detail).toBe('The access token has expired.');
    } finally {
      jest.useRealTimers();
    }
  });

  it('answers 403 naming the missing scope, before validating the body', async () => {
    const res = await request(buildApp())
      .post('/api/invoices')
      .set('authorization', await bearer(['cis.invoices.view']))
      .send({});
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'forbidden',
      detail: 'This requires the cis.invoices.create permission.',
    });
  });

  it('takes the tenant from the token, and * grants every scope', async () => {
    const res = await request(buildApp())
      .post('/api/invoices')
      .set('authorization', await bearer(['*']))
      .send({ grossP: 1000, reference: 'INV-1', tenantId: 'someone-else' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ grossP: 1000, tenantId: 'acme' });
  });

  it('answers 404 as a problem for unknown routes', async () => {
    const res = await request(buildApp()).get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      status: 404,
      code: 'not_found',
      detail: 'No route for GET /api/nothing-here.',
    });
  });

  it('answers 500 without the cause or a stack trace in the body', async () => {
    const res = await request(buildApp())
      .get('/api/boom')
      .set('authorization', await bearer([]));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      type: '/problems/internal_error',
      title: 'Internal Server Error',
      status: 500,
      code: 'internal_error',
      detail: 'An unexpected error occurred.',
      instance: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|app\.ts|at /);
  });

  it('keeps the status and message of a domain problem', async () => {
    const res = await request(buildApp()).get('/api/conflict');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'duplicate_statement', detail: 'A statement already exists.' });
  });
});

describe('service endpoints', () => {
  it('echoes a safe request id and generates one otherwise', async () => {
    const app = buildApp();
    const given = await request(app).get('/healthz').set('x-request-id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await request(app).get('/healthz').set('x-request-id', 'bad id; drop');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports readiness per check', async () => {
    const res = await request(
      buildApp({ database: () => Promise.resolve(true), bus: () => Promise.resolve(false) }),
    ).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not ready', checks: { database: 'up', bus: 'down' } });
  });

  it('exports request latency by route template', async () => {
    const app = buildApp();
    await request(app)
      .post('/api/invoices')
      .set('authorization', await bearer(['*']))
      .send({ grossP: 1, reference: 'a' });
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/invoices"[^}]*status_code="201"/,
    );
  });

  it('serves an OpenAPI document generated from the route schemas', async () => {
    const res = await request(buildApp()).get('/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    const operation = res.body.paths['/api/invoices'].post;
    expect(operation['x-required-scopes']).toEqual(['cis.invoices.create']);
    expect(operation.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['grossP', 'reference'],
      properties: { grossP: { type: 'integer', minimum: 0 } },
    });
    expect(operation.parameters).toEqual([
      expect.objectContaining({ name: 'dryRun', in: 'query', required: false }),
    ]);
    expect(res.body.paths['/api/conflict'].get.security).toEqual([]);
  });
});

describe('response schemas', () => {
  const answer = z.object({ id: z.string(), totalP: z.number().int() });

  function answering(value: unknown, validateResponses: boolean) {
    const api = new ApiRouter()
      .route({
        method: 'get',
        path: '/thing',
        summary: 'A thing',
        public: true,
        responses: { 200: { description: 'The thing', schema: answer } },
        handler: () => Promise.resolve(value as z.input<typeof answer>),
      })
      .route({
        method: 'get',
        path: '/free',
        summary: 'Anything',
        public: true,
        responses: { 200: { description: 'No schema' } },
        handler: () => Promise.resolve(value),
      });
    return createServiceApp({
      name: 'test',
      logger: createLogger({ name: 'test', level: 'silent' }),
      metrics: createMetricsRegistry('test'),
      readiness: {},
      apis: [{ basePath: '/api', api }],
      validateResponses,
    });
  }

  it('answers a value that matches its schema as it is', async () => {
    const res = await request(answering({ id: 'a', totalP: 5, extra: true }, true)).get('/api/thing');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'a', totalP: 5, extra: true });
  });

  it('fails loudly (a 500) when checking and the answer does not match its schema', async () => {
    const res = await request(answering({ id: 'a', totalP: 'five' }, true)).get('/api/thing');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'internal_error' });
  });

  it('sends the answer unchecked when not checking, and never checks a route without a schema', async () => {
    expect((await request(answering({ id: 'a', totalP: 'five' }, false)).get('/api/thing')).status).toBe(200);
    expect((await request(answering({ id: 'a', totalP: 'five' }, true)).get('/api/free')).status).toBe(200);
  });

  it('names the route and the field when the answer does not match', () => {
    const error = new ResponseSchemaError(
      'GET /thing',
      answer.safeParse({ id: 1, totalP: 1 }).error?.issues ?? [],
    );
    expect(error.message).toMatch(/^The answer of GET \/thing does not match its response schema: id: /);
  });

  it("types a handler's return by its success schema (make typecheck proves it)", () => {
    const api = new ApiRouter()
      .route({
        method: 'post',
        path: '/things',
        summary: 'Create',
        public: true,
        status: 201,
        responses: { 201: { description: 'Created', schema: answer } },
        // @ts-expect-error totalP must be a number
        handler: () => Promise.resolve({ id: 'a', totalP: 'five' }),
      })
      .route({
        method: 'get',
        path: '/loose',
        summary: 'Any object',
        public: true,
        responses: { 200: { description: 'Any object', schema: z.record(z.string(), z.unknown()) } },
        handler: () => Promise.resolve(new Map<string, number>()),
      });
    expect(api.operations).toHaveLength(2);
  });
});
