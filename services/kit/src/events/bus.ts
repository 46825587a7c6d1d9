/** A record as it travels on the bus: Kafka's key, value and headers. */
export interface BusMessage {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface DeliveredMessage extends BusMessage {
  partition: number;
  offset: string;
}

export interface SubscribeOptions {
  groupId: string;
  topics: string[];
  /** A new group starts from the oldest retained message (default), or only from new ones. */
  fromBeginning?: boolean;
  /**
   * Called once per message, in order per partition. The message is acknowledged only when this resolves; a
   * rejection is retried with backoff, so a handler must be idempotent (the inbox makes it so).
   */
  handle: (message: DeliveredMessage) => Promise<void>;
  /**
   * Optional batch mode: called with consecutive messages of one partition, in order (at most `maxBatchSize`); the
   * messages are acknowledged only when it resolves, and a rejection retries the whole batch with backoff. A bus
   * that cannot batch (the in-process one) calls `handle` per message instead, so `handle` must do the same work.
   */
  handleBatch?: (messages: DeliveredMessage[]) => Promise<void>;
  /** The most messages one `handleBatch` call gets (default 500). */
  maxBatchSize?: number;
  /**
   * How many partitions are handled at once (default 1: one after another). Order holds within a partition only, so
   * handlers must make concurrent work on shared rows safe themselves (e.g. a row lock). The in-process bus ignores it.
   */
  partitionsConsumedConcurrently?: number;
}

export interface Subscription {
  stop(): Promise<void>;
}

/** The one bus interface. Adapters: Kafka (full mode, tests) and in-process (`make up`'s embedded mode). */
export interface EventBus {
  readonly kind: 'kafka' | 'memory';
  ensureTopics(topics: string[]): Promise<void>;
  /** Publishes in the given order; resolves once the bus has durably accepted every message. */
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

export function backoffDelay(attempt: number, baseMs = 100, maxMs = 30_000): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
  return Math.round(exponential / 2 + (Math.random() * exponential) / 2);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
