import type { z } from 'zod';
import type { InvoiceRecord, InvoiceSummary } from '../db/invoices.store.js';
import { invoiceActions, invoiceStatusLabel, normaliseInvoiceStatus } from '../domain/index.js';
import { dateOnly, iso } from '../domain/timestamps.js';
import { calendarDate, timestamp } from './http-helpers.js';
import type { invoiceListResponse, invoiceSchema, savedInvoiceResponse } from './invoices.schemas.js';

export function presentInvoice(row: InvoiceRecord): z.input<typeof invoiceSchema> {
  // A cancelled invoice is never shown paid nor waiting for a statement (issue 13): what it was stays in the audit.
  const cancelled = normaliseInvoiceStatus(row.status) === 'cancelled';
  return {
    id: row.id,
    invoiceNumber: row.invoiceNumber,
    subcontractorId: row.subcontractorId,
    subcontractorName: row.subcontractorName,
    status: normaliseInvoiceStatus(row.status),
    statusLabel: invoiceStatusLabel(row.status),
    source: row.source,
    invoiceDate: calendarDate(row.invoiceDate),
    receivedDate: dateOnly(row.receivedDate),
    paymentDate: cancelled ? null : dateOnly(row.paymentDate),
    taxMonth: cancelled ? null : row.taxMonth,
    description: row.description,
    vatRate: row.vatRate,
    reverseCharge: row.reverseCharge,
    materialsJustification: row.materialsJustification,
    amounts: {
      grossP: row.grossP,
      materialsP: row.materialsP,
      materialsPercentage: Number(row.materialsPercentage),
      labourP: row.labourP,
      cisDeductionP: row.cisDeductionP,
      vatBaseP: row.vatBaseP,
      vatAmountP: row.vatAmountP,
      grossTotalP: row.grossTotalP,
      netPaymentP: row.netPaymentP,
    },
    cisRate: row.cisRate,
    verificationSnapshot: { rate: row.cisRate, reference: row.verificationReference },
    statement: {
      required: row.statementRequired && !cancelled,
      requestedAt: iso(row.statementRequestedAt),
      requestedBy: row.statementRequestedBy,
      issuedAt: iso(row.statementIssuedAt),
      issuedMethod: row.statementIssuedMethod,
      statementId: row.statementId,
    },
    piiMasked: { utrMasked: row.utrMasked, ninoMasked: row.ninoMasked },
    approvedAt: iso(row.approvedAt),
    approvedBy: row.approvedBy,
    lockedAt: iso(row.lockedAt),
    paidAt: cancelled ? null : iso(row.paidAt),
    paidBy: cancelled ? null : row.paidBy,
    rejection:
      row.rejectionReason === null
        ? null
        : { reason: row.rejectionReason, rejectedAt: iso(row.rejectedAt), rejectedBy: row.rejectedBy },
    createdAt: timestamp(row.createdAt),
    updatedAt: timestamp(row.updatedAt),
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    actions: invoiceActions(row.status),
  };
}

export const presentSaved = (saved: {
  invoice: InvoiceRecord;
  warnings: string[];
}): z.input<typeof savedInvoiceResponse> => ({
  invoice: presentInvoice(saved.invoice),
  warnings: saved.warnings,
});

/** A page of invoices with the summary cards. */
export const presentInvoicePage = (
  list: { rows: InvoiceRecord[]; total: number; totalCapped: boolean; summary: InvoiceSummary },
  page: { page: number; pageSize: number },
): z.input<typeof invoiceListResponse> => ({
  items: list.rows.map(presentInvoice),
  total: list.total,
  totalCapped: list.totalCapped,
  page: page.page,
  pageSize: page.pageSize,
  summary: list.summary,
});
