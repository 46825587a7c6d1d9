import type { Logger } from './logger.js';
import type { BackgroundWorker } from './service.js';

/**
 * A worker that runs `work` every `intervalMs` (the first run one interval after start), one run at a time; stop
 * waits for a run in progress. A failing run is logged and the next one comes at the next interval.
 */
export class IntervalWorker implements BackgroundWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly work: () => Promise<unknown>,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.work()
        .then(
          () => undefined,
          (error: unknown) => {
            this.logger.warn(
              { err: error, worker: this.name },
              'worker run failed; trying again next interval',
            );
          },
        )
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.intervalMs);
    this.timer.unref();
  }
}
