import type { Knex } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { PeriodMarkStore, type PeriodMarkRecord } from '../db/period-marks.store.js';
import { ReturnStore, type ReturnStanding } from '../db/returns.store.js';
import { SettingsStore } from '../db/settings.store.js';
import {
  dueTaxMonth,
  londonDate,
  markRefusal,
  PERIOD_STATUS_TEXT,
  periodState,
  previousTaxMonth,
  returnDisplayStatus,
  taxMonthName,
  taxMonthOf,
  taxMonthPeriod,
  taxMonthsBack,
  type PeriodMarkReason,
} from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { refused } from './problems.js';

/** The London date a record was first submitted, among a month's records (an amendment keeps the original's). */
const firstFiled = (records: ReturnStanding[]): string | null => {
  const dates = records.flatMap((record) => (record.submittedAt ? [londonDate(record.submittedAt)] : []));
  return dates.sort()[0] ?? null;
};

/** A month's records, newest first. */
function byMonth(standings: ReturnStanding[]): Map<string, ReturnStanding[]> {
  const months = new Map<string, ReturnStanding[]>();
  for (const record of standings)
    months.set(record.taxMonth, [...(months.get(record.taxMonth) ?? []), record]);
  return months;
}

async function paidByMonth(trx: Knex.Transaction, labels: string[]) {
  const { byMonth: rows } = await new InvoiceStore(trx).paidTotals(labels);
  return new Map(rows.map((row) => [row.taxMonth, row]));
}

const markView = (mark: PeriodMarkRecord) => ({
  reason: mark.reason,
  note: mark.note,
  markedBy: mark.markedBy,
  markedAt: mark.markedAt.toISOString(),
});

/**
 * Every tax month from the one the module was switched on in (or the oldest return, if earlier) to the month in
 * progress, newest first: filed, due, overdue, in progress or marked, with the filing deadline and the late-filing
 * penalty as at `today` (ADR 0035). In the caller's transaction (the dashboard's too).
 */
export async function periodsAsOf(trx: Knex.Transaction, today: string, activeSince: string | null) {
  const current = taxMonthOf(today);
  const standings = await new ReturnStore(trx).standings();
  const marks = new Map((await new PeriodMarkStore(trx).all()).map((mark) => [mark.taxMonth, mark]));
  const starts = [current, standings.at(-1)?.taxMonth, activeSince && taxMonthOf(activeSince)];
  const from = starts.filter((month): month is string => Boolean(month)).sort()[0] ?? current;
  const labels = taxMonthsBack(from, current);
  const records = byMonth(standings);
  const paid = await paidByMonth(trx, labels);
  return labels.map((label) => {
    const monthRecords = records.get(label) ?? [];
    const latest = monthRecords[0];
    const mark = marks.get(label);
    const paidInvoices = paid.get(label)?.invoices ?? 0;
    const cisDeductedP = latest?.totals.cisDeductedP ?? paid.get(label)?.cisDeductionP ?? 0;
    const filedOn = firstFiled(monthRecords);
    const state = periodState({
      label,
      today,
      filedOn,
      mark: mark?.reason ?? null,
      paidInvoices,
      cisDeductedP,
    });
    return {
      ...state,
      statusText: PERIOD_STATUS_TEXT[state.status],
      period: taxMonthPeriod(label),
      paidInvoices,
      cisDeductedP,
      filedOn,
      return: latest
        ? {
            id: latest.id,
            status: latest.status,
            displayStatus: returnDisplayStatus(latest),
            submittedAt: latest.submittedAt?.toISOString() ?? null,
            totals: latest.totals,
            records: monthRecords.length,
          }
        : null,
      mark: mark ? markView(mark) : null,
    };
  });
}

/** The period list as at the business clock's today, and the month the Returns page opens on. */
export function returnPeriods(deps: CisDeps, tenantId: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const today = londonDate(deps.clock.now());
    const current = taxMonthOf(today);
    const settings = await new SettingsStore(trx).load(tenantId);
    const periods = await periodsAsOf(trx, today, settings.activeSince);
    const justEnded = periods.find((period) => period.label === previousTaxMonth(current));
    return {
      today,
      currentTaxMonth: current,
      dueTaxMonth: dueTaxMonth(today, justEnded?.status),
      activeSince: settings.activeSince,
      periods,
    };
  });
}

const MARK_TEXT: Record<PeriodMarkReason, string> = {
  filed_elsewhere: 'filed elsewhere',
  before_product: 'before this product',
  inactive: 'covered by an inactivity notice to HMRC',
};

/** Marks a tax month as needing no return from this product (who and when kept, and audited). */
export function markPeriod(
  deps: CisDeps,
  actor: Actor,
  taxMonth: string,
  input: { reason: PeriodMarkReason; note: string },
) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const now = deps.clock.now();
    const records = (await new ReturnStore(trx).standings()).filter((record) => record.taxMonth === taxMonth);
    const paid = await paidByMonth(trx, [taxMonth]);
    const refusal = markRefusal(
      {
        label: taxMonth,
        today: londonDate(now),
        filedOn: firstFiled(records),
        paidInvoices: paid.get(taxMonth)?.invoices ?? 0,
      },
      input.reason,
    );
    if (refusal) throw refused(refusal);
    const mark = await new PeriodMarkStore(trx).put({
      tenantId: actor.tenantId,
      taxMonth,
      reason: input.reason,
      note: input.note.trim(),
      markedBy: actor.userId,
      markedAt: now,
    });
    await deps.audit.write(trx, actor, 'cis.return.period_marked', {
      targetType: 'return',
      targetId: taxMonth,
      taxMonth,
      summary: `The ${taxMonthName(taxMonth)} marked as ${MARK_TEXT[input.reason]}`,
      details: { reason: input.reason },
    });
    return markView(mark);
  });
}

/** Clears a tax month's mark (audited); the month owes its return again. */
export function unmarkPeriod(deps: CisDeps, actor: Actor, taxMonth: string) {
  return deps.inTenant(actor.tenantId, async (trx) => {
    const removed = await new PeriodMarkStore(trx).remove(taxMonth);
    if (!removed) throw refused(`The ${taxMonthName(taxMonth)} is not marked.`, 'not_marked');
    await deps.audit.write(trx, actor, 'cis.return.period_unmarked', {
      targetType: 'return',
      targetId: taxMonth,
      taxMonth,
      summary: `The ${taxMonthName(taxMonth)} no longer marked as ${MARK_TEXT[removed.reason]}`,
      details: { reason: removed.reason },
    });
  });
}
