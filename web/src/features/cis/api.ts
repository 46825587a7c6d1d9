// The CIS endpoints of the bff (`/api/cis/...`, docs/cis-api.md), injected into the app's RTK Query API. Tags make
// every mutation refresh the lists it changes.
import { api } from '../../app/api';
import type {
  AbilitiesResponse,
  Analytics,
  BatchResult,
  BundleScopesInput,
  CisReturn,
  CurrentReturn,
  Dashboard,
  DuplicateGroups,
  GenerateAllInput,
  GenerateStatementInput,
  ImportResult,
  InviteInput,
  InviteResult,
  Invoice,
  InvoiceInput,
  InvoiceList,
  InvoiceListQuery,
  InvoiceSaved,
  IssueInput,
  IssueResult,
  Job,
  MailFailureResponse,
  MergeInput,
  MergeResult,
  PaymentInput,
  PaymentDateCorrection,
  PeriodMarkInput,
  QueuedJob,
  RejectInvoiceInput,
  RejectInvoiceResult,
  ReturnChanges,
  ReturnPeriods,
  ReturnWithValidation,
  RolePermissions,
  SettingsInput,
  SettingsResponse,
  Statement,
  StatementFilter,
  StatementsResponse,
  Subcontractor,
  SubcontractorInput,
  SubcontractorList,
  SubcontractorListQuery,
  SubcontractorTaxYear,
  SubmitReturnInput,
} from '@workspace/cis/contract';

/** GET /cis/subcontractors's query. */
export type SubcontractorFilters = SubcontractorListQuery;

/** GET /cis/invoices's query (a subcontractor's invoices name it). */
export type InvoiceFilters = InvoiceListQuery;

