// Monthly return compilation and validation (spec §3 'Monthly return', §4 'Return', §5 'Return';
// HMRC notes §1.4: a paid invoice belongs to the tax month of its PAYMENT date, the caller filters).

import { CIS_RATES, type CisRate } from './calculation.js';
import { formatPounds } from './money.js';
import { isTaxMonthLabel } from './tax-month.js';

export interface ReturnLine {
  subcontractorId: string;
  name: string;
  utrMasked: string;
  ninoMasked: string;
  verificationRef: string;
  grossP: number;
  materialsP: number;
  cisDeductedP: number;
  cisRate: CisRate;
  /** At least 1. */
  invoiceCount: number;
  statementsIssued: boolean;
  /** When the subcontractor's statement for the month was issued, or null. */
  lastStatementDate: string | null;
}

export interface ReturnTotals {
  subcontractors: number;
  invoices: number;
  grossP: number;
  materialsP: number;
  cisDeductedP: number;
}

export interface ReturnInvoice {
  id?: string;
  subcontractorId: string;
  subcontractorName?: string;
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
  cisRate?: number;
  verificationSnapshot?: { rate?: number | null; reference?: string | null } | null;
}

export interface ReturnSubcontractor {
  name: string;
  utrMasked?: string | null;
  ninoMasked?: string | null;
  verificationReference?: string | null;
  rate?: number | null;
}

export interface CompileReturnInput {
  taxMonth: string;
  /** Paid invoices whose payment date falls in the tax month (already filtered, not deleted). */
  invoices: readonly ReturnInvoice[];
  subcontractors: Readonly<Record<string, ReturnSubcontractor>> | ReadonlyMap<string, ReturnSubcontractor>;
  /** subcontractorId → the issue timestamp of that month's statement, or null when not issued. */
  statements?:
    Readonly<Record<string, string | null | undefined>> | ReadonlyMap<string, string | null | undefined>;
}

export interface CompiledReturn {
  taxMonth: string;
  status: 'draft' | 'nil';
  lines: ReturnLine[];
  totals: ReturnTotals;
}

function lookup<V>(
  source: Readonly<Record<string, V>> | ReadonlyMap<string, V> | undefined,
  key: string,
): V | undefined {
  if (!source) return undefined;
  if (source instanceof Map) return (source as ReadonlyMap<string, V>).get(key);
  return Object.prototype.hasOwnProperty.call(source, key)
    ? (source as Readonly<Record<string, V>>)[key]
    : undefined;
}

function rateOf(invoice: ReturnInvoice, sub: ReturnSubcontractor | undefined): CisRate {
  const candidates = [invoice.verificationSnapshot?.rate, invoice.cisRate, sub?.rate];
  for (const rate of candidates) {
    if (typeof rate === 'number' && (CIS_RATES as readonly number[]).includes(rate)) return rate as CisRate;
  }
  return 20;
}

/**
 * Builds one line per subcontractor from the month's paid invoices, sorted by name (en-GB, then id).
 * Mixed rates in one month: the line takes the highest rate seen (30 % carries the verification number
 * HMRC requires), and the verification reference of an invoice at that rate wins over the subcontractor's.
 * No invoices → status 'nil' with no lines.
 */
export function compileReturnLines(input: CompileReturnInput): CompiledReturn {
  if (!isTaxMonthLabel(input.taxMonth)) throw new Error('Tax month is required');
  const byId = new Map<string, { line: ReturnLine; refRate: number }>();
  for (const invoice of input.invoices) {
    const sub = lookup(input.subcontractors, invoice.subcontractorId);
    const rate = rateOf(invoice, sub);
    const snapshotRef = invoice.verificationSnapshot?.reference?.trim() ?? '';
    let entry = byId.get(invoice.subcontractorId);
    if (!entry) {
      const issuedAt = lookup(input.statements, invoice.subcontractorId) ?? null;
      entry = {
        refRate: -1,
        line: {
          subcontractorId: invoice.subcontractorId,
          name: sub?.name ?? invoice.subcontractorName ?? invoice.subcontractorId,
          utrMasked: sub?.utrMasked ?? '',
          ninoMasked: sub?.ninoMasked ?? '',
          verificationRef: sub?.verificationReference?.trim() ?? '',
          grossP: 0,
          materialsP: 0,
          cisDeductedP: 0,
          cisRate: rate,
          invoiceCount: 0,
          statementsIssued: Boolean(issuedAt),
          lastStatementDate: issuedAt || null,
        },
      };
      byId.set(invoice.subcontractorId, entry);
    }
    const { line } = entry;
    line.grossP += invoice.grossP;
    line.materialsP += invoice.materialsP;
    line.cisDeductedP += invoice.cisDeductionP;
    line.invoiceCount += 1;
    if (rate > line.cisRate) line.cisRate = rate;
    if (snapshotRef && rate > entry.refRate) {
      line.verificationRef = snapshotRef;
      entry.refRate = rate;
    }
  }
  const lines = [...byId.values()]
    .map((entry) => entry.line)
    .sort(
      (a, b) => a.name.localeCompare(b.name, 'en-GB') || a.subcontractorId.localeCompare(b.subcontractorId),
    );
  return {
    taxMonth: input.taxMonth,
    status: lines.length > 0 ? 'draft' : 'nil',
    lines,
    totals: sumLines(lines),
  };
}

