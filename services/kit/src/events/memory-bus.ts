import type { Logger } from '../logger.js';
import {
  backoffDelay,
  sleep,
  type BusMessage,
  type DeliveredMessage,
  type EventBus,
  type SubscribeOptions,
  type Subscription,
} from './bus.js';

interface Waiter {
  topic: string;
  offset: number;
  resolve: () => void;
}

interface Group {
  offsets: Map<string, number>;
  handlers: ((message: DeliveredMessage) => Promise<void>)[];
  topics: Set<string>;
  running: boolean;
  wake: (() => void) | undefined;
  pump: Promise<void> | undefined;
  waiters: Waiter[];
}

export interface MemoryBusOptions {
  /** How long `publish` waits for the consumer groups to apply a message before it reports failure. */
  deliveryTimeoutMs?: number;
}

/**
 * The in-process adapter behind the same interface as Kafka, for `make up`'s embedded mode where every service
 * runs in one Node process. One partition per topic (so order per key holds), consumer groups with their own
 * offsets, delivery from the beginning, retry with backoff when a handler fails.
 *
 * Messages live only in memory, so `publish` resolves only once every group subscribed to the topic has applied
 * the message: until then the outbox row stays unpublished, and a stop or crash loses nothing (the relay sends it
 * again on the next start and the inboxes drop what was already applied). A group that cannot apply a message
 * within the delivery timeout makes `publish` fail, and the relay retries later.
 */
export class MemoryBus implements EventBus {
  readonly kind = 'memory';
  private readonly topics = new Map<string, DeliveredMessage[]>();
  private readonly groups = new Map<string, Group>();
  private readonly deliveryTimeoutMs: number;

  constructor(
    private readonly logger: Logger,
    options: MemoryBusOptions = {},
  ) {
    this.deliveryTimeoutMs = options.deliveryTimeoutMs ?? 10_000;
  }

  ensureTopics(topics: string[]): Promise<void> {
    for (const topic of topics) if (!this.topics.has(topic)) this.topics.set(topic, []);
    return Promise.resolve();
  }

  async publish(messages: BusMessage[]): Promise<void> {
    const applied: Promise<void>[] = [];
    for (const message of messages) {
      const log = this.topics.get(message.topic);
      if (!log) throw new Error(`Unknown topic ${message.topic}`);
      const offset = log.length;
      log.push({ ...message, partition: 0, offset: String(offset) });
      for (const group of this.groups.values()) {
        if (!group.running || !group.topics.has(message.topic)) continue;
        applied.push(
          new Promise((resolve) => {
            group.waiters.push({ topic: message.topic, offset, resolve });
          }),
        );
      }
    }
    for (const group of this.groups.values()) group.wake?.();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.all(applied),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            reject(
              new Error(
                `in-process consumers did not apply the messages within ${this.deliveryTimeoutMs} ms`,
              ),
            );
          }, this.deliveryTimeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async subscribe({
    groupId,
    topics,
    handle,
    fromBeginning = true,
  }: SubscribeOptions): Promise<Subscription> {
    await this.ensureTopics(topics);
    let group = this.groups.get(groupId);
    if (!group) {
      group = {
        offsets: new Map(),
        handlers: [],
        topics: new Set(),
        running: true,
        wake: undefined,
        pump: undefined,
        waiters: [],
      };
      this.groups.set(groupId, group);
    }
    const member = group;
    for (const topic of topics) {
      member.topics.add(topic);
      if (!fromBeginning && !member.offsets.has(topic))
        member.offsets.set(topic, this.topics.get(topic)?.length ?? 0);
    }
    member.handlers.push(handle);
    member.running = true;
    member.pump ??= this.pump(groupId, member);
    return {
      stop: async () => {
        member.handlers = member.handlers.filter((h) => h !== handle);
        if (member.handlers.length > 0) return;
        member.running = false;
        member.wake?.();
        await member.pump;
        member.pump = undefined;
      },
    };
  }

  private async pump(groupId: string, group: Group): Promise<void> {
    // A function, not a property read: `running` changes while this loop awaits.
    const active = () => group.running;
    while (active()) {
      let delivered = false;
      for (const topic of group.topics) {
        const log = this.topics.get(topic) ?? [];
        const next = group.offsets.get(topic) ?? 0;
        const message = log[next];
        const handler = group.handlers[next % Math.max(1, group.handlers.length)];
        if (!message || !handler) continue;
        for (let attempt = 0; active(); attempt++) {
          try {
            await handler(message);
            group.offsets.set(topic, next + 1);
            this.settle(group, topic, next);
            delivered = true;
            break;
          } catch (error) {
            this.logger.warn(
              { err: error, groupId, topic, offset: message.offset, attempt },
              'event handler failed; retrying',
            );
            await sleep(backoffDelay(attempt, 100, 10_000));
          }
        }
      }
      if (!delivered && active()) {
        await new Promise<void>((resolve) => {
          group.wake = resolve;
        });
        group.wake = undefined;
      }
    }
  }

  private settle(group: Group, topic: string, offset: number): void {
    group.waiters = group.waiters.filter((waiter) => {
      if (waiter.topic !== topic || waiter.offset > offset) return true;
      waiter.resolve();
      return false;
    });
  }

  isReady(): Promise<boolean> {
    return Promise.resolve(true);
  }

  async close(): Promise<void> {
    for (const group of this.groups.values()) {
      group.running = false;
      group.wake?.();
    }
    await Promise.all([...this.groups.values()].map((group) => group.pump ?? Promise.resolve()));
    this.groups.clear();
  }
}
