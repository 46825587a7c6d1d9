import { randomUUID } from 'node:crypto';
import { eventKey } from '@workspace/kit';
import { eventually, testInfra } from '@workspace/kit/testing';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import pg from 'pg';
import { GENESIS_HASH } from '../src/domain/entries.js';
import {
  AuditTopicReader,
  ModuleEventPublisher,
  startAuditHarness,
  testTenant,
  type AuditHarness,
} from './support.js';

interface EntryItem {
  seq: number;
  id: string;
  action: string;
  module: string;
  targetId: string;
  actorId: string;
  source: string;
  sourceEventId: string;
  payload: Record<string, string>;
  hash: string;
  prevHash: string;
  occurredAt: string;
  recordedAt: string;
}

let h: AuditHarness;
let publisher: ModuleEventPublisher;
let reader: AuditTopicReader;

beforeAll(async () => {
  h = await startAuditHarness();
  publisher = await ModuleEventPublisher.start();
  reader = await AuditTopicReader.start();
});

afterAll(async () => {
  await reader.stop();
  await publisher.close();
  await h.stop();
});

const entriesOf = async (tenantId: string, query = ''): Promise<EntryItem[]> => {
  const token = await h.token(['audit.read'], tenantId);
  const answer = await h.call(token, 'GET', `/entries?pageSize=100${query}`);
  expect(answer.status).toBe(200);
  return answer.body.items as EntryItem[];
};

const waitForEntries = (tenantId: string, count: number) =>
  eventually(
    async () => {
      const items = await entriesOf(tenantId);
      return items.length >= count ? items : undefined;
    },
    60_000,
    `${count} audit entries of ${tenantId}`,
  );

