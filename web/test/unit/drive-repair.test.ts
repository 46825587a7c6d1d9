// drive.md §2 'Rebuild, repair summary: Repaired {n} • Skipped {n} • Pending {n}': the line the drive page's Repair
// references shows for a repair-refs answer.
import { repairSummaryLine } from '../../src/features/drive/pages/repairSummary';

describe('the repair summary line', () => {
  it('counts the fixed, skipped and pending files of a repair-refs answer', () => {
    expect(repairSummaryLine({ fixed: ['a'], skipped: [], pending: ['b', 'c'] })).toBe(
      'Repaired 1 \u2022 Skipped 0 \u2022 Pending 2',
    );
  });

  it('says so when nothing needed a repair', () => {
    expect(repairSummaryLine({ fixed: [], skipped: [], pending: [] })).toBe(
      'Repaired 0 \u2022 Skipped 0 \u2022 Pending 0',
    );
  });

  it('names skipped files apart from the repaired ones', () => {
    expect(repairSummaryLine({ fixed: ['a', 'b', 'c'], skipped: ['d'], pending: [] })).toBe(
      'Repaired 3 \u2022 Skipped 1 \u2022 Pending 0',
    );
  });
});
