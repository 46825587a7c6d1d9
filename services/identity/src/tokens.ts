import { randomUUID } from 'node:crypto';
import type { FieldCipher, Knex } from '@workspace/kit';
import {
  createLocalJWKSet,
  errors as joseErrors,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';

const ALGORITHM = 'RS256';
const LOCK = "SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))";
/** A token naming a kid this replica does not know makes it reload the keys, at most this often. */
const RELOAD_ON_UNKNOWN_KID_MS = 1_000;

interface SigningKey {
  kid: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
  createdAt: Date;
}

interface KeyRow {
  kid: string;
  public_jwk: JWK;
  private_key_sealed: string;
  created_at: Date;
  retired_at: Date | null;
  published_until: Date | null;
}

export interface AccessTokenInput {
  tenantId: string;
  subject: string;
  role: string;
  scopes: readonly string[];
  ttlSeconds: number;
  /** Extra claims, e.g. the subcontractor a portal session is limited to. */
  claims?: Record<string, string>;
}

export interface TokenSignerOptions {
  issuer: string;
  audience: string;
  /**
   * How long a key that stopped signing stays in the JWKS: at least the longest lifetime of a token it signed
   * (access or portal), plus a margin for clocks and caches.
   */
  publishRetiredForMs: number;
  /**
   * A new key is published this long before it signs (its `created_at` + this), so a service that fetched the
   * JWKS just before a rotation may fetch it again (jose's cooldown is 30 s) before any token names the new key.
   */
  activationDelayMs: number;
}

export interface SigningKeyInfo {
  kid: string;
  createdAt: string;
  retiredAt: string | null;
  publishedUntil: string | null;
  activatesAt: string;
  signing: boolean;
}

/**
 * Signs identity's RS256 access tokens and publishes the public keys (JWKS). Keys live in the database with their
 * private halves sealed (AES-256-GCM, the kit's FieldCipher), so every replica signs with the same keys and tokens
 * survive restarts. A rotation adds a key that is published at once and signs from `created_at` + the activation
 * delay; the keys it replaces sign until then (`retired_at`) and stay published (so the tokens they signed still
 * verify) until `published_until`. Replicas pick a rotation up on `reload` (the maintenance worker) or at once
 * when a token names a key they do not know.
 */
export class TokenSigner {
  /** Keys that sign now or will (newest first), with the moment each starts and stops. */
  private signing: (SigningKey & { activatesAt: number; retiresAt: number })[] = [];
  private published: JWK[] = [];
  private localKeys!: JWTVerifyGetKey;
  private lastReload = 0;
  private reloading: Promise<void> | undefined;

  private constructor(
    private readonly db: Knex,
    private readonly cipher: FieldCipher,
    private readonly options: TokenSignerOptions,
  ) {}

  static async load(db: Knex, cipher: FieldCipher, options: TokenSignerOptions): Promise<TokenSigner> {
    const signer = new TokenSigner(db, cipher, options);
    await db.transaction(async (trx) => {
      await trx.raw(LOCK);
      const existing: unknown = await trx('signing_keys').whereNull('retired_at').first();
      // The very first key signs at once (no verifier can have cached a JWKS without it).
      if (!existing) await signer.insertKey(trx, true);
    });
    await signer.reload();
    return signer;
  }

  /** Reads the keys again: the newest unretired key signs, every key still within its publication is published. */
  async reload(): Promise<void> {
    const rows = await this.db('signing_keys')
      .where((query) => {
        void query.whereNull('published_until').orWhere('published_until', '>', this.db.fn.now());
      })
      .orderBy('created_at', 'desc')
      .select<KeyRow[]>('*');
    const now = Date.now();
    const candidates = rows.filter((row) => row.retired_at === null || row.retired_at.getTime() > now);
    if (candidates.length === 0) throw new Error('No signing key');
    const known = new Map(this.signing.map((key) => [key.kid, key]));
    this.signing = await Promise.all(
      candidates.map(async (row) => ({
        kid: row.kid,
        publicJwk: row.public_jwk,
        privateKey:
          known.get(row.kid)?.privateKey ??
          (await importPKCS8(this.cipher.decrypt(row.private_key_sealed), ALGORITHM)),
        createdAt: row.created_at,
        activatesAt: row.created_at.getTime() + this.options.activationDelayMs,
        retiresAt: row.retired_at?.getTime() ?? Number.POSITIVE_INFINITY,
      })),
    );
    this.published = rows.map((row) => row.public_jwk);
    this.localKeys = createLocalJWKSet({ keys: this.published });
    this.lastReload = Date.now();
  }

  /**
   * Makes a new signing key and retires every other unretired one (published for `publishRetiredForMs` more).
   * Under the advisory lock, so concurrent rotations by several replicas make one key each, in turn.
   */
  async rotate(options: { immediate?: boolean } = {}): Promise<{ kid: string; retired: string[] }> {
    const result = await this.db.transaction(async (trx) => {
      await trx.raw(LOCK);
      return this.rotateLocked(trx, options.immediate ?? false);
    });
    await this.reload();
    return result;
  }

  /** Rotates when the signing key is older than `maxAgeMs` (checked again under the lock). */
  async rotateIfDue(maxAgeMs: number): Promise<{ kid: string; retired: string[] } | undefined> {
    const result = await this.db.transaction(async (trx) => {
      await trx.raw(LOCK);
      const current = (await trx('signing_keys')
        .whereNull('retired_at')
        .orderBy('created_at', 'desc')
        .first()) as KeyRow | undefined;
      if (current && Date.now() - current.created_at.getTime() < maxAgeMs) return undefined;
      return this.rotateLocked(trx, false);
    });
    if (result) await this.reload();
    return result;
  }

  /** Deletes keys whose publication has ended (no token they signed is still valid). */
  async purge(): Promise<number> {
    return this.db('signing_keys')
      .whereNotNull('published_until')
      .where('published_until', '<=', this.db.fn.now())
      .del();
  }

  async list(): Promise<SigningKeyInfo[]> {
    const rows = await this.db('signing_keys').orderBy('created_at', 'desc').select<KeyRow[]>('*');
    const signing = this.signingKey().kid;
    return rows.map((row) => ({
      kid: row.kid,
      createdAt: row.created_at.toISOString(),
      retiredAt: row.retired_at?.toISOString() ?? null,
      publishedUntil: row.published_until?.toISOString() ?? null,
      activatesAt: new Date(row.created_at.getTime() + this.options.activationDelayMs).toISOString(),
      signing: row.kid === signing,
    }));
  }

  get activeKid(): string {
    return this.signingKey().kid;
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.published };
  }

  /**
   * Identity's own token verification keys: the published keys of this replica, reloaded from the database (at
   * most once a second) when a token names a kid it does not know, i.e. one another replica rotated to. It lists
   * the keys it holds (`jwks`), so the kit drops a verified token from its cache once its key is no longer published.
   */
  verificationKeys(): JWTVerifyGetKey & { jwks: () => { keys: JWK[] } } {
    const lookup: JWTVerifyGetKey = async (header, token) => {
      try {
        return await this.localKeys(header, token);
      } catch (error) {
        if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
        if (Date.now() - this.lastReload < RELOAD_ON_UNKNOWN_KID_MS) throw error;
        this.reloading ??= this.reload().finally(() => {
          this.reloading = undefined;
        });
        await this.reloading;
        return this.localKeys(header, token);
      }
    };
    return Object.assign(lookup, { jwks: () => this.jwks() });
  }

  sign(input: AccessTokenInput): Promise<string> {
    return new SignJWT({ tid: input.tenantId, role: input.role, scp: [...input.scopes], ...input.claims })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.signingKey().kid, typ: 'at+jwt' })
      .setSubject(input.subject)
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${input.ttlSeconds}s`)
      .sign(this.signingKey().privateKey);
  }

  /** The newest key whose activation has come and which has not stopped signing (else the oldest candidate). */
  private signingKey(): SigningKey {
    const now = Date.now();
    const key =
      this.signing.find((candidate) => candidate.activatesAt <= now && candidate.retiresAt > now) ??
      this.signing.at(-1);
    if (!key) throw new Error('No signing key loaded');
    return key;
  }

  private async rotateLocked(
    trx: Knex.Transaction,
    immediate: boolean,
  ): Promise<{ kid: string; retired: string[] }> {
    // The replaced keys sign until the new one activates (at once for an immediate rotation, e.g. a leaked key).
    const stopsAt = Date.now() + (immediate ? 0 : this.options.activationDelayMs);
    const retired: { kid: string }[] = await trx('signing_keys')
      .whereNull('retired_at')
      .update({
        retired_at: new Date(stopsAt),
        published_until: new Date(stopsAt + this.options.publishRetiredForMs),
      })
      .returning('kid');
    const kid = await this.insertKey(trx, immediate);
    return { kid, retired: retired.map((row) => row.kid) };
  }

  private async insertKey(trx: Knex.Transaction, activeNow: boolean): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = randomUUID();
    await trx('signing_keys').insert({
      kid,
      public_jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' }),
      private_key_sealed: this.cipher.encrypt(await exportPKCS8(privateKey)),
      created_at: new Date(Date.now() - (activeNow ? this.options.activationDelayMs : 0)),
    });
    return kid;
  }
}
