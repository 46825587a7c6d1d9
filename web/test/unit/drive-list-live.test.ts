// The file list's live subscription (drive.md §4, §8, §9) and its local cache: the listener's retry rules (3 retries
// at 1 s, 2 s, 3 s; none on permission-denied; every failure logged) under fake timers, the SSE reading, the cache.
import { jest } from '@jest/globals';
import type { FileList } from '../../src/features/drive/api/types';
import {
  FILE_CACHE_ENTRIES,
  fileCacheKey,
  readCachedFiles,
  writeCachedFiles,
} from '../../src/features/drive/list/fileCache';
import {
  connectEventStream,
  LISTENER_RETRIES,
  LISTENER_RETRY_STEP_MS,
  listenForFileChanges,
  PermissionDenied,
  retryDelay,
  sseReader,
  type ListenerHooks,
} from '../../src/features/drive/list/liveFiles';

/** A listener whose every connection is scripted: each call takes the next outcome. */
function scripted(outcomes: ('fail' | 'denied' | 'open' | 'open-then-fail')[]) {
  const connects: number[] = [];
  const logs: { level: string; message: string }[] = [];
  const start = Date.now();
  const hooks: ListenerHooks & { reconnects: number; changes: number } = {
    reconnects: 0,
    changes: 0,
    connect: (_signal, opened, changed) => {
      connects.push(Date.now() - start);
      const outcome = outcomes.shift() ?? 'fail';
      if (outcome === 'denied') return Promise.reject(new PermissionDenied(403));
      if (outcome === 'fail') return Promise.reject(new Error('network error'));
      opened();
      changed();
      if (outcome === 'open-then-fail') return Promise.reject(new Error('stream dropped'));
      return new Promise<void>(() => undefined);
    },
    onChange: () => {
      hooks.changes += 1;
    },
    onReconnect: () => {
      hooks.reconnects += 1;
    },
    log: (level, message) => {
      logs.push({ level, message });
    },
  };
  const advance = async (ms: number) => {
    await jest.advanceTimersByTimeAsync(ms);
  };
  return { hooks, connects, logs, advance };
}

describe('the file list listener', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('retries a failed stream 3 times, at 1 s, 2 s and 3 s after each failure, then stops and logs it', async () => {
    expect([LISTENER_RETRIES, LISTENER_RETRY_STEP_MS]).toEqual([3, 1000]);
    expect([1, 2, 3].map(retryDelay)).toEqual([1000, 2000, 3000]);
    const { hooks, connects, logs, advance } = scripted(['fail', 'fail', 'fail', 'fail', 'open']);
    const stop = listenForFileChanges(hooks);
    await advance(0);
    expect(connects).toEqual([0]);
    await advance(999);
    expect(connects).toEqual([0]);
    await advance(1);
    expect(connects).toEqual([0, 1000]);
    await advance(1999);
    expect(connects).toHaveLength(2);
    await advance(1);
    expect(connects).toEqual([0, 1000, 3000]);
    await advance(3000);
    expect(connects).toEqual([0, 1000, 3000, 6000]);
    // The fourth failure is the last: no fifth attempt, however long one waits.
    await advance(60_000);
    expect(connects).toHaveLength(4);
    expect(logs).toEqual([
      { level: 'warn', message: 'File list listener failed: retry 1 of 3 in 1000 ms' },
      { level: 'warn', message: 'File list listener failed: retry 2 of 3 in 2000 ms' },
      { level: 'warn', message: 'File list listener failed: retry 3 of 3 in 3000 ms' },
      { level: 'error', message: 'File list listener failed after 3 retries: live updates stopped' },
    ]);
    stop();
  });

  it('never retries a permission-denied stream, and logs the refusal', async () => {
    const { hooks, connects, logs, advance } = scripted(['denied', 'open']);
    const stop = listenForFileChanges(hooks);
    await advance(10_000);
    expect(connects).toEqual([0]);
    expect(logs).toEqual([
      { level: 'error', message: 'File list listener refused (permission denied): not retried' },
    ]);
    stop();
  });

  it('a denied retry stops the retries too', async () => {
    const { hooks, connects, advance } = scripted(['fail', 'denied', 'open']);
    const stop = listenForFileChanges(hooks);
    await advance(10_000);
    expect(connects).toEqual([0, 1000]);
    stop();
  });

  it('refetches on each change and after connecting again; a stream that opened starts a fresh count', async () => {
    const { hooks, connects, advance } = scripted([
      'open-then-fail',
      'fail',
      'fail',
      'open-then-fail',
      'fail',
      'fail',
      'fail',
      'open',
    ]);
    const stop = listenForFileChanges(hooks);
    await advance(0);
    await advance(1000 + 2000 + 3000);
    // Opened at 0 then dropped; failed at 1000 and 3000; opened at 6000 (retry 3): the count starts again.
    expect(connects.slice(0, 4)).toEqual([0, 1000, 3000, 6000]);
    expect(hooks.reconnects).toBe(1);
    await advance(1000 + 2000 + 3000);
    expect(connects).toEqual([0, 1000, 3000, 6000, 7000, 9000, 12000]);
    expect(hooks.changes).toBe(2);
    await advance(4000);
    expect(connects).toHaveLength(7);
    stop();
  });

  it('stopping cancels a waiting retry', async () => {
    const { hooks, connects, advance } = scripted(['fail', 'open']);
    const stop = listenForFileChanges(hooks);
    await advance(500);
    stop();
    await advance(5000);
    expect(connects).toEqual([0]);
  });
});

