import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for values the product keeps encrypted at rest (UTR, NINO, signing keys, IdP secrets). Each value
 * carries the id of the key that sealed it, so keys can rotate: new values use the active key, old ones still
 * open with theirs. Format: `v1.<kid>.<iv>.<tag>.<ciphertext>` (base64url parts): a 12-byte IV and a 16-byte tag,
 * both pinned when opening (GCM would otherwise accept a tag cut down to 4 bytes, and a forgery would need only
 * 2^32 tries). The AAD is the kid alone, not the tenant or row: binding those would make every value stored so far
 * unreadable without a re-encryption of every sealed column (security review L7).
 */
export class FieldCipher {
  private readonly keys: Map<string, Buffer>;

  constructor(
    keys: Record<string, string>,
    private readonly activeKid: string,
  ) {
    this.keys = new Map(
      Object.entries(keys).map(([kid, base64]) => {
        const key = Buffer.from(base64, 'base64');
        if (key.length !== 32) throw new Error(`Encryption key ${kid} must be 32 bytes (base64)`);
        if (!/^[A-Za-z0-9_-]{1,32}$/.test(kid)) throw new Error(`Encryption key id '${kid}' is not valid`);
        return [kid, key];
      }),
    );
    if (!this.keys.has(activeKid))
      throw new Error(`The active encryption key ${activeKid} is not configured`);
  }

  /** Parses `kid1:base64key,kid2:base64key` with the first as the active key. */
  static fromConfig(spec: string): FieldCipher {
    const entries = spec.split(',').map((entry) => {
      const [kid, key] = entry.trim().split(':');
      if (!kid || !key) throw new Error('Encryption keys must be written kid:base64key[,kid:base64key]');
      return [kid, key] as const;
    });
    const first = entries[0];
    if (!first) throw new Error('No encryption key configured');
    return new FieldCipher(Object.fromEntries(entries), first[0]);
  }

  encrypt(plaintext: string): string {
    const key = this.keys.get(this.activeKid);
    if (!key) throw new Error('No active encryption key');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(this.activeKid));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
    return ['v1', this.activeKid, ...parts].join('.');
  }

  decrypt(sealed: string): string {
    const [version, kid, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !kid || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error('Not an encrypted value');
    }
    const key = this.keys.get(kid);
    if (!key) throw new Error(`Encryption key ${kid} is not configured`);
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES)
      throw new Error('Not an encrypted value');
    const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(kid));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** SHA-256 hex of a secret (magic-link and refresh tokens are stored only as hashes). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
