// File references (drive.md §3 file reference, §4 upload registration, §9 repair batches): a module's attachment of
// a drive file to one of its entities, and the repair of files whose reference could not be written.
import { REPAIR_BATCH_SIZE } from './constants.js';

export const DEFAULT_REFERENCE_TYPE = 'attachment';

/** The modules the file's reference counters name (drive.md §3 refs); any other module counts as other. */
export const REFERENCE_COUNTER_MODULES = ['schedule', 'notes', 'chat', 'tasks'] as const;
export type ReferenceCounts = Record<(typeof REFERENCE_COUNTER_MODULES)[number] | 'other' | 'total', number>;

/** refs {schedule, notes, chat, tasks, other, total} from the module ids of a file's references. */
export function referenceCounts(moduleIds: readonly string[]): ReferenceCounts {
  const counts: ReferenceCounts = { schedule: 0, notes: 0, chat: 0, tasks: 0, other: 0, total: 0 };
  for (const moduleId of moduleIds) {
    const known = (REFERENCE_COUNTER_MODULES as readonly string[]).includes(moduleId);
    counts[known ? (moduleId as keyof ReferenceCounts) : 'other'] += 1;
    counts.total += 1;
  }
  return counts;
}

export const REFERENCE_TEXTS = {
  writeFailed: 'Reference creation failed',
  repaired: 'Reference repaired',
  repairFailed: 'Repair failed',
} as const;

/** What repair-refs does with one file (docs/drive.md "References and repair"). */
export type RepairStep =
  /** Not flagged as orphaned: nothing to do. */
  | 'skip'
  /** In the trash: left flagged until it is restored. */
  | 'wait'
  /** A reference exists again (a module attached it since): the flag is cleared. */
  | 'clear'
  /** The reference the upload asked for is recorded: write it, then clear the flag. */
  | 'recreate'
  /** Flagged, no reference and nothing recorded to recreate: the file is attached nowhere, the flag is cleared. */
  | 'release';

export function repairStep(file: {
  orphanedRef: boolean;
  status: 'active' | 'trashed';
  references: number;
  intents: number;
}): RepairStep {
  if (!file.orphanedRef) return 'skip';
  if (file.status === 'trashed') return 'wait';
  if (file.references > 0) return 'clear';
  return file.intents > 0 ? 'recreate' : 'release';
}

export const repairSummary = (counts: { fixed: number; skipped: number; pending: number }): string =>
  `Repaired ${String(counts.fixed)} • Skipped ${String(counts.skipped)} • Pending ${String(counts.pending)}`;

/**
 * `work` over `items` in batches of `size` (repair-refs: 10), each batch in parallel and the next one started when
 * the last has settled. Answers the results in the items' order; a rejected item is its error, not the batch's.
 */
export async function inBatches<T, R>(
  items: readonly T[],
  work: (item: T) => Promise<R>,
  size: number = REPAIR_BATCH_SIZE,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.allSettled(items.slice(start, start + size).map(work))));
  }
  return results;
}
