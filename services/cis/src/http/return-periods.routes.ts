import { ApiRouter } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { markPeriod, returnPeriods, unmarkPeriod } from '../commands/return-periods.js';
import {
  periodMarkBody,
  periodMarkResponse,
  periodParams,
  returnPeriodsResponse,
} from './return-periods.schemas.js';

/** Returns by period (ADR 0035); mounted before the returns router so 'periods' is not read as a tax month. */
export function returnPeriodRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/returns/periods',
      summary:
        'Every tax month since the module was switched on: filed, due, overdue or marked, its filing deadline and late-filing penalty, and the month that is due',
      scopes: ['cis.inv.read'],
      responses: { 200: { description: 'The periods', schema: returnPeriodsResponse } },
      handler: ({ ctx }) => returnPeriods(deps, ctx.tenantId),
    })
    .route({
      method: 'put',
      path: '/returns/periods/:taxMonth/mark',
      summary:
        'Mark a tax month as filed elsewhere, before this product, or covered by an inactivity notice (audited)',
      scopes: ['cis.ret.submit'],
      request: { params: periodParams, body: periodMarkBody },
      responses: { 200: { description: 'The mark', schema: periodMarkResponse } },
      handler: async ({ ctx, params, body }) => ({
        mark: await markPeriod(deps, ctx, params.taxMonth, body),
      }),
    })
    .route({
      method: 'delete',
      path: '/returns/periods/:taxMonth/mark',
      summary: "Clear a tax month's mark (audited): its return is owed again",
      scopes: ['cis.ret.submit'],
      status: 204,
      request: { params: periodParams },
      responses: { 204: { description: 'Cleared' } },
      handler: async ({ ctx, params }) => {
        await unmarkPeriod(deps, ctx, params.taxMonth);
      },
    });
}
