// `make up` starts the audit service by its `./embedded` entry (deploy/local/embedded.ts finds it). This starts that
// entry as the runner does (on a free port here: the tests never bind make up's ports), on the in-process bus, and
// checks it takes the events the other embedded services publish there and signs with its local secret's key.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  cloudEventHeaders,
  createLogger,
  eventSource,
  MemoryBus,
  provisionServiceSchema,
} from '@workspace/kit';
import { embeddedServiceEnv, type EmbeddedContext, type EmbeddedRunning } from '@workspace/kit/embedding';
import { createTestDatabase, eventually, type TestDatabase } from '@workspace/kit/testing';
import pg from 'pg';
import { embedded } from '../src/embedded.js';

let database: TestDatabase;
let running: (EmbeddedRunning & { port?: number }) | undefined;
const bus = new MemoryBus(createLogger({ name: 'bus', level: 'silent' }));
const secretsAsked: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase('audit_embedded');
});

afterAll(async () => {
  await running?.shutdown('test');
  await bus.close();
  await database.drop();
});

function context(): EmbeddedContext {
  const env = { LISTEN_HOST: '127.0.0.1', LOG_LEVEL: 'silent' };
  return {
    env,
    bus,
    logger: createLogger({ name: 'embedded', level: 'silent' }),
    publicUrl: 'http://localhost:8080',
    urlOf: (name) => {
      throw new Error(`the audit service asked for ${name}`);
    },
    secret: (name) => {
      secretsAsked.push(name);
      return randomBytes(32).toString('hex');
    },
    serviceEnv: async (options) => ({
      ...embeddedServiceEnv({
        env,
        port: embedded.port,
        roles: await provisionServiceSchema(database.adminUrl, {
          ...options,
          password: 'audit-embedded',
          ownerPassword: 'audit-embedded-owner',
        }),
        identityUrl: 'http://127.0.0.1:9',
      }),
      // A free port: make up's (8085) belongs to the integrator's runs.
      PORT: '0',
    }),
    oidc: { issuer: 'http://localhost:8090', clientId: 'workspace', clientSecret: 'x' },
    demoTenant: {},
    demoTenantId: 'demo',
    webDist: '/nonexistent',
  };
}

describe("the audit service's embedded entry (make up)", () => {
  it('starts after identity, cis and the drive, appends the events on the in-process bus and signs with a local key', async () => {
    expect(embedded).toMatchObject({ name: 'audit', port: 8085, after: ['identity', 'cis', 'drive'] });
    running = await embedded.start(context());
    const base = `http://127.0.0.1:${String(running.port)}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(secretsAsked).toEqual(['auditCheckpointSeed']);
    const key = await fetch(`${base}/v1/checkpoints/public-key`);
    expect(key.status).toBe(200);
    expect(((await key.json()) as { algorithm: string }).algorithm).toBe('ed25519');

    const tenantId = `t-embedded-${randomBytes(3).toString('hex')}`;
    const id = randomUUID();
    await bus.publish([
      {
        topic: 'cis.events.v1',
        key: `${tenantId}:inv-1`,
        value: JSON.stringify({ actorId: 'u1', targetType: 'invoice', targetId: 'inv-1' }),
        headers: cloudEventHeaders({
          id,
          type: 'cis.invoice.approved',
          source: eventSource('cis'),
          time: new Date().toISOString(),
          subject: 'inv-1',
          tenantId,
        }),
      },
    ]);
    const client = new pg.Client({ connectionString: database.adminUrl });
    await client.connect();
    try {
      const row = await eventually(
        async () =>
          (
            await client.query<{ seq: number; action: string }>(
              'SELECT seq, action FROM audit.audit_entries WHERE tenant_id = $1 AND source_event_id = $2',
              [tenantId, id],
            )
          ).rows[0],
        30_000,
        'the entry',
      );
      expect(row).toEqual({ seq: 1, action: 'cis.invoice.approved' });
    } finally {
      await client.end();
    }
  });
});
