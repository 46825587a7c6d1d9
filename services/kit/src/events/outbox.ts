import { create, toJson, type DescMessage, type JsonValue, type MessageInitShape } from '@bufbuild/protobuf';
import type { EventDefinition } from '@workspace/proto';
import type { Knex } from 'knex';
import pg from 'pg';
import type { Registry } from 'prom-client';
import { Gauge } from 'prom-client';
import { assertIdentifier } from '../db/database.js';
import type { Logger } from '../logger.js';
import { findSensitiveFields, maskSensitiveIdentifiers, SensitiveTextError } from '../privacy.js';
import { backoffDelay, sleep, type BusMessage, type EventBus } from './bus.js';
import { cloudEventHeaders, eventKey, newEventId } from './cloudevents.js';

export interface NewEvent<Schema extends DescMessage> {
  tenantId: string;
  /** The aggregate the event is about; with the tenant it forms the Kafka key. */
  aggregateId: string;
  subject?: string;
  data: MessageInitShape<Schema>;
  occurredAt?: Date;
}

export interface RecordEventOptions {
  /**
   * What to do with a text field (or the subject) holding a 10-digit number or a NINO pattern (docs/privacy.md):
   * 'refuse' (default) throws SensitiveTextError so the caller's transaction rolls back; 'mask' replaces each
   * with its display mask, for machine-written text a caller cannot refuse (e.g. a remote server's error).
   */
  sensitiveText?: 'refuse' | 'mask';
}

/** Applies the plain-text rule to an event's message: refuses it, or masks each offending string in place. */
function guardSensitiveText(message: object, subject: string, mode: 'refuse' | 'mask'): string {
  const fields = [
    ...findSensitiveFields(message).map((field) => `data.${field}`),
    ...findSensitiveFields(subject).map(() => 'subject'),
  ];
  if (fields.length === 0) return subject;
  if (mode === 'refuse') throw new SensitiveTextError(fields);
  const mask = (value: unknown): unknown => {
    if (typeof value === 'string') return maskSensitiveIdentifiers(value);
    if (Array.isArray(value)) {
      value.forEach((item, i) => (value[i] = mask(item)));
      return value;
    }
    if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) if (key !== '$typeName') record[key] = mask(record[key]);
    }
    return value;
  };
  mask(message);
  return maskSensitiveIdentifiers(subject);
}

/** The outbox row of an event (its id new), with the plain-text rule applied. */
function outboxRow<Schema extends DescMessage>(
  source: string,
  definition: EventDefinition<Schema>,
  event: NewEvent<Schema>,
  options: RecordEventOptions,
) {
  const message = create(definition.schema, event.data);
  const subject = guardSensitiveText(
    message,
    event.subject ?? event.aggregateId,
    options.sensitiveText ?? 'refuse',
  );
  const payload: JsonValue = toJson(definition.schema, message);
  return {
    event_id: newEventId(),
    topic: definition.topic,
    key: eventKey(event.tenantId, event.aggregateId),
    type: definition.type,
    source,
    subject,
    tenant_id: event.tenantId,
    occurred_at: event.occurredAt ?? new Date(),
    payload: JSON.stringify(payload),
  };
}

/**
 * Writes an event to the outbox inside the caller's transaction, so the domain change and its event commit
 * together or not at all. Returns the event id. Events never carry a tax reference or NINO in clear: a text field
 * or subject holding one is refused (or masked, see RecordEventOptions).
 */
export async function recordEvent<Schema extends DescMessage>(
  trx: Knex.Transaction,
  source: string,
  definition: EventDefinition<Schema>,
  event: NewEvent<Schema>,
  options: RecordEventOptions = {},
): Promise<string> {
  const row = outboxRow(source, definition, event, options);
  await trx('outbox').insert(row);
  return row.event_id;
}

/**
 * Writes several events of one type to the outbox in one statement inside the caller's transaction, as
 * `recordEvent` does each, in the given order (the relay publishes them in that order). Returns their ids.
 */
