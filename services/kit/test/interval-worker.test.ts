// The kit's IntervalWorker: a run every interval, the first one interval after start or, with runAtStart, at once;
// a failing run logged and the next at the next interval; stop waits for the run in progress and ends the schedule.
// Time is jest's fake timers, moved by the test.
import { Writable } from 'node:stream';
import { jest } from '@jest/globals';
import { createLogger, IntervalWorker, type IntervalWorkerOptions } from '../src/index.js';

const INTERVAL_MS = 60_000;

function worker(work: () => Promise<unknown>, options?: IntervalWorkerOptions) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ name: 'interval-test', level: 'info' }, sink);
  return { worker: new IntervalWorker('test-work', INTERVAL_MS, logger, work, options), lines };
}

/** Lets the promises of a finished run settle (its .then and .finally), with the timers still faked. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('IntervalWorker', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs first one interval after start, then every interval', async () => {
    let runs = 0;
    const { worker: w } = worker(() => Promise.resolve(runs++));
    w.start();
    await settle();
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(runs).toBe(2);
    await w.stop();
  });

  it('with runAtStart, runs at once at start, then every interval after that run', async () => {
    let runs = 0;
    const { worker: w } = worker(() => Promise.resolve(runs++), { runAtStart: true });
    w.start();
    expect(runs).toBe(1);
    await settle();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(runs).toBe(3);
    await w.stop();
  });

  it('logs a failing run (the run at start too) and runs again at the next interval', async () => {
    let runs = 0;
    const { worker: w, lines } = worker(
      () => {
        runs++;
        return runs === 1 ? Promise.reject(new Error('database away')) : Promise.resolve();
      },
      { runAtStart: true },
    );
    w.start();
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({
        worker: 'test-work',
        msg: 'worker run failed; trying again next interval',
        err: expect.objectContaining({ message: 'database away' }) as unknown,
      }),
    ]);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(runs).toBe(2);
    expect(lines).toHaveLength(1);
    await w.stop();
  });

  it('stop waits for the run in progress and nothing runs after it', async () => {
    let finish: () => void = () => undefined;
    let runs = 0;
    let finished = false;
    const { worker: w } = worker(
      () => {
        runs++;
        return new Promise<void>((resolve) => {
          finish = () => {
            finished = true;
            resolve();
          };
        });
      },
      { runAtStart: true },
    );
    w.start();
    expect(runs).toBe(1);
    let stopped = false;
    const stopping = w.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(finished).toBe(true);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS * 3);
    expect(runs).toBe(1);
  });
});
