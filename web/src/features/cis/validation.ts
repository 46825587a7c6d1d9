// Client-side checks before a save, with the domain's own rules and messages; the server checks again and its
// field errors land on the same fields.
import {
  poundsToPence,
  VALIDATION_MESSAGES,
  validateInvoiceInput,
  validateSettingsInput,
  validateSubcontractorInput,
} from './domain';

export { validateSettingsInput, validateSubcontractorInput };

const AMOUNT_MESSAGES = {
  gross: {
    invalid: VALIDATION_MESSAGES.grossInvalid,
    negative: VALIDATION_MESSAGES.grossNegative,
    decimals: 'Gross amount can have at most 2 decimal places (pence)',
  },
  materials: {
    invalid: VALIDATION_MESSAGES.materialsInvalid,
    negative: VALIDATION_MESSAGES.materialsNegative,
    decimals: 'Materials amount can have at most 2 decimal places (pence)',
  },
} as const;

/**
 * What is wrong with text that is not an amount in pounds ('abc': the spec's 'Invalid gross amount'; '1000.005': at
 * most 2 decimal places), shown as the user types; null for an amount (negative ones included) and for blank.
 */
export function notAnAmountError(
  text: string | undefined,
  field: keyof typeof AMOUNT_MESSAGES,
): string | null {
  const value = (text ?? '').trim();
  if (value === '') return null;
  try {
    poundsToPence(value);
    return null;
  } catch {
    const messages = AMOUNT_MESSAGES[field];
    return /^-?£?[\d,]*\.\d{3,}$/.test(value) ? messages.decimals : messages.invalid;
  }
}

/**
 * What is wrong with an amount typed in pounds: not an amount (above), or negative ('Gross amount cannot be
 * negative'); null for an amount, and for blank (left to the required check: materials blank means none).
 */
export function amountInputError(
  text: string | undefined,
  field: keyof typeof AMOUNT_MESSAGES,
): string | null {
  const notAnAmount = notAnAmountError(text, field);
  if (notAnAmount) return notAnAmount;
  const value = (text ?? '').trim();
  return value !== '' && poundsToPence(value) < 0 ? AMOUNT_MESSAGES[field].negative : null;
}

function pence(text: string): number {
  if (text.trim() === '') return Number.NaN;
  try {
    return poundsToPence(text);
  } catch {
    return Number.NaN;
  }
}

/** The invoice form's values → field errors keyed by the form's names (gross, materials, ...). */
export function validateInvoiceForm(values: {
  invoiceNumber: string;
  subcontractorId: string;
  invoiceDate: string;
  gross: string;
  materials: string;
  vatRate: number;
  materialsJustification: string;
}): Record<string, string> {
  const errors = validateInvoiceInput({
    invoiceNumber: values.invoiceNumber,
    subcontractorId: values.subcontractorId,
    invoiceDate: values.invoiceDate,
    grossP: pence(values.gross),
    materialsP: values.materials.trim() === '' ? 0 : pence(values.materials),
    vatRate: values.vatRate,
    materialsJustification: values.materialsJustification,
  });
  const mapped: Record<string, string> = {};
  // An amount that is not one says so in the words of the field's own check, not "Invalid gross amount".
  const grossText = amountInputError(values.gross, 'gross');
  const materialsText = amountInputError(values.materials, 'materials');
  if (grossText) mapped.gross = grossText;
  if (materialsText) mapped.materials = materialsText;
  for (const [field, message] of Object.entries(errors)) {
    if ((field === 'grossP' && grossText) || (field === 'materialsP' && materialsText)) continue;
    if (field === 'grossP') mapped.gross = message;
    else if (field === 'materialsP') mapped.materials = message;
    else if (field === 'amounts') {
      if (!('gross' in mapped)) mapped.gross = message;
    } else mapped[field] = message;
  }
  return mapped;
}
