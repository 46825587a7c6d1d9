import { ApiRouter, type Knex } from '@workspace/kit';
import { z } from 'zod';
import type { CisContext } from '../context.js';
import {
  currentTaxMonth,
  deadlineAlerts,
  londonDate,
  previousTaxMonth,
  taxMonthPeriod,
} from '../domain/index.js';
import { iso, looseObject } from './common.js';
import { loadSettingsOrDefaults } from './settings.js';

interface ActivityRow {
  id: number;
  action: string;
  target_type: string;
  target_id: string;
  summary: string;
  details: Record<string, string>;
  performed_by: string;
  performed_at: Date;
}

const activityView = (row: ActivityRow) => ({
  id: String(row.id),
  action: row.action,
  targetType: row.target_type,
  targetId: row.target_id,
  summary: row.summary,
  details: row.details,
  performedBy: row.performed_by,
  performedAt: iso(row.performed_at),
});

const recentActivity = (trx: Knex.Transaction, limit: number) =>
  trx<ActivityRow>('activity')
    .orderBy([
      { column: 'performed_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);

export function dashboardRoutes(context: CisContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/dashboard',
      summary: 'The CIS dashboard: setup state, deadline alerts, tiles, the tax month and recent activity',
      scopes: ['cis.inv.read'],
      responses: { 200: { description: 'Dashboard', schema: looseObject } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const settings = await loadSettingsOrDefaults(context, trx, ctx.tenantId);
          const label = currentTaxMonth();
          const today = londonDate(new Date());
          const tiles = await trx('invoices')
            .whereNull('deleted_at')
            .first<{ draftInvoices: number; pendingStatements: number; currentMonthCisP: number }>(
              trx.raw(`count(*) FILTER (WHERE status = 'draft')::int AS "draftInvoices"`),
              trx.raw(
                `count(*) FILTER (WHERE status IN ('approved', 'paid') AND statement_required AND statement_issued_at IS NULL)::int AS "pendingStatements"`,
              ),
              trx.raw(
                `coalesce(sum(cis_deduction_p) FILTER (WHERE status = 'paid' AND tax_month = ?), 0)::bigint AS "currentMonthCisP"`,
                [label],
              ),
            );
          const subs = await trx('subcontractors')
            .whereNull('deleted_at')
            .where({ archived: false })
            .first<{ n: number }>(trx.raw('count(*)::int AS n'));
          const activity = await recentActivity(trx, 10);
          return {
            setupRequired: !settings.active,
            period: taxMonthPeriod(label),
            previousPeriod: taxMonthPeriod(previousTaxMonth(label)),
            warningDays: settings.warning_days,
            alerts: deadlineAlerts({ today, label, warningDays: settings.warning_days }),
            tiles: { activeSubcontractors: subs.n, ...tiles },
            recentActivity: activity.map(activityView),
          };
        }),
    })
    .route({
      method: 'get',
      path: '/analytics',
      summary: 'Gross, materials and deductions per tax month and per subcontractor (paid invoices)',
      scopes: ['cis.inv.read'],
      request: { query: z.object({ months: z.coerce.number().int().min(1).max(36).default(12) }) },
      responses: { 200: { description: 'Analytics', schema: looseObject } },
      handler: ({ ctx, query }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const labels = [currentTaxMonth()];
          while (labels.length < query.months) labels.push(previousTaxMonth(labels[labels.length - 1] ?? ''));
          const base = () =>
            trx('invoices').whereNull('deleted_at').where({ status: 'paid' }).whereIn('tax_month', labels);
          const [byMonth, bySubcontractor] = await Promise.all([
            base()
              .groupBy('tax_month')
              .select(
                'tax_month',
                trx.raw('sum(gross_p)::bigint AS "grossP"'),
                trx.raw('sum(materials_p)::bigint AS "materialsP"'),
                trx.raw('sum(cis_deduction_p)::bigint AS "cisDeductionP"'),
                trx.raw('count(*)::int AS invoices'),
              ) as Promise<
              {
                tax_month: string;
                grossP: number;
                materialsP: number;
                cisDeductionP: number;
                invoices: number;
              }[]
            >,
            base()
              .groupBy('subcontractor_id', 'subcontractor_name')
              .select(
                'subcontractor_id',
                'subcontractor_name',
                trx.raw('sum(gross_p)::bigint AS "grossP"'),
                trx.raw('sum(materials_p)::bigint AS "materialsP"'),
                trx.raw('sum(cis_deduction_p)::bigint AS "cisDeductionP"'),
                trx.raw('count(*)::int AS invoices'),
              )
              .orderBy('grossP', 'desc')
              .limit(20) as Promise<
              {
                subcontractor_id: string;
                subcontractor_name: string;
                grossP: number;
                materialsP: number;
                cisDeductionP: number;
                invoices: number;
              }[]
            >,
          ]);
          const monthMap = new Map(byMonth.map((row) => [row.tax_month, row]));
          return {
            byMonth: [...labels].reverse().map((label) => {
              const row = monthMap.get(label);
              return {
                taxMonth: label,
                displayLabel: taxMonthPeriod(label).displayLabel,
                grossP: row?.grossP ?? 0,
                materialsP: row?.materialsP ?? 0,
                cisDeductionP: row?.cisDeductionP ?? 0,
                invoices: row?.invoices ?? 0,
              };
            }),
            bySubcontractor: bySubcontractor.map((row) => ({
              subcontractorId: row.subcontractor_id,
              name: row.subcontractor_name,
              grossP: row.grossP,
              materialsP: row.materialsP,
              cisDeductionP: row.cisDeductionP,
              invoices: row.invoices,
            })),
          };
        }),
    })
    .route({
      method: 'get',
      path: '/activity',
      summary: 'The activity log, newest first',
      scopes: ['cis.inv.read'],
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) }) },
      responses: { 200: { description: 'Entries', schema: z.object({ items: z.array(looseObject) }) } },
      handler: ({ ctx, query }) =>
        context.inTenant(ctx.tenantId, async (trx) => ({
          items: (await recentActivity(trx, query.limit)).map(activityView),
        })),
    });
}
