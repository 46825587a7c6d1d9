// Money helpers. Amounts are integer pence everywhere (spec section 1: "All amounts are held in pence"); the
// conversions at the edges are @workspace/rules' (re-exported here), the CIS percentages below.
import { isPence } from '@workspace/rules';

export { formatPounds, isPence, penceToPounds, poundsToPence } from '@workspace/rules';

/**
 * `round(amount × percent / 100)` HALF-UP to the penny with exact integer arithmetic (BigInt), for a
 * non-negative amount and a whole-number percent. HMRC gives no rounding rule for the deduction
 * (hmrc-cis-notes §1.3); the spec says "rounded" and we use half-up, not banker's rounding.
 */
export function percentOfHalfUp(amountP: number, percent: number): number {
  if (!isPence(amountP))
    throw new RangeError(`Amount must be a non-negative integer of pence: ${String(amountP)}`);
  if (!Number.isSafeInteger(percent) || percent < 0) throw new RangeError(`Invalid percent: ${percent}`);
  return Number((BigInt(amountP) * BigInt(percent) + 50n) / 100n);
}
