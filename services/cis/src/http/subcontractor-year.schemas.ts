import { z } from 'zod';

export const taxYearQuery = z.object({
  /** The calendar year the tax year starts in (2026 for 6 April 2026–5 April 2027); the current one by default. */
  taxYear: z.coerce.number().int().min(2000).max(2100).optional(),
});

const yearFigures = z.object({
  grossP: z.number(),
  materialsP: z.number(),
  cisDeductionP: z.number(),
  /** Gross less the deduction, before VAT. */
  netP: z.number(),
  invoices: z.number(),
});

export const taxYearMonth = yearFigures.extend({
  /** 'YYYY-MM', the stored key. */
  taxMonth: z.string(),
  /** As HMRC names it: 'Month ending 5 May 2026'. */
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
});

export const subcontractorTaxYearResponse = z.object({
  subcontractorId: z.string(),
  name: z.string(),
  /** '2026-27'. */
  taxYear: z.string(),
  taxYearStart: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  /** The twelve tax months, April's first. */
  months: z.array(taxYearMonth),
  totals: yearFigures,
  /** The tax years the subcontractor was paid in and the current one, newest first. */
  years: z.array(z.number()),
});
