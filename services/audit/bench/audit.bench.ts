// audit benchmark (`make bench`): the audit trail's ingest (events/s) and the time from a domain write (an event
// recorded in a module's outbox) to its audit.v1 record, beside the raw Kafka round trip measured in the same run.
// Printed, never asserted: a missed target is "not met" and the process exits 0; a run that cannot complete exits 1.
// Run alone (with the infrastructure env):
//   node --conditions=development --import tsx services/audit/bench/audit.bench.ts
//
// What runs, in this process: the audit service (startAuditHarness: real PostgreSQL and Kafka, a fresh database and
// consumer group) and a stand-in module named cis (the kit's service with its own schema and outbox, so its events
// carry cis's source, as cis's own do), and a plain kafkajs consumer of audit.v1.
//
//   1. ingest: BENCH_AUDIT_EVENTS cis.invoice.approved events over BENCH_AUDIT_TENANTS tenants published straight to
//      cis.events.v1 in batches of 500; events/s from the first publish to the last entry stored (each append takes
//      its tenant's head lock, hashes, stores, and records the audit.v1 record in the outbox), and to the last of
//      their audit.v1 records read (the audit relay keeping up).
//   2. domain write → audit.v1: BENCH_AUDIT_WRITES writes, one after another, each an event recorded in the module's
//      outbox in its own transaction; from its commit to the moment the audit.v1 record of its entry reaches the
//      consumer (module relay → Kafka → audit consumer → append → audit relay → Kafka). Target p95 under 1 s.
//   3. raw Kafka round trip: the same number of records sent by kafkajs to a topic of the same partitions and
//      received by a kafkajs consumer, one after another: what the two hops through Kafka above cost at least.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Kafka, logLevel } from 'kafkajs';
import {
  cloudEventHeaders,
  eventKey,
  eventSource,
  provisionServiceSchema,
  recordEvent,
  startService,
  withTenant,
} from '@workspace/kit';
import { serviceTestEnv, startGroupAtTopicEnd, testInfra } from '@workspace/kit/testing';
import { cisEvents } from '@workspace/proto';
import { envInt } from '../../kit/bench/env.js';
import { fmt, printTable } from '../../kit/bench/report.js';
import { auditConfigSchema } from '../src/config.js';
import { startAuditHarness } from '../test/support.js';

const EVENTS = envInt('BENCH_AUDIT_EVENTS', 5_000, 100);
const TENANTS = envInt('BENCH_AUDIT_TENANTS', 20, 1);
const WRITES = envInt('BENCH_AUDIT_WRITES', 200, 20);
const TARGET_P95_MS = 1_000;

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
};

const audit = await startAuditHarness();
const kafka = new Kafka({
  clientId: 'audit-bench',
  brokers: testInfra().kafkaBrokers.split(','),
  logLevel: logLevel.NOTHING,
});
const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
await producer.connect();

// The stand-in module: the kit's service named cis (source /workspace/cis), its own schema and outbox.
const moduleRoles = await provisionServiceSchema(audit.database.adminUrl, {
  schema: 'bench_cis',
  role: 'svc_bench_cis',
  password: 'bench-cis',
  ownerPassword: 'bench-cis-owner',
});
const moduleConfig = auditConfigSchema.parse(serviceTestEnv(moduleRoles));
const module = await startService(
  {
    name: 'cis',
    schema: 'bench_cis',
    migrations: [],
    publishes: [cisEvents['cis.invoice.approved']],
    routes: () => [],
  },
  moduleConfig,
  { relayPollIntervalMs: 1_000 },
);

// Arrival times of audit.v1 records by the source event they record, and of the raw round trip's records.
const arrivals = new Map<string, number>();
const rawTopic = `bench-audit-raw-${randomUUID().slice(0, 8)}`;
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({
  waitForLeaders: true,
  topics: [{ topic: rawTopic, numPartitions: 6, replicationFactor: 1 }],
});
await admin.disconnect();
const group = `audit-bench-reader-${randomUUID().slice(0, 8)}`;
await startGroupAtTopicEnd(group, 'audit.v1');
await startGroupAtTopicEnd(group, rawTopic);
const consumer = kafka.consumer({ groupId: group, maxWaitTimeInMs: 20 });
await consumer.connect();
await consumer.subscribe({ topics: ['audit.v1', rawTopic] });
await consumer.run({
  eachMessage: ({ topic, message }) => {
    const now = performance.now();
    if (topic === rawTopic) arrivals.set(message.key?.toString() ?? '', now);
    else {
      const value = JSON.parse(message.value?.toString() ?? '{}') as { sourceEventId?: string };
      if (value.sourceEventId) arrivals.set(value.sourceEventId, now);
    }
    return Promise.resolve();
  },
});

