import { z } from 'zod';
import { CIS_RATES, TAX_MONTH_LABEL_PATTERN } from '../domain/index.js';

export const idParam = z.object({ id: z.uuid() });
export const idsBody = z.object({ ids: z.array(z.uuid()).min(1).max(5_000) });
/** A statement's key: 16 hex digits. */
export const statementIdParam = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/) });

/** A tax month label 'YYYY-MM' (the domain's rule), refused with `message`. */
export const taxMonthLabelOf = (message: string) => z.string().regex(TAX_MONTH_LABEL_PATTERN, message);

export const taxMonthLabel = taxMonthLabelOf('Tax month must be YYYY-MM');

export const batchResult = z.object({
  succeeded: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), error: z.string() })),
});

/** A CIS deduction rate in percent: 0 (gross), 20 (standard) or 30 (higher). */
export const cisRate = z.literal(CIS_RATES);

export const taxMonthDeadlines = z.object({
  statements: z.string(),
  filing: z.string(),
  payment: z.string(),
});

/** A tax month (the domain's taxMonthPeriod): its labels, dates, tax year and deadlines. */
export const taxMonthPeriodView = z.object({
  label: z.string(),
  displayLabel: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  periodEnd: z.string(),
  taxYear: z.string(),
  taxYearStart: z.number(),
  taxMonthNumber: z.number(),
  deadlines: taxMonthDeadlines,
});
