import { ApiRouter, type Knex } from '@workspace/kit';
import type { Request } from 'express';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the window of the exhausted key ends (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Counts one attempt against every key of `bucket`, in fixed windows shared by every bff replica: refused when any
 * key has used `limit` attempts in its window (a refused attempt does not count, so a client that waits out the
 * window gets in again). One transaction; rows are locked in key order so concurrent attempts cannot deadlock.
 */
export async function hitRateLimit(
  db: Knex,
  bucket: string,
  keys: readonly string[],
  limit: number,
  windowMs: number,
): Promise<RateLimitDecision> {
  const sorted = [...new Set(keys)].sort();
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw<{ rows: { count: number; remaining_ms: string }[] }>(
      `INSERT INTO rate_limit_windows AS w (bucket, key, count, reset_at)
         SELECT ?, k, 0, now() + make_interval(secs => ?) FROM unnest(?::text[]) AS k ORDER BY k
       ON CONFLICT (bucket, key) DO UPDATE SET
         count = CASE WHEN w.reset_at <= now() THEN 0 ELSE w.count END,
         reset_at = CASE WHEN w.reset_at <= now() THEN excluded.reset_at ELSE w.reset_at END
       RETURNING count, extract(epoch FROM (reset_at - now())) * 1000 AS remaining_ms`,
      [bucket, windowMs / 1000, sorted],
    );
    const exhausted = rows.filter((row) => row.count >= limit);
    if (exhausted.length > 0) {
      const remainingMs = Math.max(...exhausted.map((row) => Number(row.remaining_ms)));
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)) };
    }
    await trx('rate_limit_windows')
      .where({ bucket })
      .whereIn('key', sorted)
      .update({ count: trx.raw('count + 1') });
    return { allowed: true, retryAfterSeconds: 0 };
  });
}

/** The bff's shared rate limits (sign-in, callback, magic-link redemption): internal, shared token only. */
export function rateLimitRoutes(context: IdentityContext): ApiRouter {
  const internal = (req: Request) => {
    context.requireInternal(req);
  };
  return new ApiRouter().route({
    method: 'post',
    path: '/internal/rate-limits/:bucket/hit',
    summary:
      'Count one attempt against each key of a bucket, or refuse it when a key has used its limit in the window (bff only)',
    public: true,
    guard: internal,
    request: {
      params: z.object({ bucket: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'Not a bucket name') }),
      body: z.object({
        /** HMACs of the client address and user, made by the bff (no address is sent or stored in clear). */
        keys: z
          .array(z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Not a rate-limit key'))
          .min(1)
          .max(4),
        limit: z.number().int().min(1).max(1_000_000),
        windowMs: z
          .number()
          .int()
          .min(1000)
          .max(24 * 3600 * 1000),
      }),
    },
    responses: {
      200: {
        description: 'Whether the attempt may go ahead, and when to retry if not',
        schema: z.object({ allowed: z.boolean(), retryAfterSeconds: z.number().int() }),
      },
    },
    handler: ({ params, body }) =>
      hitRateLimit(context.db, params.bucket, body.keys, body.limit, body.windowMs),
  });
}
