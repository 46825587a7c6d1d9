import pg from 'pg';
import { sleep } from '../events/bus.js';
import type { Logger } from '../logger.js';

/** A connection attempt that takes longer is abandoned and tried again (and never holds up stop() for longer). */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A reconnecting PostgreSQL LISTEN on one channel: every replica hears `pg_notify(channel, payload)` at commit
 * time. While the database is away it retries each second; callers that must not miss work also poll.
 */
export class PgListener {
  private client: pg.Client | undefined;
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly options: {
      databaseUrl: string;
      channel: string;
      onNotify: (payload: string) => void;
      /** Called after each (re)connection: anything sent while disconnected may have been missed. */
      onConnect?: () => void;
      logger?: Logger;
    },
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel))
      throw new Error(`Channel ${options.channel} is not valid`);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.listen();
  }

  /** Ends the listening connection; one still being made is closed by the loop as soon as it is made. */
  async stop(): Promise<void> {
    this.running = false;
    await this.client?.end().catch(() => undefined);
    await this.loop;
  }

  private isRunning(): boolean {
    return this.running;
  }

  private async listen(): Promise<void> {
    while (this.isRunning()) {
      const client = new pg.Client({
        connectionString: this.options.databaseUrl,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      });
      const closed = new Promise<void>((resolve) => {
        client.on('error', () => {
          resolve();
        });
        client.on('end', () => {
          resolve();
        });
      });
      try {
        await client.connect();
        client.on('notification', (message) => {
          this.options.onNotify(message.payload ?? '');
        });
        await client.query(`LISTEN ${this.options.channel}`);
        // Stopped while connecting: nothing to wait for (and stop() did not know this client).
        if (this.isRunning()) {
          this.client = client;
          this.options.onConnect?.();
          await closed;
        }
      } catch (error) {
        if (this.isRunning()) this.options.logger?.debug({ err: error }, 'LISTEN connection lost');
      }
      this.client = undefined;
      await client.end().catch(() => undefined);
      if (this.isRunning()) await sleep(1_000);
    }
  }
}
