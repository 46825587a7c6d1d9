import type { Knex } from '@workspace/kit';
import type { UserKeys } from './users.store.js';

/**
 * Users created before their key pairs existed (migration 005), across tenants: takes `Knex`, not a tenant's
 * transaction, because each batch runs in its own transaction with `app.user_keys_backfill` set, which lets it see
 * users without a key and nothing else.
 */
export class UserKeysBackfillStore {
  constructor(private readonly db: Knex) {}

  /**
   * Gives up to `batchSize` users without a key pair one each (`makeKeys` per user), in one transaction; returns
   * how many it found.
   */
  async fillBatch(batchSize: number, makeKeys: () => UserKeys): Promise<number> {
    return this.db.transaction(async (trx) => {
      await trx.raw(`SELECT set_config('app.user_keys_backfill', 'on', true)`);
      const rows = await trx('users')
        .whereNull('public_key')
        .limit(batchSize)
        .select<{ uid: string }[]>('uid');
      for (const { uid } of rows) {
        const keys = makeKeys();
        await trx('users').where({ uid }).whereNull('public_key').update({
          public_key: keys.publicKey,
          private_key_sealed: keys.privateKeySealed,
          key_created_at: trx.fn.now(),
        });
      }
      return rows.length;
    });
  }
}