export async function recordEvents<Schema extends DescMessage>(
  trx: Knex.Transaction,
  source: string,
  definition: EventDefinition<Schema>,
  events: NewEvent<Schema>[],
  options: RecordEventOptions = {},
): Promise<string[]> {
  const rows = events.map((event) => outboxRow(source, definition, event, options));
  if (rows.length > 0) await trx('outbox').insert(rows);
  return rows.map((row) => row.event_id);
}

interface OutboxRow {
  id: number;
  event_id: string;
  topic: string;
  key: string;
  type: string;
  source: string;
  subject: string | null;
  tenant_id: string;
  occurred_at: Date;
  payload: unknown;
}

export function toBusMessage(row: OutboxRow): BusMessage {
  return {
    topic: row.topic,
    key: row.key,
    value: JSON.stringify(row.payload),
    headers: cloudEventHeaders({
      id: row.event_id,
      type: row.type,
      source: row.source,
      time: row.occurred_at.toISOString(),
      ...(row.subject === null ? {} : { subject: row.subject }),
      tenantId: row.tenant_id,
    }),
  };
}

export interface OutboxRelayOptions {
  db: Knex;
  /** Connection string for LISTEN (wake-ups at commit time); the relay polls as well, so this is an optimisation. */
  databaseUrl: string;
  schema: string;
  bus: EventBus;
  logger: Logger;
  metrics?: Registry;
  batchSize?: number;
  pollIntervalMs?: number;
  /** Published rows are kept this long (for replays and investigations), then deleted. */
  publishedRetentionHours?: number;
  /** Inbox ids are kept this long; keep it above the topics' retention so a redelivery is always recognised. */
  inboxRetentionHours?: number;
}

const CLEANUP_INTERVAL_MS = 60 * 60_000;

