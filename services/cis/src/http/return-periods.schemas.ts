import { z } from 'zod';
import { PERIOD_MARK_REASONS, PERIOD_STATUSES, RETURN_MESSAGES, RETURN_STATUSES } from '../domain/index.js';
import { taxMonthLabelOf, taxMonthPeriodView } from './common.schemas.js';
import { returnTotals } from './returns.schemas.js';

export const periodParams = z.object({
  taxMonth: z.string().trim().pipe(taxMonthLabelOf(RETURN_MESSAGES.taxMonthRequired)),
});

export const periodMarkBody = z.object({
  reason: z.enum(PERIOD_MARK_REASONS, 'Choose why this month needs no return here'),
  note: z.string().max(500, 'A note is at most 500 characters').default(''),
});

const penaltyStage = z.object({ from: z.string(), amountP: z.number(), reason: z.string() });

export const periodMarkView = z.object({
  reason: z.enum(PERIOD_MARK_REASONS),
  note: z.string(),
  /** The user who marked the month. */
  markedBy: z.string(),
  markedAt: z.string(),
});

/** One tax month of the period list: where its return stands, its deadline and the penalty as at today. */
export const returnPeriodView = z.object({
  label: z.string(),
  status: z.enum(PERIOD_STATUSES),
  statusText: z.string(),
  /** No payments in the month: its return, if one is needed, is a nil return. */
  nil: z.boolean(),
  endDate: z.string(),
  filingDeadline: z.string(),
  /** The first day the return can be submitted. */
  submittableFrom: z.string(),
  penalty: z.object({
    totalP: z.number(),
    charged: z.array(penaltyStage),
    next: penaltyStage.nullable(),
  }),
  period: taxMonthPeriodView,
  paidInvoices: z.number(),
  cisDeductedP: z.number(),
  /** The day the month's return was first submitted here. */
  filedOn: z.string().nullable(),
  /** The month's latest return record, if compiled. */
  return: z
    .object({
      id: z.string(),
      status: z.enum(RETURN_STATUSES),
      displayStatus: z.string(),
      submittedAt: z.string().nullable(),
      totals: returnTotals,
      /** Records of the month (an amendment adds one). */
      records: z.number(),
    })
    .nullable(),
  mark: periodMarkView.nullable(),
});

export const returnPeriodsResponse = z.object({
  /** The business date the list was worked out for. */
  today: z.string(),
  currentTaxMonth: z.string(),
  /** The month the Returns page opens on: the month just ended until it is filed, else the month in progress. */
  dueTaxMonth: z.string(),
  /** The day the module was first switched on (null: never). */
  activeSince: z.string().nullable(),
  /** Every month since, newest first. */
  periods: z.array(returnPeriodView),
});

export const periodMarkResponse = z.object({ mark: periodMarkView });
