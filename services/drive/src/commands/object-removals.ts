import { ObjectRemovalStore } from '../db/object-removals.store.js';
import type { DriveDeps } from '../drive-deps.js';

/** Keys removed per claim (the object store takes up to 1,000 in one request). */
export const REMOVAL_BATCH = 1_000;
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 6 * 3_600_000;

/** When a removal that failed `attempts` times is tried again: a minute, doubling, at most six hours. */
export const removalRetryDelay = (attempts: number): number =>
  Math.min(RETRY_BASE_MS * 2 ** Math.max(attempts - 1, 0), RETRY_MAX_MS);

/**
 * Removes queued object keys (a purge's, committed with the record's removal): these ids right after a purge, or
 * whatever is due (the removal worker). A key the store confirms leaves the queue; on failure the batch stays queued
 * with its next attempt later, so an object is never lost track of. Answers the keys removed and still waiting.
 */
export async function removeQueuedObjects(
  deps: DriveDeps,
  ids?: readonly string[],
): Promise<{ removed: number; failed: number }> {
  if (ids?.length === 0) return { removed: 0, failed: 0 };
  const store = new ObjectRemovalStore(deps.db);
  const now = deps.clock.now();
  let removed = 0;
  let failed = 0;
  for (;;) {
    const claimed = await store.claim(
      now,
      REMOVAL_BATCH,
      async (batch, trx) => {
        if (batch.length === 0) return 0;
        try {
          await deps.objects.remove(batch.map((removal) => removal.key));
          await store.done(
            trx,
            batch.map((removal) => removal.id),
          );
          removed += batch.length;
        } catch (error) {
          const attempts = Math.max(...batch.map((removal) => removal.attempts)) + 1;
          deps.logger.warn(
            { err: error, keys: batch.length, attempts },
            'object removal failed; the keys stay queued for the next attempt',
          );
          await store.failed(
            trx,
            batch.map((removal) => removal.id),
            new Date(now.getTime() + removalRetryDelay(attempts)),
            error instanceof Error ? error.message : String(error),
          );
          failed += batch.length;
        }
        return batch.length;
      },
      ids,
    );
    // Full batches keep coming while more is due (a failed batch is not due again until its retry).
    if (claimed < REMOVAL_BATCH) break;
  }
  return { removed, failed };
}
