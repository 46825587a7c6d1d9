// cis's API contract for other packages, the web above all (ADR 0028): the request and response schemas, and the
// types of the views as the browser reads them. Browser-safe: the schemas import only zod, cis's domain/ and each
// other. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
import type { batchResult, taxMonthDeadlines, taxMonthPeriodView } from './common.schemas.js';
import type {
  activityEntry,
  analyticsResponse,
  dashboardResponse,
  deadlineAlert,
} from './dashboard.schemas.js';
import type {
  importResponse,
  invoiceAmounts,
  invoiceInput,
  invoiceListQuery,
  invoiceListResponse,
  invoiceSchema,
  payBody,
  paymentDateBody,
  savedInvoiceResponse,
} from './invoices.schemas.js';
import type { jobView, queuedJob } from './jobs.schemas.js';
import type {
  portalDashboardResponse,
  portalInvoiceDetailResponse,
  portalInvoiceResponse,
  portalProfileInput,
  portalProfileResponse,
  portalRecordsResponse,
  portalTaxYearResponse,
  rejectInvoiceBody,
  rejectInvoiceResponse,
} from './portal.schemas.js';
import type { periodMarkBody, returnPeriodsResponse, returnPeriodView } from './return-periods.schemas.js';
import type {
  currentReturnResponse,
  returnChangesResponse,
  returnHistoryResponse,
  returnLine,
  returnSchema,
  returnWithValidationResponse,
  submitReturnBody,
  validationResponse,
} from './returns.schemas.js';
import type {
  abilitiesResponse,
  bundleScopesBody,
  roleBundle,
  rolePermissionsResponse,
  settingsInput,
  settingsResponse,
  settingsView,
} from './settings.schemas.js';
import type {
  generateAllBody,
  generateBody,
  issueBody,
  issuedResponse,
  mailFailure,
  mailFailureResponse,
  statementFilter,
  statementGroup,
  statementMonthResponse,
  statementSchema,
} from './statements.schemas.js';
import type {
  addressView,
  duplicateGroupsResponse,
  inviteInput,
  inviteResponse,
  mergeInput,
  mergeResponse,
  subcontractorInput,
  subcontractorListQuery,
  subcontractorListResponse,
  subcontractorSchema,
  subcontractorType,
  verificationStatus,
  verificationView,
} from './subcontractors.schemas.js';
import type { subcontractorTaxYearResponse } from './subcontractor-year.schemas.js';

export * from './common.schemas.js';
export * from './dashboard.schemas.js';
export * from './invoices.schemas.js';
export * from './jobs.schemas.js';
export * from './portal.schemas.js';
export * from './returns.schemas.js';
export * from './settings.schemas.js';
export * from './statements.schemas.js';
export * from './subcontractors.schemas.js';
export * from './subcontractor-year.schemas.js';

/** Per-id outcome of a bulk action (approve, pay, delete, archive, verify). */
export type BatchResult = z.output<typeof batchResult>;
export type TaxMonthPeriod = z.output<typeof taxMonthPeriodView>;
export type Deadlines = z.output<typeof taxMonthDeadlines>;

/** GET /v1/me/abilities. */
export type AbilitiesResponse = z.output<typeof abilitiesResponse>;
export type Abilities = AbilitiesResponse['abilities'];
/** GET and PUT /v1/settings. */
export type SettingsResponse = z.output<typeof settingsResponse>;
export type CisSettings = z.output<typeof settingsView>;
/** PUT /v1/settings's body. */
export type SettingsInput = z.input<typeof settingsInput>;
/** GET and PUT /v1/role-permissions. */
export type RolePermissions = z.output<typeof rolePermissionsResponse>;
export type RoleBundle = z.output<typeof roleBundle>;
/** PUT /v1/role-permissions/:bundleId's body. */
export type BundleScopesInput = z.input<typeof bundleScopesBody>;

/** GET /v1/subcontractors/:id (and every write's answer). */
export type Subcontractor = z.output<typeof subcontractorSchema>;
export type SubcontractorList = z.output<typeof subcontractorListResponse>;
export type SubcontractorType = z.output<typeof subcontractorType>;
export type VerificationStatus = z.output<typeof verificationStatus>;
export type VerificationMethod = NonNullable<SubcontractorInput['verification']>['method'];
export type Verification = z.output<typeof verificationView>;
export type Address = z.output<typeof addressView>;
/** POST and PUT /v1/subcontractors' body. */
export type SubcontractorInput = z.input<typeof subcontractorInput>;
/** GET /v1/subcontractors' query with every filter set (as the service reads it). */
export type SubcontractorListQuery = z.output<typeof subcontractorListQuery>;
/** POST /v1/subcontractors/invite. */
export type InviteInput = z.input<typeof inviteInput>;
export type InviteResult = z.output<typeof inviteResponse>;
/** GET /subcontractors/duplicates and POST /subcontractors/merge (one subcontractor per person, ADR 0039). */
export type DuplicateGroups = z.output<typeof duplicateGroupsResponse>;
export type MergeInput = z.input<typeof mergeInput>;
export type MergeResult = z.output<typeof mergeResponse>;