const waitFor = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 300_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

try {
  // 1. Ingest.
  const runId = randomUUID().slice(0, 8);
  const tenants = Array.from({ length: TENANTS }, (_, i) => `bench-${runId}-${i}`);
  const ingestIds: string[] = [];
  const started = performance.now();
  for (let offset = 0; offset < EVENTS; offset += 500) {
    const batch = Array.from({ length: Math.min(500, EVENTS - offset) }, (_, i) => {
      const n = offset + i;
      const tenantId = tenants[n % TENANTS] ?? 'bench';
      const id = randomUUID();
      ingestIds.push(id);
      return {
        topic: 'cis.events.v1',
        key: eventKey(tenantId, `inv-${n}`),
        value: JSON.stringify({
          actorId: 'bench',
          targetType: 'invoice',
          targetId: `inv-${n}`,
          details: { status: 'approved' },
        }),
        headers: cloudEventHeaders({
          id,
          type: 'cis.invoice.approved',
          source: eventSource('cis'),
          time: new Date().toISOString(),
          subject: `inv-${n}`,
          tenantId,
        }),
      };
    });
    await producer.send({
      topic: 'cis.events.v1',
      messages: batch.map(({ key, value, headers }) => ({ key, value, headers })),
    });
  }
  await waitFor(async () => {
    const [row] = await audit.adminSql<{ n: string }>(
      `SELECT count(*) AS n FROM audit_entries WHERE tenant_id LIKE 'bench-${runId}-%'`,
    );
    return Number(row?.n) >= EVENTS;
  }, `${EVENTS} entries`);
  const ingestSeconds = (performance.now() - started) / 1_000;
  // The audit relay keeping up: until the audit.v1 record of every ingested event has been read.
  await waitFor(() => ingestIds.every((id) => arrivals.has(id)), `${EVENTS} audit.v1 records`);
  const publishedSeconds = (performance.now() - started) / 1_000;

  // 2. Domain write → audit.v1 record.
  const latencies: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const tenantId = tenants[i % TENANTS] ?? 'bench';
    const id = await withTenant(module.deps.db, tenantId, (trx) =>
      recordEvent(trx, module.deps.source, cisEvents['cis.invoice.approved'], {
        tenantId,
        aggregateId: `w-${i}`,
        data: { actorId: 'bench', targetType: 'invoice', targetId: `w-${i}` },
      }),
    );
    const committed = performance.now();
    await waitFor(() => arrivals.has(id), `the audit.v1 record of write ${i}`, 60_000);
    latencies.push((arrivals.get(id) ?? NaN) - committed);
  }

  // 3. Raw Kafka round trip.
  const raw: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const key = `raw-${i}`;
    const sent = performance.now();
    await producer.send({ topic: rawTopic, messages: [{ key, value: '{}' }] });
    await waitFor(() => arrivals.has(key), `raw record ${i}`, 60_000);
    raw.push((arrivals.get(key) ?? NaN) - sent);
  }

  const write = stats(latencies);
  const rawStats = stats(raw);
  console.log(
    `audit ingest: ${EVENTS} events over ${TENANTS} tenants in ${fmt(ingestSeconds, 2)} s = ${fmt(EVENTS / ingestSeconds, 0)} events/s (each stored, hash-chained and put in the outbox for audit.v1)`,
  );
  console.log(
    `audit.v1 out: every one of those entries read from audit.v1 after ${fmt(publishedSeconds, 2)} s = ${fmt(EVENTS / publishedSeconds, 0)} events/s (the audit relay publishing behind the ingest)`,
  );
  printTable(
    ['path', 'runs', 'p50 ms', 'p95 ms', 'p99 ms'],
    [
      ['domain write → its audit.v1 record', String(WRITES), fmt(write.p50), fmt(write.p95), fmt(write.p99)],
      [
        'raw Kafka round trip (kafkajs send → receive)',
        String(WRITES),
        fmt(rawStats.p50),
        fmt(rawStats.p95),
        fmt(rawStats.p99),
      ],
    ],
  );
  console.log(
    `target: p95 from a domain write to its audit.v1 record under ${TARGET_P95_MS} ms: ${write.p95 < TARGET_P95_MS ? 'met' : 'not met'} (${fmt(write.p95)} ms; two Kafka hops and two outbox relays, the raw hop ${fmt(rawStats.p95)} ms)`,
  );
} finally {
  await consumer.disconnect();
  await producer.disconnect();
  await module.shutdown();
  await audit.stop();
}
