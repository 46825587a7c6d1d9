import { removeQueuedObjects } from '../commands/object-removals.js';
import type { DriveDeps } from '../drive-deps.js';
import { IntervalWorker } from '@workspace/kit';

/**
 * Removes the objects purges queued and could not remove at once (the object store was down), every
 * OBJECT_REMOVAL_INTERVAL_MS, each failed batch again after a growing delay (commands/object-removals.ts).
 */
export function objectRemovalWorker(deps: DriveDeps): IntervalWorker {
  return new IntervalWorker('drive-object-removal', deps.config.OBJECT_REMOVAL_INTERVAL_MS, deps.logger, () =>
    removeQueuedObjects(deps),
  );
}
