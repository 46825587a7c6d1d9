import {
  DEFAULT_REFERENCE_TYPE,
  REPAIR_BATCH_SIZE,
  inBatches,
  referenceCounts,
  repairStep,
  repairSummary,
} from '../../src/domain/index.js';

describe('file references', () => {
  it('default to the attachment type', () => {
    expect(DEFAULT_REFERENCE_TYPE).toBe('attachment');
  });

  it('count per module: schedule, notes, chat, tasks, other and total', () => {
    expect(referenceCounts(['schedule', 'chat', 'chat', 'cis', 'tasks'])).toEqual({
      schedule: 1,
      notes: 0,
      chat: 2,
      tasks: 1,
      other: 1,
      total: 5,
    });
  });
});

describe('reference repair', () => {
  const file = { orphanedRef: true, status: 'active' as const, references: 0, intents: 1 };

  it('skips a file that is not orphaned', () => {
    expect(repairStep({ ...file, orphanedRef: false })).toBe('skip');
  });

  it('waits for a trashed file to be restored', () => {
    expect(repairStep({ ...file, status: 'trashed' })).toBe('wait');
  });

  it('clears the flag of a file attached again since', () => {
    expect(repairStep({ ...file, references: 1 })).toBe('clear');
  });

  it('recreates the recorded reference, or releases a file with nothing recorded', () => {
    expect(repairStep(file)).toBe('recreate');
    expect(repairStep({ ...file, intents: 0 })).toBe('release');
  });

  it('summarises as the spec writes it', () => {
    expect(repairSummary({ fixed: 3, skipped: 1, pending: 2 })).toBe('Repaired 3 • Skipped 1 • Pending 2');
  });

  it('runs 25 files in 3 batches of at most 10 at once, each batch after the last has settled', async () => {
    expect(REPAIR_BATCH_SIZE).toBe(10);
    let running = 0;
    let most = 0;
    const batches: number[][] = [];
    const results = await inBatches(
      Array.from({ length: 25 }, (_, n) => n),
      async (n) => {
        running += 1;
        most = Math.max(most, running);
        if (n % 10 === 0) batches.push([]);
        batches.at(-1)?.push(n);
        await Promise.resolve();
        running -= 1;
        if (n === 13) throw new Error('one failure');
        return n * 2;
      },
    );
    expect(batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
    expect(most).toBe(10);
    expect(results).toHaveLength(25);
    expect(results[13]?.status).toBe('rejected');
    expect(results[24]).toEqual({ status: 'fulfilled', value: 48 });
  });
});
