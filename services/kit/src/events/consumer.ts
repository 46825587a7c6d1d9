import { fromJson, type DescMessage, type JsonValue, type MessageShape } from '@bufbuild/protobuf';
import type { EventDefinition } from '@workspace/proto';
import type { Knex } from 'knex';
import type { Logger } from '../logger.js';
import type { DeliveredMessage, EventBus, Subscription } from './bus.js';
import type { Counter } from 'prom-client';
import {
  MalformedEventError,
  parseCloudEventHeaders,
  untrustedEventReason,
  type CloudEventAttributes,
} from './cloudevents.js';

export interface ReceivedEvent extends CloudEventAttributes {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  /** The proto3 JSON payload; `decodeEvent` turns it into the typed message. */
  data: JsonValue;
}

export function decodeEvent<Schema extends DescMessage>(
  definition: EventDefinition<Schema>,
  event: ReceivedEvent,
): MessageShape<Schema> {
  if (event.type !== definition.type) throw new Error(`Expected ${definition.type}, got ${event.type}`);
  return fromJson(definition.schema, event.data, { ignoreUnknownFields: true });
}

export type EventHandler = (event: ReceivedEvent, trx: Knex.Transaction) => Promise<void>;

/**
 * A batch consumer's handler: the new events of a run of one partition (in offset order, each id once, those
 * already in the inbox left out), all in the one transaction `trx` that also holds their inbox rows. No tenant is
 * set: the handler sets each event's tenant (`setTransactionTenant`) before touching a tenant's rows.
 */
export type BatchEventHandler = (events: ReceivedEvent[], trx: Knex.Transaction) => Promise<void>;

/** Sets the row-level-security tenant of the rest of `trx` (what `withTenant` and the consumer set). */
export async function setTransactionTenant(trx: Knex.Transaction, tenantId: string): Promise<void> {
  await trx.raw("SELECT set_config('app.tenant_id', ?, true)", [tenantId]);
}

export interface ConsumerOptions {
  db: Knex;
  bus: EventBus;
  logger: Logger;
  groupId: string;
  /**
   * Each topic the group reads, with the one service that writes it (its Kafka user alone may): an event whose
   * `ce_source` is not that service's is refused, e.g. `{ 'cis.events.v1': 'cis' }`.
   */
  topics: Record<string, string>;
  fromBeginning?: boolean;
  /** Handlers by CloudEvents type; other types on the topics are recorded as seen and skipped. */
  handlers: Record<string, EventHandler>;
  /**
   * Batch mode (optional): the events of a run of messages of one partition (up to `maxBatchSize`) that have a
   * handler in `handlers` go to this one call instead, in one transaction with all their inbox rows; a failure
   * rolls the whole run back and the bus retries it, so nothing is skipped. `handlers` still says which types are
   * handled (and serves a bus that delivers one message at a time).
   */
  batchHandler?: BatchEventHandler;
  maxBatchSize?: number;
  /**
   * How many partitions the group handles at once (default 1). Each in-flight partition holds one database
   * connection for its transaction; handlers must serialise their own work on shared rows.
   */
  partitionsConsumedConcurrently?: number;
  /** `kafka_events_refused_total` by group, topic and reason, when the service exports metrics. */
  refused?: Counter<'group' | 'topic' | 'reason'>;
}

/**
 * Subscribes a consumer group whose handlers run exactly once per event: the event id goes into the inbox in
 * the same transaction as the handler's writes (with the event's tenant set for row-level security), so a
 * repeated delivery finds its id and changes nothing. A record that is not a CloudEvent, or an event its
 * topic's producer cannot have written (another source, a tenant header the payload contradicts), is logged
 * and skipped: it can never become valid, and retrying it would stall the partition.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Subscription> {
  const { db, bus, logger, groupId, handlers } = options;
  const topics = Object.keys(options.topics);
  if (topics.length === 0) throw new Error(`Consumer group ${groupId} reads no topic`);
  for (const topic of topics) {
    if (!options.topics[topic]) throw new Error(`Consumer group ${groupId} names no producer for ${topic}`);
  }
  const skip = (
    message: DeliveredMessage,
    reason: 'malformed' | 'untrusted',
    fields: object,
    text: string,
  ) => {
    options.refused?.labels({ group: groupId, topic: message.topic, reason }).inc();
    logger.error({ ...fields, topic: message.topic, offset: message.offset, groupId }, text);
  };
  /** The event of a message, or undefined when it is skipped (logged) as malformed or untrusted. */
  const received = (message: DeliveredMessage): ReceivedEvent | undefined => {
    let event: ReceivedEvent;
    try {
      const attributes = parseCloudEventHeaders(message.headers);
      event = {
        ...attributes,
        topic: message.topic,
        partition: message.partition,
        offset: message.offset,
        key: message.key,
        data: JSON.parse(message.value) as JsonValue,
      };
    } catch (error) {
      // A record that is not a CloudEvent can never be applied; retrying it would stall the partition.
      if (error instanceof MalformedEventError || error instanceof SyntaxError) {
        skip(message, 'malformed', { err: error }, 'skipping malformed event');
        return undefined;
      }
      throw error;
    }
    const untrusted = untrustedEventReason(event, options.topics[message.topic] ?? '');
    if (untrusted) {
      const { id, type, source, tenantId } = event;
      skip(
        message,
        'untrusted',
        { id, type, source, tenantId, reason: untrusted },
        'refusing untrusted event',
      );
      return undefined;
    }
    return event;
  };
  const { batchHandler } = options;
  /** Batch mode: every event's inbox row and the batch handler's writes in one transaction. */
  const handleBatch = batchHandler
    ? async (messages: DeliveredMessage[]) => {
        const events: ReceivedEvent[] = [];
        const seen = new Set<string>();
        for (const message of messages) {
          const event = received(message);
          // A repeated id within the run is the same event: the first delivery is the one applied.
          if (!event || seen.has(event.id)) continue;
          seen.add(event.id);
          events.push(event);
        }
        if (events.length === 0) return;
        await db.transaction(async (trx) => {
          const inserted = await trx('inbox')
            .insert(
              events.map((event) => ({ consumer_group: groupId, event_id: event.id, type: event.type })),
            )
            .onConflict(['consumer_group', 'event_id'])
            .ignore()
            .returning<{ event_id: string }[]>('event_id');
          const fresh = new Set(inserted.map((row) => row.event_id));
          const handled = events.filter((event) => fresh.has(event.id) && handlers[event.type]);
          if (handled.length > 0) await batchHandler(handled, trx);
        });
      }
    : undefined;
  return bus.subscribe({
    groupId,
    topics,
    ...(options.fromBeginning === undefined ? {} : { fromBeginning: options.fromBeginning }),
    ...(handleBatch ? { handleBatch, maxBatchSize: options.maxBatchSize ?? 500 } : {}),
    ...(options.partitionsConsumedConcurrently === undefined
      ? {}
      : { partitionsConsumedConcurrently: options.partitionsConsumedConcurrently }),
    handle: async (message: DeliveredMessage) => {
      if (handleBatch) return handleBatch([message]);
      const event = received(message);
      if (!event) return;
      const handler = handlers[event.type];
      await db.transaction(async (trx) => {
        const inserted = await trx('inbox')
          .insert({ consumer_group: groupId, event_id: event.id, type: event.type })
          .onConflict(['consumer_group', 'event_id'])
          .ignore()
          .returning('event_id');
        if (inserted.length === 0 || !handler) return;
        await setTransactionTenant(trx, event.tenantId);
        await handler(event, trx);
      });
    },
  });
}
