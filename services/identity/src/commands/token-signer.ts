import { randomUUID } from 'node:crypto';
import type { FieldCipher, Knex } from '@workspace/kit';
import { SigningKeyStore } from '../db/signing-keys.store.js';
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
/** A token naming a kid this replica does not know makes it reload the keys, at most this often. */
const RELOAD_ON_UNKNOWN_KID_MS = 1_000;

interface SigningKey {
  kid: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
  createdAt: Date;
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
  /** The clock that decides which key signs and when one is due (Date.now; tests move it on). */
  now?: () => number;
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

  private readonly keys: SigningKeyStore;
  private readonly now: () => number;

  private constructor(
    db: Knex,
    private readonly cipher: FieldCipher,
    private readonly options: TokenSignerOptions,
  ) {
    this.keys = new SigningKeyStore(db);
    this.now = options.now ?? Date.now;
  }

  static async load(db: Knex, cipher: FieldCipher, options: TokenSignerOptions): Promise<TokenSigner> {
    const signer = new TokenSigner(db, cipher, options);
    await signer.keys.locked(async (keys) => {
      // The very first key signs at once (no verifier can have cached a JWKS without it).
      if (!(await keys.newestUnretired())) await signer.insertKey(keys, true);
    });
    await signer.reload();
    return signer;
  }

  /** Reads the keys again: the newest unretired key signs, every key still within its publication is published. */
  async reload(): Promise<void> {
    const rows = await this.keys.published();
    const now = this.now();
    const candidates = rows.filter((row) => row.retiredAt === null || row.retiredAt.getTime() > now);
    if (candidates.length === 0) throw new Error('No signing key');
    const known = new Map(this.signing.map((key) => [key.kid, key]));
    this.signing = await Promise.all(
      candidates.map(async (row) => ({
        kid: row.kid,
        publicJwk: row.publicJwk,
        privateKey:
          known.get(row.kid)?.privateKey ??
          (await importPKCS8(this.cipher.decrypt(row.privateKeySealed), ALGORITHM)),
        createdAt: row.createdAt,
        activatesAt: row.createdAt.getTime() + this.options.activationDelayMs,
        retiresAt: row.retiredAt?.getTime() ?? Number.POSITIVE_INFINITY,
      })),
    );
    this.published = rows.map((row) => row.publicJwk);
    this.localKeys = createLocalJWKSet({ keys: this.published });
    this.lastReload = this.now();
  }

  /**
   * Makes a new signing key and retires every other unretired one (published for `publishRetiredForMs` more).
   * Under the advisory lock, so concurrent rotations by several replicas make one key each, in turn.
   */
  async rotate(
    options: { immediate?: boolean; revoke?: boolean } = {},
  ): Promise<{ kid: string; retired: string[] }> {
    const revoke = options.revoke ?? false;
    const result = await this.keys.locked((keys) =>
      this.rotateLocked(keys, revoke || (options.immediate ?? false), revoke),
    );
    await this.reload();
    return result;
  }

  /** Rotates when the signing key is older than `maxAgeMs` (checked again under the lock). */
  async rotateIfDue(maxAgeMs: number): Promise<{ kid: string; retired: string[] } | undefined> {
    const result = await this.keys.locked(async (keys) => {
      const current = await keys.newestUnretired();
      if (current && this.now() - current.createdAt.getTime() < maxAgeMs) return undefined;
      return this.rotateLocked(keys, false, false);
    });
    if (result) await this.reload();
    return result;
  }

  /** Deletes keys whose publication has ended (no token they signed is still valid). */
  purge(): Promise<number> {
    return this.keys.purge();
  }

  async list(): Promise<SigningKeyInfo[]> {
    const rows = await this.keys.all();
    const signing = this.signingKey().kid;
    return rows.map((row) => ({
      kid: row.kid,
      createdAt: row.createdAt.toISOString(),
      retiredAt: row.retiredAt?.toISOString() ?? null,
      publishedUntil: row.publishedUntil?.toISOString() ?? null,
      activatesAt: new Date(row.createdAt.getTime() + this.options.activationDelayMs).toISOString(),
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
        if (this.now() - this.lastReload < RELOAD_ON_UNKNOWN_KID_MS) throw error;
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
    const now = this.now();
    const key =
      this.signing.find((candidate) => candidate.activatesAt <= now && candidate.retiresAt > now) ??
      this.signing.at(-1);
    if (!key) throw new Error('No signing key loaded');
    return key;
  }

  private async rotateLocked(
    keys: SigningKeyStore,
    immediate: boolean,
    revoke: boolean,
  ): Promise<{ kid: string; retired: string[] }> {
    // The replaced keys sign until the new one activates (at once for an immediate rotation), and stay published
    // until their tokens have expired; a revoked (leaked) key leaves the JWKS at once, so what it signed, forged
    // tokens included, stops verifying (everyone signs in again through their refresh token).
    const stopsAt = this.now() + (immediate ? 0 : this.options.activationDelayMs);
    const retired = await keys.retireUnretired(
      new Date(stopsAt),
      new Date(revoke ? stopsAt : stopsAt + this.options.publishRetiredForMs),
    );
    const kid = await this.insertKey(keys, immediate);
    return { kid, retired };
  }

  private async insertKey(keys: SigningKeyStore, activeNow: boolean): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = randomUUID();
    await keys.insert({
      kid,
      publicJwk: { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' },
      privateKeySealed: this.cipher.encrypt(await exportPKCS8(privateKey)),
      createdAt: new Date(this.now() - (activeNow ? this.options.activationDelayMs : 0)),
    });
    return kid;
  }
}