/** Totals of a set of lines. */
export function sumLines(
  lines: readonly Pick<ReturnLine, 'grossP' | 'materialsP' | 'cisDeductedP' | 'invoiceCount'>[],
): ReturnTotals {
  return {
    subcontractors: lines.length,
    invoices: lines.reduce((n, l) => n + (l.invoiceCount || 0), 0),
    grossP: lines.reduce((n, l) => n + (l.grossP || 0), 0),
    materialsP: lines.reduce((n, l) => n + (l.materialsP || 0), 0),
    cisDeductedP: lines.reduce((n, l) => n + (l.cisDeductedP || 0), 0),
  };
}

export interface ReturnLineInput {
  name?: string | null;
  grossP: number;
  materialsP: number;
  cisDeductedP: number;
  /** A stored line always has one (at least 1); a line given without it is not checked. */
  invoiceCount?: number | null;
  statementsIssued?: boolean | number | null;
}

/** A monthly return as validateReturn reads it (a stored return fits). */
export interface MonthlyReturnInput {
  id?: string;
  taxMonth?: string | null;
  period?: { label?: string | null; taxMonth?: string | null } | null;
  status?: string | null;
  totals?: Partial<Pick<ReturnTotals, 'grossP' | 'materialsP' | 'cisDeductedP'>> | null;
  lines?: readonly ReturnLineInput[] | null;
}

export interface ReturnValidation {
  valid: boolean;
  issues: string[];
}

/** A return line stands for at least one invoice (spec §3 'Return line': invoiceCount at least 1). */
export const RETURN_LINE_NO_INVOICES = 'A line must include at least one invoice';

/** Totals may differ from the sum of the lines by at most this many pence (spec §9, schema reading). */
export const RETURN_TOTALS_TOLERANCE_P = 1;

const AMOUNT_FIELDS = [
  { key: 'grossP', total: 'Total gross amount', line: 'Gross amount', mismatch: 'Gross total mismatch' },
  { key: 'materialsP', total: 'Total materials amount', line: 'Materials amount', mismatch: 'Materials total mismatch' },
  { key: 'cisDeductedP', total: 'Total CIS deducted', line: 'CIS deducted', mismatch: 'CIS total mismatch' },
] as const; // prettier-ignore

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Checks a return before submit (spec §5 'Return'). Messages are verbatim; n is 1-based; mismatches
 * show the sum of the lines as 'Expected' and the stored total as 'got', both formatted '£1,234.56'.
 */
export function validateReturn(ret: MonthlyReturnInput): ReturnValidation {
  const issues: string[] = [];
  const taxMonth = ret.taxMonth ?? ret.period?.label ?? ret.period?.taxMonth ?? '';
  if (!taxMonth.trim()) issues.push('Tax month is required');

  const totals = ret.totals ?? {};
  for (const field of AMOUNT_FIELDS) {
    if (num(totals[field.key]) < 0) issues.push(`${field.total} cannot be negative`);
  }

  const lines = ret.lines ?? [];
  lines.forEach((line, index) => {
    const n = index + 1;
    for (const field of AMOUNT_FIELDS) {
      if (num(line[field.key]) < 0) issues.push(`Line ${n}: ${field.line} cannot be negative`);
    }
    if (num(line.materialsP) > num(line.grossP)) issues.push(`Line ${n}: Materials exceed gross amount`);
    const count = line.invoiceCount;
    if (count !== undefined && (typeof count !== 'number' || !Number.isInteger(count) || count < 1))
      issues.push(`Line ${n}: ${RETURN_LINE_NO_INVOICES}`);
    if (num(line.cisDeductedP) > 0 && !line.statementsIssued) {
      issues.push(`Line ${n}: Statement not issued for ${line.name ?? `line ${n}`}`);
    }
  });

  for (const field of AMOUNT_FIELDS) {
    const expected = lines.reduce((sum, line) => sum + num(line[field.key]), 0);
    const got = num(totals[field.key]);
    if (Math.abs(expected - got) > RETURN_TOTALS_TOLERANCE_P) {
      issues.push(
        `${field.mismatch}: Expected ${formatPounds(Math.round(expected))}, got ${formatPounds(Math.round(got))}`,
      );
    }
  }

  if (lines.length === 0 && ret.status !== 'nil')
    issues.push('Return must have at least one line or be marked as nil');
  if (lines.length > 0 && ret.status === 'nil') issues.push('A nil return cannot have subcontractor lines');
  return { valid: issues.length === 0, issues };
}