export type InvoicePeriod = InvoiceFilters['period'];

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
    saveCisRolePermissions: build.mutation<RolePermissions, BundleScopesInput & { bundleId: string }>({
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
    subcontractor: build.query<
      {
        subcontractor: Subcontractor;
        /** Its latest portal invitation email failed after its retries (ADR 0052). */
        invitationEmailFailure?: { failedAt: string; reason: string } | null;
      },
      { id: string; unmask?: boolean }
    >({
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
    /** Live subcontractors sharing a UTR, NINO or company number (stored before duplicates were refused). */
    subcontractorDuplicates: build.query<DuplicateGroups, undefined>({
      query: () => '/cis/subcontractors/duplicates',
      providesTags: ['CisSubcontractor'],
    }),
    /** Merges a duplicate into the record kept (its invoices, statements and portal access move). */
    mergeSubcontractors: build.mutation<MergeResult, MergeInput>({
      query: (body) => ({ url: '/cis/subcontractors/merge', method: 'POST', body }),
      invalidatesTags: [...afterInvoiceChange, 'CisSubcontractor', 'CisDashboard', 'CisStatement'],
    }),
    /** A subcontractor's HMRC tax year by tax month (paid invoices; the current tax year unless one is named). */
    subcontractorTaxYear: build.query<SubcontractorTaxYear, { id: string; taxYear?: number | undefined }>({
      query: ({ id, taxYear }) =>
        `/cis/subcontractors/${encodeURIComponent(id)}/tax-year${taxYear ? `?taxYear=${taxYear}` : ''}`,
      providesTags: ['CisSubcontractor', 'CisInvoice'],
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
      PaymentInput & { id: string; action: 'approve' | 'cancel' | 'pay' }
    >({
      query: ({ id, action, paymentDate, confirmSubmittedReturn }) => ({
        url: `/cis/invoices/${encodeURIComponent(id)}/${action}`,
        method: 'POST',
        body: {
          ...(action === 'pay' && paymentDate ? { paymentDate } : {}),
          ...(confirmSubmittedReturn ? { confirmSubmittedReturn } : {}),
        },
      }),
      invalidatesTags: [...afterInvoiceChange],
    }),
    rejectInvoice: build.mutation<RejectInvoiceResult, RejectInvoiceInput & { id: string }>({
      query: ({ id, reason }) => ({
        url: `/cis/invoices/${encodeURIComponent(id)}/reject`,
        method: 'POST',
        body: { reason },
      }),
      invalidatesTags: [...afterInvoiceChange],
    }),
    bulkInvoices: build.mutation<
      BatchResult,
      PaymentInput & { action: 'approve' | 'pay' | 'delete'; ids: string[] }
    >({
      query: ({ action, ids, paymentDate, confirmSubmittedReturn }) => ({
        url: `/cis/invoices/${action}`,
        method: 'POST',
        body: {
          ids,
          ...(paymentDate ? { paymentDate } : {}),
          ...(confirmSubmittedReturn ? { confirmSubmittedReturn } : {}),
        },
      }),
      invalidatesTags: [...afterInvoiceChange],
    }),
    correctPaymentDate: build.mutation<{ invoice: Invoice }, PaymentDateCorrection & { id: string }>({
      query: ({ id, ...body }) => ({
        url: `/cis/invoices/${encodeURIComponent(id)}/payment-date`,
        method: 'POST',
        body,
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
    generateStatement: build.mutation<{ statement: Statement }, GenerateStatementInput>({
      query: (body) => ({ url: '/cis/statements/generate', method: 'POST', body }),
      invalidatesTags: ['CisStatement', 'CisDashboard'],
    }),
    // The job as queued: its result and error are absent until GET /cis/jobs/:id has them.
    generateAllStatements: build.mutation<{ job: QueuedJob & Partial<Job> }, GenerateAllInput>({
      query: (body) => ({ url: '/cis/statements/generate-all', method: 'POST', body }),
    }),
    correctStatement: build.mutation<{ statement: Statement }, string>({
      query: (id) => ({ url: `/cis/statements/${encodeURIComponent(id)}/correct`, method: 'POST' }),
      invalidatesTags: ['CisStatement', 'CisInvoice', 'CisDashboard'],
    }),
    issueStatement: build.mutation<IssueResult, { id: string; method: IssueInput['method'] }>({
      query: ({ id, method }) => ({
        url: `/cis/statements/${encodeURIComponent(id)}/issue`,
        method: 'POST',
        body: { method },
      }),
      invalidatesTags: ['CisStatement', 'CisInvoice', 'CisReturn', 'CisDashboard'],
    }),
    /** Resends an issued statement's email that could not be delivered (its kept copy, to the current address). */
    resendStatementEmail: build.mutation<MailFailureResponse, string>({
      query: (id) => ({ url: `/cis/statements/${encodeURIComponent(id)}/email/resend`, method: 'POST' }),
      invalidatesTags: ['CisStatement'],
    }),
    job: build.query<{ job: Job }, string>({
      query: (id) => `/cis/jobs/${encodeURIComponent(id)}`,
    }),

    // Returns
    /** A tax month's return (the month in view on the Returns page; by default the one in progress). */
    currentReturn: build.query<CurrentReturn, string | undefined>({
      query: (taxMonth) => `/cis/returns/current${query({ taxMonth })}`,
      providesTags: ['CisReturn'],
    }),
    returnPeriods: build.query<ReturnPeriods, undefined>({
      query: () => '/cis/returns/periods',
      providesTags: ['CisReturn'],
    }),
    markPeriod: build.mutation<unknown, { taxMonth: string; mark: PeriodMarkInput | null }>({
      query: ({ taxMonth, mark }) => ({
        url: `/cis/returns/periods/${encodeURIComponent(taxMonth)}/mark`,
        method: mark ? 'PUT' : 'DELETE',
        ...(mark ? { body: mark } : {}),
      }),
      invalidatesTags: ['CisReturn', 'CisDashboard'],
    }),
    compileReturn: build.mutation<ReturnWithValidation, string>({
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
    /** Submit with the declarations ticked (issue 13). */
    submitReturn: build.mutation<{ return: CisReturn }, { id: string } & SubmitReturnInput>({
      query: ({ id, ...body }) => ({
        url: `/cis/returns/${encodeURIComponent(id)}/submit`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['CisReturn', 'CisDashboard'],
    }),
    /** A month's submitted return against its live figures: refreshed by any invoice change too. */
    returnChanges: build.query<ReturnChanges, string>({
      query: (taxMonth) => `/cis/returns/${encodeURIComponent(taxMonth)}/changes`,
      providesTags: ['CisReturn', 'CisInvoice'],
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
  useSubcontractorTaxYearQuery,
  useInvoicesQuery,
  useInvoiceQuery,
  useCreateInvoiceMutation,
  useUpdateInvoiceMutation,
  useInvoiceActionMutation,
  useRejectInvoiceMutation,
  useBulkInvoicesMutation,
  useImportInvoicesMutation,
  useStatementsQuery,
  useGenerateStatementMutation,
  useGenerateAllStatementsMutation,
  useIssueStatementMutation,
  useResendStatementEmailMutation,
  useCorrectStatementMutation,
  useCorrectPaymentDateMutation,
  useLazyJobQuery,
  useCurrentReturnQuery,
  useReturnPeriodsQuery,
  useMarkPeriodMutation,
  useCompileReturnMutation,
  useReturnActionMutation,
  useSubmitReturnMutation,
  useReturnChangesQuery,
  useCisDashboardQuery,
  useCisAnalyticsQuery,
  useSubcontractorDuplicatesQuery,
  useMergeSubcontractorsMutation,
} = cisApi;

/** Invalidates the invoice list (the live stream's events). */
export const invalidateInvoices = () => cisApi.util.invalidateTags([...afterInvoiceChange]);
