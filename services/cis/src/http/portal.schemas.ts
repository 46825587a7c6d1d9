import { looseObject } from './common.schemas.js';
import { invoiceInput } from './invoices.schemas.js';

export const portalInvoiceInput = invoiceInput.omit({ subcontractorId: true });

export const portalRecordsResponse = looseObject;

export const portalInvoiceResponse = looseObject;
