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
//      their audit.v1 records read (the audit relay keeping up). Once per AUDIT_INGEST_CONCURRENCY setting of
//      BENCH_AUDIT_CONCURRENCY (default "1,3": one partition at a time, then the default), each with an audit service
//      of its own (fresh database and group); beside it, the Kafka baseline: the same number of records of the same
//      size sent the same way to a topic of the same partitions and read by a plain kafkajs consumer.
//   2. domain write → audit.v1: BENCH_AUDIT_WRITES writes, one after another, each an event recorded in the module's
//      outbox in its own transaction; from its commit to the moment the audit.v1 record of its entry reaches the
//      consumer (module relay → Kafka → audit consumer → append → audit relay → Kafka). Target p95 under 1 s.
//   3. raw Kafka round trip: the same number of records sent by kafkajs to a topic of the same partitions and
//      received by a kafkajs consumer, one after another: what the two hops through Kafka above cost at least.
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
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
  type StartedService,
} from '@workspace/kit';
import { serviceTestEnv, startGroupAtTopicEnd, testInfra } from '@workspace/kit/testing';
import { cisEvents } from '@workspace/proto';
import { envInt } from '../../kit/bench/env.js';
import { fmt, printTable } from '../../kit/bench/report.js';
import { auditConfigSchema, type AuditConfig } from '../src/config.js';
import { startAuditHarness, type AuditHarness } from '../test/support.js';

const EVENTS = envInt('BENCH_AUDIT_EVENTS', 5_000, 100);
const TENANTS = envInt('BENCH_AUDIT_TENANTS', 20, 1);
const WRITES = envInt('BENCH_AUDIT_WRITES', 200, 20);
const CONCURRENCY = (process.env.BENCH_AUDIT_CONCURRENCY ?? '1,3').split(',').map((value) => {
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1 || n > 32)
    throw new Error(`BENCH_AUDIT_CONCURRENCY must list integers 1 to 32, got '${value}'`);
  return n;
});
const TARGET_P95_MS = 1_000;

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
};

const kafka = new Kafka({
  clientId: 'audit-bench',
  brokers: testInfra().kafkaBrokers.split(','),
  logLevel: logLevel.NOTHING,
});
const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
await producer.connect();

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

