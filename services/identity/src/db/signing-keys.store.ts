import type { Knex } from '@workspace/kit';
import type { JWK } from 'jose';

const LOCK = "SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))";

export interface SigningKeyRecord {
  kid: string;
  publicJwk: JWK;
  privateKeySealed: string;
  createdAt: Date;
  retiredAt: Date | null;
  publishedUntil: Date | null;
}

interface KeyRow {
  kid: string;
  public_jwk: JWK;
  private_key_sealed: string;
  created_at: Date;
  retired_at: Date | null;
  published_until: Date | null;
}

const toRecord = (row: KeyRow): SigningKeyRecord => ({
  kid: row.kid,
  publicJwk: row.public_jwk,
  privateKeySealed: row.private_key_sealed,
  createdAt: row.created_at,
  retiredAt: row.retired_at,
  publishedUntil: row.published_until,
});

/**
 * identity's token signing keys (table `signing_keys`), private halves sealed. A platform table shared by every
 * tenant and replica, so the store takes `Knex` (the pool, or the transaction `locked` opens).
 */
export class SigningKeyStore {
  constructor(private readonly db: Knex) {}

  /** Runs `work` in a transaction holding the keys' advisory lock, so concurrent rotations by replicas take turns. */
  locked<T>(work: (store: SigningKeyStore) => Promise<T>): Promise<T> {
    return this.db.transaction(async (trx) => {
      await trx.raw(LOCK);
      return work(new SigningKeyStore(trx));
    });
  }

  /** The newest key that has not been retired. */
  async newestUnretired(): Promise<SigningKeyRecord | undefined> {
    const row = (await this.db('signing_keys')
      .whereNull('retired_at')
      .orderBy('created_at', 'desc')
      .first()) as KeyRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Keys still within their publication, newest first. */
  async published(): Promise<SigningKeyRecord[]> {
    const rows = await this.db('signing_keys')
      .where((query) => {
        void query.whereNull('published_until').orWhere('published_until', '>', this.db.fn.now());
      })
      .orderBy('created_at', 'desc')
      .select<KeyRow[]>('*');
    return rows.map(toRecord);
  }

  /** Every key, newest first. */
  async all(): Promise<SigningKeyRecord[]> {
    const rows = await this.db('signing_keys').orderBy('created_at', 'desc').select<KeyRow[]>('*');
    return rows.map(toRecord);
  }

  /** Retires every unretired key (signing until `retiredAt`, published until `publishedUntil`); their kids. */
  async retireUnretired(retiredAt: Date, publishedUntil: Date): Promise<string[]> {
    const retired: { kid: string }[] = await this.db('signing_keys')
      .whereNull('retired_at')
      .update({ retired_at: retiredAt, published_until: publishedUntil })
      .returning('kid');
    return retired.map((row) => row.kid);
  }

  async insert(key: {
    kid: string;
    publicJwk: JWK;
    privateKeySealed: string;
    createdAt: Date;
  }): Promise<void> {
    await this.db('signing_keys').insert({
      kid: key.kid,
      public_jwk: JSON.stringify(key.publicJwk),
      private_key_sealed: key.privateKeySealed,
      created_at: key.createdAt,
    });
  }

  /** Deletes keys whose publication has ended; returns how many. */
  async purge(): Promise<number> {
    return this.db('signing_keys')
      .whereNotNull('published_until')
      .where('published_until', '<=', this.db.fn.now())
      .del();
  }
}
