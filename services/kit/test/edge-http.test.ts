import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import {
  ApiRouter,
  baseConfigSchema,
  createLogger,
  createManagementApp,
  createMetricsRegistry,
  createServiceApp,
  loadConfig,
  runService,
  serveSse,
  SseHub,
  type ServiceAppOptions,
} from '../src/index.js';
import { createTestIssuer, type TestIssuer } from '../src/testing/index.js';

/*
 * The kit's HTTP edge (security review 2026-11-26): bodies read per route after authentication with small limits
 * by default (M6), the operational endpoints on a management port of their own (L4), `trust proxy` as a hop count
 * (L2), and a stream that ends with its access token (L6).
 */

let issuer: TestIssuer;
const logger = createLogger({ name: 'test', level: 'silent' });

beforeAll(async () => {
  issuer = await createTestIssuer();
});

const echo = z.object({ text: z.string() });

function routes(): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'post',
      path: '/notes',
      summary: 'A signed-in route with the default body limit',
      scopes: [],
      request: { body: echo },
      responses: { 200: { description: 'Its length', schema: z.object({ length: z.number() }) } },
      handler: ({ body }) => Promise.resolve({ length: body.text.length }),
    })
    .route({
      method: 'post',
      path: '/imports',
      summary: 'A signed-in route that takes a file',
      scopes: [],
      bodyLimit: '2mb',
      request: { body: echo },
      responses: { 200: { description: 'Its length', schema: z.object({ length: z.number() }) } },
      handler: ({ body }) => Promise.resolve({ length: body.text.length }),
    })
    .route({
      method: 'post',
      path: '/public',
      summary: 'A public route with the default body limit',
      public: true,
      request: { body: echo },
      responses: { 200: { description: 'Its length', schema: z.object({ length: z.number() }) } },
      handler: ({ body }) => Promise.resolve({ length: body.text.length }),
    });
}

function options(overrides: Partial<ServiceAppOptions> = {}): ServiceAppOptions {
  return {
    name: 'edge',
    logger,
    metrics: createMetricsRegistry('edge'),
    auth: { keys: issuer.keys, issuer: issuer.issuer, audience: issuer.audience },
    readiness: {},
    apis: [{ basePath: '/v1', api: routes() }],
    ...overrides,
  };
}

const bearer = async () => `Bearer ${await issuer.token({ tenantId: 'acme', scopes: [] })}`;
const text = (bytes: number) => ({ text: 'x'.repeat(bytes) });

describe('JSON bodies (M6)', () => {
  it('refuses a body over the default 256 kB with 413 problem+json, on a signed-in and on a public route', async () => {
    const app = createServiceApp(options());
    const signedIn = await request(app)
      .post('/v1/notes')
      .set('authorization', await bearer())
      .send(text(300 * 1024));
    expect(signedIn.status).toBe(413);
    expect(signedIn.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(signedIn.body).toMatchObject({
      status: 413,
      code: 'payload_too_large',
      detail: 'The request body is too large.',
    });
    const anonymous = await request(app)
      .post('/v1/public')
      .send(text(300 * 1024));
    expect(anonymous.status).toBe(413);
    expect(anonymous.body.code).toBe('payload_too_large');

    const small = await request(app)
      .post('/v1/notes')
      .set('authorization', await bearer())
      .send(text(200 * 1024));
    expect(small.status).toBe(200);
    expect(small.body).toEqual({ length: 200 * 1024 });
  });

  it('gives a route its own larger limit, and still refuses beyond it', async () => {
    const app = createServiceApp(options());
    const file = await request(app)
      .post('/v1/imports')
      .set('authorization', await bearer())
      .send(text(1024 * 1024));
    expect(file.status).toBe(200);
    expect(file.body).toEqual({ length: 1024 * 1024 });
    const tooLarge = await request(app)
      .post('/v1/imports')
      .set('authorization', await bearer())
      .send(text(3 * 1024 * 1024));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.code).toBe('payload_too_large');
  });

  it('reads no body before the caller is authenticated: an anonymous 1 MB of broken JSON is a 401, not a parse error', async () => {
    const app = createServiceApp(options({ bodyLimit: '16mb' }));
    const broken = `{"text":"${'x'.repeat(1024 * 1024)}`;
    const res = await request(app).post('/v1/imports').set('content-type', 'application/json').send(broken);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    // The same body from a signed-in caller is read, and is not JSON.
    const signedIn = await request(app)
      .post('/v1/imports')
      .set('authorization', await bearer())
      .set('content-type', 'application/json')
      .send(broken);
    expect(signedIn.status).toBe(400);
    expect(signedIn.body.detail).toBe('The request body is not valid JSON.');
  });
});