describe('reading the stream', () => {
  it('parses SSE events across chunks, skipping comments', () => {
    const events: [string, string][] = [];
    const read = sseReader((event, data) => {
      events.push([event, data]);
    });
    read('retry: 5000\n\n: keep-alive\n\nevent: fi');
    read('les\ndata: {"driveId":"d1"}\n\r\nevent: files\r\ndata: {"driveId":"d2"}\r\n\r\n');
    expect(events).toEqual([
      ['files', '{"driveId":"d1"}'],
      ['files', '{"driveId":"d2"}'],
    ]);
  });

  it('answers PermissionDenied on 401 and 403, an error on another failure, and reads events once open', async () => {
    const signal = new AbortController().signal;
    const answer = (status: number, body?: string) =>
      (() => Promise.resolve(new Response(body ?? null, { status }))) as unknown as typeof fetch;
    for (const status of [401, 403])
      await expect(
        connectEventStream('/s', 'files', signal, jest.fn(), jest.fn(), answer(status)),
      ).rejects.toBeInstanceOf(PermissionDenied);
    const error = connectEventStream('/s', 'files', signal, jest.fn(), jest.fn(), answer(503));
    await expect(error).rejects.toThrow('The file list stream answered 503');
    await expect(error).rejects.not.toBeInstanceOf(PermissionDenied);
    const opened = jest.fn();
    const changed = jest.fn();
    await connectEventStream(
      '/s',
      'files',
      signal,
      opened,
      changed,
      answer(
        200,
        'retry: 5000\n\nevent: files\ndata: {}\n\nevent: other\ndata: {}\n\nevent: files\ndata: {}\n\n',
      ),
    );
    expect(opened).toHaveBeenCalledTimes(1);
    expect(changed).toHaveBeenCalledTimes(2);
  });
});

/** A Storage in memory. */
function memoryStorage(full = false): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => {
      map.clear();
    },
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => {
      map.delete(key);
    },
    setItem: (key, value) => {
      if (full) throw new Error('QuotaExceededError');
      map.set(key, value);
    },
  };
}

const listOf = (name: string): FileList => ({ items: [{ name }], total: 1 }) as unknown as FileList;

describe('the file list cache', () => {
  it('keeps each query answer per tenant and user, the newest entries only', () => {
    const storage = memoryStorage();
    const key = fileCacheKey('demo', 'u1', { view: 'all', page: 1, q: undefined });
    expect(key).toBe(fileCacheKey('demo', 'u1', { page: 1, view: 'all' }));
    expect(key).not.toBe(fileCacheKey('demo', 'u2', { view: 'all', page: 1 }));
    expect(key).not.toBe(fileCacheKey('acme', 'u1', { view: 'all', page: 1 }));
    expect(readCachedFiles(storage, key)).toBeUndefined();
    writeCachedFiles(storage, key, listOf('a.pdf'), 1);
    expect(readCachedFiles(storage, key)).toEqual(listOf('a.pdf'));
    for (let page = 2; page <= FILE_CACHE_ENTRIES + 1; page++)
      writeCachedFiles(storage, fileCacheKey('demo', 'u1', { view: 'all', page }), listOf(`${page}`), page);
    expect(readCachedFiles(storage, key)).toBeUndefined();
    expect(readCachedFiles(storage, fileCacheKey('demo', 'u1', { view: 'all', page: 2 }))).toEqual(
      listOf('2'),
    );
  });

  it('a full or broken storage only loses the cache', () => {
    const storage = memoryStorage();
    storage.setItem('drive.fileLists', 'not json');
    expect(readCachedFiles(storage, 'k')).toBeUndefined();
    const full = memoryStorage(true);
    expect(() => {
      writeCachedFiles(full, 'k', listOf('a'), 1);
    }).not.toThrow();
    expect(readCachedFiles(undefined, 'k')).toBeUndefined();
  });
});
