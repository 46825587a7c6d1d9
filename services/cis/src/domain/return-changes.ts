// A submitted return against its month's live figures (issue 13, corrections): an invoice paid, changed or
// cancelled into a month after its return was submitted makes the live figures differ from what was submitted.
// The difference is given per subcontractor and in total, so the person amending sees what the amendment changes.

import type { ReturnLine, ReturnTotals } from './returns.js';
import { sumLines } from './returns.js';

export type ReturnFigures = Pick<ReturnLine, 'grossP' | 'materialsP' | 'cisDeductedP' | 'invoiceCount'>;

export interface ReturnLineChange {
  subcontractorId: string;
  name: string;
  /** The line as submitted, or null for a subcontractor the submitted return did not carry. */
  submitted: ReturnFigures | null;
  /** The line from the live figures, or null for a subcontractor no longer paid in the month. */
  live: ReturnFigures | null;
  /** live − submitted, per amount (a missing side counts as zero). */
  difference: Omit<ReturnFigures, 'invoiceCount'> & { invoiceCount: number };
}

export interface ReturnChangeSummary {
  /** True when any subcontractor's figures differ. */
  changed: boolean;
  /** Only the subcontractors whose figures differ, by name. */
  lines: ReturnLineChange[];
  totals: { submitted: ReturnTotals; live: ReturnTotals; difference: ReturnTotals };
}

const figures = (line: ReturnFigures): ReturnFigures => ({
  grossP: line.grossP,
  materialsP: line.materialsP,
  cisDeductedP: line.cisDeductedP,
  invoiceCount: line.invoiceCount,
});

const ZERO: ReturnFigures = { grossP: 0, materialsP: 0, cisDeductedP: 0, invoiceCount: 0 };

const sameFigures = (a: ReturnFigures, b: ReturnFigures): boolean =>
  a.grossP === b.grossP &&
  a.materialsP === b.materialsP &&
  a.cisDeductedP === b.cisDeductedP &&
  a.invoiceCount === b.invoiceCount;

/** The figures a submitted return carried against the month's live figures (both as compiled lines). */
export function returnChangesSince(
  submitted: readonly ReturnLine[],
  live: readonly ReturnLine[],
): ReturnChangeSummary {
  const before = new Map(submitted.map((line) => [line.subcontractorId, line]));
  const after = new Map(live.map((line) => [line.subcontractorId, line]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const lines: ReturnLineChange[] = [];
  for (const id of ids) {
    const was = before.get(id);
    const now = after.get(id);
    const a = was ? figures(was) : ZERO;
    const b = now ? figures(now) : ZERO;
    if (was && now && sameFigures(a, b)) continue;
    lines.push({
      subcontractorId: id,
      name: now?.name ?? was?.name ?? id,
      submitted: was ? a : null,
      live: now ? b : null,
      difference: {
        grossP: b.grossP - a.grossP,
        materialsP: b.materialsP - a.materialsP,
        cisDeductedP: b.cisDeductedP - a.cisDeductedP,
        invoiceCount: b.invoiceCount - a.invoiceCount,
      },
    });
  }
  lines.sort(
    (x, y) => x.name.localeCompare(y.name, 'en-GB') || x.subcontractorId.localeCompare(y.subcontractorId),
  );
  const totalsBefore = sumLines(submitted);
  const totalsAfter = sumLines(live);
  return {
    changed: lines.length > 0,
    lines,
    totals: {
      submitted: totalsBefore,
      live: totalsAfter,
      difference: {
        subcontractors: totalsAfter.subcontractors - totalsBefore.subcontractors,
        invoices: totalsAfter.invoices - totalsBefore.invoices,
        grossP: totalsAfter.grossP - totalsBefore.grossP,
        materialsP: totalsAfter.materialsP - totalsBefore.materialsP,
        cisDeductedP: totalsAfter.cisDeductedP - totalsBefore.cisDeductedP,
      },
    },
  };
}