/** The ingest's events (or the baseline's records): EVENTS over TENANTS, keyed as cis keys its invoices. */
const ingestMessages = (runId: string, topic: string) => {
  const tenants = Array.from({ length: TENANTS }, (_, i) => `bench-${runId}-${i}`);
  return Array.from({ length: EVENTS }, (_, n) => {
    const tenantId = tenants[n % TENANTS] ?? 'bench';
    const id = randomUUID();
    return {
      id,
      topic,
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
};

/** Sends the messages in sends of 500, as the ingest's publisher does. */
const sendAll = async (topic: string, messages: ReturnType<typeof ingestMessages>) => {
  for (let offset = 0; offset < messages.length; offset += 500) {
    await producer.send({
      topic,
      messages: messages
        .slice(offset, offset + 500)
        .map(({ key, value, headers }) => ({ key, value, headers })),
    });
  }
};

interface IngestResult {
  concurrency: number;
  ingestSeconds: number;
  publishedSeconds: number;
}

/** One ingest run against `audit` (its AUDIT_INGEST_CONCURRENCY): events/s stored, and read back from audit.v1. */
async function ingestRun(audit: AuditHarness): Promise<IngestResult> {
  const runId = randomUUID().slice(0, 8);
  const messages = ingestMessages(runId, 'cis.events.v1');
  const started = performance.now();
  await sendAll('cis.events.v1', messages);
  await waitFor(async () => {
    const [row] = await audit.adminSql<{ n: string }>(
      `SELECT count(*) AS n FROM audit_entries WHERE tenant_id LIKE 'bench-${runId}-%'`,
    );
    return Number(row?.n) >= EVENTS;
  }, `${EVENTS} entries`);
  const ingestSeconds = (performance.now() - started) / 1_000;
  // The audit relay keeping up: until the audit.v1 record of every ingested event has been read.
  await waitFor(() => messages.every(({ id }) => arrivals.has(id)), `${EVENTS} audit.v1 records`);
  const publishedSeconds = (performance.now() - started) / 1_000;
  return { concurrency: audit.config.AUDIT_INGEST_CONCURRENCY, ingestSeconds, publishedSeconds };
}

/** The Kafka baseline of the ingest: the same records sent the same way to the raw topic and read by kafkajs. */
async function kafkaIngestBaseline(): Promise<number> {
  const messages = ingestMessages(randomUUID().slice(0, 8), rawTopic).map((message) => ({
    ...message,
    key: `ingest-${message.id}`,
  }));
  const started = performance.now();
  await sendAll(rawTopic, messages);
  await waitFor(() => messages.every(({ key }) => arrivals.has(key)), `${EVENTS} raw records`);
  return (performance.now() - started) / 1_000;
}

const loadAverage = () =>
  loadavg()
    .map((value) => fmt(value, 1))
    .join(' ');

const ingests: IngestResult[] = [];
const loads: string[] = [`start ${loadAverage()}`];
let audit: AuditHarness | undefined;
let module: StartedService<AuditConfig> | undefined;
try {
  // 1. Ingest, once per setting (an audit service of its own each), and the Kafka baseline after them.
  for (const concurrency of CONCURRENCY) {
    const run = await startAuditHarness({ env: { AUDIT_INGEST_CONCURRENCY: String(concurrency) } });
    try {
      ingests.push(await ingestRun(run));
      loads.push(`after concurrency ${concurrency}: ${loadAverage()}`);
    } finally {
      await run.stop();
    }
  }
  const kafkaSeconds = await kafkaIngestBaseline();
  loads.push(`after the Kafka baseline: ${loadAverage()}`);

  // 2 and 3 against an audit service of the default settings.
  audit = await startAuditHarness();
  const runId = randomUUID().slice(0, 8);
  const tenants = Array.from({ length: TENANTS }, (_, i) => `bench-${runId}-${i}`);
  // The stand-in module: the kit's service named cis (source /workspace/cis), its own schema and outbox.
  const moduleRoles = await provisionServiceSchema(audit.database.adminUrl, {
    schema: 'bench_cis',
    role: 'svc_bench_cis',
    password: 'bench-cis',
    ownerPassword: 'bench-cis-owner',
  });
  const moduleConfig = auditConfigSchema.parse(serviceTestEnv(moduleRoles));
  module = await startService(
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

  // 2. Domain write → audit.v1 record.
  const latencies: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const tenantId = tenants[i % TENANTS] ?? 'bench';
    const writer = module;
    const id = await withTenant(writer.deps.db, tenantId, (trx) =>
      recordEvent(trx, writer.deps.source, cisEvents['cis.invoice.approved'], {
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
    `audit ingest: ${EVENTS} events over ${TENANTS} tenants (each stored, hash-chained and put in the outbox for audit.v1), by AUDIT_INGEST_CONCURRENCY, beside Kafka alone:`,
  );
  printTable(
    ['run', 'seconds', 'events/s stored', 'audit.v1 read back after s', 'events/s out'],
    [
      ...ingests.map((run) => [
        `audit ingest, ${run.concurrency} partition${run.concurrency === 1 ? '' : 's'} at once`,
        fmt(run.ingestSeconds, 2),
        fmt(EVENTS / run.ingestSeconds, 0),
        fmt(run.publishedSeconds, 2),
        fmt(EVENTS / run.publishedSeconds, 0),
      ]),
      [
        'Kafka alone (kafkajs send → receive, same records)',
        fmt(kafkaSeconds, 2),
        fmt(EVENTS / kafkaSeconds, 0),
        '',
        '',
      ],
    ],
  );
  loads.push(`end ${loadAverage()}`);
  console.log(`load average (1, 5, 15 min; ${cpus().length} CPUs): ${loads.join('; ')}`);
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
  await module?.shutdown();
  await audit?.stop();
}
