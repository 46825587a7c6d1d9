import { FixedWindowLimiter } from '../src/rate-limit.js';

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
