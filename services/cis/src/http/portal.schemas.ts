import { z } from 'zod';
import { REJECTION_REASON_MAX } from '../domain/index.js';
import { invoiceInput, invoiceSchema } from './invoices.schemas.js';
import { statementSchema } from './statements.schemas.js';
import { subcontractorTaxYearResponse, taxYearQuery } from './subcontractor-year.schemas.js';
import { addressView, subcontractorSchema } from './subcontractors.schemas.js';

export const portalInvoiceInput = invoiceInput.omit({ subcontractorId: true });

/** What the portal shows of an invoice: no one else's data, no staff fields. */
export const portalInvoice = invoiceSchema
  .pick({
    id: true,
    invoiceNumber: true,
    invoiceDate: true,
    paymentDate: true,
    taxMonth: true,
    status: true,
    statusLabel: true,
    amounts: true,
    cisRate: true,
  })
  .extend({
    /** Why the contractor rejected it (status rejected); null otherwise. */
    rejectionReason: z.string().nullable(),
  });

export const portalRecordsResponse = z.object({
  subcontractor: subcontractorSchema.pick({ id: true, name: true, type: true, utrMasked: true }).extend({
    verification: subcontractorSchema.shape.verification.pick({ status: true, rate: true }),
  }),
  invoices: z.array(portalInvoice),
  /** Issued statements only. */
  statements: z.array(statementSchema),
});

export const portalInvoiceResponse = z.object({
  invoice: invoiceSchema.pick({
    id: true,
    invoiceNumber: true,
    status: true,
    statusLabel: true,
    amounts: true,
  }),
  warnings: z.array(z.string()),
});

/** Staff reject a portal invoice: the reason is required (checked by the command, with its own message). */
export const rejectInvoiceBody = z.object({
  reason: z
    .string()
    .max(REJECTION_REASON_MAX * 4)
    .optional(),
});

export const rejectInvoiceResponse = z.object({
  invoice: invoiceSchema,
  /** The subcontractor's e-mail was handed to the notification service (false: no address, or not reachable). */
  emailSent: z.boolean(),
});

/** The portal's dashboard: this tax month's payments, invoices awaiting approval, the latest statement. */
export const portalDashboardResponse = z.object({
  /** The current tax month, 'YYYY-MM' (its month ending the 5th of the next). */
  taxMonth: z.string(),
  /** Paid invoices of the current tax month (by payment date), in pence; net is gross less the deduction. */
  paid: z.object({
    grossP: z.number(),
    cisDeductionP: z.number(),
    netP: z.number(),
    invoices: z.number(),
  }),
  /** Submitted through the portal and waiting for the contractor (Portal Pending). */
  awaitingApproval: z.array(portalInvoice),
  /** The newest statement issued to them, if any. */
  latestStatement: statementSchema.nullable(),
});

/** One of their invoices. */
export const portalInvoiceDetailResponse = z.object({ invoice: portalInvoice });

/** Their own record as the portal shows it: UTR and NINO masked, verification status and rate, contact details. */
export const portalProfile = subcontractorSchema
  .pick({
    id: true,
    type: true,
    name: true,
    utrMasked: true,
    ninoMasked: true,
    companyNumber: true,
    vatNumber: true,
    email: true,
    phone: true,
    mobile: true,
    registeredAddress: true,
    tradingAddress: true,
    tradingAddressSameAsRegistered: true,
    detailsIncomplete: true,
  })
  .extend({
    verification: subcontractorSchema.shape.verification.pick({
      status: true,
      rate: true,
      verifiedDate: true,
    }),
  });

export const portalProfileResponse = z.object({ subcontractor: portalProfile });

const addressInput = addressView.extend({
  line1: z.string().max(200),
  line2: z.string().max(200).default(''),
  city: z.string().max(100),
  county: z.string().max(100).default(''),
  postcode: z.string().max(20),
  country: z.enum(['GB', 'NI']).default('GB'),
});

/** What a subcontractor may change of their record: phone, mobile and addresses (every field, as the form sends them). */
export const portalProfileInput = z.object({
  phone: z.string().max(30).default(''),
  mobile: z.string().max(30).default(''),
  registeredAddress: addressInput,
  tradingAddress: addressInput.default({
    line1: '',
    line2: '',
    city: '',
    county: '',
    postcode: '',
    country: 'GB',
  }),
  tradingAddressSameAsRegistered: z.boolean().default(true),
});

export const portalTaxYearQuery = taxYearQuery;

/** A tax year of their payments and deductions, with every statement issued to them for its months. */
export const portalTaxYearResponse = subcontractorTaxYearResponse.extend({
  statements: z.array(statementSchema),
});
