import type { Knex } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { ActivityStore } from '../db/activity.store.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';
import {
  deadlineAlerts,
  isSettledPeriod,
  type DeadlineAlert,
  londonDate,
  pastDeadlineAlerts,
  previousTaxMonth,
  taxMonthOf,
  taxMonthPeriod,
} from '../domain/index.js';
import { periodsAsOf } from './return-periods.js';
import { settingsOrDefaults } from './settings.js';

/**
 * The tenant's deadline alerts as at `today`: the past ones first (overdue returns with their penalty, statements left
 * unissued), then those due within the warning days; a month whose return is settled (filed, marked) raises no
 * filing alert. The dashboard shows them; the daily deadline scan tells them (commands/deadline-scan.ts).
 */
export async function deadlineAlertsAsOf(
  trx: Knex.Transaction,
  today: string,
  settings: { warningDays: number; activeSince: string | null },
): Promise<DeadlineAlert[]> {
  const periods = await periodsAsOf(trx, today, settings.activeSince);
  const settled = new Set(periods.filter((p) => isSettledPeriod(p.status)).map((p) => p.label));
  const upcoming = deadlineAlerts({
    today,
    label: taxMonthOf(today),
    warningDays: settings.warningDays,
  }).filter((alert) => alert.kind === 'statements' || !settled.has(alert.label));
  const past = pastDeadlineAlerts({
    today,
    overdueReturns: periods
      .filter((p) => p.status === 'overdue')
      .map((p) => ({ label: p.label, filingDeadline: p.filingDeadline, penaltyP: p.penalty.totalP })),
    pendingStatements: await new InvoiceStore(trx).pendingStatementsByMonth(),
  });
  return [...past, ...upcoming];
}

/**
 * The CIS dashboard: setup state, deadline alerts, tiles, the tax month and recent activity. The activity is the
 * audit trail's latest entries, for a reader who may view the audit trail (cis.md section 6), else none.
 */
export function dashboard(deps: CisDeps, tenantId: string, options: { withActivity: boolean }) {
  return deps.inTenant(tenantId, async (trx) => {
    const settings = await settingsOrDefaults(deps, trx, tenantId);
    const today = londonDate(deps.clock.now());
    const label = taxMonthOf(today);
    const invoices = new InvoiceStore(trx);
    const tiles = await invoices.dashboardTiles(label);
    const activeSubcontractors = await new SubcontractorStore(trx).countActive();
    const activity = options.withActivity ? await new ActivityStore(trx).recent(10) : [];
    const alerts = await deadlineAlertsAsOf(trx, today, settings);
    return {
      setupRequired: !settings.active,
      period: taxMonthPeriod(label),
      previousPeriod: taxMonthPeriod(previousTaxMonth(label)),
      warningDays: settings.warningDays,
      alerts,
      tiles: { activeSubcontractors, ...tiles },
      activity,
    };
  });
}

/** Gross, materials and deductions per tax month (oldest first) and per subcontractor (paid invoices). */
export function analytics(deps: CisDeps, tenantId: string, months: number) {
  return deps.inTenant(tenantId, async (trx) => {
    const labels = [taxMonthOf(deps.clock.now())];
    while (labels.length < months) labels.push(previousTaxMonth(labels[labels.length - 1] ?? ''));
    const totals = await new InvoiceStore(trx).paidTotals(labels);
    const monthMap = new Map(totals.byMonth.map((row) => [row.taxMonth, row]));
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
      bySubcontractor: totals.bySubcontractor.map((row) => ({
        subcontractorId: row.subcontractorId,
        name: row.subcontractorName,
        grossP: row.grossP,
        materialsP: row.materialsP,
        cisDeductionP: row.cisDeductionP,
        invoices: row.invoices,
      })),
    };
  });
}

export function recentActivity(deps: CisDeps, tenantId: string, limit: number) {
  return deps.inTenant(tenantId, (trx) => new ActivityStore(trx).recent(limit));
}
