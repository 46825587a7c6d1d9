import type { Knex } from '@workspace/kit';

export interface PortalLink {
  linkId: string;
  subcontractorId: string;
  expiresAt: Date;
  redeemedAt: Date | null;
}

interface PortalLinkRow {
  link_id: string;
  subcontractor_id: string;
  expires_at: Date;
  redeemed_at: Date | null;
}

/** The tenant's portal magic links (table `portal_links`): only each link's token hash is kept. */
export class PortalLinkStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async create(link: {
    linkId: string;
    tenantId: string;
    subcontractorId: string;
    tokenHash: string;
    expiresAt: Date;
    createdBy: string;
  }): Promise<void> {
    await this.trx('portal_links').insert({
      link_id: link.linkId,
      tenant_id: link.tenantId,
      subcontractor_id: link.subcontractorId,
      token_hash: link.tokenHash,
      expires_at: link.expiresAt,
      created_by: link.createdBy,
    });
  }

  /** The link with this token hash, locked until the transaction ends (one redemption at a time). */
  async lockByTokenHash(tokenHash: string): Promise<PortalLink | undefined> {
    const row = (await this.trx('portal_links').where({ token_hash: tokenHash }).forUpdate().first()) as
      PortalLinkRow | undefined;
    return row
      ? {
          linkId: row.link_id,
          subcontractorId: row.subcontractor_id,
          expiresAt: row.expires_at,
          redeemedAt: row.redeemed_at,
        }
      : undefined;
  }

  async markRedeemed(linkId: string): Promise<void> {
    await this.trx('portal_links').where({ link_id: linkId }).update({ redeemed_at: this.trx.fn.now() });
  }

  /** Expires the subcontractors' unredeemed, unexpired links now; returns how many. */
  async expireUnredeemed(tenantId: string, subcontractorIds: readonly string[]): Promise<number> {
    return this.trx('portal_links')
      .where({ tenant_id: tenantId })
      .whereIn('subcontractor_id', [...subcontractorIds])
      .whereNull('redeemed_at')
      .where('expires_at', '>', this.trx.fn.now())
      .update({ expires_at: this.trx.fn.now() });
  }
}
