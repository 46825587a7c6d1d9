import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createLogger, HttpProblem, ServiceClient, UpstreamProblem } from '../src/index.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Reply = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

let server: Server;
let baseUrl: string;
let seen: Seen[];
let replies: Reply[];

const json = (status: number, body: unknown, type = 'application/json'): Reply => {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
  };
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      const reply = replies.length > 1 ? replies.shift() : replies[0];
      reply?.(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  replies = [json(200, { ok: true })];
});

const client = (overrides: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}) =>
  new ServiceClient({
    service: 'ledger',
    baseUrl: `${baseUrl}/`,
    timeoutMs: 2000,
    internalToken: 'internal-secret',
    logger: createLogger({ name: 'test', level: 'silent' }),
    retry: { retries: 2, backoffMs: 1 },
    ...overrides,
  });

async function problemOf(call: Promise<unknown>): Promise<UpstreamProblem> {
  const error: unknown = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UpstreamProblem);
  return error as UpstreamProblem;
}

describe(ServiceClient.name, () => {
  describe('request', () => {
    it('sends JSON with the internal token and answers the JSON it got', async () => {
      const answer = await client().post({
        path: '/v1/things',
        query: { tenantId: 't1', skip: undefined },
        body: { name: 'a' },
        caller: 'internal',
      });

      expect(answer).toEqual({ ok: true });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/things?tenantId=t1', body: '{"name":"a"}' });
      expect(seen[0]?.headers).toMatchObject({
        'x-internal-token': 'internal-secret',
        'content-type': 'application/json',
        accept: 'application/json',
      });
      expect(seen[0]?.headers.authorization).toBeUndefined();
    });

    it("passes the user's authorization header on, or their access token as a bearer token", async () => {
      await client().get({ path: '/v1/me', caller: { authorization: 'Bearer user-token' } });
      await client().get({ path: '/v1/me', caller: { accessToken: 'other-token' } });
      await client().get({ path: '/v1/public' });

      expect(seen.map((entry) => entry.headers.authorization)).toEqual([
        'Bearer user-token',
        'Bearer other-token',
        undefined,
      ]);
      expect(seen.every((entry) => entry.headers['x-internal-token'] === undefined)).toBe(true);
    });

    it('answers undefined for 204', async () => {
      replies = [(_req, res) => res.writeHead(204).end()];

      expect(await client().delete({ path: '/v1/things/1', caller: 'internal' })).toBeUndefined();
    });
  });

  describe('response parsing', () => {
    const thing = z.object({ id: z.string(), count: z.coerce.number() });

    it('answers the parsed value when the schema matches', async () => {
      replies = [json(200, { id: 'x', count: '3', extra: 1 })];

      const answer = await client().get({ path: '/v1/thing', schema: thing });

      expect(answer).toEqual({ id: 'x', count: 3 });
    });

    it('is a 502 naming the service when the answer does not match the schema', async () => {
      replies = [json(200, { id: 7 })];

      const problem = await problemOf(client().get({ path: '/v1/thing', schema: thing }));

      expect(problem).toMatchObject({
        status: 502,
        code: 'ledger_bad_response',
        detail: 'The ledger service answered unexpectedly.',
      });
    });
  });

  describe('problem mapping', () => {
    it("keeps a refusal's status, code, detail and field errors", async () => {
      const errors = [{ field: 'body.name', message: 'Required' }];
      replies = [
        json(
          422,
          {
            type: '/problems/x',
            title: 'x',
            status: 422,
            code: 'name_missing',
            detail: 'Name is required',
            errors,
          },
          'application/problem+json',
        ),
      ];

      const problem = await problemOf(client().post({ path: '/v1/things', body: {} }));

      expect(problem).toBeInstanceOf(HttpProblem);
      expect(problem).toMatchObject({
        status: 422,
        code: 'name_missing',
        detail: 'Name is required',
        errors,
      });
      expect(problem.upstream).toMatchObject({
        status: 422,
        code: 'name_missing',
        detail: 'Name is required',
      });
    });

    it("fills in the client's code and detail when the refusal carried none", async () => {
      replies = [(_req, res) => res.writeHead(404).end('not json')];

      const plain = await problemOf(client().get({ path: '/v1/nothing' }));
      const chosen = await problemOf(
        client({ failure: { code: 'ledger_error', detail: 'The ledger refused.' } }).get({
          path: '/v1/nothing',
        }),
      );

      expect(plain).toMatchObject({ status: 404, code: 'upstream_failed', detail: 'Not Found' });
      expect(plain.upstream.detail).toBeUndefined();
      expect(chosen).toMatchObject({ status: 404, code: 'ledger_error', detail: 'The ledger refused.' });
    });

    it('makes a 5xx a 502 with the upstream code, or keeps its status when asked to', async () => {
      replies = [json(500, { code: 'internal_error', detail: 'An unexpected error occurred.' })];

      const gateway = await problemOf(client().post({ path: '/v1/things', body: {} }));
      const passed = await problemOf(
        client({ failure: { serverErrors: 'pass' } }).post({ path: '/v1/things', body: {} }),
      );

      expect(gateway).toMatchObject({ status: 502, code: 'internal_error' });
      expect(gateway.upstream.status).toBe(500);
      expect(passed).toMatchObject({ status: 500, code: 'internal_error' });
    });
  });

  describe('unreachable', () => {
    it("is a 503 'unavailable' with the client's or the call's message", async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const gone = client({
        baseUrl: `http://127.0.0.1:${port}`,
        unavailable: { detail: 'The ledger is away.' },
      });

      const byClient = await problemOf(gone.get({ path: '/v1/thing' }));
      const byCall = await problemOf(
        gone.post({ path: '/v1/thing', unavailable: 'Failed to send invitation' }),
      );
      const byDefault = await problemOf(client({ baseUrl: `http://127.0.0.1:${port}` }).get({ path: '/x' }));

      expect(byClient).toMatchObject({ status: 503, code: 'unavailable', detail: 'The ledger is away.' });
      expect(byClient.upstream.status).toBeUndefined();
      expect(byCall).toMatchObject({ status: 503, code: 'unavailable', detail: 'Failed to send invitation' });
      expect(byDefault.detail).toBe('The ledger service is temporarily unavailable.');
    });
  });

  describe('timeout', () => {
    it('gives up after the timeout with a 503 and does not retry even an idempotent call', async () => {
      const hanging: ServerResponse[] = [];
      replies = [(_req, res) => hanging.push(res)];

      const problem = await problemOf(client().get({ path: '/v1/slow', timeoutMs: 100 }));

      expect(problem).toMatchObject({ status: 503, code: 'unavailable' });
      expect(seen).toHaveLength(1);
      for (const res of hanging) res.end();
    });
  });

  describe('retries', () => {
    const flaky = () => [json(503, { code: 'draining' }), json(502, {}), json(200, { ok: true })];

    it.each(['get', 'put', 'delete'] as const)(
      'retries an idempotent %s after a 502/503/504',
      async (method) => {
        replies = flaky();

        expect(
          await client()[method]({ path: '/v1/thing', body: method === 'put' ? {} : undefined }),
        ).toEqual({
          ok: true,
        });
        expect(seen).toHaveLength(3);
      },
    );

    it('does not retry a POST or PATCH', async () => {
      replies = flaky();
      const post = await problemOf(client().post({ path: '/v1/thing', body: {} }));
      replies = flaky();
      const patch = await problemOf(client().patch({ path: '/v1/thing', body: {} }));

      expect(post).toMatchObject({ status: 502, code: 'draining' });
      expect(patch).toMatchObject({ status: 502 });
      expect(seen).toHaveLength(2);
    });

    it('retries a POST marked idempotent', async () => {
      replies = flaky();

      expect(await client().post({ path: '/v1/thing', body: {}, idempotent: true })).toEqual({ ok: true });
      expect(seen).toHaveLength(3);
    });

    it('stops after the configured retries and answers the last failure', async () => {
      replies = [json(503, { code: 'draining', detail: 'Draining' })];

      const problem = await problemOf(
        client({ retry: { retries: 1, backoffMs: 1 } }).get({ path: '/v1/thing' }),
      );

      expect(problem).toMatchObject({ status: 502, code: 'draining', detail: 'Draining' });
      expect(seen).toHaveLength(2);
    });

    it('does not retry a refusal', async () => {
      replies = [json(409, { code: 'conflict' })];

      await problemOf(client().put({ path: '/v1/thing', body: {} }));

      expect(seen).toHaveLength(1);
    });
  });

  describe('open', () => {
    it('answers the raw response whatever its status', async () => {
      replies = [json(409, { code: 'conflict' }, 'application/problem+json')];

      const response = await client().open('POST', { path: '/v1/thing', body: {} });

      expect(response.status).toBe(409);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toEqual({ code: 'conflict' });
    });
  });

  describe('healthy', () => {
    it('is true for a 2xx health check and false for no answer', async () => {
      expect(await client().healthy()).toBe(true);
      expect(seen[0]?.url).toBe('/healthz');
      expect(await client({ baseUrl: 'http://127.0.0.1:1' }).healthy()).toBe(false);
    });
  });
});
