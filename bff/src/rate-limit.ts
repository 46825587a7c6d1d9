import { createHmac } from 'node:crypto';
import { HttpProblem } from '@workspace/kit';
import type { Request, Response } from 'express';
import type { IdentityClient } from './identity-client.js';

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

/** Counts attempts per key and answers whether one more may go ahead. */
export interface RateLimiter {
  hit(keys: readonly string[]): Promise<LimitDecision> | LimitDecision;
}

/**
 * A fixed-window counter per key, in memory (one bff replica's view): the fallback of the shared limiter while
 * identity cannot be reached, and the limiter of tests that run a bff alone. A request names several keys
 * (its IP, its user when known) and is refused when any of them is exhausted; a refused request does not count,
 * so a client that waits out the window gets in again.
 */
export class FixedWindowLimiter implements RateLimiter {
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

export interface SharedRateLimiterOptions {
  /** The bucket at identity (login, callback, redeem): each has its own windows. */
  bucket: string;
  limit: number;
  windowMs: number;
  /** Keys are sent as HMACs under this secret, so identity never stores a client address or user in clear. */
  secret: string;
  identity: Pick<IdentityClient, 'hitRateLimit'>;
  logger: { warn(fields: object, message: string): void };
  now?: () => number;
}

/**
 * The sign-in and redemption limits of every bff replica together (docs/identity.md "Rate limits"): each attempt is
 * counted in identity's PostgreSQL, so N replicas allow the limit once, not N times. While identity cannot be
 * reached the replica counts on its own (a warning is logged) rather than refusing everyone; sign-in needs identity
 * anyway, so nothing gets further than it could.
 */
export class SharedRateLimiter implements RateLimiter {
  private readonly fallback: FixedWindowLimiter;

  constructor(private readonly options: SharedRateLimiterOptions) {
    this.fallback = new FixedWindowLimiter({
      limit: options.limit,
      windowMs: options.windowMs,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  async hit(keys: readonly string[]): Promise<LimitDecision> {
    const { bucket, limit, windowMs, secret, identity, logger } = this.options;
    const hashed = keys.map((key) =>
      createHmac('sha256', secret).update(`${bucket}:${key}`).digest('base64url'),
    );
    try {
      return await identity.hitRateLimit(bucket, { keys: hashed, limit, windowMs });
    } catch (error) {
      logger.warn({ err: error, bucket }, 'shared rate limit unavailable: counting on this replica');
      return this.fallback.hit(keys);
    }
  }
}

/** The client's address as express sees it (honouring TRUST_PROXY). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Counts the request against the limiter, or answers 429 with Retry-After. */
export async function enforceLimit(
  limiter: RateLimiter,
  keys: readonly string[],
  res: Response,
): Promise<void> {
  const decision = await limiter.hit(keys);
  if (decision.allowed) return;
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  throw new HttpProblem(
    429,
    'rate_limited',
    `Too many attempts. Try again in ${decision.retryAfterSeconds} seconds.`,
  );
}
