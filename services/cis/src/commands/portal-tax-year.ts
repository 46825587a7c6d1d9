import type { CisDeps } from '../cis-deps.js';
import { StatementStore } from '../db/statements.store.js';
import { PORTAL_STATEMENTS_MAX } from '../domain/index.js';
import { portalSubcontractor } from './portal.js';
import { subcontractorTaxYear } from './subcontractor-year.js';

/**
 * The portal's tax-year summary, for the subcontractor's own tax return: staff's subcontractor-year figures (payments,
 * materials and deductions per tax month by payment date, the year's totals, the years they were paid in) and every
 * statement issued to them for a month of that year.
 */
export async function portalTaxYear(
  deps: CisDeps,
  tenantId: string,
  subcontractorId: string,
  taxYear: number | undefined,
) {
  const statements = await deps.inTenant(tenantId, async (trx) => {
    await portalSubcontractor(trx, subcontractorId);
    return new StatementStore(trx).issuedOf(subcontractorId, PORTAL_STATEMENTS_MAX);
  });
  const year = await subcontractorTaxYear(deps, tenantId, subcontractorId, {
    taxYear,
    today: deps.clock.now(),
  });
  const months = new Set(year.months.map((month) => month.taxMonth));
  return { year, statements: statements.filter((statement) => months.has(statement.taxMonth)) };
}
