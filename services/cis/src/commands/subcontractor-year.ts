import { problems } from '@workspace/kit';
import { taxYearDates, taxYearMonths, taxYearName, taxYearStartOf } from '@workspace/rules';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';
import { taxMonthPeriod, taxMonthTitle } from '../domain/index.js';

/** A tax month's (or the year's) figures for one subcontractor, in pence. */
export interface YearFigures {
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
  /** Gross less the deduction (before VAT): what the subcontractor was paid for the work. */
  netP: number;
  invoices: number;
}

const figures = (
  grossP: number,
  materialsP: number,
  cisDeductionP: number,
  invoices: number,
): YearFigures => ({
  grossP,
  materialsP,
  cisDeductionP,
  netP: grossP - cisDeductionP,
  invoices,
});

/**
 * One subcontractor's HMRC tax year (6 April–5 April): payments, materials and deductions per tax month (by payment
 * date, as the monthly return and statements count them; cancelled invoices never), the year's totals a
 * subcontractor's tax return needs, and the tax years they were paid in (for the picker; the current one always).
 */
export function subcontractorTaxYear(
  deps: CisDeps,
  tenantId: string,
  id: string,
  query: { taxYear?: number | undefined; today: Date },
) {
  const current = taxYearStartOf(query.today);
  const taxYearStart = query.taxYear ?? current;
  const labels = taxYearMonths(taxYearStart);
  return deps.inTenant(tenantId, async (trx) => {
    const subcontractor = await new SubcontractorStore(trx).find(id);
    if (!subcontractor) throw problems.notFound('Subcontractor not found');
    const { byMonth, paidMonths } = await new InvoiceStore(trx).paidTotalsOfSubcontractor(id, labels);
    const found = new Map(byMonth.map((row) => [row.taxMonth, row]));
    const months = labels.map((taxMonth) => {
      const row = found.get(taxMonth);
      const period = taxMonthPeriod(taxMonth);
      return {
        taxMonth,
        name: taxMonthTitle(taxMonth),
        startDate: period.startDate,
        endDate: period.endDate,
        ...figures(row?.grossP ?? 0, row?.materialsP ?? 0, row?.cisDeductionP ?? 0, row?.invoices ?? 0),
      };
    });
    const sum = (key: 'grossP' | 'materialsP' | 'cisDeductionP' | 'invoices') =>
      months.reduce((total, month) => total + month[key], 0);
    const years = new Set([current, taxYearStart, ...paidMonths.map((m) => taxMonthPeriod(m).taxYearStart)]);
    return {
      subcontractorId: subcontractor.id,
      name: subcontractor.name,
      taxYear: taxYearName(taxYearStart),
      taxYearStart,
      ...taxYearDates(taxYearStart),
      months,
      totals: figures(sum('grossP'), sum('materialsP'), sum('cisDeductionP'), sum('invoices')),
      years: [...years].sort((a, b) => b - a),
    };
  });
}
