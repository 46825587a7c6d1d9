import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type Consumer,
  type LogEntry,
  type Producer,
} from 'kafkajs';
import type { Logger } from '../logger.js';
import { backoffDelay, sleep, type BusMessage, type EventBus, type SubscribeOptions } from './bus.js';
import type { KafkaSecurity } from './kafka-security.js';
import type { Gauge } from 'prom-client';

export interface KafkaBusOptions {
  clientId: string;
  brokers: string[];
  logger: Logger;
  partitions?: number;
  replicationFactor?: number;
  /** TLS and SASL settings (kafkaSecurity reads them from the configuration); plaintext without them. */
  security?: KafkaSecurity;
  /** `kafka_consumer_lag` by group, topic and partition, when the service exports metrics. */
  consumerLag?: Gauge<'group' | 'topic' | 'partition'>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} timed out after ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

const toHeaders = (headers: Record<string, string>) => headers;

const AUTHORIZATION_FAILURES: Record<string, string> = {
  TOPIC_AUTHORIZATION_FAILED: 'the topic',
  GROUP_AUTHORIZATION_FAILED: 'the consumer group',
  CLUSTER_AUTHORIZATION_FAILED: 'the cluster operation',
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: 'the transactional id',
};

/** The kafkajs error behind `error` (kafkajs wraps retried failures in `cause` / `originalError`). */
function rootKafkaError(error: unknown): { name?: string; type?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const candidate = current as Error & { type?: string; cause?: unknown; originalError?: unknown };
    if (candidate.name === 'KafkaJSSASLAuthenticationError') return candidate;
    if (candidate.type && candidate.type in AUTHORIZATION_FAILURES) return candidate;
    current = candidate.originalError ?? candidate.cause;
  }
  return undefined;
}

/**
 * Says what the broker refused in the words of the configuration: a wrong password or an ACL the user lacks. The
 * kafkajs error stays as the cause; nothing of the password is in the message.
 */
export function explainKafkaError(error: unknown, user: string | undefined, action: string): unknown {
  const root = rootKafkaError(error);
  if (!root) return error;
  if (root.name === 'KafkaJSSASLAuthenticationError') {
    return new Error(
      `Kafka refused the credentials of user '${user ?? ''}' (to ${action}): check KAFKA_SASL_USERNAME, its password and KAFKA_SASL_MECHANISM`,
      { cause: error },
    );
  }
  const who = user === undefined ? 'this client' : `Kafka user '${user}'`;
  const what = AUTHORIZATION_FAILURES[root.type ?? ''] ?? 'it';
  return new Error(`${who} may not ${action}: ${root.type ?? ''} (its ACLs do not grant ${what})`, {
    cause: error,
  });
}

function fromHeaders(headers: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined) {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const single = Array.isArray(value) ? value[0] : value;
    if (single !== undefined) result[name] = single.toString();
  }
  return result;
}

/**
 * Kafka through kafkajs. The producer is idempotent with one request in flight, so messages for one key arrive
 * in the order they were published, once per successful send. Transient broker errors are retried by kafkajs
 * briefly and then surface, so callers (the outbox relay) keep their rows and back off.
 */
export class KafkaBus implements EventBus {
  readonly kind = 'kafka';
  private readonly kafka: Kafka;
  private producer: Producer | undefined;
  private producerConnecting: Promise<Producer> | undefined;
  private admin: Admin | undefined;
  private readonly consumers = new Set<Consumer>();

