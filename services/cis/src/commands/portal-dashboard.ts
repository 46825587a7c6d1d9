import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { StatementStore } from '../db/statements.store.js';
import { londonDate, taxMonthOf } from '../domain/index.js';
import { portalSubcontractor } from './portal.js';

/**
 * The portal's dashboard: what the subcontractor was paid in the current tax month (paid invoices by payment date,
 * as their statement counts them: gross, the deduction, gross less the deduction), their invoices waiting for the
 * contractor's approval (Portal Pending), and their latest issued statement.
 */
export function portalDashboard(deps: CisDeps, tenantId: string, subcontractorId: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const subcontractor = await portalSubcontractor(trx, subcontractorId);
    const taxMonth = taxMonthOf(londonDate(deps.clock.now()));
    const invoices = new InvoiceStore(trx);
    const [{ byMonth }, all, [latestStatement]] = await Promise.all([
      invoices.paidTotalsOfSubcontractor(subcontractorId, [taxMonth]),
      invoices.ofPortal(subcontractorId),
      new StatementStore(trx).issuedOf(subcontractorId, 1),
    ]);
    const month = byMonth[0];
    const grossP = month?.grossP ?? 0;
    const cisDeductionP = month?.cisDeductionP ?? 0;
    return {
      subcontractor,
      taxMonth,
      paid: { grossP, cisDeductionP, netP: grossP - cisDeductionP, invoices: month?.invoices ?? 0 },
      awaitingApproval: all.filter((invoice) => invoice.status === 'portal_draft'),
      latestStatement: latestStatement ?? null,
    };
  });
}
