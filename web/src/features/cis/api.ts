// The CIS endpoints of the bff (`/api/cis/...`, docs/cis-api.md), injected into the app's RTK Query API. Tags make
// every mutation refresh the lists it changes.
import { api } from '../../app/api';

// The abilities response's flags: the CIS domain's ability table, the one the service answers from.
import type { CisAbilities } from '@workspace/cis/domain';

export type Abilities = CisAbilities;

export interface AbilitiesResponse {
  abilities: Abilities;
  testingTools: boolean;
}

export interface Deadlines {
  statements: string;
  filing: string;
  payment: string;
}

export interface TaxMonthPeriod {
  label: string;
  displayLabel: string;
  startDate: string;
  endDate: string;
  deadlines: Deadlines;
}

export interface CisSettings {
  active: boolean;
  companyName: string;
  employerRef: string;
  accountsOfficeRef: string;
  utrMasked: string | null;
  hasUtr: boolean;
  vatScheme: 'standard' | 'reduced' | 'zero' | 'flat';
  emailStatements: boolean;
  warningDays: number;
  statementDeadlineDays: number;
  emailFrom: string;
  emailReplyTo: string;
  statementFooter: string;
  createdAt?: string;
  updatedAt?: string;
}

export interface SettingsResponse {
  settings: CisSettings;
  readiness: string[];
}

export type SettingsInput = Omit<CisSettings, 'utrMasked' | 'hasUtr' | 'createdAt' | 'updatedAt'> & {
  utr?: string;
};

export interface RoleBundle {
  id: string;
  name: string;
  scopes: string[];
}

export interface RolePermissions {
  bundles: RoleBundle[];
  scopes: string[];
  errors: string[];
  warnings: string[];
}

export type SubcontractorType = 'individual' | 'company' | 'partnership';
export type VerificationStatus = 'gross' | 'standard' | 'higher';

export interface Address {
  line1: string;
  line2: string;
  city: string;
  county: string;
  postcode: string;
  country: 'GB' | 'NI';
}

export interface Verification {
  status: VerificationStatus;
  rate: 0 | 20 | 30;
  method: 'online' | 'phone' | 'letter' | 'auto' | '' | null;
  reference: string | null;
  notes: string | null;
  verifiedDate: string | null;
  verifiedBy?: string | null;
}

export interface Subcontractor {
  id: string;
  type: SubcontractorType;
  name: string;
  utrMasked: string | null;
  ninoMasked: string | null;
  utr?: string | null;
  nino?: string | null;
  companyNumber: string | null;
  vatNumber: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  registeredAddress: Address | null;
  tradingAddress: Address | null;
  tradingAddressSameAsRegistered: boolean;
  gdprConsent: boolean;
  gdprConsentDate: string | null;
  marketingConsent: boolean;
  portalAccess: boolean;
  active: boolean;
  archived: boolean;
  verification: Verification | null;
  createdAt: string;
  updatedAt: string;
  createdBy?: string | null;
  updatedBy?: string | null;
}

export interface SubcontractorInput {
  type: SubcontractorType;
  name: string;
  utr?: string;
  nino?: string;
  companyNumber?: string;
  vatNumber?: string;
  email?: string;
  phone?: string;
  mobile?: string;
  registeredAddress: Address;
  tradingAddress: Address;
  tradingAddressSameAsRegistered: boolean;
  gdprConsent: boolean;
  marketingConsent: boolean;
  portalAccess: boolean;
  active: boolean;
  verification: {
    status: VerificationStatus;
    rate: number;
    method?: string;
    reference?: string;
    notes?: string;
    verifiedDate?: string;
  };
}

export interface SubcontractorFilters {
  search: string;
  status: 'all' | 'active' | 'archived';
  type: 'all' | SubcontractorType;
}

export interface SubcontractorList {
  items: Subcontractor[];
  stats: { total: number; active: number; gross: number; standard: number };
}

export interface BatchResult {
  succeeded: string[];
  failed: { id: string; error: string }[];
}

export interface InviteInput {
  subcontractorId?: string;
  name?: string;
  email?: string;
  type?: SubcontractorType;
  utr?: string;
  nino?: string;
  companyNumber?: string;
}

