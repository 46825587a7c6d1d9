// Outbox benchmark (`make bench`): events through the kit's transactional outbox (write transaction, relay,
// Kafka, consumer) against a bare kafkajs producer and consumer on the same broker. Figures are printed, never
// asserted: a missed target is reported as "not met" and the process still exits 0. A benchmark that cannot run
// (infrastructure missing, events lost) exits 1.
// Run alone (with the infrastructure env): node --conditions=development --import tsx services/kit/bench/outbox.bench.ts
//
//   BENCH_EVENTS          events per measured run (default 5000)
//   BENCH_WRITERS         concurrent writers (default 10)
//   BENCH_WARMUP          events written and consumed before each measured run (default 200)
//   BENCH_KIT_EVENTS      events for the informational run through the kit's startConsumer (default 1000: that
//                         consumer is much slower than the writers, so a longer run only grows its backlog; 0 skips it)
//   BENCH_TIMEOUT_S       how long one run may take before the benchmark gives up (default 180)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { create, toJson } from '@bufbuild/protobuf';
import { testingEvents, type EventDefinition } from '@workspace/proto';
import { Kafka, logLevel, Partitioners, type Admin, type Consumer, type IHeaders } from 'kafkajs';
import {
  cloudEventHeaders,
  eventKey,
  newEventId,
  recordEvent,
  startConsumer,
  withTenant,
  type BusMessage,
  type EventBus,
  type Knex,
} from '../src/index.js';
import { createTestDatabase, testInfra } from '../src/testing/index.js';
import { ledgerService, startLedgerService } from '../test/fixtures/ledger-service.js';
import { envInt } from './env.js';
import { fmt, printTable } from './report.js';

const EVENTS = envInt('BENCH_EVENTS', 5_000, 1);
const WRITERS = envInt('BENCH_WRITERS', 10, 1);
const WARMUP = envInt('BENCH_WARMUP', 200, 0);
const KIT_EVENTS = envInt('BENCH_KIT_EVENTS', Math.min(EVENTS, 1_000), 0);
const TIMEOUT_MS = envInt('BENCH_TIMEOUT_S', 180, 1) * 1_000;
/** The kit's default (KAFKA_TOPIC_PARTITIONS); every benchmark topic gets the same. */
const PARTITIONS = 6;
/** The relay's default poll interval; the service is started without `relayPollIntervalMs`. */
const RELAY_POLL_MS = 1_000;
const TARGET_THROUGHPUT_RATIO = 0.5;
const TARGET_P95_MS = 200;

const runId = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
const ledgerEvent = testingEvents.ledgerEntryRecorded;

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: everything the benchmark creates registers how to undo it; it runs in reverse order, once, also on
// Ctrl-C, so no database, topic, consumer group or connection is left behind.

