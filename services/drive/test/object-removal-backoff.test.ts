// Bulk file deletes' object removals (docs/drive.md › Rows the architecture replaces › Bulk deletes): a purge queues
// its objects' keys with the record's removal, and they are removed in batches of 1,000 (one DeleteObjects request);
// a batch the object store refuses is tried again later, the delay doubling from a minute up to six hours.
import { REMOVAL_BATCH, removalRetryDelay } from '../src/commands/object-removals.js';

const MINUTE = 60_000;

describe('object removals of bulk deletes (DRV-483, DRV-484)', () => {
  it('DRV-484: a failed removal is retried with exponential backoff: each delay double the one before, from a minute', () => {
    const delays = [1, 2, 3, 4, 5, 6].map(removalRetryDelay);
    expect(delays).toEqual([1, 2, 4, 8, 16, 32].map((minutes) => minutes * MINUTE));
    for (let attempt = 1; attempt < delays.length; attempt++)
      expect(delays[attempt]).toBe(2 * (delays[attempt - 1] ?? 0));
  });

  it('DRV-483: the delay stops growing at six hours, and a batch is 1,000 keys', () => {
    expect(removalRetryDelay(9)).toBe(256 * MINUTE);
    expect(removalRetryDelay(10)).toBe(360 * MINUTE);
    expect(removalRetryDelay(40)).toBe(360 * MINUTE);
    expect(REMOVAL_BATCH).toBe(1_000);
  });
});
