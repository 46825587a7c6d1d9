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

/** What the person submitting ticked: each declaration true or false (HMRC's wording: @workspace/rules). */
export const returnDeclarations = z.object({
  employmentStatus: z.boolean().optional(),
  verification: z.boolean().optional(),
  informationCorrect: z.boolean().optional(),
  inactivity: z.boolean().optional(),
});

/**
 * Submit: the declarations the return asks for must be ticked (a return with payments: employment status,
 * verification and information correct; a nil return: information correct, inactivity optional).
 */
export const submitReturnBody = z.object({ declarations: returnDeclarations.optional() }).default({});

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
  /** 'Submitted' when locked (submitted and kept as filed), else the status. */
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
  /** Another user's name, from identity (null for the reader, the system, or when identity cannot say). */
  submittedByName: z.string().nullable(),
  /** The id of the return an amendment supersedes. */
  amendmentOf: z.string().nullable(),
  compiledBy: z.string().nullable(),
  /** The declarations it was submitted with, as ticked; null before submission (or submitted before they were asked). */
  declarations: returnDeclarations.nullable(),
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

const figures = z.object({
  grossP: z.number(),
  materialsP: z.number(),
  cisDeductedP: z.number(),
  invoiceCount: z.number(),
});

/** A month's submitted return against its live figures: what changed since submission. */
export const returnChangesResponse = z.object({
  taxMonth: z.string(),
  /** The submitted return (the month's last locked record), or null when the month's return was never submitted. */
  submitted: returnSchema.nullable(),
  /** An amendment of it not yet submitted, if one was started. */
  amendment: returnSchema.nullable(),
  changed: z.boolean(),
  /** The subcontractors whose figures differ (a side is null where the subcontractor is missing from it). */
  lines: z.array(
    z.object({
      subcontractorId: z.string(),
      name: z.string(),
      submitted: figures.nullable(),
      live: figures.nullable(),
      difference: figures,
    }),
  ),
  totals: z.object({ submitted: returnTotals, live: returnTotals, difference: returnTotals }),
});