describe('operational endpoints on a management port (L4)', () => {
  it('serves them on the public app by default (local runs)', async () => {
    const app = createServiceApp(options());
    expect((await request(app).get('/metrics')).status).toBe(200);
    expect((await request(app).get('/healthz')).status).toBe(200);
  });

  it('leaves them off the public app when separate: 404 there, answered by the management app', async () => {
    const app = createServiceApp(options({ separateManagement: true }));
    for (const path of ['/metrics', '/openapi.json', '/readyz', '/healthz']) {
      const res = await request(app).get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    const management = createManagementApp(options());
    const metrics = await request(management).get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('nodejs_version_info');
    expect((await request(management).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(management).get('/readyz')).status).toBe(200);
    const openApi = await request(management).get('/openapi.json');
    expect(Object.keys(openApi.body.paths as object)).toContain('/v1/notes');
    // The management app serves nothing else.
    expect((await request(management).post('/v1/public').send(text(1))).status).toBe(404);
  });

  it('runService listens on both ports; the management port answers /readyz 503 while draining', async () => {
    const lifecycle = { draining: false };
    const running = await runService({
      app: createServiceApp(options({ separateManagement: true, lifecycle })),
      port: 0,
      host: '127.0.0.1',
      logger,
      lifecycle,
      management: { app: createManagementApp(options({ lifecycle })), port: 0 },
      onShutdown: [],
    });
    try {
      expect(running.managementPort).toEqual(expect.any(Number));
      expect(running.managementPort).not.toBe(running.port);
      const publicMetrics = await fetch(`http://127.0.0.1:${running.port}/metrics`);
      expect(publicMetrics.status).toBe(404);
      const managementMetrics = await fetch(`http://127.0.0.1:${String(running.managementPort)}/metrics`);
      expect(managementMetrics.status).toBe(200);
      lifecycle.draining = true;
      const draining = await fetch(`http://127.0.0.1:${String(running.managementPort)}/readyz`);
      expect(draining.status).toBe(503);
    } finally {
      await running.shutdown('test');
    }
  });

  it('MANAGEMENT_PORT is optional and must be a port', () => {
    expect(
      loadConfig(baseConfigSchema, { DATABASE_URL: 'postgres://u@h/db' }).MANAGEMENT_PORT,
    ).toBeUndefined();
    expect(
      loadConfig(baseConfigSchema, { DATABASE_URL: 'postgres://u@h/db', MANAGEMENT_PORT: '9090' })
        .MANAGEMENT_PORT,
    ).toBe(9090);
    expect(() =>
      loadConfig(baseConfigSchema, { DATABASE_URL: 'postgres://u@h/db', MANAGEMENT_PORT: '70000' }),
    ).toThrow(/MANAGEMENT_PORT/);
  });
});

describe('TRUST_PROXY as a hop count or proxy addresses (L2)', () => {
  const parse = (value: string) =>
    loadConfig(baseConfigSchema, { DATABASE_URL: 'postgres://u@h/db', TRUST_PROXY: value }).TRUST_PROXY;

  it('takes false, a hop count or addresses/CIDRs, and refuses true (every hop) and anything else', () => {
    expect(parse('false')).toBe(false);
    expect(parse('0')).toBe(false);
    expect(parse('1')).toBe(1);
    expect(parse('2')).toBe(2);
    expect(parse('10.0.0.0/8, 192.168.1.7,fd00::/8')).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    expect(() => parse('true')).toThrow(/TRUST_PROXY=true would trust every hop/);
    for (const bad of ['yes', '10.0.0.0/33', '300.1.1.1', 'proxy.example.com', '-1']) {
      expect(() => parse(bad)).toThrow(/TRUST_PROXY/);
    }
  });

  it('with one hop, the client address is the one the proxy appended, whatever the client put before it', async () => {
    const app = express();
    app.set('trust proxy', parse('1'));
    app.get('/ip', (req, res) => {
      res.json({ ip: req.ip });
    });
    const spoofed = await request(app).get('/ip').set('x-forwarded-for', '1.2.3.4, 203.0.113.9');
    const other = await request(app).get('/ip').set('x-forwarded-for', '5.6.7.8, 203.0.113.9');
    expect(spoofed.body).toEqual({ ip: '203.0.113.9' });
    expect(other.body).toEqual({ ip: '203.0.113.9' });
  });
});

describe('streams end with their access token (L6)', () => {
  /** A service whose stream route serves the hub with the given clock; its address and the hub. */
  async function streamService(now: () => number) {
    const hub = new SseHub({
      name: 'test-hub',
      databaseUrl: 'postgres://unused@127.0.0.1:1/none',
      channel: 'unused',
      parse: () => undefined,
    });
    const api = new ApiRouter().route({
      method: 'get',
      path: '/stream',
      summary: 'A stream',
      scopes: [],
      responses: { 200: { description: 'text/event-stream' } },
      handler: ({ ctx, req, res }) => serveSse(hub, ctx.tenantId, req, res, { now }),
    });
    const server = http.createServer(createServiceApp(options({ apis: [{ basePath: '/v1', api }] })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      hub,
      base,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => {
            resolve();
          });
        }),
    };
  }

  it('ends the stream once the token that opened it has expired', async () => {
    // The service's clock is past the token's exp (a 5-minute token): the stream ends as soon as it is open.
    const service = await streamService(() => Date.now() + 6 * 60_000);
    try {
      const res = await fetch(`${service.base}/v1/stream`, { headers: { authorization: await bearer() } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('retry: 5000\n\n');
      expect(service.hub.subscriberCount('acme')).toBe(0);
    } finally {
      await service.close();
    }
  });

  it('keeps the stream while the token is valid', async () => {
    const service = await streamService(Date.now);
    try {
      const controller = new AbortController();
      const res = await fetch(`${service.base}/v1/stream`, {
        headers: { authorization: await bearer() },
        signal: controller.signal,
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      expect(decoder.decode((await reader.read()).value)).toBe('retry: 5000\n\n');
      service.hub.publish({ tenantId: 'acme', event: 'changed', data: '{}' });
      expect(decoder.decode((await reader.read()).value)).toBe('event: changed\ndata: {}\n\n');
      controller.abort();
    } finally {
      await service.close();
    }
  });
});