/**
 * Publishes the outbox to the bus in id order and marks rows published. One relay per schema publishes at a
 * time (a transaction-scoped advisory lock), so per-key order holds even with several replicas. While the bus is
 * unreachable rows stay unpublished and the relay backs off; a crash between publishing and marking means
 * the rows go again, and consumers' inboxes drop the repeat.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly lockKey: string;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Set by a notification that arrives while a batch is in progress, so it is not lost. */
  private signalled = false;
  private listener: pg.Client | undefined;
  private failures = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.lockKey = `${assertIdentifier(options.schema)}.outbox`;
    if (options.metrics) this.registerMetrics(options.metrics);
  }

  private registerMetrics(registry: Registry): void {
    const { db } = this.options;
    // Both gauges come from one query per scrape: the backlog gauge runs it, the age gauge waits for it. When
    // the query fails (database away) they keep their last values rather than report an empty outbox.
    let known = { count: 0, age: 0 };
    let latest: Promise<{ count: number; age: number }> = Promise.resolve(known);
    const read = async () => {
      const row = await db('outbox')
        .whereNull('published_at')
        .first<{ count: number; age: string | null } | undefined>(
          db.raw('count(*) AS count'),
          db.raw('extract(epoch FROM now() - min(created_at)) AS age'),
        );
      return { count: row?.count ?? 0, age: row?.age ? Number(row.age) : 0 };
    };
    new Gauge({
      name: 'outbox_backlog_events',
      help: 'Outbox events not yet published',
      registers: [registry],
      async collect() {
        latest = read().then(
          (value) => (known = value),
          () => known,
        );
        this.set((await latest).count);
      },
    });
    new Gauge({
      name: 'outbox_oldest_unpublished_age_seconds',
      help: 'Age in seconds of the oldest unpublished outbox event (0 when none)',
      registers: [registry],
      async collect() {
        this.set((await latest).age);
      },
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.listen();
    this.loop = this.run();
  }

  /** Stops polling, then publishes what is waiting (bounded by `timeoutMs`) so a graceful shutdown flushes. */
  async stop(timeoutMs = 5_000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.signal();
    await this.loop;
    const deadline = Date.now() + timeoutMs;
    try {
      while (Date.now() < deadline && (await this.publishBatch()) > 0);
    } catch (error) {
      this.options.logger.warn(
        { err: error },
        'outbox flush at shutdown incomplete; events stay for the next start',
      );
    }
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  private async listen(): Promise<void> {
    while (this.isRunning()) {
      const client = new pg.Client({ connectionString: this.options.databaseUrl });
      try {
        await client.connect();
        client.on('notification', () => {
          this.signal();
        });
        const closed = new Promise<void>((resolve) => {
          client.on('error', () => {
            resolve();
          });
          client.on('end', () => {
            resolve();
          });
        });
        await client.query(`LISTEN ${this.options.schema}_outbox`);
        this.listener = client;
        this.signal();
        await closed;
      } catch {
        // The poll keeps the relay going while the database is away; try again shortly.
      }
      this.listener = undefined;
      await client.end().catch(() => undefined);
      if (this.isRunning()) await sleep(1_000);
    }
  }

  /** Methods, not property reads: `running` and `signalled` change while the loops await. */
  private isRunning(): boolean {
    return this.running;
  }

  private hasSignal(): boolean {
    return this.signalled;
  }

  private signal(): void {
    this.signalled = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.isRunning()) {
      this.signalled = false;
      let published: number;
      try {
        published = await this.publishBatch();
        this.failures = 0;
      } catch (error) {
        this.failures++;
        this.options.logger.warn(
          { err: error, attempt: this.failures },
          'outbox relay could not publish; backing off',
        );
        // Backing off: new outbox rows must not cut the wait short (only a stop does).
        await this.idle(backoffDelay(this.failures, 200, 30_000), { wakeOnNotify: false });
        continue;
      }
      if (Date.now() >= this.nextCleanup) await this.cleanUp();
      if (published < this.batchSize && this.isRunning() && !this.hasSignal())
        await this.idle(this.pollIntervalMs);
    }
  }

  private nextCleanup = Date.now() + CLEANUP_INTERVAL_MS;

  /** Deletes published outbox rows and inbox ids past their retention; at most hourly, never fatal. */
  async cleanUp(): Promise<void> {
    const { db } = this.options;
    this.nextCleanup = Date.now() + CLEANUP_INTERVAL_MS;
    const hours = (value: number) => db.raw('now() - make_interval(hours => ?)', [value]);
    try {
      await db('outbox')
        .whereNotNull('published_at')
        .where('published_at', '<', hours(this.options.publishedRetentionHours ?? 24 * 7))
        .delete();
      await db('inbox')
        .where('received_at', '<', hours(this.options.inboxRetentionHours ?? 24 * 30))
        .delete();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'outbox and inbox clean-up failed; will try again');
    }
  }

  /** Waits `ms`, or less when a stop (or, unless told otherwise, a notification) arrives. */
  private idle(ms: number, options: { wakeOnNotify: boolean } = { wakeOnNotify: true }): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        if (!options.wakeOnNotify && this.isRunning()) return;
        this.wake = undefined;
        done();
      };
    });
  }

  /** Publishes one batch; returns how many rows were published (0 when none or another relay holds the lock). */
  async publishBatch(): Promise<number> {
    const { db, bus } = this.options;
    let failed: { ids: number[]; error: unknown } | undefined;
    const count = await db.transaction(async (trx) => {
      const locked = await trx.raw<{ rows: { locked: boolean }[] }>(
        'SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked',
        [this.lockKey],
      );
      if (!locked.rows[0]?.locked) return 0;
      const rows = await trx<OutboxRow>('outbox')
        .whereNull('published_at')
        .orderBy('id')
        .limit(this.batchSize)
        .select(
          'id',
          'event_id',
          'topic',
          'key',
          'type',
          'source',
          'subject',
          'tenant_id',
          'occurred_at',
          'payload',
        );
      if (rows.length === 0) return 0;
      const ids = rows.map((row) => row.id);
      try {
        await bus.publish(rows.map(toBusMessage));
      } catch (error) {
        failed = { ids, error };
        return 0;
      }
      await trx('outbox')
        .whereIn('id', ids)
        .update({ published_at: trx.fn.now(), attempts: trx.raw('attempts + 1') });
      return rows.length;
    });
    if (failed) {
      const message = failed.error instanceof Error ? failed.error.message : String(failed.error);
      await db('outbox')
        .whereIn('id', failed.ids)
        .update({ attempts: db.raw('attempts + 1'), last_error: message.slice(0, 1000) })
        .catch(() => undefined);
      throw failed.error;
    }
    return count;
  }
}
