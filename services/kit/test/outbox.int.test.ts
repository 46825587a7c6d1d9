import { randomBytes } from 'node:crypto';
import { testingEvents } from '@workspace/proto';
import { Kafka, logLevel } from 'kafkajs';
import request from 'supertest';
import { recordEvent, toBusMessage, withTenant } from '../src/index.js';
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
let service: Awaited<ReturnType<typeof startLedgerService>>;

const newTenant = () => `t-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  database = await createTestDatabase('outbox');
  issuer = await createTestIssuer();
  service = await startLedgerService(
    database.adminUrl,
    { KAFKA_BROKERS: testInfra().kafkaBrokers, KAFKA_TOPIC_PARTITIONS: '3' },
    { keys: issuer.keys, relayPollIntervalMs: 250 },
  );
});

afterAll(async () => {
  await service.shutdown();
  await database.drop();
});

async function record(tenantId: string, ledgerId: string, amountP: number) {
  const token = await issuer.token({ tenantId, scopes: ['ledger.write'] });
  return request(service.server)
    .post(`/api/ledgers/${ledgerId}/entries`)
    .set('authorization', `Bearer ${token}`)
    .send({ amountP, note: `entry ${amountP}` });
}

type Projected = { ledger_id: string; sequence: number; event_id: string };

function projected(tenantId: string): Promise<Projected[]> {
  return withTenant(service.deps.db, tenantId, (trx) =>
    trx('ledger_projection').select('ledger_id', 'sequence', 'event_id').orderBy('id'),
  );
}

/** Reads the topic from outside the product, as another team's consumer would. */
async function readTopic(tenantId: string, expected: number) {
  const kafka = new Kafka({
    clientId: 'outbox-test-reader',
    brokers: [testInfra().kafkaBrokers],
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `reader-${randomBytes(4).toString('hex')}` });
  const seen: { id: string; key: string; type: string; sequence: number }[] = [];
  await consumer.connect();
  await consumer.subscribe({ topics: [testingEvents.ledgerEntryRecorded.topic], fromBeginning: true });
  await consumer.run({
    eachMessage: ({ message }) => {
      if (message.headers?.ce_tenantid?.toString() === tenantId) {
        const value = JSON.parse(message.value?.toString() ?? '{}') as { sequence: string };
        seen.push({
          id: message.headers.ce_id?.toString() ?? '',
          type: message.headers.ce_type?.toString() ?? '',
          key: message.key?.toString() ?? '',
          sequence: Number(value.sequence),
        });
      }
      return Promise.resolve();
    },
  });
  try {
    await eventually(
      () => Promise.resolve(seen.length >= expected),
      60_000,
      `${expected} messages on the topic`,
    );
    // Give a straggling duplicate the chance to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return seen;
  } finally {
    await consumer.disconnect();
  }
}

describe('transactional outbox', () => {
  it('commits a domain write and its event together or not at all', async () => {
    const tenantId = newTenant();
    const { db, source } = service.deps;
    const write = (fail: boolean) =>
      withTenant(db, tenantId, async (trx) => {
        await trx('ledger_entries').insert({
          tenant_id: tenantId,
          ledger_id: 'atomic',
          sequence: 1,
          amount_p: 5,
          note: 'x',
        });
        await recordEvent(trx, source, testingEvents.ledgerEntryRecorded, {
          tenantId,
          aggregateId: 'atomic',
          data: { ledgerId: 'atomic', sequence: 1n, amountP: 5n, note: 'x' },
        });
        if (fail) throw new Error('domain rule broken after the event was recorded');
      });

    await expect(write(true)).rejects.toThrow('domain rule broken');
    const counts = async () => ({
      entries: (await withTenant(db, tenantId, (trx) => trx('ledger_entries').count('* as n').first()))?.n,
      events: (await db('outbox').where({ tenant_id: tenantId }).count('* as n').first())?.n,
    });
    expect(await counts()).toEqual({ entries: 0, events: 0 });

    await write(false);
    expect(await counts()).toEqual({ entries: 1, events: 1 });
    await eventually(
      async () => (await projected(tenantId)).length === 1,
      30_000,
      'the event to be consumed',
    );
  });

  it('keeps accepting writes while Kafka is down and delivers every event exactly once, in order per key, after it returns', async () => {
    const tenantId = newTenant();
    const ledgers = ['alpha', 'beta', 'gamma'];
    await infraCommand('kafka', 'stop');
    try {
      for (let i = 1; i <= 10; i++) {
        const responses = await Promise.all(ledgers.map((ledger) => record(tenantId, ledger, i)));
        expect(responses.map((res) => res.status)).toEqual([201, 201, 201]);
      }
      const waiting = await service.deps
        .db('outbox')
        .where({ tenant_id: tenantId })
        .whereNull('published_at')
        .count('* as n')
        .first();
      expect(waiting?.n).toBe(30);
      const metrics = await request(service.server).get('/metrics');
      expect(metrics.text).toMatch(/outbox_backlog_events\{[^}]*\} ([3-9]\d|\d{3,})/);
    } finally {
      await infraCommand('kafka', 'start');
    }

    const rows = await eventually(
      async () => {
        const list = await projected(tenantId);
        return list.length >= 30 ? list : undefined;
      },
      90_000,
      '30 projected events',
    );
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((row) => row.event_id)).size).toBe(30);
    for (const ledger of ledgers) {
      expect(rows.filter((row) => row.ledger_id === ledger).map((row) => row.sequence)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
      ]);
    }

    const onTopic = await readTopic(tenantId, 30);
    expect(onTopic).toHaveLength(30);
    expect(new Set(onTopic.map((message) => message.id)).size).toBe(30);
    expect(new Set(onTopic.map((message) => message.type))).toEqual(
      new Set(['testing.ledger.entry_recorded']),
    );
    for (const ledger of ledgers) {
      const forKey = onTopic.filter((message) => message.key === `${tenantId}:${ledger}`);
      expect(forKey.map((message) => message.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
    const unpublished = await service.deps
      .db('outbox')
      .where({ tenant_id: tenantId })
      .whereNull('published_at')
      .count('* as n')
      .first();
    expect(unpublished?.n).toBe(0);
  });

  it('does not apply a repeated message twice', async () => {
    const tenantId = newTenant();
    expect((await record(tenantId, 'dup', 1)).status).toBe(201);
    await eventually(async () => (await projected(tenantId)).length === 1, 30_000, 'the first event');
    const row = await service.deps.db('outbox').where({ tenant_id: tenantId }).first();

    // The same record twice more (as after a relay crash between publishing and marking), then a new event on the
    // same key: once that one is applied, the repeats before it in the partition have been seen.
    await service.deps.bus.publish([toBusMessage(row), toBusMessage(row)]);
    expect((await record(tenantId, 'dup', 2)).status).toBe(201);
    const rows = await eventually(
      async () => {
        const list = await projected(tenantId);
        return list.some((item) => item.sequence === 2) ? list : undefined;
      },
      30_000,
      'the second event',
    );
    expect(rows.map((item) => item.sequence)).toEqual([1, 2]);
    const inbox = await service.deps.db('inbox').where({ event_id: row.event_id });
    expect(inbox).toHaveLength(1);
  });
});
