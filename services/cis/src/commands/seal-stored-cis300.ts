import type { CisDeps } from '../cis-deps.js';
import { Cis300SealBacklog, ReturnStore } from '../db/returns.store.js';

/**
 * Seals the CIS300 documents stored in clear before migration 003 (ADR 0029): run when cis starts, where the
 * cipher key is. Each tenant listed in the backlog is done in one transaction (its documents sealed, its backlog
 * entry removed), so running it again, or after a failure half-way, seals only what is left. Answers how many
 * documents it sealed.
 */
export async function sealStoredCis300(deps: Pick<CisDeps, 'db' | 'sealed' | 'inTenant'>): Promise<number> {
  const backlog = new Cis300SealBacklog(deps.db);
  let sealed = 0;
  for (const tenantId of await backlog.tenants()) {
    sealed += await deps.inTenant(tenantId, async (trx) => {
      const returns = new ReturnStore(trx);
      const unsealed = await returns.unsealedCis300();
      for (const { id, xml } of unsealed) await returns.sealCis300(id, deps.sealed.seal(xml));
      await backlog.done(trx, tenantId);
      return unsealed.length;
    });
  }
  return sealed;
}