/** GET /v1/invoices/:id (and each transition's answer). */
export type Invoice = z.output<typeof invoiceSchema>;
export type InvoiceStatus = Invoice['status'];
export type InvoiceAmounts = z.output<typeof invoiceAmounts>;
export type InvoiceList = z.output<typeof invoiceListResponse>;
/** POST and PUT /v1/invoices. */
export type InvoiceSaved = z.output<typeof savedInvoiceResponse>;
export type InvoiceInput = z.input<typeof invoiceInput>;
/** GET /v1/invoices' query with every filter and the page set (as the service reads it). */
export type InvoiceListQuery = z.output<typeof invoiceListQuery>;
/** POST /v1/invoices/:id/pay's body (and the bulk pay's, with the ids). */
export type PaymentInput = z.input<typeof payBody>;
export type PaymentDateCorrection = z.input<typeof paymentDateBody>;
export type ImportResult = z.output<typeof importResponse>;

/** GET /v1/statements. */
export type StatementsResponse = z.output<typeof statementMonthResponse>;
export type StatementGroup = z.output<typeof statementGroup>;
export type Statement = z.output<typeof statementSchema>;
export type StatementFilter = z.output<typeof statementFilter>;
/** POST /v1/statements/generate's body. */
export type GenerateStatementInput = z.input<typeof generateBody>;
/** POST /v1/statements/generate-all's body. */
export type GenerateAllInput = z.input<typeof generateAllBody>;
/** POST /v1/statements/:id/issue. */
export type IssueInput = z.input<typeof issueBody>;
export type IssueResult = z.output<typeof issuedResponse>;
/** An issued statement's email that was not delivered, and what became of its resend. */
export type MailFailure = z.output<typeof mailFailure>;
/** POST /v1/statements/:id/email/resend. */
export type MailFailureResponse = z.output<typeof mailFailureResponse>;
/** GET /v1/jobs/:id. */
export type Job = z.output<typeof jobView>;
/** POST /v1/statements/generate-all: the job as queued. */
export type QueuedJob = z.output<typeof queuedJob>;

/** GET /v1/returns/current. */
export type CurrentReturn = z.output<typeof currentReturnResponse>;
export type CisReturn = z.output<typeof returnSchema>;
export type ReturnLine = z.output<typeof returnLine>;
export type Validation = z.output<typeof validationResponse>;
/** GET /v1/returns/:taxMonth and POST /v1/returns/:taxMonth/compile. */
export type ReturnWithValidation = z.output<typeof returnWithValidationResponse>;
/** POST /v1/returns/:id/submit: the declarations ticked. */
export type SubmitReturnInput = z.input<typeof submitReturnBody>;
/** GET /v1/returns/:taxMonth/changes. */
export type ReturnChanges = z.output<typeof returnChangesResponse>;

/** GET /v1/returns/periods: every tax month since the module was switched on (ADR 0035). */
export type ReturnPeriods = z.output<typeof returnPeriodsResponse>;
export type ReturnPeriod = z.output<typeof returnPeriodView>;
/** PUT /v1/returns/periods/:taxMonth/mark. */
export type PeriodMarkInput = z.input<typeof periodMarkBody>;
/** GET /v1/returns: a page of the history. */
export type ReturnHistory = z.output<typeof returnHistoryResponse>;

/** GET /v1/dashboard. */
export type Dashboard = z.output<typeof dashboardResponse>;
export type DashboardAlert = z.output<typeof deadlineAlert>;
export type ActivityEntry = z.output<typeof activityEntry>;
/** GET /v1/analytics. */
export type Analytics = z.output<typeof analyticsResponse>;

/** GET /v1/portal/me: the portal session's own records. */
export type PortalRecords = z.output<typeof portalRecordsResponse>;
/** POST /v1/portal/invoices. */
export type PortalSubmission = z.output<typeof portalInvoiceResponse>;
/** The portal's pages (docs/portal.md). */
export type PortalDashboard = z.output<typeof portalDashboardResponse>;
export type PortalInvoiceDetail = z.output<typeof portalInvoiceDetailResponse>;
export type PortalProfile = z.output<typeof portalProfileResponse>['subcontractor'];
export type PortalProfileInput = z.input<typeof portalProfileInput>;
export type PortalTaxYear = z.output<typeof portalTaxYearResponse>;
/** POST /v1/invoices/:id/reject (staff). */
export type RejectInvoiceInput = z.input<typeof rejectInvoiceBody>;
export type RejectInvoiceResult = z.output<typeof rejectInvoiceResponse>;

/** GET /v1/subcontractors/:id/tax-year. */
export type SubcontractorTaxYear = z.output<typeof subcontractorTaxYearResponse>;
