import type { Knex } from '@workspace/kit';

export interface RefreshSession {
  sessionId: string;
  uid: string;
  revokedAt: Date | null;
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

interface RefreshSessionRow {
  session_id: string;
  uid: string;
  revoked_at: Date | null;
  expires_at: Date;
  absolute_expires_at: Date;
}

/** The tenant's refresh tokens (table `refresh_sessions`): only each token's hash is kept. */
export class RefreshSessionStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async create(session: {
    sessionId: string;
    tenantId: string;
    uid: string;
    tokenHash: string;
    expiresAt: Date;
    absoluteExpiresAt: Date;
  }): Promise<void> {
    await this.trx('refresh_sessions').insert({
      session_id: session.sessionId,
      tenant_id: session.tenantId,
      uid: session.uid,
      token_hash: session.tokenHash,
      expires_at: session.expiresAt,
      absolute_expires_at: session.absoluteExpiresAt,
    });
  }

  /** The session with this token hash, locked until the transaction ends (one rotation at a time). */
  async lockByTokenHash(tokenHash: string): Promise<RefreshSession | undefined> {
    const row = (await this.trx('refresh_sessions').where({ token_hash: tokenHash }).forUpdate().first()) as
      RefreshSessionRow | undefined;
    return row
      ? {
          sessionId: row.session_id,
          uid: row.uid,
          revokedAt: row.revoked_at,
          expiresAt: row.expires_at,
          absoluteExpiresAt: row.absolute_expires_at,
        }
      : undefined;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.trx('refresh_sessions')
      .where({ session_id: sessionId })
      .update({ revoked_at: this.trx.fn.now() });
  }

  async revokeByTokenHash(tokenHash: string): Promise<void> {
    await this.trx('refresh_sessions')
      .where({ token_hash: tokenHash })
      .whereNull('revoked_at')
      .update({ revoked_at: this.trx.fn.now() });
  }

  async revokeEveryOfUser(uid: string): Promise<void> {
    await this.trx('refresh_sessions')
      .where({ uid })
      .whereNull('revoked_at')
      .update({ revoked_at: this.trx.fn.now() });
  }
}
