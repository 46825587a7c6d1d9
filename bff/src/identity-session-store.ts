import { createHash } from 'node:crypto';
import { FieldCipher, HttpProblem } from '@workspace/kit';
import type { IdentityClient } from './identity-client.js';
import type { SessionStore } from './session-store.js';

export interface IdentitySessionStoreOptions<T> {
  identity: Pick<IdentityClient, 'getSession' | 'putSession' | 'deleteSession' | 'leaseSession'>;
  kind: 'staff' | 'portal';
  /** The tenant and subject identity keeps in clear, so it can end a subject's sessions (portal revocation). */
  describe: (value: T) => { tenantId: string; subject: string };
  /** Seals the session values (SESSION_SECRET): identity stores them but cannot read the tokens in them. */
  secret: string;
  now: () => number;
}

/** The AES-256-GCM key that seals session values, derived from SESSION_SECRET (every replica shares it). */
export function sessionSealer(secret: string): FieldCipher {
  const key = createHash('sha256').update(`workspace-bff-session-store:${secret}`).digest('base64');
  return new FieldCipher({ s1: key }, 's1');
}

/**
 * Sessions kept in identity's PostgreSQL through its internal session API (ADR 0025), so every bff replica accepts
 * the sessions any of them made, and identity can end a subcontractor's portal sessions at once. Values are sealed
 * here; the key is already an HMAC of the cookie's id. Expiry is checked against the bff's clock too.
 */
export class IdentitySessionStore<T> implements SessionStore<T> {
  private readonly cipher: FieldCipher;

  constructor(private readonly options: IdentitySessionStoreOptions<T>) {
    this.cipher = sessionSealer(options.secret);
  }

  async get(key: string): Promise<T | undefined> {
    const found = await this.options.identity.getSession(key);
    if (!found || found.kind !== this.options.kind) return undefined;
    if (found.expiresAt <= this.options.now()) {
      await this.delete(key);
      return undefined;
    }
    try {
      return JSON.parse(this.cipher.decrypt(found.value)) as T;
    } catch {
      // Sealed under another SESSION_SECRET (rotated): the session cannot be used.
      return undefined;
    }
  }

  async set(key: string, value: T, expiresAt: number): Promise<void> {
    const { tenantId, subject } = this.options.describe(value);
    await this.options.identity.putSession(key, {
      kind: this.options.kind,
      tenantId,
      subject,
      value: this.cipher.encrypt(JSON.stringify(value)),
      expiresAt: Math.max(1, Math.round(expiresAt)),
    });
  }

  async delete(key: string): Promise<void> {
    await this.options.identity.deleteSession(key);
  }

  async lease(key: string, ms: number): Promise<boolean> {
    try {
      return await this.options.identity.leaseSession(key, ms);
    } catch (error) {
      if (error instanceof HttpProblem && error.status === 404) return false;
      throw error;
    }
  }

  close(): void {
    // Nothing held in this process.
  }
}
