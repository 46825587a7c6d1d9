import { problems } from '@workspace/kit';
import { z } from 'zod';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { StatementStore } from '../db/statements.store.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';

/** A portal session's own records: its subcontractor, its invoices (not drafts) and its issued statements. */
export function portalRecords(deps: CisDeps, tenantId: string, subcontractorId: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const subcontractor = z.uuid().safeParse(subcontractorId).success
      ? await new SubcontractorStore(trx).find(subcontractorId)
      : undefined;
    if (!subcontractor) throw problems.notFound('Subcontractor not found');
    const [invoices, statements] = await Promise.all([
      new InvoiceStore(trx).ofPortal(subcontractorId),
      new StatementStore(trx).issuedOf(subcontractorId),
    ]);
    return { subcontractor, invoices, statements };
  });
}
