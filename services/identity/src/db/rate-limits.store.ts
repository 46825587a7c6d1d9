import type { Knex } from '@workspace/kit';

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the window of the exhausted key ends (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * The bff's shared rate-limit windows (table `rate_limit_windows`). A platform table (an attempt is counted before
 * any tenant is known), so the store takes `Knex`.
 */
export class RateLimitStore {
  constructor(private readonly db: Knex) {}

  /**
   * Counts one attempt against every key of `bucket`, in fixed windows shared by every bff replica: refused when
   * any key has used `limit` attempts in its window (a refused attempt does not count, so a client that waits out
   * the window gets in again). One transaction; rows are locked in key order so concurrent attempts cannot deadlock.
   */
  hit(bucket: string, keys: readonly string[], limit: number, windowMs: number): Promise<RateLimitDecision> {
    const sorted = [...new Set(keys)].sort();
    return this.db.transaction(async (trx) => {
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

  async deleteExpired(): Promise<number> {
    return this.db('rate_limit_windows').where('reset_at', '<', this.db.fn.now()).del();
  }
}
