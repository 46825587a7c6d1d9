import type { InvoiceRecord } from '../db/invoices.store.js';
import { invoiceActions, invoiceStatusLabel, normaliseInvoiceStatus } from '../domain/index.js';
import { dateOnly, iso } from '../domain/timestamps.js';

export function presentInvoice(row: InvoiceRecord) {
  return {
    id: row.id,
    invoiceNumber: row.invoiceNumber,
    subcontractorId: row.subcontractorId,
    subcontractorName: row.subcontractorName,
    status: normaliseInvoiceStatus(row.status),
    statusLabel: invoiceStatusLabel(row.status),
    source: row.source,
    invoiceDate: dateOnly(row.invoiceDate),
    receivedDate: dateOnly(row.receivedDate),
    paymentDate: dateOnly(row.paymentDate),
    taxMonth: row.taxMonth,
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
      required: row.statementRequired,
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
    paidAt: iso(row.paidAt),
    paidBy: row.paidBy,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    actions: invoiceActions(row.status),
  };
}

export const presentSaved = (saved: { invoice: InvoiceRecord; warnings: string[] }) => ({
  invoice: presentInvoice(saved.invoice),
  warnings: saved.warnings,
});
