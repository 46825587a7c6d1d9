import type { Registry } from 'prom-client';
import { sweep, sweepMetrics } from '../commands/sweep.js';
import type { DriveDeps } from '../drive-deps.js';
import { IntervalWorker } from '@workspace/kit';

/**
 * The region sweep every SWEEP_INTERVAL_MS (docs/runbook.md "Drive sweep"): objects without a record removed,
 * records without an object flagged missing and counted in drive_sweep_missing_objects.
 */
export function sweepWorker(deps: DriveDeps, registry: Registry): IntervalWorker {
  const metrics = sweepMetrics(registry);
  return new IntervalWorker('drive-sweep', deps.config.SWEEP_INTERVAL_MS, deps.logger, () =>
    sweep(deps, { metrics }),
  );
}
