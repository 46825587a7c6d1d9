import { z } from 'zod';
import { REJECTION_REASON_MAX } from '../domain/index.js';
import { invoiceInput, invoiceSchema } from './invoices.schemas.js';
import { statementSchema } from './statements.schemas.js';
import { subcontractorSchema } from './subcontractors.schemas.js';

export const portalInvoiceInput = invoiceInput.omit({ subcontractorId: true });

/** What the portal shows of an invoice: no one else's data, no staff fields. */
export const portalInvoice = invoiceSchema
  .pick({
    id: true,
    invoiceNumber: true,
    invoiceDate: true,
    paymentDate: true,
    taxMonth: true,
    status: true,
    statusLabel: true,
    amounts: true,
    cisRate: true,
  })
  .extend({
    /** Why the contractor rejected it (status rejected); null otherwise. */
    rejectionReason: z.string().nullable(),
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

/** Staff reject a portal invoice: the reason is required (checked by the command, with its own message). */
export const rejectInvoiceBody = z.object({
  reason: z
    .string()
    .max(REJECTION_REASON_MAX * 4)
    .optional(),
});

export const rejectInvoiceResponse = z.object({
  invoice: invoiceSchema,
  /** The subcontractor's e-mail was handed to the notification service (false: no address, or not reachable). */
  emailSent: z.boolean(),
});
