import { randomBytes } from 'node:crypto';
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
  setTransactionTenant,
  startConsumer,
  type BusMessage,
  type Knex,
  type ReceivedEvent,
  type Subscription,
} from '../src/index.js';
import { createTestDatabase, eventually, testInfra, type TestDatabase } from '../src/testing/index.js';

/**
 * The consumer's batch mode against the shared Kafka and PostgreSQL (a one-partition topic of this run's own): a run
 * of a partition's events reaches the batch handler in one call and one transaction with their inbox rows; a repeated
 * event is handled once; a failing batch is rolled back and retried whole, so nothing is dropped or skipped.
 */
const SCHEMA = 'batching';
const APPLIED = 'testing.batch.applied';
const run = randomBytes(4).toString('hex');
const topic = `batch-test-${run}.events.v1`;
const groupId = `batch-test-${run}`;

let database: TestDatabase;
let db: Knex;
let bus: KafkaBus;
let subscription: Subscription;
const logger = createLogger({ name: 'consumer-batch-test', level: 'silent' });
/** The ids of each call of the batch handler, in order; and whether it is to fail (and how often it has). */
const calls: string[][] = [];
const refusal = { refuse: false, attempts: 0 };

beforeAll(async () => {
  database = await createTestDatabase('consumer_batch');
  const roles = await provisionServiceSchema(database.adminUrl, {
    schema: SCHEMA,
    role: 'svc_batching',
    password: 'batch-test-password',
    ownerPassword: 'batch-owner-test-password',
  });
  const owner = createDatabase({ url: roles.migrationUrl, schema: SCHEMA, poolMax: 1, logger });
  try {
    await migrateLatest(owner, SCHEMA, [
      {
        name: '001_applied',
        async up(knex) {
          await knex.schema.createTable('applied', (table) => {
            table.bigIncrements('n');
            table.text('tenant_id').notNullable();
            table.uuid('event_id').notNullable();
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
  bus = new KafkaBus({ clientId: groupId, brokers: [testInfra().kafkaBrokers], logger, partitions: 1 });
  await bus.ensureTopics([topic]);
  const apply = async (events: ReceivedEvent[], trx: Knex.Transaction) => {
    calls.push(events.map((event) => event.id));
    for (const event of events) {
      // Under row-level security: the handler sets each event's tenant before writing its row.
      await setTransactionTenant(trx, event.tenantId);
      await trx('applied').insert({ tenant_id: event.tenantId, event_id: event.id });
    }
    if (refusal.refuse && events.some((event) => (event.data as { fail?: boolean }).fail)) {
      refusal.attempts++;
      throw new Error('disk full (test)');
    }
  };
  subscription = await startConsumer({
    db,
    bus,
    logger,
    groupId,
    topics: { [topic]: 'alpha' },
    handlers: {
      [APPLIED]: () => Promise.reject(new Error('batch mode calls the batch handler only')),
    },
    batchHandler: apply,
  });
});

afterAll(async () => {
  await subscription.stop();
  await bus.close();
  await db.destroy();
  await database.drop();
});

const event = (
  tenantId: string,
  data: Record<string, unknown> = {},
  id = newEventId(),
): BusMessage & { id: string } => ({
  id,
  topic,
  key: eventKey(tenantId, 'ledger'),
  value: JSON.stringify(data),
  headers: cloudEventHeaders({
    id,
    type: APPLIED,
    source: '/workspace/alpha',
    time: new Date().toISOString(),
    tenantId,
  }),
});

/** The applied rows (event ids in the order written), every tenant's. */
const applied = () =>
  db.transaction(async (trx) => {
    const rows: { n: string; event_id: string }[] = [];
    for (const tenantId of ['t-one', 't-two']) {
      await setTransactionTenant(trx, tenantId);
      rows.push(...(await trx('applied').select<{ n: string; event_id: string }[]>('n', 'event_id')));
    }
    return rows.sort((a, b) => Number(a.n) - Number(b.n)).map((row) => row.event_id);
  });

describe('a batch consumer', () => {
  it('handles a run with a repeated event once, retries it whole while it fails, and skips nothing', async () => {
    refusal.refuse = true;
    const first = event('t-one');
    const second = event('t-two');
    const repeat = event('t-one', {}, first.id);
    const failing = event('t-two', { fail: true });
    const last = event('t-one');
    // One send: the records arrive in one fetch, so one call of the handler has them all.
    await bus.publish([first, second, repeat, failing, last]);

    await eventually(() => Promise.resolve(refusal.attempts >= 2), 60_000, 'two failed attempts');
    // Rolled back each time: no row of the run, and no inbox row either (or the retry would skip the events).
    expect(await applied()).toEqual([]);
    const ids = [first.id, second.id, failing.id, last.id];
    expect(await db('inbox').where({ consumer_group: groupId }).whereIn('event_id', ids)).toEqual([]);
    // Each attempt got the whole run, in offset order, the repeated event once.
    expect(calls.at(-1)).toEqual(ids);

    refusal.refuse = false;
    const rows = await eventually(
      async () => {
        const found = await applied();
        return found.includes(last.id) ? found : undefined;
      },
      60_000,
      'the run applied',
    );
    expect(rows).toEqual(ids);
    const inbox = await db('inbox')
      .where({ consumer_group: groupId })
      .select<{ event_id: string }[]>('event_id');
    expect(inbox.map((row) => row.event_id).sort()).toEqual([...ids].sort());

    // Delivered again in a later run: already in the inbox, so the handler does not get it; the new event it does.
    const later = event('t-two');
    const before = calls.length;
    await bus.publish([event('t-one', {}, first.id), later]);
    await eventually(async () => (await applied()).includes(later.id), 60_000, 'the later run applied');
    expect(calls.slice(before)).toEqual([[later.id]]);
    expect(await applied()).toEqual([...ids, later.id]);
  });
});
