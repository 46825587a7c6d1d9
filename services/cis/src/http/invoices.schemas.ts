import { z } from 'zod';
import { IMPORT_BODY_BYTES, INVOICE_ACTIONS, INVOICE_STATUSES } from '../domain/index.js';

export const invoiceInput = z.object({
  invoiceNumber: z.string().max(200),
  subcontractorId: z.string().max(64),
  invoiceDate: z.string().max(30),
  receivedDate: z.iso.date().nullable().optional(),
  description: z.string().max(2000).default(''),
  grossP: z.number(),
  materialsP: z.number(),
  vatRate: z.number(),
  reverseCharge: z.boolean().default(false),
  materialsJustification: z.string().max(2000).default(''),
});

export const invoiceListQuery = z.object({
  search: z.string().max(100).optional(),
  status: z.enum(['all', ...INVOICE_STATUSES]).default('all'),
  period: z.enum(['all', 'current', 'previous', 'quarter', 'year']).default('all'),
  subcontractorId: z.uuid().optional(),
  taxMonth: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});

export const invoiceExportQuery = invoiceListQuery.omit({ page: true, pageSize: true });

/** Set after the user read the warning that the change reaches a month whose return is submitted (409 return_submitted). */
const confirmSubmittedReturn = z.boolean().optional();

export const payBody = z.object({
  paymentDate: z.iso.date({ error: 'Payment date must be a date (YYYY-MM-DD)' }).optional(),
  confirmSubmittedReturn,
});

/** Cancelling: the body is optional (a cancel outside a submitted month needs none). */
export const cancelBody = z.object({ confirmSubmittedReturn }).default({});

export const paymentDateBody = z.object({
  paymentDate: z.iso.date({ error: 'Payment date must be a date (YYYY-MM-DD)' }),
  confirmSubmittedReturn,
});

/** Never shorter than the body limit: a file over IMPORT_LIMITS.fileBytes gets the import's own message. */
export const importBody = z.object({ csv: z.string().min(1).max(IMPORT_BODY_BYTES) });

export const invoiceAmounts = z.object({
  grossP: z.number(),
  materialsP: z.number(),
  materialsPercentage: z.number(),
  labourP: z.number(),
  cisDeductionP: z.number(),
  vatBaseP: z.number(),
  vatAmountP: z.number(),
  grossTotalP: z.number(),
  netPaymentP: z.number(),
});

export const invoiceSchema = z.object({
  id: z.string(),
  invoiceNumber: z.string(),
  subcontractorId: z.string(),
  subcontractorName: z.string(),
  /** A stored status the domain does not know reads as draft. */
  status: z.enum(INVOICE_STATUSES),
  statusLabel: z.string(),
  /** 'staff', 'portal' or 'import'. */
  source: z.string(),
  invoiceDate: z.string(),
  receivedDate: z.string().nullable(),
  paymentDate: z.string().nullable(),
  /** The tax month of the payment date, once paid. */
  taxMonth: z.string().nullable(),
  description: z.string(),
  vatRate: z.number(),
  reverseCharge: z.boolean(),
  materialsJustification: z.string(),
  amounts: invoiceAmounts,
  cisRate: z.number(),
  verificationSnapshot: z.object({ rate: z.number(), reference: z.string() }),
  statement: z.object({
    required: z.boolean(),
    requestedAt: z.string().nullable(),
    requestedBy: z.string().nullable(),
    issuedAt: z.string().nullable(),
    issuedMethod: z.string().nullable(),
    statementId: z.string().nullable(),
  }),
  piiMasked: z.object({ utrMasked: z.string(), ninoMasked: z.string() }),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  lockedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  paidBy: z.string().nullable(),
  /** Why staff rejected a portal invoice, who and when (status rejected); null otherwise. */
  rejection: z
    .object({ reason: z.string(), rejectedAt: z.string().nullable(), rejectedBy: z.string().nullable() })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string(),
  updatedBy: z.string(),
  /** What the invoice's status allows (the caller's abilities aside). */
  actions: z.array(z.enum(INVOICE_ACTIONS)),
});

export const invoiceResponse = z.object({ invoice: invoiceSchema });

export const savedInvoiceResponse = z.object({ invoice: invoiceSchema, warnings: z.array(z.string()) });

export const invoiceListResponse = z.object({
  items: z.array(invoiceSchema),
  total: z.number(),
  /** True when more than `total` invoices match: the count stops there (10,000; 1,000 with a search). */
  totalCapped: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
  summary: z.object({
    total: z.number(),
    draft: z.number(),
    approved: z.number(),
    thisMonthCisP: z.number(),
    pendingStatements: z.number(),
  }),
});

export const importResponse = z.object({
  created: z.array(z.string()),
  failed: z.array(z.object({ index: z.number(), errors: z.array(z.string()) })),
});
