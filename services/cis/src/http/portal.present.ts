import type { z } from 'zod';
import type { InvoiceRecord } from '../db/invoices.store.js';
import type { StatementRecord } from '../db/statements.store.js';
import type { SubcontractorRecord } from '../db/subcontractors.store.js';
import { presentInvoice } from './invoices.present.js';
import type {
  portalDashboardResponse,
  portalInvoice,
  portalProfile,
  portalInvoiceResponse,
  portalRecordsResponse,
  rejectInvoiceResponse,
} from './portal.schemas.js';
import { presentStatement } from './statements.present.js';

/** What the portal shows of an invoice: no one else's data, no staff fields. */
export function presentPortalInvoice(row: InvoiceRecord): z.input<typeof portalInvoice> {
  const view = presentInvoice(row);
  return {
    id: view.id,
    invoiceNumber: view.invoiceNumber,
    invoiceDate: view.invoiceDate,
    paymentDate: view.paymentDate,
    taxMonth: view.taxMonth,
    status: view.status,
    statusLabel: view.statusLabel,
    amounts: view.amounts,
    cisRate: view.cisRate,
    rejectionReason: view.rejection?.reason ?? null,
  };
}

export const presentPortalRecords = (records: {
  subcontractor: SubcontractorRecord;
  invoices: InvoiceRecord[];
  statements: StatementRecord[];
}): z.input<typeof portalRecordsResponse> => ({
  subcontractor: {
    id: records.subcontractor.id,
    name: records.subcontractor.name,
    type: records.subcontractor.type,
    utrMasked: records.subcontractor.utrMasked,
    verification: {
      status: records.subcontractor.verificationStatus,
      rate: records.subcontractor.verificationRate,
    },
  },
  invoices: records.invoices.map(presentPortalInvoice),
  statements: records.statements.map(presentStatement),
});

/** A submitted invoice as the portal confirms it. */
export const presentPortalSubmission = (saved: {
  invoice: InvoiceRecord;
  warnings: string[];
}): z.input<typeof portalInvoiceResponse> => {
  const view = presentInvoice(saved.invoice);
  return {
    invoice: {
      id: view.id,
      invoiceNumber: view.invoiceNumber,
      status: view.status,
      statusLabel: view.statusLabel,
      amounts: view.amounts,
    },
    warnings: saved.warnings,
  };
};

/** A rejection as staff see it answered. */
export const presentRejection = (outcome: {
  invoice: InvoiceRecord;
  emailSent: boolean;
}): z.input<typeof rejectInvoiceResponse> => ({
  invoice: presentInvoice(outcome.invoice),
  emailSent: outcome.emailSent,
});

export const presentPortalDashboard = (dashboard: {
  taxMonth: string;
  paid: { grossP: number; cisDeductionP: number; netP: number; invoices: number };
  awaitingApproval: InvoiceRecord[];
  latestStatement: StatementRecord | null;
}): z.input<typeof portalDashboardResponse> => ({
  taxMonth: dashboard.taxMonth,
  paid: dashboard.paid,
  awaitingApproval: dashboard.awaitingApproval.map(presentPortalInvoice),
  latestStatement: dashboard.latestStatement ? presentStatement(dashboard.latestStatement) : null,
});

/** Their own record: identifiers masked only, no staff fields (notes, who verified, consents, archive). */
export const presentPortalProfile = (row: SubcontractorRecord): z.input<typeof portalProfile> => ({
  id: row.id,
  type: row.type,
  name: row.name,
  utrMasked: row.utrMasked,
  ninoMasked: row.ninoMasked,
  companyNumber: row.companyNumber,
  vatNumber: row.vatNumber,
  email: row.email,
  phone: row.phone,
  mobile: row.mobile,
  registeredAddress: row.registeredAddress,
  tradingAddress: row.tradingAddress,
  tradingAddressSameAsRegistered: row.tradingAddressSameAsRegistered,
  detailsIncomplete: row.detailsIncomplete,
  verification: {
    status: row.verificationStatus,
    rate: row.verificationRate,
    verifiedDate: row.verifiedDate,
  },
});
