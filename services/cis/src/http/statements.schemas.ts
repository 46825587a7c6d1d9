import { z } from 'zod';
import { STATEMENT_ISSUE_METHODS } from '../domain/index.js';
import { taxMonthLabel, taxMonthPeriodView } from './common.schemas.js';
import { invoiceSchema } from './invoices.schemas.js';
import { queuedJob } from './jobs.schemas.js';

export const statementFilter = z.enum(['all', 'pending', 'generated', 'issued']);

export const statementsQuery = z.object({
  taxMonth: taxMonthLabel.optional(),
  filter: statementFilter.default('all'),
});

export const generateBody = z.object({ subcontractorId: z.uuid(), taxMonth: taxMonthLabel });

export const generateAllBody = z.object({ taxMonth: taxMonthLabel });

export const issueMethod = z.enum(STATEMENT_ISSUE_METHODS);

export const issueBody = z.object({ method: issueMethod });

export const statementSchema = z.object({
  id: z.string(),
  subcontractorId: z.string(),
  subcontractorName: z.string(),
  taxMonth: z.string(),
  invoiceIds: z.array(z.string()),
  invoiceCount: z.number(),
  totals: z.object({
    grossP: z.number(),
    materialsP: z.number(),
    labourP: z.number(),
    cisDeductionP: z.number(),
  }),
  cisRate: z.number(),
  status: z.enum(['generated', 'issued']),
  generatedAt: z.string(),
  generatedBy: z.string(),
  issuedAt: z.string().nullable(),
  issuedMethod: issueMethod.nullable(),
  /** 1 for a month's first statement; a corrected statement one more, naming the one it replaces. */
  version: z.number(),
  supersedes: z.string().nullable(),
  /** The corrected statement that replaced this one (it stays on record). */
  supersededBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * An e-mail the notification service could not deliver after its retries: when, and the mail server's answer; and,
 * once resent, whether it is on its way again or was delivered (docs/notifications.md "Resending a dead letter").
 */
export const mailFailure = z.object({
  failedAt: z.string(),
  reason: z.string(),
  state: z.enum(['failed', 'resending', 'delivered']),
  resentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});

export const mailFailureResponse = z.object({ emailFailure: mailFailure });

/** A subcontractor of the statements screen: its paid invoices of the month and its statement, if any. */
export const statementGroup = z.object({
  subcontractorId: z.string(),
  name: z.string(),
  utrMasked: z.string(),
  email: z.string(),
  invoices: z.array(invoiceSchema),
  totals: z.object({ grossP: z.number(), materialsP: z.number(), cisDeductionP: z.number() }),
  statement: statementSchema.nullable(),
  state: z.enum(['pending', 'generated', 'issued']),
  /** Issued, and the month's paid invoices no longer match it: a corrected statement is due. */
  changedSinceIssue: z.boolean(),
  /** Issued by email, and the email could not be delivered after its retries (a dead letter, ADR 0052), or was resent. */
  emailFailure: mailFailure.nullable(),
});

export const statementMonthResponse = z.object({
  period: taxMonthPeriodView,
  deadline: z.object({
    date: z.string(),
    daysRemaining: z.number(),
    state: z.enum(['overdue', 'urgent', 'pending']),
  }),
  counters: z.object({
    totalSubcontractors: z.number(),
    pendingGeneration: z.number(),
    generated: z.number(),
    issued: z.number(),
    changedSinceIssue: z.number(),
  }),
  subcontractors: z.array(statementGroup),
});

export const statementResponse = z.object({ statement: statementSchema });

/** By email, whether it was delivered, and a warning when it will be retried; neither by portal or print. */
export const issuedResponse = z.object({
  statement: statementSchema,
  emailSent: z.boolean().optional(),
  warning: z.string().optional(),
});

export const queuedJobResponse = z.object({ job: queuedJob });
