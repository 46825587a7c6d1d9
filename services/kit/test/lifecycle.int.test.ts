import http from 'node:http';
import request from 'supertest';
import {
  createTestDatabase,
  createTestIssuer,
  eventually,
  infraCommand,
  testInfra,
  type TestDatabase,
  type TestIssuer,
} from '../src/testing/index.js';
import { startLedgerService } from './fixtures/ledger-service.js';

let database: TestDatabase;
let issuer: TestIssuer;

beforeAll(async () => {
  database = await createTestDatabase('lifecycle');
  issuer = await createTestIssuer();
});

afterAll(async () => {
  await database.drop();
});

const start = () =>
  startLedgerService(database.adminUrl, { KAFKA_BROKERS: testInfra().kafkaBrokers }, { keys: issuer.keys });

describe('readiness', () => {
  it('answers 503 while PostgreSQL is down and 200 after it returns, without a restart', async () => {
    const service = await start();
    try {
      expect((await request(service.server).get('/readyz')).status).toBe(200);
      await infraCommand('postgres', 'stop');
      try {
        const down = await request(service.server).get('/readyz');
        expect(down.status).toBe(503);
        expect(down.body.checks).toEqual({ database: 'down', bus: 'up' });
        expect((await request(service.server).get('/healthz')).status).toBe(200);
      } finally {
        await infraCommand('postgres', 'start');
      }
      await eventually(
        async () => (await request(service.server).get('/readyz')).status === 200,
        30_000,
        'ready again',
      );
      const token = await issuer.token({ tenantId: 'tenant-r', scopes: ['ledger.write'] });
      const write = await request(service.server)
        .post('/api/ledgers/after-outage/entries')
        .set('authorization', `Bearer ${token}`)
        .send({ amountP: 1, note: 'after the outage' });
      expect(write.status).toBe(201);
    } finally {
      await service.shutdown();
    }
  });
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests and refuses new connections', async () => {
    const service = await start();
    const token = await issuer.token({ tenantId: 'tenant-s', scopes: [] });
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(
        {
          port: service.port,
          host: '127.0.0.1',
          path: '/api/slow?ms=1500',
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      req.on('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopping = service.shutdown('test');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(
      new Promise((resolve, reject) => {
        http.get({ port: service.port, host: '127.0.0.1', path: '/healthz' }, resolve).on('error', reject);
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
    const finished = await inFlight;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body)).toEqual({ waitedMs: 1500 });
    await stopping;
  });
});
