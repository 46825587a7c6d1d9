import { problems, type Knex } from '@workspace/kit';
import { IdempotencyStore } from '../db/idempotency.store.js';

export { IDEMPOTENCY_HEADER, idempotencyKey } from '@workspace/kit';

/**
 * `work` once per key: in the caller's transaction, a key seen before answers its first result (the same
 * operation) without doing the work again; a key used for another operation is a 409. Without a key, just `work`.
 */
export async function once<T>(
  trx: Knex.Transaction,
  tenantId: string,
  key: string | undefined,
  operation: string,
  work: () => Promise<T>,
): Promise<T> {
  if (key === undefined) return work();
  const store = new IdempotencyStore(trx);
  await store.lock(tenantId, key);
  const earlier = await store.get(key);
  if (earlier) {
    if (earlier.operation !== operation) {
      throw problems.conflict('This idempotency key was used for another request.', 'idempotency_key_reused');
    }
    return earlier.response as T;
  }
  const result = await work();
  await store.insert(tenantId, key, operation, result);
  return result;
}
