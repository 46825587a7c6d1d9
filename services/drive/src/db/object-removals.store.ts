import type { Knex } from '@workspace/kit';

interface RemovalRow {
  id: number;
  tenant_id: string;
  object_key: string;
  file_id: string | null;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
}

export interface ObjectRemoval {
  id: string;
  tenantId: string;
  key: string;
  attempts: number;
}

const toRemoval = (row: RemovalRow): ObjectRemoval => ({
  id: String(row.id),
  tenantId: row.tenant_id,
  key: row.object_key,
  attempts: row.attempts,
});

/**
 * Object keys a purge committed to removing, until the object store confirms (migration 004): the only code
 * touching `object_removals`. Not tenant-isolated (keys and ids only), so it takes the pool, not a tenant
 * transaction, when the removal worker reads it; a purge adds its keys in its own tenant transaction.
 */
export class ObjectRemovalStore {
  constructor(private readonly db: Knex) {}

  /**
   * Queues the keys in the purge's transaction (they commit with the records' removal), due at `at`; answers the
   * queue ids (the purge removes them right after its commit).
   */
  async add(
    trx: Knex.Transaction,
    tenantId: string,
    objects: readonly { fileId: string; key: string }[],
    at: Date,
  ): Promise<string[]> {
    const ids: string[] = [];
    for (let start = 0; start < objects.length; start += 1_000) {
      const rows = await trx<RemovalRow>('object_removals')
        .insert(
          objects.slice(start, start + 1_000).map((object) => ({
            tenant_id: tenantId,
            object_key: object.key,
            file_id: object.fileId,
            next_attempt_at: at,
          })),
        )
        .returning('id');
      ids.push(...rows.map((row) => String(row.id)));
    }
    return ids;
  }

  /**
   * Claims up to `limit` due removals (these ids only when given) with FOR UPDATE SKIP LOCKED, so replicas and the
   * purge's own attempt never remove the same key twice at once, and runs `work` while the claim holds.
   */
  claim<T>(
    due: Date,
    limit: number,
    work: (claimed: ObjectRemoval[], trx: Knex.Transaction) => Promise<T>,
    ids?: readonly string[],
  ): Promise<T> {
    return this.db.transaction(async (trx) => {
      const query = trx<RemovalRow>('object_removals')
        .where('next_attempt_at', '<=', due)
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked();
      if (ids !== undefined) query.whereIn('id', ids);
      return work((await query).map(toRemoval), trx);
    });
  }

  /** The removals done. */
  async done(trx: Knex.Transaction, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await trx('object_removals').whereIn('id', ids).delete();
  }

  /** The removals that failed: tried again at `retryAt`. */
  async failed(trx: Knex.Transaction, ids: readonly string[], retryAt: Date, error: string): Promise<void> {
    if (ids.length === 0) return;
    await trx('object_removals')
      .whereIn('id', ids)
      .update({
        attempts: trx.raw('attempts + 1'),
        next_attempt_at: retryAt,
        last_error: error.slice(0, 500),
      });
  }

  /** Keys waiting (and how many attempts the oldest has had): the runbook's check. */
  async backlog(): Promise<{ waiting: number; maxAttempts: number }> {
    const row = (await this.db('object_removals')
      .select(
        this.db.raw('count(*)::int AS waiting'),
        this.db.raw('coalesce(max(attempts), 0)::int AS max_attempts'),
      )
      .first()) as { waiting: number; max_attempts: number } | undefined;
    return { waiting: row?.waiting ?? 0, maxAttempts: row?.max_attempts ?? 0 };
  }
}
