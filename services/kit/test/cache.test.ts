import { jest } from '@jest/globals';
import { CACHE_PRESETS, presetCache, ScopeGate, TtlLruCache } from '../src/index.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

/** The entry is served until its TTL has passed and not after. */
function expectExpiry(cache: TtlLruCache<string, string>, ttlMs: number) {
  cache.set('k', 'v');
  jest.advanceTimersByTime(ttlMs - 1);
  expect(cache.get('k')).toBe('v');
  jest.advanceTimersByTime(2);
  expect(cache.get('k')).toBeUndefined();
}

describe('TtlLruCache', () => {
  it('serves an entry until its TTL passes; a read does not extend it', () => {
    const cache = new TtlLruCache<string, string>({ name: 't', ttlMs: 1000, maxEntries: 10 });
    cache.set('a', 'A');
    jest.advanceTimersByTime(600);
    expect(cache.get('a')).toBe('A');
    jest.advanceTimersByTime(399);
    expect(cache.get('a')).toBe('A');
    expect(cache.remainingTtl('a')).toBe(1);
    jest.advanceTimersByTime(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.has('a')).toBe(false);
  });

  it('takes a TTL per entry', () => {
    const cache = new TtlLruCache<string, string>({ name: 't', ttlMs: 1000, maxEntries: 10 });
    cache.set('short', 's').set('long', 'l', 5000);
    jest.advanceTimersByTime(1001);
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBe('l');
  });

  it('evicts the least recently used entry (reads count as use) when full', () => {
    const cache = new TtlLruCache<string, number>({ name: 't', ttlMs: MINUTE, maxEntries: 3 });
    cache.set('a', 1).set('b', 2).set('c', 3);
    expect(cache.get('a')).toBe(1); // a is now the most recently used; b the least
    cache.set('d', 4);
    expect(cache.has('b')).toBe(false);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
    expect(cache.size).toBe(3);
  });

  it('bounds the total size; least recently used entries go first and oversize entries are not kept', () => {
    const cache = new TtlLruCache<string, Buffer>({
      name: 't',
      ttlMs: MINUTE,
      maxEntries: 100,
      maxBytes: 100,
    });
    cache.set('a', Buffer.alloc(40)).set('b', Buffer.alloc(40));
    expect(cache.bytes).toBe(80);
    cache.set('c', Buffer.alloc(40));
    expect(cache.has('a')).toBe(false);
    expect(cache.bytes).toBe(80);
    cache.set('huge', Buffer.alloc(101));
    expect(cache.has('huge')).toBe(false);
    expect(cache.has('b') && cache.has('c')).toBe(true);
  });

  it('deletes by key predicate and purges expired entries', () => {
    const cache = new TtlLruCache<string, string>({ name: 't', ttlMs: 1000, maxEntries: 10 });
    cache.set('t1:a', 'x').set('t1:b', 'x').set('t2:a', 'x');
    expect(cache.deleteWhere((key) => key.startsWith('t1:'))).toBe(2);
    expect(cache.has('t2:a')).toBe(true);
    cache.set('later', 'y', 5000);
    jest.advanceTimersByTime(1001);
    expect(cache.size).toBe(2);
    expect(cache.purgeExpired()).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('getOrLoad shares one load between concurrent callers and does not cache failures', async () => {
    const cache = new TtlLruCache<string, string>({ name: 't', ttlMs: 1000, maxEntries: 10 });
    const load = jest.fn(() => Promise.resolve('loaded'));
    const [a, b] = await Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)]);
    expect([a, b, load.mock.calls.length]).toEqual(['loaded', 'loaded', 1]);
    await expect(cache.getOrLoad('x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.has('x')).toBe(false);
  });
});

describe('cache presets carry the spec constants', () => {
  it('drive access service permission cache: 90 s', () => {
    expect(CACHE_PRESETS.driveAccess.ttlMs).toBe(90_000);
    expectExpiry(presetCache('driveAccess'), 90_000);
  });

  it('scope gate cache: 10 s with a 100 ms delay', () => {
    expect(CACHE_PRESETS.scopeGate).toMatchObject({ ttlMs: 10_000, delayMs: 100 });
    expectExpiry(presetCache('scopeGate'), 10_000);
  });

  it('general permission cache: 1 hour, at most 20 entries; the 21st evicts the least recently used', () => {
    expect(CACHE_PRESETS.permissions).toEqual({ ttlMs: 3_600_000, maxEntries: 20 });
    expectExpiry(presetCache('permissions'), 3_600_000);
    const cache = presetCache<string, string>('permissions');
    for (let i = 1; i <= 20; i++) cache.set(`p${i}`, `v${i}`);
    expect(cache.get('p1')).toBe('v1'); // p1 used again; p2 is now the least recently used
    cache.set('p21', 'v21');
    expect(cache.size).toBe(20);
    expect(cache.has('p2')).toBe(false);
    expect(cache.get('p1')).toBe('v1');
    expect(cache.get('p21')).toBe('v21');
  });

  it('general cache: 15 minutes time to live, at most 200 entries, 100 MB memory', () => {
    expect(CACHE_PRESETS.general).toEqual({ ttlMs: 900_000, maxEntries: 200, maxBytes: 104_857_600 });
    expectExpiry(presetCache('general'), 15 * MINUTE);

    const entries = presetCache<string, string>('general');
    for (let i = 1; i <= 201; i++) entries.set(`k${i}`, 'small');
    expect(entries.size).toBe(200);
    expect(entries.has('k1')).toBe(false);
    expect(entries.has('k201')).toBe(true);

    const bytes = presetCache<string, Buffer>('general');
    const tenMb = 10 * 1024 * 1024;
    for (let i = 1; i <= 10; i++) bytes.set(`b${i}`, Buffer.alloc(tenMb));
    expect(bytes.bytes).toBe(100 * 1024 * 1024);
    bytes.set('b11', Buffer.alloc(tenMb));
    expect(bytes.bytes).toBeLessThanOrEqual(100 * 1024 * 1024);
    expect(bytes.has('b1')).toBe(false);
    expect(bytes.has('b11')).toBe(true);
  });

  it('session scope cache: 5, 10 and 30 minutes (300000, 600000, 1800000 ms) per entry', () => {
    expect(CACHE_PRESETS.sessionScopes.ttlByKindMs).toEqual({
      standard: 300_000,
      admin: 600_000,
      system: 1_800_000,
    });
    const cache = presetCache<string, string>('sessionScopes');
    cache.set('standard', 'x', 300_000).set('admin', 'x', 600_000).set('system', 'x', 1_800_000);
    jest.advanceTimersByTime(300_001);
    expect([cache.has('standard'), cache.has('admin'), cache.has('system')]).toEqual([false, true, true]);
    jest.advanceTimersByTime(300_000);
    expect([cache.has('admin'), cache.has('system')]).toEqual([false, true]);
    jest.advanceTimersByTime(1_200_000);
    expect(cache.has('system')).toBe(false);
  });

  it('avatar cache: kept 7 days, cleanup hourly, 5 per batch, 128 px webp at 0.85', () => {
    expect(CACHE_PRESETS.avatar).toMatchObject({
      ttlMs: 7 * 24 * 3_600_000,
      cleanupIntervalMs: 3_600_000,
      batchSize: 5,
      maxPx: 128,
      webpQuality: 0.85,
    });
    expectExpiry(presetCache('avatar'), 7 * 24 * 3_600_000);
  });
});

describe('ScopeGate', () => {
  const gate = (results: Record<string, boolean> | Error) => {
    const check = jest.fn((keys: string[]) =>
      results instanceof Error
        ? Promise.reject(results)
        : Promise.resolve(Object.fromEntries(keys.map((key) => [key, results[key] ?? false]))),
    );
    return { check, gate: new ScopeGate(check) };
  };

  it('makes the check 100 ms after the first ask, once for every key asked meanwhile', async () => {
    const { check, gate: g } = gate({ 'u1:notes.edit': true, 'u1:notes.delete': false });
    const settled: string[] = [];
    const first = g.allowed('u1:notes.edit').then((ok) => settled.push(`edit ${ok}`));
    await jest.advanceTimersByTimeAsync(50);
    const second = g.allowed('u1:notes.delete').then((ok) => settled.push(`delete ${ok}`));
    const again = g.allowed('u1:notes.edit');
    await jest.advanceTimersByTimeAsync(49);
    expect(check).not.toHaveBeenCalled();
    expect(settled).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await Promise.all([first, second]);
    expect(check).toHaveBeenCalledTimes(1);
    expect(check).toHaveBeenCalledWith(['u1:notes.edit', 'u1:notes.delete']);
    expect(settled).toEqual(['edit true', 'delete false']);
    expect(await again).toBe(true);
  });

  it('answers from the cache for 10 s, then checks again', async () => {
    const { check, gate: g } = gate({ 'u1:drive.view': true });
    const first = g.allowed('u1:drive.view');
    await jest.advanceTimersByTimeAsync(100);
    expect(await first).toBe(true);
    await jest.advanceTimersByTimeAsync(9_999);
    expect(await g.allowed('u1:drive.view')).toBe(true);
    expect(check).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(2);
    const later = g.allowed('u1:drive.view');
    await jest.advanceTimersByTimeAsync(100);
    expect(await later).toBe(true);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('does not cache a failed check; invalidate forgets results', async () => {
    const failing = gate(new Error('identity down'));
    const asked = failing.gate.allowed('u1:x');
    const outcome = expect(asked).rejects.toThrow('identity down');
    await jest.advanceTimersByTimeAsync(100);
    await outcome;
    const retry = failing.gate.allowed('u1:x').catch(() => 'failed again');
    await jest.advanceTimersByTimeAsync(100);
    expect(await retry).toBe('failed again');
    expect(failing.check).toHaveBeenCalledTimes(2);

    const { check, gate: g } = gate({ 'u1:x': true });
    const first = g.allowed('u1:x');
    await jest.advanceTimersByTimeAsync(100);
    await first;
    g.invalidate();
    const next = g.allowed('u1:x');
    await jest.advanceTimersByTimeAsync(100);
    expect(await next).toBe(true);
    expect(check).toHaveBeenCalledTimes(2);
  });
});