describe('audit ingest', () => {
  it('stores a module event as the first entry of its tenant, with identifiers only, and publishes it on audit.v1', async () => {
    const tenantId = testTenant();
    const time = new Date('2026-11-20T10:15:30.123Z');
    const id = await publisher.publish(
      'cis',
      'cis.invoice.approved',
      tenantId,
      {
        actorId: 'user-1',
        targetType: 'invoice',
        targetId: 'inv-1',
        succeeded: 0,
        details: {
          status: 'approved',
          grossPence: '120000',
          subcontractorName: 'Jo Bloggs',
          email: 'jo@example.com',
        },
      },
      { time },
    );
    const [entry] = await waitForEntries(tenantId, 1);
    expect(entry).toMatchObject({
      seq: 1,
      action: 'cis.invoice.approved',
      module: 'cis',
      source: '/workspace/cis',
      targetId: 'inv-1',
      actorId: 'user-1',
      sourceEventId: id,
      occurredAt: time.toISOString(),
      prevHash: '0'.repeat(64),
      payload: { targetType: 'invoice', status: 'approved', grossPence: '120000', succeeded: '0' },
    });
    expect(entry?.hash).toMatch(/^[0-9a-f]{64}$/);
    // WS-225: the stored record's keys (tenantId, action, targetId, payload), as the database holds them.
    const rows = await h.adminSql(
      'SELECT tenant_id, action, target_id, actor_id, source_event_id, payload FROM audit_entries WHERE source_event_id = $1',
      [id],
    );
    expect(rows).toEqual([
      {
        tenant_id: tenantId,
        action: 'cis.invoice.approved',
        target_id: 'inv-1',
        actor_id: 'user-1',
        source_event_id: id,
        payload: { targetType: 'invoice', status: 'approved', grossPence: '120000', succeeded: '0' },
      },
    ]);

    const record = await eventually(
      async () => (await reader.publishedBy(h, tenantId))[0],
      30_000,
      'the audit.v1 record',
    );
    expect(record.key).toBe(`${tenantId}:log`);
    expect(record.headers).toMatchObject({
      ce_specversion: '1.0',
      ce_type: 'audit.entry.recorded',
      ce_source: '/workspace/audit',
      ce_subject: '1',
      ce_tenantid: tenantId,
      'content-type': 'application/json',
    });
    expect(record.headers.ce_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.value).toMatchObject({
      tenantId,
      seq: '1',
      id: entry?.id,
      action: 'cis.invoice.approved',
      sourceEventId: id,
      hash: entry?.hash,
      prevHash: entry?.prevHash,
    });
  });

  it('stores an event delivered twice once', async () => {
    const tenantId = testTenant();
    const id = await publisher.publish('drive', 'drive.file.uploaded', tenantId, {
      action: 'FILE_UPLOADED',
      actorId: 'user-2',
      targetType: 'file',
      targetId: 'file-1',
      details: { fileName: 'Payslip Jo Bloggs.pdf', sizeBytes: '2048' },
    });
    await publisher.publish(
      'drive',
      'drive.file.uploaded',
      tenantId,
      { action: 'FILE_UPLOADED', actorId: 'user-2', targetId: 'file-1' },
      { id },
    );
    // A later event of the tenant: once it is stored, both deliveries of the first were handled.
    await publisher.publish('drive', 'drive.file.downloaded', tenantId, {
      action: 'FILE_DOWNLOADED',
      actorId: 'user-2',
      targetId: 'file-1',
    });
    const items = await waitForEntries(tenantId, 2);
    await eventually(
      async () => (await entriesOf(tenantId)).some((item) => item.action === 'FILE_DOWNLOADED'),
      30_000,
      'the later event',
    );
    const all = await entriesOf(tenantId);
    expect(all.filter((item) => item.sourceEventId === id)).toHaveLength(1);
    expect(all.map((item) => item.action).sort()).toEqual(['FILE_DOWNLOADED', 'FILE_UPLOADED']);
    const uploaded = items.find((item) => item.action === 'FILE_UPLOADED');
    // A file's name is the person's own text: the entry keeps identifiers and sizes only.
    expect(uploaded?.payload).toEqual({ targetType: 'file', sizeBytes: '2048' });
  });

  it('chains a burst of one tenant gaplessly: seq 1..n, each prevHash the hash before it', async () => {
    const tenantId = testTenant();
    const count = 30;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        publisher.publish(
          i % 2 ? 'cis' : 'drive',
          i % 2 ? 'cis.invoice.created' : 'drive.folder.created',
          tenantId,
          {
            actorId: 'user-3',
            targetId: `target-${i}`,
            ...(i % 2 ? {} : { action: 'FOLDER_CREATED' }),
          },
        ),
      ),
    );
    const items = (await waitForEntries(tenantId, count)).sort((a, b) => a.seq - b.seq);
    expect(items.map((item) => item.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    items.forEach((item, i) => {
      expect(item.prevHash).toBe(i === 0 ? '0'.repeat(64) : items[i - 1]?.hash);
    });
    const token = await h.token(['audit.read'], tenantId);
    const verified = await h.call(token, 'POST', '/verify');
    expect(verified.body).toMatchObject({ ok: true, entries: count, head: { seq: count } });
  });

  it('retries an append that fails until it is stored: nothing dropped, nothing skipped', async () => {
    const tenantId = testTenant();
    // The database refuses this tenant's entries (a trigger as the superuser), counting each attempt in a sequence
    // (nextval survives the rollback).
    await h.adminSql('CREATE SEQUENCE IF NOT EXISTS audit.test_append_attempts');
    await h.adminSql(`
      CREATE OR REPLACE FUNCTION audit.test_refuse_append() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      BEGIN
        IF NEW.tenant_id = '${tenantId}' THEN
          PERFORM nextval('audit.test_append_attempts');
          RAISE EXCEPTION 'disk full (test)';
        END IF;
        RETURN NEW;
      END $$`);
    await h.adminSql(
      'CREATE TRIGGER test_refuse_append BEFORE INSERT ON audit.audit_entries FOR EACH ROW EXECUTE FUNCTION audit.test_refuse_append()',
    );
    let restored = false;
    const restore = () => h.adminSql('DROP TRIGGER IF EXISTS test_refuse_append ON audit.audit_entries');
    try {
      const [start] = await h.adminSql<{ n: string }>(
        'SELECT last_value AS n FROM audit.test_append_attempts',
      );
      const first = await publisher.publish('identity', 'identity.user.updated', tenantId, {
        uid: 'user-4',
        role: 'admin',
        status: 'active',
        changedBy: 'user-5',
      });
      const second = await publisher.publish('identity', 'identity.user.updated', tenantId, {
        uid: 'user-4',
        role: 'standard',
        status: 'active',
        changedBy: 'user-5',
      });
      // The consumer tries again and again while the write fails; nothing is stored, not even the inbox row.
      await eventually(
        async () => {
          const [now] = await h.adminSql<{ n: string }>(
            'SELECT last_value AS n FROM audit.test_append_attempts',
          );
          return Number(now?.n) - Number(start?.n) >= 3;
        },
        60_000,
        'three failed attempts',
      );
      expect(await entriesOf(tenantId)).toEqual([]);
      const inbox = await h.adminSql(
        'SELECT event_id FROM audit.inbox WHERE consumer_group = $1 AND event_id = ANY($2)',
        [h.config.AUDIT_CONSUMER_GROUP, [first, second]],
      );
      expect(inbox).toEqual([]);
      await restore();
      restored = true;
      const items = (await waitForEntries(tenantId, 2)).sort((a, b) => a.seq - b.seq);
      expect(items.map((item) => [item.seq, item.sourceEventId, item.actorId, item.targetId])).toEqual([
        [1, first, 'user-5', ''],
        [2, second, 'user-5', ''],
      ]);
      expect(items[0]?.payload).toMatchObject({ uid: 'user-4', role: 'admin', status: 'active' });
    } finally {
      if (!restored) await restore();
    }
  });
  it('appends a run of events in one transaction: a repeat stored once, a failing write retried whole, nothing skipped, audit.v1 in seq order', async () => {
    const tenantId = testTenant();
    // The database refuses this tenant's entries until the trigger is dropped, counting each attempt.
    await h.adminSql('CREATE SEQUENCE IF NOT EXISTS audit.test_run_attempts');
    await h.adminSql(`
      CREATE OR REPLACE FUNCTION audit.test_refuse_run() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      BEGIN
        IF NEW.tenant_id = '${tenantId}' THEN
          PERFORM nextval('audit.test_run_attempts');
          RAISE EXCEPTION 'disk full (test)';
        END IF;
        RETURN NEW;
      END $$`);
    await h.adminSql(
      'CREATE TRIGGER test_refuse_run BEFORE INSERT ON audit.audit_entries FOR EACH ROW EXECUTE FUNCTION audit.test_refuse_run()',
    );
    let restored = false;
    const restore = () => h.adminSql('DROP TRIGGER IF EXISTS test_refuse_run ON audit.audit_entries');
    try {
      const [start] = await h.adminSql<{ n: string }>('SELECT last_value AS n FROM audit.test_run_attempts');
      const file = (i: number, action = 'FILE_UPLOADED') => ({
        type: 'drive.file.uploaded',
        tenantId,
        // One subject: one key, one partition, one run.
        subject: 'folder-1',
        data: { action, actorId: 'user-6', targetId: `file-${i}` },
      });
      const firstId = randomUUID();
      // The first event delivered twice within the run, and the run's events all of one tenant.
      const ids = await publisher.publishRun('drive', [
        { ...file(1), id: firstId },
        file(2),
        { ...file(1, 'FILE_UPLOADED_AGAIN'), id: firstId },
        file(3),
      ]);
      await eventually(
        async () => {
          const [now] = await h.adminSql<{ n: string }>(
            'SELECT last_value AS n FROM audit.test_run_attempts',
          );
          return Number(now?.n) - Number(start?.n) >= 3;
        },
        60_000,
        'three failed attempts',
      );
      // Each failed attempt rolled the whole run back: no entry, no inbox row, no audit.v1 record.
      expect(await entriesOf(tenantId)).toEqual([]);
      expect(
        await h.adminSql(
          'SELECT event_id FROM audit.inbox WHERE consumer_group = $1 AND event_id = ANY($2)',
          [h.config.AUDIT_CONSUMER_GROUP, ids],
        ),
      ).toEqual([]);
      expect(await h.adminSql('SELECT event_id FROM audit.outbox WHERE tenant_id = $1', [tenantId])).toEqual(
        [],
      );

      await restore();
      restored = true;
      const items = (await waitForEntries(tenantId, 3)).sort((a, b) => a.seq - b.seq);
      const [first, second, , third] = ids;
      expect(items.map((item) => [item.seq, item.sourceEventId, item.targetId, item.action])).toEqual([
        [1, first, 'file-1', 'FILE_UPLOADED'],
        [2, second, 'file-2', 'FILE_UPLOADED'],
        [3, third, 'file-3', 'FILE_UPLOADED'],
      ]);
      items.forEach((item, i) => {
        expect(item.prevHash).toBe(i === 0 ? '0'.repeat(64) : items[i - 1]?.hash);
      });
      const token = await h.token(['audit.read'], tenantId);
      expect((await h.call(token, 'POST', '/verify')).body).toMatchObject({ ok: true, entries: 3 });
      const records = await eventually(
        async () => {
          const found = await reader.publishedBy(h, tenantId);
          return found.length >= 3 ? found : undefined;
        },
        30_000,
        'three audit.v1 records',
      );
      // In seq order; a record may arrive twice (audit.md: at least once, consumers keep the first of a seq).
      const firsts = records.filter(
        (record, i) => records.findIndex((other) => other.value.seq === record.value.seq) === i,
      );
      expect(firsts.map((record) => [record.value.seq, record.value.sourceEventId])).toEqual([
        ['1', first],
        ['2', second],
        ['3', third],
      ]);
    } finally {
      if (!restored) await restore();
    }
  });

  it('ingests partitions concurrently: one tenant’s runs on two partitions append one after the other (gapless, each event once, in each partition’s order), another tenant’s alongside', async () => {
    // Partitions handled at once: the service's default (AUDIT_INGEST_CONCURRENCY 3).
    expect(h.config.AUDIT_INGEST_CONCURRENCY).toBe(3);
    const tenantA = testTenant();
    const tenantB = testTenant();
    const sentinel = testTenant();
    // The subjects of tenant A's events on drive.events.v1: three on each of two partitions, as the bus's producer
    // places them (murmur2 of the key).
    const partitionOf = await keyPartitioner('drive.events.v1');
    const byPartition = new Map<number, string[]>();
    for (let i = 0; [...byPartition.values()].filter((list) => list.length >= 3).length < 2; i++) {
      const subject = `folder-${i}`;
      const partition = partitionOf(eventKey(tenantA, subject));
      const list = byPartition.get(partition) ?? (byPartition.size < 2 ? [] : undefined);
      if (list && list.length < 3) byPartition.set(partition, [...list, subject]);
    }
    const subjects = [...byPartition.values()].filter((list) => list.length === 3).flat();
    expect(subjects).toHaveLength(6);

    // The test holds the sentinel's and tenant A's heads: as an append does, an uncommitted head row.
    const holdSentinel = await HeadHolder.hold(h, sentinel);
    const holdA = await HeadHolder.hold(h, tenantA);
    try {
      // The sentinel's run waits on its head, and with it the consumer's next fetch: what follows is published
      // while no fetch runs, so the next one brings every partition's events at once.
      await publisher.publish('identity', 'identity.user.updated', sentinel, {
        uid: 'user-7',
        role: 'admin',
        status: 'active',
        changedBy: 'user-8',
      });
      await eventually(async () => (await holdSentinel.waiters()) >= 1, 60_000, 'the sentinel run waiting');
      // Tenant A: 3 events of each of 6 subjects (two partitions), published concurrently, each subject's in order.
      const aIds = await Promise.all(
        subjects.map((subject) =>
          publisher.publishRun(
            'drive',
            [1, 2, 3].map((n) => ({
              type: 'drive.file.uploaded',
              tenantId: tenantA,
              subject,
              data: { action: 'FILE_UPLOADED', actorId: 'user-9', targetId: `${subject}/file-${n}` },
            })),
          ),
        ),
      );
      // Tenant B on another topic (so other partitions).
      const bIds = await publisher.publishRun(
        'cis',
        [1, 2, 3, 4].map((n) => ({
          type: 'cis.invoice.created',
          tenantId: tenantB,
          subject: `inv-b${n}`,
          data: { actorId: 'user-10', targetId: `inv-b${n}` },
        })),
      );
      await holdSentinel.release();

      // Both of tenant A's partitions are in flight at once, each run waiting on A's head...
      await eventually(async () => (await holdA.waiters()) >= 2, 60_000, 'two runs of tenant A at once');
      // ...while tenant B's run appends beside them.
      const bItems = (await waitForEntries(tenantB, bIds.length)).sort((a, b) => a.seq - b.seq);
      expect(bItems.map((item) => item.seq)).toEqual([1, 2, 3, 4]);
      expect(await entriesOf(tenantA)).toEqual([]);

      await holdA.release();
      const count = aIds.flat().length;
      const items = (await waitForEntries(tenantA, count)).sort((a, b) => a.seq - b.seq);
      // A gapless chain, each event stored once, each partition's (and subject's) events in their order.
      expect(items.map((item) => item.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      items.forEach((item, i) => {
        expect(item.prevHash).toBe(i === 0 ? GENESIS_HASH : items[i - 1]?.hash);
      });
      expect(items.map((item) => item.sourceEventId).sort()).toEqual(aIds.flat().sort());
      for (const ids of aIds) {
        const seqs = ids.map((id) => items.find((item) => item.sourceEventId === id)?.seq ?? NaN);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      }
      const stored = await h.adminSql<{ n: string }>(
        'SELECT count(*) AS n FROM audit_entries WHERE tenant_id = $1',
        [tenantA],
      );
      expect(Number(stored[0]?.n)).toBe(count);
      for (const tenantId of [tenantA, tenantB, sentinel]) {
        const token = await h.token(['audit.read'], tenantId);
        const verified = await h.call(token, 'POST', '/verify');
        expect(verified.body).toMatchObject({ ok: true });
      }
      const token = await h.token(['audit.read'], tenantA);
      expect((await h.call(token, 'POST', '/verify')).body).toMatchObject({
        ok: true,
        entries: count,
        head: { seq: count },
      });
      // audit.v1 carries tenant A's entries in seq order (a record may come twice: the first of each seq counts).
      const records = await eventually(
        async () => {
          const found = await reader.publishedBy(h, tenantA);
          return new Set(found.map((record) => record.value.seq)).size >= count ? found : undefined;
        },
        30_000,
        `${count} audit.v1 records of tenant A`,
      );
      const firsts = records.filter(
        (record, i) => records.findIndex((other) => other.value.seq === record.value.seq) === i,
      );
      expect(firsts.map((record) => Number(record.value.seq))).toEqual(items.map((item) => item.seq));
    } finally {
      await holdSentinel.release();
      await holdA.release();
    }
  });
});

/** Where the bus's producer puts a key on `topic` (kafkajs's default partitioner, the topic's partition count). */
async function keyPartitioner(topic: string): Promise<(key: string) => number> {
  const kafka = new Kafka({
    clientId: 'audit-test-partitions',
    brokers: testInfra().kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    const partitionMetadata = metadata.topics[0]?.partitions ?? [];
    const partitioner = Partitioners.DefaultPartitioner();
    return (key) => partitioner({ topic, partitionMetadata, message: { key, value: null } });
  } finally {
    await admin.disconnect();
  }
}

/**
 * A tenant's chain head held by the test as an append holds it: an uncommitted head row (the superuser's own
 * transaction), so every append of the tenant waits on it until `release` rolls it back.
 */
class HeadHolder {
  private released = false;

  private constructor(
    private readonly client: pg.Client,
    private readonly pid: number,
    private readonly harness: AuditHarness,
  ) {}

  static async hold(harness: AuditHarness, tenantId: string): Promise<HeadHolder> {
    const client = new pg.Client({ connectionString: harness.database.adminUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO audit.audit_heads (tenant_id, seq, hash) VALUES ($1, 0, $2)', [
      tenantId,
      GENESIS_HASH,
    ]);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return new HeadHolder(client, rows[0]?.pid ?? 0, harness);
  }

  /** How many other sessions wait on this one (the runs waiting on the held head). */
  async waiters(): Promise<number> {
    const [row] = await this.harness.adminSql<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
      [this.pid],
    );
    return Number(row?.n ?? 0);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.client.query('ROLLBACK');
    await this.client.end();
  }
}
