import { ApiRouter, hasScope } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { analytics, dashboard, recentActivity } from '../commands/dashboard.js';
import { performers } from '../commands/performers.js';
import { presentActivity, presentDashboard } from './dashboard.present.js';
import {
  activityQuery,
  activityResponse,
  analyticsQuery,
  analyticsResponse,
  dashboardResponse,
} from './dashboard.schemas.js';

/** The reader of the activity: whose entries are 'by you', and the token identity's name lookup is asked with. */
const readerOf = (
  ctx: { tenantId: string; userId: string },
  req: { headers: { authorization?: string | undefined } },
) => ({ tenantId: ctx.tenantId, userId: ctx.userId, authorization: req.headers.authorization ?? '' });

export function dashboardRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/dashboard',
      summary:
        'The CIS dashboard: setup state, deadline alerts, tiles, the tax month and recent activity (with cis.audit.read)',
      scopes: ['cis.inv.read'],
      responses: { 200: { description: 'Dashboard', schema: dashboardResponse } },
      handler: async ({ ctx, req }) => {
        const board = await dashboard(deps, ctx.tenantId, { withActivity: hasScope(ctx, 'cis.audit.read') });
        const who = await performers(
          deps,
          readerOf(ctx, req),
          board.activity.map((row) => row.performedBy),
        );
        return presentDashboard(board, who);
      },
    })
    .route({
      method: 'get',
      path: '/analytics',
      summary: 'Gross, materials and deductions per tax month and per subcontractor (paid invoices)',
      scopes: ['cis.inv.read'],
      request: { query: analyticsQuery },
      responses: { 200: { description: 'Analytics', schema: analyticsResponse } },
      handler: ({ ctx, query }) => analytics(deps, ctx.tenantId, query.months),
    })
    .route({
      method: 'get',
      path: '/activity',
      summary: 'The activity log (the audit trail), newest first',
      scopes: ['cis.audit.read'],
      request: { query: activityQuery },
      responses: { 200: { description: 'Entries', schema: activityResponse } },
      handler: async ({ ctx, query, req }) => {
        const rows = await recentActivity(deps, ctx.tenantId, query.limit);
        const who = await performers(
          deps,
          readerOf(ctx, req),
          rows.map((row) => row.performedBy),
        );
        return { items: rows.map((row) => presentActivity(row, who)) };
      },
    });
}
