import { ApiRouter } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { subcontractorTaxYear } from '../commands/subcontractor-year.js';
import { idParam } from './common.schemas.js';
import { subcontractorTaxYearResponse, taxYearQuery } from './subcontractor-year.schemas.js';

/** A subcontractor's HMRC tax year: what they were paid, materials and deductions, by tax month (issue 13). */
export function subcontractorYearRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter().route({
    method: 'get',
    path: '/subcontractors/:id/tax-year',
    summary:
      'A subcontractor’s tax year (6 April–5 April): gross, materials, deducted and net per tax month and in total (paid invoices by payment date; cancelled never)',
    scopes: ['cis.sub.read', 'cis.inv.read'],
    request: { params: idParam, query: taxYearQuery },
    responses: { 200: { description: 'The tax year', schema: subcontractorTaxYearResponse } },
    handler: ({ ctx, params, query }) =>
      subcontractorTaxYear(deps, ctx.tenantId, params.id, {
        taxYear: query.taxYear,
        today: deps.clock.now(),
      }),
  });
}
