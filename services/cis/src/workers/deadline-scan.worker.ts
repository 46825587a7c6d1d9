import { IntervalWorker } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { scanDeadlines, type DeadlineScanReport } from '../commands/deadline-scan.js';

/**
 * The daily deadline scan (commands/deadline-scan.ts, docs/runbook.md "CIS deadline scan") on every replica: once at
 * start, then every CIS_DEADLINE_SCAN_INTERVAL_MS (the kit's IntervalWorker with runAtStart). Each tenant is scanned
 * once per London day however often it runs; a failing round is logged and the next one tries again.
 */
export class DeadlineScanWorker extends IntervalWorker {
  constructor(private readonly deps: CisDeps) {
    super(
      'cis-deadline-scan',
      deps.config.CIS_DEADLINE_SCAN_INTERVAL_MS,
      deps.logger,
      async () => {
        const report = await scanDeadlines(deps);
        if (report.alerted > 0) deps.logger.info(report, 'CIS deadlines told');
      },
      { runAtStart: true },
    );
  }

  /** One round now (tests; the schedule runs the same). */
  runOnce(): Promise<DeadlineScanReport> {
    return scanDeadlines(this.deps);
  }
}
