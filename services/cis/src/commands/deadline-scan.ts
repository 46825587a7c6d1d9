import { recordEvent } from '@workspace/kit';
import { cisNoticeEvents } from '@workspace/proto';
import type { CisDeps } from '../cis-deps.js';
import { DeadlineAlertStore, DeadlineScanQueue } from '../db/deadline-alerts.store.js';
import { londonDate } from '../domain/index.js';
import { deadlineAlertsAsOf } from './dashboard.js';
import { settingsOrDefaults } from './settings.js';

/** What one scan did: the tenants looked at and the deadlines told. */
export interface DeadlineScanReport {
  tenants: number;
  alerted: number;
}

/**
 * Tells a tenant's deadlines (issue 15): the dashboard's alerts as at today's London date (the business clock), each
 * published once as `cis.deadline.alerted` per tax month, deadline kind and state (due soon, overdue), recorded in
 * `deadline_alerts` in the same transaction as the outbox row. A tenant whose CIS module is off is told nothing.
 * Returns how many deadlines were told now.
 */
export function tellTenantDeadlines(deps: CisDeps, tenantId: string): Promise<number> {
  return deps.inTenant(tenantId, async (trx) => {
    const settings = await settingsOrDefaults(deps, trx, tenantId);
    if (!settings.active) return 0;
    const now = deps.clock.now();
    const today = londonDate(now);
    const told = new DeadlineAlertStore(trx);
    let alerted = 0;
    for (const alert of await deadlineAlertsAsOf(trx, today, settings)) {
      const state = alert.daysRemaining < 0 ? 'overdue' : 'due';
      const fresh = await told.record({
        tenantId,
        taxMonth: alert.label,
        kind: alert.kind,
        state,
        dueDate: alert.date,
        alertedAt: now,
      });
      if (!fresh) continue;
      await recordEvent(trx, deps.source, cisNoticeEvents.deadlineAlerted, {
        tenantId,
        aggregateId: `${alert.label}:${alert.kind}`,
        subject: alert.label,
        occurredAt: now,
        data: {
          taxMonth: alert.label,
          kind: alert.kind,
          state,
          dueDate: alert.date,
          daysRemaining: alert.daysRemaining,
          message: alert.message,
        },
      });
      alerted += 1;
    }
    return alerted;
  });
}

/**
 * The daily deadline scan: every tenant listed for it (module on) not yet scanned today (London date of the business
 * clock) is claimed, told its deadlines and marked scanned, one tenant per transaction so replicas share them. A
 * tenant whose telling fails stays unscanned and is tried on the next round.
 */
export async function scanDeadlines(deps: CisDeps): Promise<DeadlineScanReport> {
  const queue = new DeadlineScanQueue(deps.db);
  const today = londonDate(deps.clock.now());
  const report: DeadlineScanReport = { tenants: 0, alerted: 0 };
  const failed: string[] = [];
  while (
    await queue.claim(today, failed, async (scan) => {
      try {
        report.alerted += await tellTenantDeadlines(deps, scan.tenantId);
        report.tenants += 1;
        await scan.done(today);
      } catch (error) {
        deps.logger.warn(
          { err: error, tenantId: scan.tenantId },
          'deadline scan of a tenant failed; trying again next round',
        );
        failed.push(scan.tenantId);
      }
    })
  );
  return report;
}
