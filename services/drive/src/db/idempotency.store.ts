import type { Knex } from '@workspace/kit';

interface IdempotencyRow {
  tenant_id: string;
  key: string;
  operation: string;
  status: number;
  response: unknown;
  created_at: Date;
}

/** Answers of mutations by idempotency key: the only code touching `idempotency_keys`. */
export class IdempotencyStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** Holds the key until the transaction ends, so a repeat sent at the same time waits for the first answer. */
  async lock(tenantId: string, key: string): Promise<void> {
    await this.trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`drive:${tenantId}:${key}`]);
  }

  async get(key: string): Promise<{ operation: string; response: unknown } | undefined> {
    const row = await this.trx<IdempotencyRow>('idempotency_keys').where({ key }).first();
    return row ? { operation: row.operation, response: row.response } : undefined;
  }

  async insert(tenantId: string, key: string, operation: string, response: unknown): Promise<void> {
    await this.trx('idempotency_keys').insert({
      tenant_id: tenantId,
      key,
      operation,
      status: 200,
      response: JSON.stringify(response ?? null),
    });
  }

  /** Forgets keys older than `before` (a repeat after a day is a new request). */
  async prune(before: Date): Promise<number> {
    return this.trx('idempotency_keys').where('created_at', '<', before).delete();
  }

  /** Forgets one key: a restored file's delete key (tenant:file:delete), so the next delete of it is a new request. */
  async forget(key: string): Promise<void> {
    await this.trx('idempotency_keys').where({ key }).delete();
  }
}
