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

/** An issued statement; by email, whether it was delivered (a warning when it will be retried). */
export const presentIssued = (issued: {
  statement: StatementRecord;
  mail: { delivered: boolean } | null;
}): z.input<typeof issuedResponse> => ({
  statement: presentStatement(issued.statement),
  ...(issued.mail ? { emailSent: issued.mail.delivered } : {}),
  ...(issued.mail && !issued.mail.delivered
    ? { warning: 'The email could not be delivered yet; it will be retried automatically.' }
    : {}),
});
