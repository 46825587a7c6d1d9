import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  cloudEventHeaders,
  createDatabase,
  createLogger,
  enableTenantIsolation,
  eventKey,
  KafkaBus,
  migrateLatest,
  newEventId,
  provisionServiceSchema,
  startConsumer,
  type BusMessage,
  type Knex,
  type Subscription,
} from '../src/index.js';
import { createTestDatabase, eventually, testInfra, type TestDatabase } from '../src/testing/index.js';

/**
 * A consumer acts only on events its topic's producer can have written (ADR 0034), against the shared Kafka and
 * PostgreSQL: a topic of this run's own (so nobody else's consumers see the forged events), one producer
 * declared for it, and events from that producer, from another service, and with a tenant header the payload
 * contradicts.
 */
const SCHEMA = 'trust';
const APPLIED = 'testing.trust.applied';
const run = randomBytes(4).toString('hex');
const topic = `trust-test-${run}.events.v1`;

let database: TestDatabase;
let db: Knex;
let bus: KafkaBus;
let subscription: Subscription;
const logger = createLogger({ name: 'consumer-trust-test', level: 'silent' });
const logged = jest.spyOn(logger, 'error');

beforeAll(async () => {
  database = await createTestDatabase('consumer_trust');
  const roles = await provisionServiceSchema(database.adminUrl, {
    schema: SCHEMA,
    role: 'svc_trust',
    password: 'trust-test-password',
    ownerPassword: 'trust-owner-test-password',
  });
  const owner = createDatabase({ url: roles.migrationUrl, schema: SCHEMA, poolMax: 1, logger });
  try {
    await migrateLatest(owner, SCHEMA, [
      {
        name: '001_applied',
        async up(knex) {
          await knex.schema.createTable('applied', (table) => {
            table.text('tenant_id').notNullable();
            table.uuid('event_id').primary();
          });
          await enableTenantIsolation(knex, 'applied');
        },
        async down(knex) {
          await knex.schema.dropTable('applied');
        },
      },
    ]);
  } finally {
    await owner.destroy();
  }
  db = createDatabase({ url: roles.databaseUrl, schema: SCHEMA, poolMax: 2, logger });
  bus = new KafkaBus({
    clientId: `trust-test-${run}`,
    brokers: [testInfra().kafkaBrokers],
    logger,
    partitions: 1,
  });
  await bus.ensureTopics([topic]);
  subscription = await startConsumer({
    db,
    bus,
    logger,
    groupId: `trust-test-${run}`,
    topics: { [topic]: 'alpha' },
    handlers: {
      [APPLIED]: async (event, trx) => {
        // Under row-level security: the row is accepted only for the tenant the consumer set from the header.
        await trx('applied').insert({ tenant_id: event.tenantId, event_id: event.id });
      },
    },
  });
});

afterAll(async () => {
  await subscription.stop();
  await bus.close();
  await db.destroy();
  await database.drop();
});

const event = (
  source: string,
  tenantId: string,
  data: Record<string, unknown>,
): BusMessage & { id: string } => {
  const id = newEventId();
  return {
    id,
    topic,
    // One key: the events stay in order, so once the last is applied every earlier one has been handled.
    key: eventKey('any', 'ledger'),
    value: JSON.stringify(data),
    headers: cloudEventHeaders({ id, type: APPLIED, source, time: new Date().toISOString(), tenantId }),
  };
};

const appliedIds = () =>
  db.transaction(async (trx) => {
    // The runtime role sees no row without a tenant: read each tenant's through its own setting.
    const ids: string[] = [];
    for (const tenantId of ['t-alpha', 't-other']) {
      await trx.raw("SELECT set_config('app.tenant_id', ?, true)", [tenantId]);
      const rows = await trx('applied').select<{ event_id: string }[]>('event_id');
      ids.push(...rows.map((row) => row.event_id));
    }
    return ids;
  });

describe("a consumer trusts only its topic's producer", () => {
  it('applies events from the declared producer and skips, with a log line, forged source and tenant', async () => {
    const genuine = event('/workspace/alpha', 't-alpha', { note: 'from alpha' });
    const forgedSource = event('/workspace/beta', 't-alpha', { note: 'beta pretending' });
    const tenantMismatch = event('/workspace/alpha', 't-alpha', { tenantId: 't-other' });
    const genuineOther = event('/workspace/alpha', 't-other', { tenantId: 't-other' });
    await bus.publish([genuine, forgedSource, tenantMismatch, genuineOther]);

    const ids = await eventually(
      async () => {
        const found = await appliedIds();
        return found.includes(genuineOther.id) ? found : undefined;
      },
      30_000,
      'the last genuine event applied',
    );
    expect(ids.sort()).toEqual([genuine.id, genuineOther.id].sort());

    const inbox = await db('inbox')
      .whereIn('event_id', [forgedSource.id, tenantMismatch.id])
      .select('event_id');
    expect(inbox).toEqual([]);

    const refusals = logged.mock.calls
      .filter(([, text]) => text === 'refusing untrusted event')
      .map(([fields]) => fields as { id: string; reason: string; topic: string });
    expect(refusals).toEqual([
      expect.objectContaining({
        id: forgedSource.id,
        topic,
        reason: "source /workspace/beta is not the topic's producer /workspace/alpha",
      }),
      expect.objectContaining({
        id: tenantMismatch.id,
        reason: "ce_tenantid t-alpha disagrees with the payload's tenant t-other",
      }),
    ]);
  });
});
