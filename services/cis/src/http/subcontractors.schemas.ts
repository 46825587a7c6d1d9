import { z } from 'zod';
import { SUBCONTRACTOR_PAGE_MAX, SUBCONTRACTOR_TYPES, VERIFICATION_STATUSES } from '../domain/index.js';
import { cisRate } from './common.schemas.js';

const address = z.object({
  line1: z.string().max(200).default(''),
  line2: z.string().max(200).default(''),
  city: z.string().max(100).default(''),
  county: z.string().max(100).default(''),
  postcode: z.string().max(20).default(''),
  country: z.enum(['GB', 'NI']).default('GB'),
});

const emptyAddress = { line1: '', line2: '', city: '', county: '', postcode: '', country: 'GB' } as const;

export const verificationInput = z.object({
  status: z.string().max(20),
  rate: z.number().int().optional(),
  method: z.enum(['online', 'phone', 'letter', 'auto']).default('online'),
  reference: z.string().max(20).default(''),
  notes: z.string().max(1000).default(''),
  verifiedDate: z.iso.date().nullable().optional(),
});

/**
 * The verification a create or edit carries: the method stays blank until one is recorded (issue 13: a new
 * subcontractor is not shown as verified 'Online' because the form left the method empty).
 */
const formVerificationInput = verificationInput.extend({
  method: z.enum(['online', 'phone', 'letter', 'auto', '']).default(''),
});

/** A verification for many subcontractors at once (cis.md section 7: update verification is a batch write). */
export const bulkVerificationInput = z.object({
  ids: z.array(z.uuid()).min(1).max(1_000),
  verification: verificationInput,
});

export const subcontractorInput = z.object({
  type: z.string().max(20),
  name: z.string().max(200),
  utr: z.string().max(20).optional(),
  nino: z.string().max(20).optional(),
  companyNumber: z.string().max(20).default(''),
  vatNumber: z.string().max(20).default(''),
  email: z.string().max(200).default(''),
  phone: z.string().max(30).default(''),
  mobile: z.string().max(30).default(''),
  registeredAddress: address.default(emptyAddress),
  tradingAddress: address.default(emptyAddress),
  tradingAddressSameAsRegistered: z.boolean().default(true),
  gdprConsent: z.boolean().default(false),
  marketingConsent: z.boolean().default(false),
  portalAccess: z.boolean().default(false),
  active: z.boolean().default(true),
  verification: formVerificationInput.optional(),
});

export const subcontractorListQuery = z.object({
  search: z.string().max(100).optional(),
  status: z.enum(['all', 'active', 'archived']).default('all'),
  type: z.enum(['all', 'individual', 'company', 'partnership']).default('all'),
});

/** The list's filters and its page (security review L9; by default the first 1,000, every one for a real contractor). */
export const subcontractorPageQuery = subcontractorListQuery.extend({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(SUBCONTRACTOR_PAGE_MAX).default(SUBCONTRACTOR_PAGE_MAX),
});

export const unmaskQuery = z.object({ unmask: z.enum(['true', 'false']).default('false') });

export const inviteInput = z.union([
  z.object({ subcontractorId: z.uuid() }),
  z.object({
    name: z.string().max(200).default(''),
    email: z.string().max(200).default(''),
    type: z.enum(['individual', 'company', 'partnership']).default('individual'),
    utr: z.string().max(10).default(''),
    nino: z.string().max(20).default(''),
    companyNumber: z.string().max(20).default(''),
  }),
]);

export const addressView = z.object({
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  county: z.string(),
  postcode: z.string(),
  country: z.enum(['GB', 'NI']),
});

export const subcontractorType = z.enum(SUBCONTRACTOR_TYPES);

export const verificationStatus = z.enum(VERIFICATION_STATUSES);

export const verificationView = z.object({
  status: verificationStatus,
  rate: cisRate,
  method: z.string(),
  reference: z.string(),
  notes: z.string(),
  verifiedDate: z.string().nullable(),
  verifiedBy: z.string().nullable(),
});

export const subcontractorSchema = z.object({
  id: z.string(),
  type: subcontractorType,
  name: z.string(),
  utrMasked: z.string(),
  ninoMasked: z.string(),
  /** In clear only with cis.pii.unmask and unmask=true. */
  utr: z.string().optional(),
  nino: z.string().optional(),
  companyNumber: z.string(),
  vatNumber: z.string(),
  vatCheckedAt: z.string().nullable(),
  /** HMRC's modulus 97 / 9755 check of the VAT number (null without one): a warning, never a refusal. */
  vatNumberChecksumValid: z.boolean().nullable(),
  email: z.string(),
  phone: z.string(),
  mobile: z.string(),
  registeredAddress: addressView,
  tradingAddress: addressView,
  tradingAddressSameAsRegistered: z.boolean(),
  gdprConsent: z.boolean(),
  gdprConsentDate: z.string().nullable(),
  marketingConsent: z.boolean(),
  portalAccess: z.boolean(),
  active: z.boolean(),
  archived: z.boolean(),
  verification: verificationView,
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string(),
  updatedBy: z.string(),
  /** Made by Invite to Portal and still without its address or GDPR consent ('Details incomplete'). */
  detailsIncomplete: z.boolean(),
  /** What it still lacks, while detailsIncomplete. */
  missingDetails: z.array(z.enum(['address', 'gdprConsent'])),
  /** A duplicate merged into another record: that record's id, and the note it was archived with. */
  mergedInto: z.string().nullable(),
  archiveNote: z.string(),
});

/** Field → warning: values saved but failing HMRC's checks (UTR or VAT check digit, NINO, company number). */
export const fieldWarnings = z.record(z.string(), z.string());

export const subcontractorResponse = z.object({
  subcontractor: subcontractorSchema,
  /**
   * On reading one: its latest portal invitation email could not be delivered after its retries (a dead letter,
   * ADR 0052), and no later invitation was; share a new link by hand or invite again.
   */
  invitationEmailFailure: z.object({ failedAt: z.string(), reason: z.string() }).nullable().optional(),
  /** On create and edit (issue 13): what HMRC would reject, beside the fields; the save went ahead. */
  warnings: fieldWarnings.optional(),
});

export const subcontractorListResponse = z.object({
  items: z.array(subcontractorSchema),
  /** How many the filters match; `items` holds the page. */
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  stats: z.object({
    total: z.number(),
    active: z.number(),
    gross: z.number(),
    standard: z.number(),
  }),
});

export const inviteResponse = z.object({
  success: z.boolean(),
  subcontractorId: z.string(),
  magicLink: z.string(),
  expiresIn: z.string(),
  tenantName: z.string(),
  emailSent: z.boolean(),
  warning: z.string().optional(),
});

/** Live subcontractors sharing a UTR, NINO or company number (ADR 0039), each set once, the oldest record first. */
export const duplicateGroupsResponse = z.object({
  groups: z.array(
    z.object({
      identifier: z.enum(['utr', 'nino', 'crn']),
      /** The identifier as a user reads it ('UTR', 'National Insurance number', 'company number'). */
      label: z.string(),
      subcontractors: z.array(subcontractorSchema),
    }),
  ),
});

/** Merge a duplicate into the record kept: its invoices, statements and portal access move; it is archived. */
export const mergeInput = z.object({ keepId: z.uuid(), mergeId: z.uuid() });

export const mergeResponse = z.object({
  subcontractor: subcontractorSchema,
  mergedId: z.string(),
  invoicesMoved: z.number(),
  statementsMoved: z.number(),
});
