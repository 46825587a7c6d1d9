// Invoice amounts (spec §3 'Invoice' amounts, §5 'Invoice amounts' and 'Calculation'; HMRC notes §1.2, §1.10).
// Integer pence in and out; percentages of money are rounded half-up to the penny with exact integer maths.

import { isPence, percentOfHalfUp } from './money.js';

export const CIS_RATES = [0, 20, 30] as const;
export type CisRate = (typeof CIS_RATES)[number];
export const VAT_RATES = [0, 5, 20] as const;
export type VatRate = (typeof VAT_RATES)[number];

/** Materials at or above this share of gross raise a warning (spec §5, §9). */
export const MATERIALS_WARNING_PERCENT = 60;

export const INVOICE_MESSAGES = {
  invalidGross: 'Invalid gross amount',
  invalidMaterials: 'Invalid materials amount',
  materialsExceedGross: 'Materials cannot exceed gross amount',
  invalidCisRate: 'Invalid CIS rate. Must be 0, 20, or 30',
  invalidVatRate: 'Invalid VAT rate. Must be 0, 5, or 20',
  reverseChargeZeroRate: 'Reverse charge does not apply to zero-rated supplies (VAT rate 0%)',
} as const;

export function isCisRate(value: unknown): value is CisRate {
  return typeof value === 'number' && (CIS_RATES as readonly number[]).includes(value);
}

export function isVatRate(value: unknown): value is VatRate {
  return typeof value === 'number' && (VAT_RATES as readonly number[]).includes(value);
}

export interface InvoiceCalculationInput {
  grossP: number;
  materialsP: number;
  cisRate: number;
  vatRate: number;
  reverseCharge?: boolean;
}

export interface InvoiceAmounts {
  /** Gross excluding VAT, pence (echoed back; 0 when invalid). */
  grossP: number;
  materialsP: number;
  /** Share of gross that is materials, 0–100 with 2 decimal places (half-up); 0 when gross is 0. */
  materialsPercentage: number;
  /** gross − materials, not below 0. */
  labourP: number;
  /** labour × CIS rate, half-up to the penny, not below 0. */
  cisDeductionP: number;
  /** The amount VAT is charged on: the gross (VAT is never subject to deduction, CISR15100). */
  vatBaseP: number;
  /** VAT charged on the invoice: gross × VAT rate; 0 under the domestic reverse charge. */
  vatAmountP: number;
  /** Under the reverse charge: the VAT the contractor self-accounts (gross × rate); otherwise 0. */
  reverseChargeVatP: number;
  /** Invoice total: gross + vatAmount (under the reverse charge the VAT is not part of the total). */
  grossTotalP: number;
  /** What the subcontractor is paid: gross + vatAmount − deduction, not below 0. */
  netPaymentP: number;
  errors: string[];
  warnings: string[];
}

/** Formats a 2-dp percentage for messages: 65.5 → '65.5', 60 → '60', 66.67 → '66.67'. */
export function formatPercentage(value: number): string {
  return String(value);
}

/** materials / gross as a percentage with 2 decimal places, half-up, exact; 0 when gross is 0. */
export function materialsPercentageOf(grossP: number, materialsP: number): number {
  if (!isPence(grossP) || !isPence(materialsP) || grossP === 0) return 0;
  const basisPoints = (BigInt(materialsP) * 10000n * 2n + BigInt(grossP)) / (BigInt(grossP) * 2n);
  return Number(basisPoints) / 100;
}

/** True when materials are at least `percent` % of gross, compared exactly (no rounding). */
export function materialsAtLeastPercent(grossP: number, materialsP: number, percent: number): boolean {
  return grossP > 0 && materialsP * 100 >= grossP * percent;
}

/** The high-materials warning text of spec §5. */
export function highMaterialsWarning(percentage: number): string {
  return `High materials percentage (${formatPercentage(percentage)}%) - please verify this is correct`;
}

/**
 * Calculates an invoice's amounts. On any validation error, labour, deduction and VAT are 0 and the net
 * (and grossTotal) equal the gross when the gross itself is valid, else 0.
 */
export function calculateInvoice(input: InvoiceCalculationInput): InvoiceAmounts {
  const { grossP, materialsP, cisRate, vatRate } = input;
  const reverseCharge = input.reverseCharge === true;
  const errors: string[] = [];
  const warnings: string[] = [];
  const grossValid = isPence(grossP);
  const materialsValid = isPence(materialsP);
  if (!grossValid) errors.push(INVOICE_MESSAGES.invalidGross);
  if (!materialsValid) errors.push(INVOICE_MESSAGES.invalidMaterials);
  if (grossValid && materialsValid && materialsP > grossP) errors.push(INVOICE_MESSAGES.materialsExceedGross);
  if (!isCisRate(cisRate)) errors.push(INVOICE_MESSAGES.invalidCisRate);
  if (!isVatRate(vatRate)) errors.push(INVOICE_MESSAGES.invalidVatRate);

  if (errors.length > 0) {
    const safeGross = grossValid ? grossP : 0;
    return {
      grossP: safeGross,
      materialsP: materialsValid ? materialsP : 0,
      materialsPercentage: 0,
      labourP: 0,
      cisDeductionP: 0,
      vatBaseP: 0,
      vatAmountP: 0,
      reverseChargeVatP: 0,
      grossTotalP: safeGross,
      netPaymentP: safeGross,
      errors,
      warnings,
    };
  }

  const materialsPercentage = materialsPercentageOf(grossP, materialsP);
  if (materialsAtLeastPercent(grossP, materialsP, MATERIALS_WARNING_PERCENT)) {
    warnings.push(highMaterialsWarning(materialsPercentage));
  }
  if (reverseCharge && vatRate === 0) warnings.push(INVOICE_MESSAGES.reverseChargeZeroRate);

  const labourP = Math.max(0, grossP - materialsP);
  const cisDeductionP = Math.max(0, percentOfHalfUp(labourP, cisRate));
  const vatP = percentOfHalfUp(grossP, vatRate);
  const vatAmountP = reverseCharge ? 0 : vatP;
  return {
    grossP,
    materialsP,
    materialsPercentage,
    labourP,
    cisDeductionP,
    vatBaseP: grossP,
    vatAmountP,
    reverseChargeVatP: reverseCharge ? vatP : 0,
    grossTotalP: grossP + vatAmountP,
    netPaymentP: Math.max(0, grossP + vatAmountP - cisDeductionP),
    errors,
    warnings,
  };
}