  constructor(private readonly options: KafkaBusOptions) {
    const log = options.logger.child({ component: 'kafkajs' });
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...(options.security?.ssl ? { ssl: options.security.ssl } : {}),
      ...(options.security?.sasl ? { sasl: options.security.sasl } : {}),
      connectionTimeout: 3_000,
      requestTimeout: 10_000,
      retry: { initialRetryTime: 200, retries: 3, maxRetryTime: 2_000 },
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ namespace, level, log: entry }: LogEntry) => {
          const { message, ...extra } = entry;
          const fields = { namespace, ...extra };
          if (level <= logLevel.ERROR) log.warn(fields, message);
          else log.debug(fields, message);
        },
    });
  }

  private async getProducer(): Promise<Producer> {
    if (this.producer) return this.producer;
    this.producerConnecting ??= (async () => {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: { initialRetryTime: 200, retries: 5, maxRetryTime: 5_000 },
      });
      try {
        await producer.connect();
      } catch (error) {
        this.producerConnecting = undefined;
        throw error;
      }
      producer.on(producer.events.DISCONNECT, () => {
        if (this.producer === producer) this.producer = undefined;
        this.producerConnecting = undefined;
      });
      this.producer = producer;
      return producer;
    })();
    return this.producerConnecting;
  }

  private async getAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }

  /** Runs a broker call, turning a refused password or a missing ACL into an error that says which. */
  private async explained<T>(action: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw explainKafkaError(error, this.options.security?.sasl?.username, action);
    }
  }

  ensureTopics(topics: string[]): Promise<void> {
    return this.explained(`describe or create the topics ${topics.join(', ')}`, () =>
      this.createMissingTopics(topics),
    );
  }

  private async createMissingTopics(topics: string[]): Promise<void> {
    const admin = await this.getAdmin();
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: this.options.partitions ?? 6,
        replicationFactor: this.options.replicationFactor ?? 1,
      })),
    });
  }

  async publish(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const topics = [...new Set(messages.map((message) => message.topic))];
    await this.explained(`write to ${topics.join(', ')}`, () => this.send(messages));
  }

  private async send(messages: BusMessage[]): Promise<void> {
    const producer = await this.getProducer();
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of messages) {
      const list = byTopic.get(message.topic) ?? [];
      list.push(message);
      byTopic.set(message.topic, list);
    }
    await producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map((message) => ({
          key: message.key,
          value: message.value,
          headers: toHeaders(message.headers),
        })),
      })),
    });
  }

  async subscribe({
    groupId,
    topics,
    handle,
    handleBatch,
    maxBatchSize = 500,
    fromBeginning = true,
    partitionsConsumedConcurrently = 1,
  }: SubscribeOptions) {
    const consumer = this.kafka.consumer({
      groupId,
      sessionTimeout: 15_000,
      heartbeatInterval: 1_000,
      retry: {
        initialRetryTime: 300,
        retries: 8,
        maxRetryTime: 5_000,
        restartOnFailure: () => Promise.resolve(true),
      },
    });
    this.consumers.add(consumer);
    await this.explained(`read ${topics.join(', ')} as group ${groupId}`, async () => {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning });
    });
    // Read through a function: the batch loop reads it while `stop` changes it.
    const state = { stopping: false };
    const stopping = () => state.stopping;
    await consumer.run({
      // Offsets are committed every 100 messages or second, not per message: a redelivery after a crash is
      // harmless because the inbox recognises what was applied, and per-message commits cost a round trip each.
      autoCommit: true,
      autoCommitThreshold: 100,
      autoCommitInterval: 1_000,
      // Each partition's records stay in order; several partitions' batches run at once when asked.
      partitionsConsumedConcurrently: Math.max(1, partitionsConsumedConcurrently),
      eachBatchAutoResolve: false,
      eachBatch: async (payload) => {
        const { batch } = payload;
        const lag = (offset: string, done: number) =>
          this.options.consumerLag
            ?.labels({ group: groupId, topic: batch.topic, partition: String(batch.partition) })
            .set(Math.max(0, Number(batch.highWatermark) - Number(offset) - done));
        const toMessage = (record: (typeof batch.messages)[number]) => ({
          topic: batch.topic,
          partition: batch.partition,
          offset: record.offset,
          key: record.key?.toString() ?? '',
          value: record.value?.toString() ?? '',
          headers: fromHeaders(record.headers),
        });
        if (handleBatch) {
          // Batch mode: consecutive records of the partition in one call, acknowledged together once it resolves.
          for (let start = 0; start < batch.messages.length; start += Math.max(1, maxBatchSize)) {
            if (!payload.isRunning() || payload.isStale() || stopping()) break;
            const records = batch.messages.slice(start, start + Math.max(1, maxBatchSize));
            const first = records[0];
            const last = records[records.length - 1];
            if (!first || !last) break;
            lag(first.offset, 0);
            const messages = records.map(toMessage);
            for (let attempt = 0; ; attempt++) {
              try {
                await handleBatch(messages);
                break;
              } catch (error) {
                this.options.logger.warn(
                  {
                    err: error,
                    groupId,
                    topic: batch.topic,
                    offset: first.offset,
                    lastOffset: last.offset,
                    attempt,
                  },
                  'event batch handler failed; retrying',
                );
                if (stopping() || !payload.isRunning()) throw error;
                await sleep(backoffDelay(attempt, 200, 10_000));
                await payload.heartbeat();
              }
            }
            payload.resolveOffset(last.offset);
            await payload.commitOffsetsIfNecessary();
            lag(last.offset, 1);
            await payload.heartbeat();
          }
          return;
        }
        for (const record of batch.messages) {
          if (!payload.isRunning() || payload.isStale() || stopping()) break;
          const message = toMessage(record);
          // Set before handling, so a handler stuck retrying shows as lag.
          lag(record.offset, 0);
          for (let attempt = 0; ; attempt++) {
            try {
              await handle(message);
              break;
            } catch (error) {
              this.options.logger.warn(
                { err: error, groupId, topic: batch.topic, offset: record.offset, attempt },
                'event handler failed; retrying',
              );
              if (stopping() || !payload.isRunning()) throw error;
              await sleep(backoffDelay(attempt, 200, 10_000));
              await payload.heartbeat();
            }
          }
          payload.resolveOffset(record.offset);
          await payload.commitOffsetsIfNecessary();
          lag(record.offset, 1);
          await payload.heartbeat();
        }
      },
    });
    return {
      stop: async () => {
        state.stopping = true;
        await consumer.disconnect();
        this.consumers.delete(consumer);
      },
    };
  }

  async isReady(): Promise<boolean> {
    try {
      const admin = await withTimeout(this.getAdmin(), 2_000, 'Kafka admin connect');
      await withTimeout(admin.describeCluster(), 2_000, 'Kafka describeCluster');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.consumers].map((consumer) => consumer.disconnect()));
    this.consumers.clear();
    await Promise.allSettled([this.producer?.disconnect(), this.admin?.disconnect()]);
    this.producer = undefined;
    this.producerConnecting = undefined;
    this.admin = undefined;
  }
}
