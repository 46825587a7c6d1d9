import type { BackgroundWorker } from '@workspace/kit';
import { runRetention, type RetentionDeps, type RetentionReport } from '../commands/retention.js';

export interface RetentionOptions extends RetentionDeps {
  /** Time between rounds (EMAIL_RETENTION_INTERVAL_MS). */
  intervalMs: number;
}

/**
 * Runs the retention clean-up (commands/retention.ts) on every replica: once at start, so what an older version left
 * in clear is sealed straight after an upgrade, then every interval.
 */
export class RetentionWorker implements BackgroundWorker {
  readonly name = 'email-retention';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(private readonly options: RetentionOptions) {}

  start(): void {
    const tick = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => {
          this.options.logger.warn({ err: error }, 'email retention clean-up failed; retrying next interval');
        })
        .finally(() => {
          if (!this.stopped) {
            this.timer = setTimeout(tick, this.options.intervalMs);
            this.timer.unref();
          }
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  runOnce(): Promise<RetentionReport> {
    return runRetention(this.options);
  }
}
