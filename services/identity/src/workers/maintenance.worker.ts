import type { BackgroundWorker } from '@workspace/kit';
import { runMaintenance, type MaintenanceDeps, type MaintenanceReport } from '../commands/maintenance.js';

export interface MaintenanceOptions extends MaintenanceDeps {
  intervalMs: number;
}

/** Runs identity's housekeeping (commands/maintenance.ts) on every replica every MAINTENANCE_INTERVAL_SECONDS. */
export class IdentityMaintenance implements BackgroundWorker {
  readonly name = 'identity-maintenance';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly options: MaintenanceOptions) {}

  start(): void {
    const tick = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => {
          this.options.logger.warn({ err: error }, 'identity maintenance failed; retrying next interval');
        })
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.options.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.options.intervalMs);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  runOnce(): Promise<MaintenanceReport> {
    return runMaintenance(this.options);
  }
}
