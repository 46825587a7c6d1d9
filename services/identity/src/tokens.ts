import { randomUUID } from 'node:crypto';
import type { FieldCipher, Knex } from '@workspace/kit';
import {
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';

const ALGORITHM = 'RS256';

interface SigningKey {
  kid: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
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

/**
 * Signs identity's RS256 access tokens and publishes the public keys (JWKS). The key pair is created once and kept
 * in the database with its private half sealed (AES-256-GCM), so every replica signs with the same key and
 * tokens survive restarts.
 */
export class TokenSigner {
  private constructor(
    private readonly active: SigningKey,
    private readonly published: JWK[],
    private readonly issuer: string,
    private readonly audience: string,
  ) {}

  static async load(db: Knex, cipher: FieldCipher, issuer: string, audience: string): Promise<TokenSigner> {
    await db.transaction(async (trx) => {
      await trx.raw("SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))");
      const existing: unknown = await trx('signing_keys').whereNull('retired_at').first();
      if (existing) return;
      const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
      const kid = randomUUID();
      await trx('signing_keys').insert({
        kid,
        public_jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' }),
        private_key_sealed: cipher.encrypt(await exportPKCS8(privateKey)),
      });
    });
    const rows = await db('signing_keys')
      .whereNull('retired_at')
      .orderBy('created_at', 'desc')
      .select<{ kid: string; public_jwk: JWK; private_key_sealed: string }[]>(
        'kid',
        'public_jwk',
        'private_key_sealed',
      );
    const newest = rows[0];
    if (!newest) throw new Error('No signing key');
    const active: SigningKey = {
      kid: newest.kid,
      publicJwk: newest.public_jwk,
      privateKey: await importPKCS8(cipher.decrypt(newest.private_key_sealed), ALGORITHM),
    };
    return new TokenSigner(
      active,
      rows.map((row) => row.public_jwk),
      issuer,
      audience,
    );
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.published };
  }

  sign(input: AccessTokenInput): Promise<string> {
    return new SignJWT({ tid: input.tenantId, role: input.role, scp: [...input.scopes], ...input.claims })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.active.kid, typ: 'at+jwt' })
      .setSubject(input.subject)
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${input.ttlSeconds}s`)
      .sign(this.active.privateKey);
  }
}
