// drive.md §2 'Rebuild, repair summary: Repaired {n} • Skipped {n} • Pending {n}' (§9 repair summary format).
import type { RepairRefsResponse } from '@workspace/drive/contract';
import { repairSummary } from '@workspace/drive/domain';

export const REPAIR_REFERENCES = 'Repair references';

/** The summary line of a repair-refs answer, from its lists: 'Repaired {n} • Skipped {n} • Pending {n}'. */
export function repairSummaryLine(answer: Pick<RepairRefsResponse, 'fixed' | 'skipped' | 'pending'>): string {
  return repairSummary({
    fixed: answer.fixed.length,
    skipped: answer.skipped.length,
    pending: answer.pending.length,
  });
}
