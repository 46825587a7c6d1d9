import type { Logger } from './logger.js';
import type { BackgroundWorker } from './service.js';

export interface IntervalWorkerOptions {
  /**
   * Run once at start (default false: the first run one interval after start). For work that must not wait a whole
   * interval after a deploy or restart (a daily scan on replicas that restart more often than daily).
   */
  runAtStart?: boolean;
}

/**
 * A worker that runs `work` every `intervalMs` (the first run one interval after start, or at once with
 * `runAtStart`), one run at a time; stop waits for a run in progress. A failing run is logged and the next one comes
 * at the next interval.
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
    private readonly options: IntervalWorkerOptions = {},
  ) {}

  start(): void {
    this.stopped = false;
    if (this.options.runAtStart) this.run();
    else this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.run();
    }, this.intervalMs);
    this.timer.unref();
  }

  private run(): void {
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
  }
}
