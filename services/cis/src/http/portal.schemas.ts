import { z } from 'zod';
import { invoiceInput, invoiceSchema } from './invoices.schemas.js';
import { statementSchema } from './statements.schemas.js';
import { subcontractorSchema } from './subcontractors.schemas.js';

export const portalInvoiceInput = invoiceInput.omit({ subcontractorId: true });

/** What the portal shows of an invoice: no one else's data, no staff fields. */
export const portalInvoice = invoiceSchema.pick({
  id: true,
  invoiceNumber: true,
  invoiceDate: true,
  paymentDate: true,
  taxMonth: true,
  status: true,
  statusLabel: true,
  amounts: true,
  cisRate: true,
});

export const portalRecordsResponse = z.object({
  subcontractor: subcontractorSchema.pick({ id: true, name: true, type: true, utrMasked: true }).extend({
    verification: subcontractorSchema.shape.verification.pick({ status: true, rate: true }),
  }),
  invoices: z.array(portalInvoice),
  /** Issued statements only. */
  statements: z.array(statementSchema),
});

export const portalInvoiceResponse = z.object({
  invoice: invoiceSchema.pick({
    id: true,
    invoiceNumber: true,
    status: true,
    statusLabel: true,
    amounts: true,
  }),
  warnings: z.array(z.string()),
});
