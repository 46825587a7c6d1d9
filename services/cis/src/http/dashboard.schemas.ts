import { z } from 'zod';
import { taxMonthPeriodView } from './common.schemas.js';

export const analyticsQuery = z.object({ months: z.coerce.number().int().min(1).max(36).default(12) });

export const activityQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) });

export const activityEntry = z.object({
  id: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  summary: z.string(),
  details: z.record(z.string(), z.string()),
  performedBy: z.string(),
  /**
   * The performer's name when they are another user the reader may see (issue 13), or the subcontractor acting in the
   * portal (issue 15); null for the reader, the system, and a deleted subcontractor.
   */
  performedByName: z.string().nullable().default(null),
  /**
   * Who did it, as the reader reads it: 'by you', 'by the system', 'by <name>', 'by another user',
   * 'by <subcontractor> (portal)' or 'by a subcontractor (portal)' (docs/portal.md).
   */
  performedByLabel: z.string(),
  performedAt: z.string(),
});

export const deadlineAlert = z.object({
  kind: z.enum(['statements', 'filing', 'payment']),
  /** The tax month the deadline belongs to. */
  label: z.string(),
  date: z.string(),
  daysRemaining: z.number(),
  severity: z.enum(['high', 'critical']),
  message: z.string(),
});

export const dashboardResponse = z.object({
  setupRequired: z.boolean(),
  period: taxMonthPeriodView,
  previousPeriod: taxMonthPeriodView,
  warningDays: z.number(),
  alerts: z.array(deadlineAlert),
  tiles: z.object({
    activeSubcontractors: z.number(),
    draftInvoices: z.number(),
    /** Invoices submitted through the portal, waiting for approval or rejection. */
    portalPending: z.number(),
    pendingStatements: z.number(),
    currentMonthCisP: z.number(),
  }),
  recentActivity: z.array(activityEntry),
});

const paidTotals = z.object({
  grossP: z.number(),
  materialsP: z.number(),
  cisDeductionP: z.number(),
  invoices: z.number(),
});

export const analyticsResponse = z.object({
  byMonth: z.array(paidTotals.extend({ taxMonth: z.string(), displayLabel: z.string() })),
  bySubcontractor: z.array(paidTotals.extend({ subcontractorId: z.string(), name: z.string() })),
});

export const activityResponse = z.object({ items: z.array(activityEntry) });
