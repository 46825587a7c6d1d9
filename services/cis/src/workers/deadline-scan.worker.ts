import type { BackgroundWorker } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { scanDeadlines, type DeadlineScanReport } from '../commands/deadline-scan.js';

/**
 * The daily deadline scan (commands/deadline-scan.ts, docs/runbook.md "CIS deadline scan") on every replica: once at
 * start, then every CIS_DEADLINE_SCAN_INTERVAL_MS. Each tenant is scanned once per London day however often it runs;
 * a failing round is logged and the next one tries again.
 */
export class DeadlineScanWorker implements BackgroundWorker {
  readonly name = 'cis-deadline-scan';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(private readonly deps: CisDeps) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.running = this.runOnce()
        .then((report) => {
          if (report.alerted > 0) this.deps.logger.info(report, 'CIS deadlines told');
        })
        .catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, 'CIS deadline scan failed; retrying next interval');
        })
        .finally(() => {
          if (!this.stopped) {
            this.timer = setTimeout(tick, this.deps.config.CIS_DEADLINE_SCAN_INTERVAL_MS);
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

  runOnce(): Promise<DeadlineScanReport> {
    return scanDeadlines(this.deps);
  }
}