const cleanups: { what: string; run: () => Promise<unknown> }[] = [];
function defer(what: string, run: () => Promise<unknown>): void {
  cleanups.push({ what, run });
}
async function cleanUp(): Promise<void> {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) {
    try {
      await step.run();
    } catch (error) {
      console.error(
        `cleanup: ${step.what} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);

const sortedNumbers = (values: Iterable<number>): number[] => [...values].sort((a, b) => a - b);

function headerValue(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const single = Array.isArray(value) ? value[0] : value;
  return single?.toString();
}

type Bytes = Buffer | string | null | undefined;
const byteSize = (value: Bytes): number =>
  value === null || value === undefined
    ? 0
    : typeof value === 'string'
      ? Buffer.byteLength(value)
      : value.length;

/** Key + value + header names and values, in bytes. */
function messageBytes(message: {
  key: Bytes;
  value: Bytes;
  headers?: Record<string, Bytes | Bytes[]> | undefined;
}): number {
  let bytes = byteSize(message.key) + byteSize(message.value);
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    bytes +=
      byteSize(name) + (Array.isArray(value) ? value : [value]).reduce((sum, v) => sum + byteSize(v), 0);
  }
  return bytes;
}

/** One measured run: when each event was produced (committed or sent) and when it was consumed, by event id. */
class Run {
  readonly producedAt = new Map<string, number>();
  readonly consumedAt = new Map<string, number>();
  duplicates = 0;
  bytes: number | undefined;
  startedAt = 0;
  producersDoneAt = 0;
  private done: (() => void) | undefined;
  readonly complete: Promise<void>;

  constructor(
    readonly tenantId: string,
    readonly expected: number,
  ) {
    this.complete = new Promise((resolve) => {
      this.done = resolve;
    });
    if (expected === 0) this.done?.();
  }

  produced(eventId: string, at: number): void {
    this.producedAt.set(eventId, at);
  }

  consumed(eventId: string, at: number, bytes?: number): void {
    if (this.consumedAt.has(eventId)) {
      this.duplicates++;
      return;
    }
    this.consumedAt.set(eventId, at);
    this.bytes ??= bytes;
    if (this.consumedAt.size >= this.expected) this.done?.();
  }

  async wait(timeoutMs: number, what: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          new Error(
            `${what}: only ${this.consumedAt.size} of ${this.expected} events consumed after ${timeoutMs / 1_000} s`,
          ),
        );
      }, timeoutMs);
    });
    try {
      await Promise.race([this.complete, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Latency per event: consumed minus produced (ms). */
  latencies(): number[] {
    const result: number[] = [];
    for (const [id, consumed] of this.consumedAt) {
      const produced = this.producedAt.get(id);
      if (produced !== undefined) result.push(consumed - produced);
    }
    return result.sort((a, b) => a - b);
  }

  lastConsumedAt(): number {
    let last = 0;
    for (const at of this.consumedAt.values()) last = Math.max(last, at);
    return last;
  }
}

interface Row {
  path: string;
  events: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  notes: string[];
}

function summarise(path: string, run: Run): Row {
  const latencies = run.latencies();
  if (latencies.length !== run.expected) {
    throw new Error(
      `${path}: ${latencies.length} of ${run.expected} events have both a produce and a consume time`,
    );
  }
  const seconds = (run.lastConsumedAt() - run.startedAt) / 1_000;
  const producing = (run.producersDoneAt - run.startedAt) / 1_000;
  const notes = [
    `${run.expected} events in ${seconds.toFixed(2)} s (producers done after ${producing.toFixed(2)} s: ` +
      `${fmt(run.expected / producing, 0)}/s), ~${run.bytes ?? 0} bytes per message (key + value + headers)`,
  ];
  if (run.duplicates > 0) notes.push(`${run.duplicates} duplicate deliveries (ignored for the figures)`);
  return {
    path,
    events: run.expected,
    perSecond: run.expected / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    notes,
  };
}

function printResults(rows: Row[]): void {
  const header = ['path', 'events', 'events/s', 'p50 ms', 'p95 ms', 'p99 ms'];
  const cells = rows.map((row) => [
    row.path,
    String(row.events),
    fmt(row.perSecond, 0),
    fmt(row.p50),
    fmt(row.p95),
    fmt(row.p99),
  ]);
  printTable(header, cells);
}

// ---------------------------------------------------------------------------------------------------------------
// Work: writers run concurrently, each taking the next event number until all are done.

async function runWriters(
  total: number,
  writers: number,
  write: (writer: number, n: number) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(writers, total) }, async (_, writer) => {
      for (let n = next++; n < total; n = next++) await write(writer, n);
    }),
  );
}

const entryNote = (n: number) => `bench entry ${String(n).padStart(7, '0')}`;
const entryAmount = (n: number) => 1_000 + (n % 9_000);

/** What the ledger's POST route does, minus HTTP: lock the ledger, next sequence, the row and its event. */
function writeEntry(
  db: Knex,
  source: string,
  definition: EventDefinition<typeof ledgerEvent.schema>,
  tenantId: string,
  ledgerId: string,
  n: number,
): Promise<string> {
  return withTenant(db, tenantId, async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`${tenantId}:${ledgerId}`]);
    const last = (await trx('ledger_entries')
      .where({ ledger_id: ledgerId })
      .max('sequence as max')
      .first()) as { max: number | null } | undefined;
    const sequence = (last?.max ?? 0) + 1;
    const amountP = entryAmount(n);
    const note = entryNote(n);
    await trx('ledger_entries').insert({
      tenant_id: tenantId,
      ledger_id: ledgerId,
      sequence,
      amount_p: amountP,
      note,
    });
    return recordEvent(trx, source, definition, {
      tenantId,
      aggregateId: ledgerId,
      data: { ledgerId, sequence: BigInt(sequence), amountP: BigInt(amountP), note },
    });
  });
}

/** The bare path's message: the same key, payload and CloudEvents headers the relay would publish. */
function bareMessage(
  tenantId: string,
  ledgerId: string,
  sequence: number,
  n: number,
): BusMessage & { id: string } {
  const id = newEventId();
  const note = entryNote(n);
  const payload = toJson(
    ledgerEvent.schema,
    create(ledgerEvent.schema, {
      ledgerId,
      sequence: BigInt(sequence),
      amountP: BigInt(entryAmount(n)),
      note,
    }),
  );
  return {
    id,
    topic: '',
    key: eventKey(tenantId, ledgerId),
    value: JSON.stringify(payload),
    headers: cloudEventHeaders({
      id,
      type: ledgerEvent.type,
      source: '/workspace/ledger',
      time: new Date().toISOString(),
      subject: ledgerId,
      tenantId,
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Kafka helpers

let kafkaClient: Kafka | undefined;
/** Created on first use, so a missing environment is reported by main() like any other failure. */
function kafka(): Kafka {
  kafkaClient ??= new Kafka({
    clientId: `outbox-bench-${runId}`,
    brokers: testInfra().kafkaBrokers.split(','),
    logLevel: logLevel.ERROR,
  });
  return kafkaClient;
}

async function createTopic(admin: Admin, topic: string): Promise<void> {
  await admin.createTopics({
    waitForLeaders: true,
    topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }],
  });
  defer(`delete topic ${topic}`, () => admin.deleteTopics({ topics: [topic] }));
}

async function deleteGroup(admin: Admin, groupId: string): Promise<void> {
  await admin.deleteGroups([groupId]).catch(() => undefined);
}

const topics = {
  outbox: `bench.outbox.${runId}`,
  bare: `bench.bare.${runId}`,
  kit: `bench.kit.${runId}`,
};
const groupOf = (topic: string) => `bench-${topic}`;

/** A plain kafkajs consumer in a fresh group, routing each message by its tenant header to the run it belongs to. */
async function startPlainConsumer(topic: string, runs: Map<string, Run>): Promise<Consumer> {
  const consumer = kafka().consumer({ groupId: groupOf(topic) });
  defer(`disconnect consumer ${groupOf(topic)}`, () => consumer.disconnect());
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: ({ message }) => {
      const at = performance.now();
      const run = runs.get(headerValue(message.headers, 'ce_tenantid') ?? '');
      const id = headerValue(message.headers, 'ce_id');
      if (run && id) run.consumed(id, at, messageBytes(message));
      return Promise.resolve();
    },
  });
  return consumer;
}

// ---------------------------------------------------------------------------------------------------------------
// Relay instrumentation: the relay publishes through the service's bus; wrapping that bus's publish records when
// each batch went out, so the outbox latency can be split into relay pick-up, publish and delivery.

interface RelayBatch {
  tenants: Set<string>;
  size: number;
  start: number;
  end: number;
}

function instrumentRelay(bus: EventBus) {
  const publishedAt = new Map<string, { start: number; end: number }>();
  const batches: RelayBatch[] = [];
  const publish = bus.publish.bind(bus);
  bus.publish = async (messages: BusMessage[]) => {
    const start = performance.now();
    await publish(messages);
    const end = performance.now();
    batches.push({
      tenants: new Set(messages.map((m) => m.headers.ce_tenantid ?? '')),
      size: messages.length,
      start,
      end,
    });
    for (const message of messages) {
      const id = message.headers.ce_id;
      if (id) publishedAt.set(id, { start, end });
    }
  };
  return { publishedAt, batches };
}

function relayBreakdown(run: Run, relay: ReturnType<typeof instrumentRelay>): string[] {
  const pickUp: number[] = [];
  const delivery: number[] = [];
  for (const [id, produced] of run.producedAt) {
    const published = relay.publishedAt.get(id);
    const consumed = run.consumedAt.get(id);
    if (!published || consumed === undefined) continue;
    pickUp.push(published.start - produced);
    delivery.push(consumed - published.end);
  }
  const batches = relay.batches.filter((batch) => batch.tenants.has(run.tenantId));
  const sizes = sortedNumbers(batches.map((batch) => batch.size));
  const publishMs = sortedNumbers(batches.map((batch) => batch.end - batch.start));
  const describe = (values: number[]) => {
    const sorted = sortedNumbers(values);
    return `p50 ${fmt(percentile(sorted, 50))} / p95 ${fmt(percentile(sorted, 95))} / p99 ${fmt(percentile(sorted, 99))} ms`;
  };
  const beyondPoll = pickUp.filter((ms) => ms >= RELAY_POLL_MS).length;
  return [
    `relay: ${batches.length} batches, size p50 ${percentile(sizes, 50)} / max ${sizes.at(-1) ?? 0} ` +
      `(limit 500); sendBatch ${describe(publishMs)}`,
    `commit -> relay picks the event up: ${describe(pickUp)} (${beyondPoll} events waited >= the ${RELAY_POLL_MS} ms poll)`,
    `relay publish done -> consumer has it: ${describe(delivery)}`,
  ];
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  const brokers = testInfra().kafkaBrokers;
  console.log(
    `${EVENTS} events per run, ${WRITERS} concurrent writers, ${WARMUP} warm-up events per run, ` +
      `${PARTITIONS} partitions per topic, broker ${brokers}`,
  );

  const admin = kafka().admin();
  await admin.connect();
  defer('disconnect admin', () => admin.disconnect());

  const database = await createTestDatabase('bench_outbox');
  defer(`drop database ${database.name}`, () => database.drop());

  // Topics (and the names of their consumer groups) exist before the service starts, so they are removed only
  // after it has shut down: its relay can flush into them even when the benchmark is interrupted.
  for (const topic of Object.values(topics)) {
    await createTopic(admin, topic);
    defer(`delete group ${groupOf(topic)}`, () => deleteGroup(admin, groupOf(topic)));
  }

  // The fixture's own projection consumer (a fresh group on the shared test topic) starts at the topic's end, so
  // it does not replay earlier test runs' events while the benchmark runs.
  const projectionGroup = `bench-${runId}-ledger-projection`;
  if ((await admin.listTopics()).includes(ledgerEvent.topic)) {
    const offsets = await admin.fetchTopicOffsets(ledgerEvent.topic);
    await admin.setOffsets({
      groupId: projectionGroup,
      topic: ledgerEvent.topic,
      partitions: offsets.map(({ partition, high }) => ({ partition, offset: high })),
    });
  }
  defer(`delete group ${projectionGroup}`, () => deleteGroup(admin, projectionGroup));

  const service = await startLedgerService(
    database.adminUrl,
    { KAFKA_BROKERS: brokers },
    {},
    projectionGroup,
  );
  defer('shut the ledger service down', () => service.shutdown('benchmark done'));
  const { db, source } = service.deps;
  const relay = instrumentRelay(service.deps.bus);

  // The outbox runs publish to their own topics (the ledger event with another topic), so the shared test topic
  // gets no benchmark traffic and each run's consumer reads only its own events.
  async function outboxRun(
    label: string,
    expected: number,
    topic: string,
    startConsuming: (runs: Map<string, Run>) => Promise<() => Promise<void>>,
  ): Promise<Run> {
    const definition = { ...ledgerEvent, topic };
    const runs = new Map<string, Run>();
    const stop = await startConsuming(runs);
    try {
      const measure = async (tenantId: string, count: number): Promise<Run> => {
        const run = new Run(tenantId, count);
        runs.set(tenantId, run);
        run.startedAt = performance.now();
        await runWriters(count, WRITERS, async (writer, n) => {
          const id = await writeEntry(db, source, definition, tenantId, `ledger-${writer}`, n);
          run.produced(id, performance.now());
        });
        run.producersDoneAt = performance.now();
        await run.wait(TIMEOUT_MS, label);
        return run;
      };
      if (WARMUP > 0) await measure(`bench-warmup-${randomBytes(4).toString('hex')}`, WARMUP);
      return await measure(`bench-${randomBytes(4).toString('hex')}`, expected);
    } finally {
      await stop();
    }
  }

  const rows: Row[] = [];
  const notes: string[] = [];
  const timings: string[] = [];

  // 1. Outbox -> plain kafkajs consumer (the figure compared with the bare path).
  let phase = performance.now();
  const outbox = await outboxRun('outbox', EVENTS, topics.outbox, async (runs) => {
    const consumer = await startPlainConsumer(topics.outbox, runs);
    return () => consumer.disconnect();
  });
  const outboxRow = summarise('outbox -> kafkajs consumer', outbox);
  rows.push(outboxRow);
  notes.push(
    `outbox -> kafkajs consumer: ${outboxRow.notes.join('; ')}`,
    ...relayBreakdown(outbox, relay).map((n) => `  ${n}`),
  );
  timings.push(`outbox run ${fmt((performance.now() - phase) / 1_000)} s`);

  // 2. Bare kafkajs: idempotent producer, one request in flight, acks -1, same writers and message shape.
  phase = performance.now();
  const bareTopic = topics.bare;
  const bareRuns = new Map<string, Run>();
  const bareConsumer = await startPlainConsumer(bareTopic, bareRuns);
  const producer = kafka().producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  defer('disconnect bare producer', () => producer.disconnect());
  await producer.connect();
  const sendMs: number[] = [];
  const bareMeasure = async (tenantId: string, count: number): Promise<Run> => {
    const run = new Run(tenantId, count);
    bareRuns.set(tenantId, run);
    const sequences = new Map<number, number>();
    run.startedAt = performance.now();
    await runWriters(count, WRITERS, async (writer, n) => {
      const sequence = (sequences.get(writer) ?? 0) + 1;
      sequences.set(writer, sequence);
      const { id, key, value, headers } = bareMessage(tenantId, `ledger-${writer}`, sequence, n);
      const sentAt = performance.now();
      run.produced(id, sentAt);
      await producer.send({ topic: bareTopic, acks: -1, messages: [{ key, value, headers }] });
      sendMs.push(performance.now() - sentAt);
    });
    run.producersDoneAt = performance.now();
    await run.wait(TIMEOUT_MS, 'bare kafkajs');
    return run;
  };
  if (WARMUP > 0) await bareMeasure(`bench-warmup-${randomBytes(4).toString('hex')}`, WARMUP);
  sendMs.length = 0;
  const bare = await bareMeasure(`bench-${randomBytes(4).toString('hex')}`, EVENTS);
  await producer.disconnect();
  await bareConsumer.disconnect();
  const bareRow = summarise('bare kafkajs producer -> consumer', bare);
  rows.push(bareRow);
  const sends = sortedNumbers(sendMs);
  notes.push(
    `bare kafkajs: ${bareRow.notes.join('; ')}`,
    `  producer.send() until acked: p50 ${fmt(percentile(sends, 50))} / p95 ${fmt(percentile(sends, 95))} ms ` +
      `(one message per send, one request in flight per broker connection)`,
  );
  timings.push(`bare run ${fmt((performance.now() - phase) / 1_000)} s`);

  // 3. Informational: outbox -> the kit's startConsumer (inbox row + the fixture's projection, per event, in a
  //    transaction); an event counts as consumed when that transaction has committed.
  if (KIT_EVENTS > 0) {
    phase = performance.now();
    const kitTopic = topics.kit;
    const kitGroup = groupOf(kitTopic);
    const bus = service.deps.bus;
    const projection = ledgerService(kitGroup).consumers?.(service.deps)[0]?.handlers ?? {};
    const handleMs: number[] = [];
    const kit = await outboxRun('outbox -> kit consumer', KIT_EVENTS, kitTopic, async (runs) => {
      const timedBus: EventBus = {
        kind: bus.kind,
        ensureTopics: (topics) => bus.ensureTopics(topics),
        publish: (messages) => bus.publish(messages),
        isReady: () => bus.isReady(),
        close: () => bus.close(),
        subscribe: (options) =>
          bus.subscribe({
            ...options,
            handle: async (message) => {
              const start = performance.now();
              await options.handle(message);
              handleMs.push(performance.now() - start);
              const run = runs.get(message.headers.ce_tenantid ?? '');
              const id = message.headers.ce_id;
              if (run && id) run.consumed(id, performance.now(), messageBytes(message));
            },
          }),
      };
      const subscription = await startConsumer({
        db,
        bus: timedBus,
        logger: service.deps.logger,
        groupId: kitGroup,
        topics: { [kitTopic]: 'ledger' },
        handlers: projection,
      });
      return () => subscription.stop();
    });
    const kitRow = summarise('outbox -> kit startConsumer [info]', kit);
    rows.push(kitRow);
    const handled = sortedNumbers(handleMs);
    notes.push(
      `outbox -> kit startConsumer: ${kitRow.notes.join('; ')}`,
      ...relayBreakdown(kit, relay).map((n) => `  ${n}`),
      `  consumer: inbox + projection transaction p50 ${fmt(percentile(handled, 50))} / p95 ` +
        `${fmt(percentile(handled, 95))} ms per event, ${fmt(1_000 / kitRow.perSecond)} ms per event overall ` +
        `(one event at a time in each partition, offsets committed every 100 events or second)`,
    );
    timings.push(`kit consumer run ${fmt((performance.now() - phase) / 1_000)} s`);
  }

  console.log('');
  printResults(rows);
  console.log('');
  const ratio = outboxRow.perSecond / bareRow.perSecond;
  const verdict = (met: boolean) => (met ? 'met' : 'not met');
  console.log('targets (outbox -> kafkajs consumer against bare kafkajs):');
  console.log(
    `  throughput outbox/bare  ${fmt(ratio, 2).padStart(8)}     target >= ${TARGET_THROUGHPUT_RATIO}      ` +
      verdict(ratio >= TARGET_THROUGHPUT_RATIO),
  );
  console.log(
    `  outbox p95              ${fmt(outboxRow.p95).padStart(8)} ms  target < ${TARGET_P95_MS} ms   ` +
      verdict(outboxRow.p95 < TARGET_P95_MS),
  );
  console.log('');
  const howMeasured = [
    'latency = consumed minus produced. Produced: for the outbox, when the write transaction (ledger row +',
    'outbox row) committed; for bare kafkajs, when producer.send() was called. events/s = events / (last',
    'consume - first write). Consumers: plain kafkajs consumers (eachMessage, default auto-commit) in fresh',
    'groups; the [info] row uses the kit startConsumer (inbox + projection transaction per event) instead.',
    `Relay: default ${RELAY_POLL_MS} ms poll plus LISTEN/NOTIFY wake-ups at commit; the writers use service.deps.db`,
    `(pool ${service.deps.config.DATABASE_POOL_MAX}, shared with the relay). Everything runs in this one process.`,
  ];
  console.log('how measured:');
  for (const line of howMeasured) console.log(`  ${line}`);
  console.log('');
  console.log('details:');
  for (const note of notes) console.log(`  ${note}`);
  console.log(`  time: ${timings.join(', ')}, total ${fmt((performance.now() - started) / 1_000)} s`);
}

const interrupted = { by: undefined as NodeJS.Signals | undefined };
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    interrupted.by = signal;
    console.error(`\n${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(code));
  });
}

try {
  await main();
} catch (error) {
  if (!interrupted.by) {
    console.error(
      `outbox benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exitCode = 1;
  }
} finally {
  if (!interrupted.by) await cleanUp();
}
// Everything is closed by now, so the process ends by itself; if a handle were left open, say so and end anyway.
setTimeout(() => {
  console.error('outbox benchmark: handles still open 10 s after cleanup; exiting');
  process.exit(process.exitCode ?? 1);
}, 10_000).unref();
