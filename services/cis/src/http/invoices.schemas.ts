import { z } from 'zod';
import { looseObject } from './common.schemas.js';

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
  status: z.enum(['all', 'draft', 'portal_draft', 'approved', 'paid', 'cancelled']).default('all'),
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

export const payBody = z.object({ paymentDate: z.iso.date().optional() });

export const importBody = z.object({ csv: z.string().min(1).max(20_000_000) });

export const invoiceSchema = looseObject;

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
