import type { Knex } from '@workspace/kit';

export interface PortalLinkRequest {
  requestId: string;
  tenantId: string;
  emailSealed: string;
  attempts: number;
}

interface PortalLinkRequestRow {
  request_id: string;
  tenant_id: string;
  email_sealed: string;
  attempts: number;
}

/** A claimed request: handled (deleted) or put back for later, before its transaction ends. */
export interface ClaimedPortalLinkRequest extends PortalLinkRequest {
  done(): Promise<void>;
  retryIn(ms: number): Promise<void>;
}

/**
 * Subcontractors' requests for a fresh portal sign-in link (table `portal_link_requests`, ADR 0055). A platform
 * table (a request is claimed before its tenant is known), so the store takes `Knex`.
 */
export class PortalLinkRequestStore {
  constructor(private readonly db: Knex) {}

  async add(request: { requestId: string; tenantId: string; emailSealed: string }): Promise<void> {
    await this.db('portal_link_requests').insert({
      request_id: request.requestId,
      tenant_id: request.tenantId,
      email_sealed: request.emailSealed,
    });
  }

  /**
   * Claims one due request (FOR UPDATE SKIP LOCKED, so replicas share the work) and runs `work` with it while the row
   * stays locked; false when none was due.
   */
  claim(work: (request: ClaimedPortalLinkRequest) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const row = (await trx('portal_link_requests')
        .where('next_attempt_at', '<=', trx.fn.now())
        .orderBy('next_attempt_at')
        .forUpdate()
        .skipLocked()
        .first()) as PortalLinkRequestRow | undefined;
      if (!row) return false;
      const where = { request_id: row.request_id };
      await work({
        requestId: row.request_id,
        tenantId: row.tenant_id,
        emailSealed: row.email_sealed,
        attempts: row.attempts,
        done: async () => {
          await trx('portal_link_requests').where(where).del();
        },
        retryIn: async (ms) => {
          await trx('portal_link_requests')
            .where(where)
            .update({
              attempts: row.attempts + 1,
              next_attempt_at: trx.raw(`now() + make_interval(secs => ?)`, [ms / 1000]),
            });
        },
      });
      return true;
    });
  }
}
