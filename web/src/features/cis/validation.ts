// Client-side checks before a save, with the domain's own rules and messages; the server checks again and its
// field errors land on the same fields.
import {
  poundsToPence,
  validateInvoiceInput,
  validateSettingsInput,
  validateSubcontractorInput,
} from './domain';

export { validateSettingsInput, validateSubcontractorInput };

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
  for (const [field, message] of Object.entries(errors)) {
    if (field === 'grossP') mapped.gross = message;
    else if (field === 'materialsP') mapped.materials = message;
    else if (field === 'amounts') {
      if (!('gross' in mapped)) mapped.gross = message;
    } else mapped[field] = message;
  }
  return mapped;
}
