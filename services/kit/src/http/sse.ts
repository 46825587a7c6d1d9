import type { Request, Response } from 'express';
import { PgListener } from '../db/listener.js';
import type { Logger } from '../logger.js';
import type { BackgroundWorker } from '../service.js';

/** One Server-Sent Event for the subscribers of one tenant. */
export interface SseMessage {
  tenantId: string;
  /** The SSE event name (`event:` line). */
  event: string;
  /** The `data:` line: JSON, ids and what changed only (no personal data). */
  data: string;
}

export interface SseHubOptions {
  /** The worker's name (logs, shutdown). */
  name: string;
  databaseUrl: string;
  /** The NOTIFY channel the service's write paths send to inside their transactions. */
  channel: string;
  logger?: Logger;
  /** Turns a notification's payload into the event to send; undefined drops it (unreadable or not for browsers). */
  parse: (payload: string) => SseMessage | undefined;
  /** Called for each message before it is fanned out (e.g. to drop a replica's cache of that tenant). */
  onMessage?: (message: SseMessage) => void;
}

type Subscriber = (message: Pick<SseMessage, 'event' | 'data'> | undefined) => void;

/**
 * Live updates for browsers: one LISTEN per process on a channel (every replica hears every commit), fanned out to
 * the Server-Sent-Event subscribers of the tenant each notification belongs to. Serve a stream with `serveSse`.
 */
export class SseHub implements BackgroundWorker {
  readonly name: string;
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private readonly listener: PgListener;

  constructor(private readonly options: SseHubOptions) {
    this.name = options.name;
    this.listener = new PgListener({
      databaseUrl: options.databaseUrl,
      channel: options.channel,
      ...(options.logger ? { logger: options.logger } : {}),
      onNotify: (payload) => {
        const message = this.options.parse(payload);
        if (message) this.publish(message);
      },
    });
  }

  start(): void {
    this.listener.start();
  }

  /** Ends every open stream and the LISTEN connection. */
  async stop(): Promise<void> {
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber(undefined);
    this.subscribers.clear();
    await this.listener.stop();
  }

  /** Sends a message to this process's subscribers of its tenant (what a notification does). */
  publish(message: SseMessage): void {
    this.options.onMessage?.(message);
    for (const subscriber of this.subscribers.get(message.tenantId) ?? []) subscriber(message);
  }

  /** Calls `subscriber` with each message of the tenant, and with undefined when the hub stops. */
  subscribe(tenantId: string, subscriber: Subscriber): () => void {
    const set = this.subscribers.get(tenantId) ?? new Set<Subscriber>();
    set.add(subscriber);
    this.subscribers.set(tenantId, set);
    return () => {
      set.delete(subscriber);
      if (set.size === 0) this.subscribers.delete(tenantId);
    };
  }

  /** How many streams this process serves for the tenant (tests, metrics). */
  subscriberCount(tenantId: string): number {
    return this.subscribers.get(tenantId)?.size ?? 0;
  }
}

/** Proxies close idle connections; a comment line every 25 s keeps the stream open. */
export const SSE_HEARTBEAT_MS = 25_000;

/** setTimeout's largest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ServeSseOptions {
  heartbeatMs?: number;
  /**
   * Sends only the tenant's messages this accepts (e.g. the one record a stream is about). It may answer later (a
   * promise): the stream's messages wait for it in order, so a filter that re-reads what its caller may see decides
   * the messages after it with what it read. A filter that fails drops its message.
   */
  filter?: (message: Pick<SseMessage, 'event' | 'data'>) => boolean | Promise<boolean>;
  /**
   * Read once subscribed (so no change between the read and the subscription is lost): messages sent first, e.g.
   * the record's current state. A change may then arrive twice; events carry whole states, so that is harmless.
   */
  initial?: () => Promise<Pick<SseMessage, 'event' | 'data'>[]>;
  /** Ends the stream after a message it accepts (e.g. a job's final state). */
  last?: (message: Pick<SseMessage, 'event' | 'data'>) => boolean;
  /** The clock the token's expiry is measured by (tests). */
  now?: () => number;
}

/**
 * Serves one tenant's stream of the hub as `text/event-stream` until the client goes away, the hub stops or the
 * caller's access token expires (`req.ctx.expiresAt`: a stream never outlives the token that opened it; EventSource
 * reconnects, and the bff does so with a fresh token while the session lasts). `retry: 5000` first, then
 * `event:`/`data:` per message and a heartbeat.
 * Use as a route's handler: `handler: ({ ctx, req, res }) => serveSse(hub, ctx.tenantId, req, res)`.
 */
export function serveSse(
  hub: SseHub,
  tenantId: string,
  req: Request,
  res: Response,
  options: ServeSseOptions = {},
): Promise<void> {
  return new Promise<void>((resolve) => {
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write('retry: 5000\n\n');
    const heartbeat = setInterval(
      () => res.write(': keep-alive\n\n'),
      options.heartbeatMs ?? SSE_HEARTBEAT_MS,
    );
    const expiresAt = req.ctx?.expiresAt;
    const expiry =
      expiresAt === undefined
        ? undefined
        : setTimeout(
            () => {
              close();
            },
            Math.min(MAX_TIMER_MS, Math.max(0, expiresAt - (options.now ?? Date.now)())),
          );
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(expiry);
      unsubscribe();
      if (!res.writableEnded) res.end();
      resolve();
    };
    const write = (message: Pick<SseMessage, 'event' | 'data'>) => {
      if (closed) return;
      res.write(`event: ${message.event}\ndata: ${message.data}\n\n`);
      if (options.last?.(message)) close();
    };
    // Messages leave in the order they came, each once its filter has answered: at once, unless a filter answered
    // with a promise, when the messages after it wait in `queue` (`waiting` of them) for theirs.
    let queue: Promise<void> = Promise.resolve();
    let waiting = 0;
    const enqueue = (decided: () => Promise<boolean>, message: Pick<SseMessage, 'event' | 'data'>) => {
      waiting += 1;
      queue = queue
        .then(decided)
        .then(
          (accepted) => {
            if (accepted) write(message);
          },
          () => undefined,
        )
        .finally(() => {
          waiting -= 1;
        });
    };
    const send = (message: Pick<SseMessage, 'event' | 'data'>) => {
      if (closed) return;
      const filter = options.filter;
      if (!filter) {
        write(message);
        return;
      }
      if (waiting > 0) {
        enqueue(async () => filter(message), message);
        return;
      }
      const accepted = filter(message);
      if (typeof accepted === 'boolean') {
        if (accepted) write(message);
      } else enqueue(() => accepted, message);
    };
    const unsubscribe = hub.subscribe(tenantId, (message) => {
      if (!message) close();
      else send(message);
    });
    req.on('close', close);
    if (options.initial) {
      options
        .initial()
        .then((messages) => {
          for (const message of messages) send(message);
        })
        .catch(() => {
          close();
        });
    }
  });
}