export interface InviteResult {
  success: boolean;
  subcontractorId: string;
  magicLink: string;
  expiresIn: string;
  tenantName: string;
  emailSent: boolean;
  warning?: string;
}

export type InvoiceStatus = 'draft' | 'portal_draft' | 'approved' | 'paid' | 'cancelled';

export interface InvoiceAmounts {
  grossP: number;
  materialsP: number;
  materialsPercentage: number;
  labourP: number;
  cisDeductionP: number;
  vatBaseP: number;
  vatAmountP: number;
  grossTotalP: number;
  netPaymentP: number;
}

export interface Invoice {
  id: string;
  invoiceNumber: string;
  subcontractorId: string;
  subcontractorName: string;
  /** A missing or unknown status displays as draft. */
  status: string;
  statusLabel?: string;
  /** 'portal' or 'staff'. */
  source: string;
  invoiceDate: string;
  receivedDate: string | null;
  paymentDate: string | null;
  taxMonth: string | null;
  description: string | null;
  vatRate: number;
  reverseCharge: boolean;
  materialsJustification: string | null;
  amounts: InvoiceAmounts;
  cisRate: number | null;
  verificationSnapshot: { rate: number; reference: string | null } | null;
  statement: {
    required: boolean;
    requestedAt: string | null;
    requestedBy: string | null;
    issuedAt: string | null;
    issuedMethod: string | null;
    statementId?: string | null;
  } | null;
  piiMasked: { utrMasked: string | null; ninoMasked: string | null } | null;
  approvedAt: string | null;
  approvedBy: string | null;
  lockedAt: string | null;
  paidAt: string | null;
  paidBy: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy?: string | null;
  updatedBy?: string | null;
  actions?: string[];
}

export interface InvoiceInput {
  invoiceNumber: string;
  subcontractorId: string;
  invoiceDate: string;
  receivedDate?: string;
  description?: string;
  grossP: number;
  materialsP: number;
  vatRate: number;
  reverseCharge: boolean;
  materialsJustification?: string;
}

export type InvoicePeriod = 'all' | 'current' | 'previous' | 'quarter' | 'year';

export interface InvoiceFilters {
  search: string;
  status: 'all' | InvoiceStatus;
  period: InvoicePeriod;
  subcontractorId?: string;
  page: number;
  pageSize: number;
}

export interface InvoiceList {
  items: Invoice[];
  total: number;
  /** More than `total` invoices match (the service stops counting at its cap). */
  totalCapped?: boolean;
  page: number;
  pageSize: number;
  summary: {
    total: number;
    draft: number;
    approved: number;
    thisMonthCisP: number;
    pendingStatements: number;
  };
}

export interface InvoiceSaved {
  invoice: Invoice;
  warnings: string[];
}

export interface ImportResult {
  created: string[];
  failed: { index: number; errors: string[] }[];
}

export interface Statement {
  id: string;
  subcontractorId: string;
  subcontractorName: string;
  taxMonth: string;
  invoiceIds: string[];
  invoiceCount: number;
  totals: { grossP: number; materialsP: number; labourP: number; cisDeductionP: number };
  status: string;
  generatedAt: string | null;
  generatedBy: string | null;
  issuedAt: string | null;
  issuedMethod: 'email' | 'portal' | 'print' | null;
}

export type StatementFilter = 'all' | 'pending' | 'generated' | 'issued';

export interface StatementGroup {
  subcontractorId: string;
  name: string;
  utrMasked: string | null;
  email: string | null;
  invoices: Invoice[];
  totals: { grossP: number; materialsP: number; labourP?: number; cisDeductionP: number };
  statement: Statement | null;
}

export interface StatementsResponse {
  period: TaxMonthPeriod;
  deadline: { date: string; daysRemaining: number; state: 'overdue' | 'urgent' | 'pending' };
  counters: { totalSubcontractors: number; pendingGeneration: number; generated: number; issued: number };
  subcontractors: StatementGroup[];
}

export interface Job {
  id: string;
  type: string;
  status: string;
  progress: number;
  result?: {
    /** The statements generated; `errors` is the failed list. */
    succeeded?: string[];
    generated: number;
    failed: number;
    skipped: number;
    errors: { subcontractorId?: string; subcontractor: string; error: string }[];
  } | null;
  error?: string | null;
}

