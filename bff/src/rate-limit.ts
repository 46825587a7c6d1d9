import { HttpProblem } from '@workspace/kit';
import type { Request, Response } from 'express';

export interface LimitDecision {
  allowed: boolean;
  /** Seconds until the window of the exhausted key ends (0 when allowed). */
  retryAfterSeconds: number;
}

export interface FixedWindowLimiterOptions {
  /** Requests allowed per key and window. */
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Keys kept at most; expired windows are swept first, then the oldest go. */
  maxKeys?: number;
}

/**
 * A fixed-window counter per key, in memory (one bff replica's view; see README). A request names several keys
 * (its IP, its user when known) and is refused when any of them is exhausted; a refused request does not count,
 * so a client that waits out the window gets in again.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly options: FixedWindowLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  hit(keys: readonly string[]): LimitDecision {
    const now = this.now();
    const windows = keys.map((key) => {
      let window = this.windows.get(key);
      if (!window || window.resetAt <= now) {
        this.makeRoom(now);
        window = { count: 0, resetAt: now + this.options.windowMs };
        this.windows.set(key, window);
      }
      return window;
    });
    const exhausted = windows.filter((window) => window.count >= this.options.limit);
    if (exhausted.length > 0) {
      const resetAt = Math.max(...exhausted.map((window) => window.resetAt));
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
    }
    for (const window of windows) window.count += 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }

  get size(): number {
    return this.windows.size;
  }

  private makeRoom(now: number): void {
    if (this.windows.size < this.maxKeys) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    while (this.windows.size >= this.maxKeys) {
      const oldest = this.windows.keys().next();
      if (oldest.done) break;
      this.windows.delete(oldest.value);
    }
  }
}

/** The client's address as express sees it (honouring TRUST_PROXY). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Counts the request against the limiter, or answers 429 with Retry-After. */
export function enforceLimit(limiter: FixedWindowLimiter, keys: readonly string[], res: Response): void {
  const decision = limiter.hit(keys);
  if (decision.allowed) return;
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  throw new HttpProblem(
    429,
    'rate_limited',
    `Too many attempts. Try again in ${decision.retryAfterSeconds} seconds.`,
  );
}
