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

interface Group {
  offsets: Map<string, number>;
  handlers: ((message: DeliveredMessage) => Promise<void>)[];
  topics: Set<string>;
  running: boolean;
  wake: (() => void) | undefined;
  pump: Promise<void> | undefined;
}

/**
 * The in-process adapter behind the same interface as Kafka, for `make up`'s embedded mode where every service
 * runs in one Node process. One partition per topic (so order per key holds), consumer groups with their own
 * offsets, delivery from the beginning, retry with backoff when a handler fails. Messages live in memory; the
 * outbox tables hold what has not been delivered yet, so nothing is lost by a restart.
 */
export class MemoryBus implements EventBus {
  readonly kind = 'memory';
  private readonly topics = new Map<string, DeliveredMessage[]>();
  private readonly groups = new Map<string, Group>();

  constructor(private readonly logger: Logger) {}

  ensureTopics(topics: string[]): Promise<void> {
    for (const topic of topics) if (!this.topics.has(topic)) this.topics.set(topic, []);
    return Promise.resolve();
  }

  publish(messages: BusMessage[]): Promise<void> {
    for (const message of messages) {
      const log = this.topics.get(message.topic);
      if (!log) return Promise.reject(new Error(`Unknown topic ${message.topic}`));
      log.push({ ...message, partition: 0, offset: String(log.length) });
    }
    for (const group of this.groups.values()) group.wake?.();
    return Promise.resolve();
  }

  async subscribe({ groupId, topics, handle }: SubscribeOptions): Promise<Subscription> {
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
      };
      this.groups.set(groupId, group);
    }
    const member = group;
    for (const topic of topics) member.topics.add(topic);
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