export interface IssueResult {
  statement: Statement;
  emailSent?: boolean;
  warning?: string;
}

export interface ReturnLine {
  subcontractorId: string;
  name: string;
  utrMasked: string | null;
  ninoMasked: string | null;
  verificationRef: string | null;
  grossP: number;
  materialsP: number;
  cisDeductedP: number;
  cisRate: number;
  invoiceCount: number;
  statementsIssued: boolean;
  lastStatementDate: string | null;
}

export interface CisReturn {
  id: string;
  status: string;
  displayStatus: string;
  locked: boolean;
  lockedAt: string | null;
  period: TaxMonthPeriod & { taxMonth?: string };
  deadlines: Deadlines;
  totals: {
    subcontractors: number;
    invoices: number;
    grossP: number;
    materialsP: number;
    cisDeductedP: number;
  };
  lines: ReturnLine[];
  submissionRef: string | null;
  submittedAt: string | null;
  submittedBy: string | null;
  amendmentOf: string | null;
  compiledBy: string | null;
  hasCis300: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Validation {
  valid: boolean;
  issues: string[];
}

export interface CurrentReturn {
  period: TaxMonthPeriod | null;
  return: CisReturn | null;
  displayStatus: string;
  validation: Validation | null;
}

export interface DashboardAlert {
  kind: string;
  date: string;
  daysRemaining: number;
  /** 'high' (statements) or 'critical' (filing, payment). */
  severity: string;
  message: string;
}

export interface ActivityEntry {
  id: string;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  summary?: string | null;
  performedBy?: string | null;
  performedAt: string;
}

export interface Dashboard {
  setupRequired: boolean;
  period: TaxMonthPeriod;
  alerts: DashboardAlert[];
  tiles: {
    activeSubcontractors: number;
    draftInvoices: number;
    pendingStatements: number;
    currentMonthCisP: number;
  };
  recentActivity: ActivityEntry[];
}

export interface AnalyticsRow {
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
  invoices: number;
}

export interface Analytics {
  byMonth: (AnalyticsRow & { taxMonth: string; displayLabel: string })[];
  bySubcontractor: (AnalyticsRow & { subcontractorId: string; name: string })[];
}

const cisTags = [
  'CisAbilities',
  'CisSettings',
  'CisRoles',
  'CisSubcontractor',
  'CisInvoice',
  'CisStatement',
  'CisReturn',
  'CisDashboard',
  'CisAnalytics',
] as const;

/** What a change to invoices makes stale. */
const afterInvoiceChange = [
  'CisInvoice',
  'CisStatement',
  'CisReturn',
  'CisDashboard',
  'CisAnalytics',
] as const;

const query = (params: Record<string, string | number | boolean | undefined>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

export const cisApi = api.enhanceEndpoints({ addTagTypes: cisTags }).injectEndpoints({
  endpoints: (build) => ({
    cisAbilities: build.query<AbilitiesResponse, undefined>({
      query: () => '/cis/me/abilities',
      providesTags: ['CisAbilities'],
    }),

    // Settings and role permissions
    cisSettings: build.query<SettingsResponse, undefined>({
      query: () => '/cis/settings',
      providesTags: ['CisSettings'],
    }),
    saveCisSettings: build.mutation<SettingsResponse, SettingsInput>({
      query: (body) => ({ url: '/cis/settings', method: 'PUT', body }),
      invalidatesTags: ['CisSettings', 'CisDashboard'],
    }),
    cisRolePermissions: build.query<RolePermissions, undefined>({
      query: () => '/cis/role-permissions',
      providesTags: ['CisRoles'],
    }),
    saveCisRolePermissions: build.mutation<RolePermissions, { bundleId: string; scopes: string[] }>({
      query: ({ bundleId, scopes }) => ({
        url: `/cis/role-permissions/${encodeURIComponent(bundleId)}`,
        method: 'PUT',
        body: { scopes },
      }),
      invalidatesTags: ['CisRoles', 'CisAbilities'],
    }),

    // Subcontractors
    subcontractors: build.query<SubcontractorList, SubcontractorFilters>({
      query: (filters) => `/cis/subcontractors${query({ ...filters })}`,
      providesTags: ['CisSubcontractor'],
    }),
    subcontractor: build.query<{ subcontractor: Subcontractor }, { id: string; unmask?: boolean }>({
      query: ({ id, unmask }) =>
        `/cis/subcontractors/${encodeURIComponent(id)}${unmask ? '?unmask=true' : ''}`,
      providesTags: ['CisSubcontractor'],
    }),
    createSubcontractor: build.mutation<{ subcontractor: Subcontractor }, SubcontractorInput>({
      query: (body) => ({ url: '/cis/subcontractors', method: 'POST', body }),
      invalidatesTags: ['CisSubcontractor', 'CisDashboard', 'CisStatement'],
    }),
    updateSubcontractor: build.mutation<
      { subcontractor: Subcontractor },
      { id: string; body: SubcontractorInput }
    >({
      query: ({ id, body }) => ({
        url: `/cis/subcontractors/${encodeURIComponent(id)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['CisSubcontractor', 'CisDashboard', 'CisStatement'],
    }),
    archiveSubcontractors: build.mutation<BatchResult, string[]>({
      query: (ids) => ({ url: '/cis/subcontractors/archive', method: 'POST', body: { ids } }),
      invalidatesTags: ['CisSubcontractor', 'CisDashboard'],
    }),
    deleteSubcontractors: build.mutation<BatchResult, string[]>({
      query: (ids) => ({ url: '/cis/subcontractors/delete', method: 'POST', body: { ids } }),
      invalidatesTags: ['CisSubcontractor', 'CisDashboard'],
    }),
    inviteSubcontractor: build.mutation<InviteResult, InviteInput>({
      query: (body) => ({ url: '/cis/subcontractors/invite', method: 'POST', body }),
      invalidatesTags: ['CisSubcontractor', 'CisDashboard'],
    }),
    /**
     * Ends the subcontractor's portal sessions and expires their unused sign-in links (the bff's
     * POST /api/portal/sessions/revoke, which needs cis.portal.invite: the UI flag canInvite).
     */
    revokePortalAccess: build.mutation<{ revoked: number; linksExpired: number }, string>({
      query: (subcontractorId) => ({
        url: '/portal/sessions/revoke',
        method: 'POST',
        body: { subcontractorId },
      }),
    }),

    // Invoices
    invoices: build.query<InvoiceList, InvoiceFilters>({
      query: (filters) => `/cis/invoices${query({ ...filters })}`,
      providesTags: ['CisInvoice'],
    }),
    invoice: build.query<{ invoice: Invoice }, string>({
      query: (id) => `/cis/invoices/${encodeURIComponent(id)}`,
      providesTags: ['CisInvoice'],
    }),
    createInvoice: build.mutation<InvoiceSaved, InvoiceInput>({
      query: (body) => ({ url: '/cis/invoices', method: 'POST', body }),
      invalidatesTags: [...afterInvoiceChange],
    }),
    updateInvoice: build.mutation<InvoiceSaved, { id: string; body: InvoiceInput }>({
      query: ({ id, body }) => ({ url: `/cis/invoices/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [...afterInvoiceChange],
    }),
    invoiceAction: build.mutation<
      { invoice: Invoice },
      { id: string; action: 'approve' | 'reject' | 'cancel' | 'pay'; paymentDate?: string }
    >({
      query: ({ id, action, paymentDate }) => ({
        url: `/cis/invoices/${encodeURIComponent(id)}/${action}`,
        method: 'POST',
        body: action === 'pay' ? { ...(paymentDate ? { paymentDate } : {}) } : {},
      }),
      invalidatesTags: [...afterInvoiceChange],
    }),
    bulkInvoices: build.mutation<
      BatchResult,
      { action: 'approve' | 'pay' | 'delete'; ids: string[]; paymentDate?: string }
    >({
      query: ({ action, ids, paymentDate }) => ({
        url: `/cis/invoices/${action}`,
        method: 'POST',
        body: { ids, ...(paymentDate ? { paymentDate } : {}) },
      }),
      invalidatesTags: [...afterInvoiceChange],
    }),
    importInvoices: build.mutation<ImportResult, string>({
      query: (csv) => ({ url: '/cis/invoices/import', method: 'POST', body: { csv } }),
      invalidatesTags: [...afterInvoiceChange],
    }),

    // Statements and jobs
    statements: build.query<StatementsResponse, { taxMonth?: string; filter: StatementFilter }>({
      query: ({ taxMonth, filter }) => `/cis/statements${query({ taxMonth, filter })}`,
      providesTags: ['CisStatement'],
    }),
    generateStatement: build.mutation<
      { statement: Statement },
      { subcontractorId: string; taxMonth: string }
    >({
      query: (body) => ({ url: '/cis/statements/generate', method: 'POST', body }),
      invalidatesTags: ['CisStatement', 'CisDashboard'],
    }),
    generateAllStatements: build.mutation<{ job: Job }, { taxMonth: string }>({
      query: (body) => ({ url: '/cis/statements/generate-all', method: 'POST', body }),
    }),
    issueStatement: build.mutation<IssueResult, { id: string; method: 'email' | 'portal' | 'print' }>({
      query: ({ id, method }) => ({
        url: `/cis/statements/${encodeURIComponent(id)}/issue`,
        method: 'POST',
        body: { method },
      }),
      invalidatesTags: ['CisStatement', 'CisInvoice', 'CisReturn', 'CisDashboard'],
    }),
    job: build.query<{ job: Job }, string>({
      query: (id) => `/cis/jobs/${encodeURIComponent(id)}`,
    }),

    // Returns
    currentReturn: build.query<CurrentReturn, undefined>({
      query: () => '/cis/returns/current',
      providesTags: ['CisReturn'],
    }),
    returns: build.query<{ items: CisReturn[] }, undefined>({
      query: () => '/cis/returns?limit=12',
      providesTags: ['CisReturn'],
    }),
    compileReturn: build.mutation<{ return: CisReturn; validation: Validation }, string>({
      query: (taxMonth) => ({ url: `/cis/returns/${encodeURIComponent(taxMonth)}/compile`, method: 'POST' }),
      invalidatesTags: ['CisReturn', 'CisDashboard'],
    }),
    returnAction: build.mutation<
      { return: CisReturn },
      { id: string; action: 'submit' | 'amend' | 'unlock' }
    >({
      query: ({ id, action }) => ({
        url: `/cis/returns/${encodeURIComponent(id)}/${action}`,
        method: 'POST',
      }),
      invalidatesTags: ['CisReturn', 'CisDashboard'],
    }),

    // Dashboard, analytics
    cisDashboard: build.query<Dashboard, undefined>({
      query: () => '/cis/dashboard',
      providesTags: ['CisDashboard'],
      // Fetched fresh each time the dashboard opens: its figures move with every change, and after a crash
      // the module's Try Again renders from a new answer, not the one that broke it.
      keepUnusedDataFor: 0,
    }),
    cisAnalytics: build.query<Analytics, number>({
      query: (months) => `/cis/analytics?months=${months}`,
      providesTags: ['CisAnalytics'],
    }),
  }),
});

export const {
  useCisAbilitiesQuery,
  useCisSettingsQuery,
  useSaveCisSettingsMutation,
  useCisRolePermissionsQuery,
  useSaveCisRolePermissionsMutation,
  useSubcontractorsQuery,
  useSubcontractorQuery,
  useCreateSubcontractorMutation,
  useUpdateSubcontractorMutation,
  useArchiveSubcontractorsMutation,
  useDeleteSubcontractorsMutation,
  useInviteSubcontractorMutation,
  useRevokePortalAccessMutation,
  useInvoicesQuery,
  useInvoiceQuery,
  useCreateInvoiceMutation,
  useUpdateInvoiceMutation,
  useInvoiceActionMutation,
  useBulkInvoicesMutation,
  useImportInvoicesMutation,
  useStatementsQuery,
  useGenerateStatementMutation,
  useGenerateAllStatementsMutation,
  useIssueStatementMutation,
  useLazyJobQuery,
  useCurrentReturnQuery,
  useReturnsQuery,
  useCompileReturnMutation,
  useReturnActionMutation,
  useCisDashboardQuery,
  useCisAnalyticsQuery,
} = cisApi;

/** Invalidates the invoice list (the live stream's events). */
export const invalidateInvoices = () => cisApi.util.invalidateTags([...afterInvoiceChange]);
