import { createHmac } from 'node:crypto';
import { identityKeys, IDENTITY_KINDS, type IdentityKind } from '../domain/index.js';

/** The keyed hashes stored beside the sealed identifiers (null where there is no identifier). */
export type IdentityHashes = Record<IdentityKind, string | null>;

/**
 * Keyed hashes (HMAC-SHA-256 with CIS_IDENTIFIER_HASH_KEY, a key of its own, never an encryption key) of a
 * subcontractor's UTR, NINO and company number, normalised first (domain/identity-keys.ts). The sealed values
 * cannot be compared (each seal has a fresh IV); the hashes can, inside one tenant only: the tenant's id is part
 * of what is hashed, so the same UTR in two tenants gives two unrelated hashes (ADR 0039).
 */
export class IdentityHasher {
  private readonly key: Buffer;

  constructor(base64Key: string) {
    this.key = Buffer.from(base64Key, 'base64');
  }

  hash(tenantId: string, kind: IdentityKind, normalised: string): string | null {
    if (!normalised) return null;
    return createHmac('sha256', this.key).update(`${tenantId}\u0000${kind}\u0000${normalised}`).digest('hex');
  }

  /** The three hashes of a subcontractor's identifiers as given (normalised here). */
  hashes(
    tenantId: string,
    identifiers: { utr?: string; nino?: string; companyNumber?: string },
  ): IdentityHashes {
    const keys = identityKeys(identifiers);
    const entries = IDENTITY_KINDS.map((kind) => [kind, this.hash(tenantId, kind, keys[kind])] as const);
    return Object.fromEntries(entries) as IdentityHashes;
  }
}
