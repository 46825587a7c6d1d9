import { z } from 'zod';
import { RETURN_MESSAGES, RETURN_STATUSES } from '../domain/index.js';
import { cisRate, taxMonthDeadlines, taxMonthLabelOf, taxMonthPeriodView } from './common.schemas.js';

/**
 * The tax month of a returns path: a malformed or blank one is the return service's 'Tax month is required'
 * (cis.md section 8), before anything is read or written.
 */
export const taxMonthParams = z.object({
  taxMonth: z.string().trim().pipe(taxMonthLabelOf(RETURN_MESSAGES.taxMonthRequired)),
});

/** GET /returns/current: the month to show (issue 13: any tax month can be picked), by default the one in progress. */
export const monthQuery = z.object({
  taxMonth: z.string().trim().pipe(taxMonthLabelOf(RETURN_MESSAGES.taxMonthRequired)).optional(),
});

export const returnIdParams = z.object({ id: z.string().max(80) });

/** A page of the history (issue 13: every return is reachable, not only the latest 12). */
export const historyQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(12),
  offset: z.coerce.number().int().min(0).default(0),
});

/** A subcontractor's line of a return (identifiers masked). */
export const returnLine = z.object({
  subcontractorId: z.string(),
  name: z.string(),
  utrMasked: z.string(),
  ninoMasked: z.string(),
  verificationRef: z.string(),
  grossP: z.number(),
  materialsP: z.number(),
  cisDeductedP: z.number(),
  cisRate,
  invoiceCount: z.number(),
  statementsIssued: z.boolean(),
  lastStatementDate: z.string().nullable(),
});

export const returnTotals = z.object({
  subcontractors: z.number(),
  invoices: z.number(),
  grossP: z.number(),
  materialsP: z.number(),
  cisDeductedP: z.number(),
});

export const returnSchema = z.object({
  id: z.string(),
  taxMonth: z.string(),
  status: z.enum(RETURN_STATUSES),
  /** 'Locked' when locked, else the status. */
  displayStatus: z.string(),
  locked: z.boolean(),
  lockedAt: z.string().nullable(),
  period: taxMonthPeriodView.extend({ taxMonth: z.string() }),
  deadlines: taxMonthDeadlines,
  totals: returnTotals,
  lines: z.array(returnLine),
  issues: z.array(z.string()),
  submissionRef: z.string().nullable(),
  submittedAt: z.string().nullable(),
  submittedBy: z.string().nullable(),
  /** The id of the return an amendment supersedes. */
  amendmentOf: z.string().nullable(),
  compiledBy: z.string().nullable(),
  hasCis300: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const validationResponse = z.object({ valid: z.boolean(), issues: z.array(z.string()) });

export const currentReturnResponse = z.object({
  period: taxMonthPeriodView,
  return: returnSchema.nullable(),
  /** 'Not compiled' without a return. */
  displayStatus: z.string(),
  validation: validationResponse.nullable(),
});

export const returnHistoryResponse = z.object({
  items: z.array(returnSchema),
  /** Records in the whole history. */
  total: z.number(),
});

export const returnWithValidationResponse = z.object({
  return: returnSchema,
  validation: validationResponse,
});

export const returnResponse = z.object({ return: returnSchema });
