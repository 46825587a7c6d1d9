import { FixedWindowLimiter, SharedRateLimiter } from '../src/rate-limit.js';

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('FixedWindowLimiter', () => {
  it('allows the limit per window, then refuses with the seconds left, then allows again', () => {
    const time = clock();
    const limiter = new FixedWindowLimiter({ limit: 3, windowMs: 60_000, now: time.now });
    expect([1, 2, 3].map(() => limiter.hit(['ip:1']).allowed)).toEqual([true, true, true]);
    time.advance(15_500);
    expect(limiter.hit(['ip:1'])).toEqual({ allowed: false, retryAfterSeconds: 45 });
    time.advance(44_499);
    expect(limiter.hit(['ip:1'])).toEqual({ allowed: false, retryAfterSeconds: 1 });
    time.advance(1);
    expect(limiter.hit(['ip:1']).allowed).toBe(true);
  });

  it('counts keys separately', () => {
    const time = clock();
    const limiter = new FixedWindowLimiter({ limit: 1, windowMs: 60_000, now: time.now });
    expect(limiter.hit(['ip:1']).allowed).toBe(true);
    expect(limiter.hit(['ip:2']).allowed).toBe(true);
    expect(limiter.hit(['ip:1']).allowed).toBe(false);
  });

  it('refuses when any of the keys is exhausted, and a refused request counts against none', () => {
    const time = clock();
    const limiter = new FixedWindowLimiter({ limit: 2, windowMs: 60_000, now: time.now });
    limiter.hit(['ip:1', 'user:demo:u1']);
    limiter.hit(['ip:2', 'user:demo:u1']);
    // The user is exhausted from two addresses; a third address is refused for the user.
    expect(limiter.hit(['ip:3', 'user:demo:u1']).allowed).toBe(false);
    // ip:3 was not counted by the refused request: it still has its full allowance.
    expect(limiter.hit(['ip:3']).allowed).toBe(true);
    expect(limiter.hit(['ip:3']).allowed).toBe(true);
    expect(limiter.hit(['ip:3']).allowed).toBe(false);
  });

  it('keeps at most maxKeys windows, sweeping expired ones first', () => {
    const time = clock();
    const limiter = new FixedWindowLimiter({ limit: 1, windowMs: 1000, now: time.now, maxKeys: 3 });
    limiter.hit(['a']);
    limiter.hit(['b']);
    time.advance(1000);
    limiter.hit(['c']);
    limiter.hit(['d']);
    expect(limiter.size).toBe(2);
    limiter.hit(['e']);
    limiter.hit(['f']);
    expect(limiter.size).toBe(3);
  });
});

describe('SharedRateLimiter', () => {
  it('sends HMACs of the keys to identity and answers identity’s decision', async () => {
    const calls: { bucket: string; keys: string[]; limit: number; windowMs: number }[] = [];
    /** A limiter of 5 a minute whose identity records each call and answers `decision`. */
    const recorded = (bucket: string, decision: { allowed: boolean; retryAfterSeconds: number }) =>
      new SharedRateLimiter({
        bucket,
        limit: 5,
        windowMs: 60_000,
        secret: 'secret-a',
        identity: {
          hitRateLimit: (called, body) => {
            calls.push({ bucket: called, ...body });
            return Promise.resolve(decision);
          },
        },
        logger: { warn: () => undefined },
      });
    const limiter = recorded('login', { allowed: false, retryAfterSeconds: 12 });
    expect(await limiter.hit(['ip:10.0.0.1', 'user:demo:u1'])).toEqual({
      allowed: false,
      retryAfterSeconds: 12,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ bucket: 'login', limit: 5, windowMs: 60_000 });
    const keys = calls[0]?.keys ?? [];
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(key).not.toContain('10.0.0.1');
    }
    // The same key under another secret or bucket is another window.
    const other = recorded('redeem', { allowed: true, retryAfterSeconds: 0 });
    await other.hit(['ip:10.0.0.1']);
    expect(calls[1]?.keys[0]).not.toBe(keys[0]);
  });

  it('counts on this replica, with a warning, while identity cannot be reached', async () => {
    const time = clock();
    const warnings: string[] = [];
    const limiter = new SharedRateLimiter({
      bucket: 'login',
      limit: 2,
      windowMs: 60_000,
      secret: 'secret-a',
      identity: { hitRateLimit: () => Promise.reject(new Error('connect ECONNREFUSED')) },
      logger: { warn: (_fields: unknown, message: string) => void warnings.push(message) },
      now: time.now,
    });
    expect((await limiter.hit(['ip:1'])).allowed).toBe(true);
    expect((await limiter.hit(['ip:1'])).allowed).toBe(true);
    expect(await limiter.hit(['ip:1'])).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(warnings[0]).toBe('shared rate limit unavailable: counting on this replica');
    time.advance(60_000);
    expect((await limiter.hit(['ip:1'])).allowed).toBe(true);
  });
});
