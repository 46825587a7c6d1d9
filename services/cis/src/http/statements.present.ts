import type { statementMonth } from '../commands/statements.js';
import type { StatementRecord } from '../db/statements.store.js';
import type { z } from 'zod';
import { iso } from '../domain/timestamps.js';
import { timestamp } from './http-helpers.js';
import { presentInvoice } from './invoices.present.js';
import type { issuedResponse, statementMonthResponse, statementSchema } from './statements.schemas.js';

export const presentStatement = (row: StatementRecord): z.input<typeof statementSchema> => ({
  id: row.id,
  subcontractorId: row.subcontractorId,
  subcontractorName: row.subcontractorName,
  taxMonth: row.taxMonth,
  invoiceIds: row.invoiceIds,
  invoiceCount: row.invoiceCount,
  totals: {
    grossP: row.grossP,
    materialsP: row.materialsP,
    labourP: row.labourP,
    cisDeductionP: row.cisDeductionP,
  },
  cisRate: row.cisRate,
  status: row.status,
  generatedAt: timestamp(row.generatedAt),
  generatedBy: row.generatedBy,
  issuedAt: iso(row.issuedAt),
  issuedMethod: row.issuedMethod,
  version: row.version,
  supersedes: row.supersedes,
  supersededBy: row.supersededBy,
  createdAt: timestamp(row.createdAt),
  updatedAt: timestamp(row.updatedAt),
});

type StatementMonth = Awaited<ReturnType<typeof statementMonth>>;

/** The statements screen of a tax month. */
export const presentStatementMonth = (month: StatementMonth): z.input<typeof statementMonthResponse> => ({
  period: month.period,
  deadline: month.deadline,
  counters: month.counters,
  subcontractors: month.subcontractors.map((group) => ({
    subcontractorId: group.subcontractorId,
    name: group.name,
    utrMasked: group.utrMasked,
    email: group.email,
    invoices: group.invoices.map(presentInvoice),
    totals: group.totals,
    statement: group.statement ? presentStatement(group.statement) : null,
    state: group.state,
    changedSinceIssue: group.changedSinceIssue,
    emailFailure: group.emailFailure,
  })),
});

/** The warnings of an issue by email that was not delivered: retried, or failed for good (to resend). */
export const ISSUE_EMAIL_WARNINGS = {
  retrying: 'The email could not be delivered yet; it will be retried automatically.',
  failed:
    'The email could not be delivered. Correct the address if needed, then use Resend on the statements screen.',
} as const;

/**
 * An issued statement; by email, whether it was delivered (a warning when it will be retried, another when it failed
 * for good: the mail server refused it, or it is the dead letter of an earlier issue, which Resend sends again).
 */
export const presentIssued = (issued: {
  statement: StatementRecord;
  mail: { delivered: boolean; status?: string } | null;
}): z.input<typeof issuedResponse> => ({
  statement: presentStatement(issued.statement),
  ...(issued.mail ? { emailSent: issued.mail.delivered } : {}),
  ...(issued.mail && !issued.mail.delivered
    ? {
        warning:
          issued.mail.status === 'failed' ? ISSUE_EMAIL_WARNINGS.failed : ISSUE_EMAIL_WARNINGS.retrying,
      }
    : {}),
});
