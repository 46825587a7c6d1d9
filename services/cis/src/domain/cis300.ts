// CIS300 monthly return amounts (HMRC notes §1.3, §2.2; hmrc/construction-industry-scheme CISreturn-v1-2.xsd):
// TotalPayments and CostOfMaterials are IRnonNegativeWholeUnitsMonetaryType (whole pounds written '.00',
// max 99999999.00) and HMRC's UI says "Round down to the nearest pound"; TotalDeducted is pounds and pence
// (max 99999999.99). Pence are kept everywhere else; the floor is applied only here.

import { isPence, penceToPounds } from './money.js';

export interface Cis300AmountsInput {
  totalPaymentsP: number;
  costOfMaterialsP: number;
  totalDeductedP: number;
}

export interface Cis300Amounts {
  /** Whole pounds, rounded down: '2567.00'. */
  totalPayments: string;
  /** Whole pounds, rounded down: '367.00'. */
  costOfMaterials: string;
  /** Pounds and pence: '440.10'. */
  totalDeducted: string;
}

/** The XSD maximum for all three amounts: 99999999.99 (whole-pound types stop at 99999999.00). */
export const CIS300_MAX_AMOUNT_P = 9_999_999_999;

function checked(name: string, value: number): number {
  if (!isPence(value))
    throw new RangeError(`${name} must be a non-negative integer of pence, got ${String(value)}`);
  if (value > CIS300_MAX_AMOUNT_P) throw new RangeError(`${name} is above the CIS300 maximum of 99999999.99`);
  return value;
}

/** Whole pounds rounded down, written with '.00': 256799 → '2567.00'. */
export function wholePoundsDown(pence: number): string {
  return `${Math.floor(checked('Amount', pence) / 100)}.00`;
}

/** Formats a subcontractor line's (or the return's) amounts for the CIS300 XML. Throws on negative input. */
export function toCis300Amounts(input: Cis300AmountsInput): Cis300Amounts {
  return {
    totalPayments: `${Math.floor(checked('totalPaymentsP', input.totalPaymentsP) / 100)}.00`,
    costOfMaterials: `${Math.floor(checked('costOfMaterialsP', input.costOfMaterialsP) / 100)}.00`,
    totalDeducted: penceToPounds(checked('totalDeductedP', input.totalDeductedP)),
  };
}
