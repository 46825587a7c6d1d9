import type { Knex } from '@workspace/kit';

export type BffSessionKind = 'staff' | 'portal';

export interface BffSession {
  kind: BffSessionKind;
  valueSealed: string;
  expiresAt: Date;
}

interface BffSessionRow {
  session_key: string;
  kind: BffSessionKind;
  value_sealed: string;
  expires_at: Date;
}

/**
 * The bff's browser sessions (table `bff_sessions`, ADR 0025). A platform table: a session is looked up by its key
 * before its tenant is known, so the store takes `Knex` (the pool or a tenant's transaction, when a session change
 * belongs to a tenant's change).
 */
export class BffSessionStore {
  constructor(private readonly db: Knex) {}

  /** The session unless expired. */
  async session(key: string): Promise<BffSession | undefined> {
    const row = (await this.db('bff_sessions')
      .where({ session_key: key })
      .where('expires_at', '>', this.db.fn.now())
      .first()) as BffSessionRow | undefined;
    return row ? { kind: row.kind, valueSealed: row.value_sealed, expiresAt: row.expires_at } : undefined;
  }

  /** Creates or replaces the session and frees its refresh lease. */
  async put(
    key: string,
    session: {
      kind: BffSessionKind;
      tenantId: string;
      subject: string;
      valueSealed: string;
      expiresAt: Date;
    },
  ): Promise<void> {
    await this.db('bff_sessions')
      .insert({
        session_key: key,
        kind: session.kind,
        tenant_id: session.tenantId,
        subject: session.subject,
        value_sealed: session.valueSealed,
        expires_at: session.expiresAt,
        lease_until: null,
      })
      .onConflict('session_key')
      .merge({
        value_sealed: session.valueSealed,
        expires_at: session.expiresAt,
        lease_until: null,
        updated_at: this.db.fn.now(),
      });
  }

  async delete(key: string): Promise<void> {
    await this.db('bff_sessions').where({ session_key: key }).del();
  }

  /** Takes the refresh lease for `ms` unless another holder's lease still runs; true when taken. */
  async takeLease(key: string, ms: number): Promise<boolean> {
    const taken = await this.db('bff_sessions')
      .where({ session_key: key })
      .where('expires_at', '>', this.db.fn.now())
      .where((query) => {
        void query.whereNull('lease_until').orWhere('lease_until', '<=', this.db.fn.now());
      })
      .update({ lease_until: this.db.raw(`now() + make_interval(secs => ?)`, [ms / 1000]) });
    return taken === 1;
  }

  async freeLease(key: string): Promise<void> {
    await this.db('bff_sessions').where({ session_key: key }).update({ lease_until: null });
  }

  /** Ends the staff user's browser sessions at every bff replica. */
  async deleteStaffSessionsOf(tenantId: string, uid: string): Promise<void> {
    await this.db('bff_sessions').where({ kind: 'staff', tenant_id: tenantId, subject: uid }).del();
  }

  /** Ends the subcontractors' portal sessions at every bff replica; returns how many. */
  async deletePortalSessionsOf(tenantId: string, subcontractorIds: readonly string[]): Promise<number> {
    return this.db('bff_sessions')
      .where({ kind: 'portal', tenant_id: tenantId })
      .whereIn('subject', [...subcontractorIds])
      .del();
  }

  async deleteExpired(): Promise<number> {
    return this.db('bff_sessions').where('expires_at', '<', this.db.fn.now()).del();
  }
}
