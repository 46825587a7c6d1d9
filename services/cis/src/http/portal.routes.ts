import { ApiRouter, problems, type RequestContext } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { taxMonthFilePart } from '../domain/index.js';
import { portalDashboard } from '../commands/portal-dashboard.js';
import { portalProfile, updatePortalProfile } from '../commands/portal-profile.js';
import { portalTaxYear } from '../commands/portal-tax-year.js';
import {
  portalInvoice,
  portalRecords,
  portalStatement,
  rejectPortalInvoice,
  submitPortalInvoice,
} from '../commands/portal.js';
import { idParam, statementIdParam } from './common.schemas.js';
import { sendDocument } from './http-helpers.js';
import {
  presentPortalDashboard,
  presentPortalInvoice,
  presentPortalProfile,
  presentPortalRecords,
  presentPortalSubmission,
  presentRejection,
} from './portal.present.js';
import { presentStatement } from './statements.present.js';
import {
  portalDashboardResponse,
  portalInvoiceDetailResponse,
  portalInvoiceInput,
  portalProfileInput,
  portalProfileResponse,
  portalTaxYearQuery,
  portalTaxYearResponse,
  portalInvoiceResponse,
  portalRecordsResponse,
  rejectInvoiceBody,
  rejectInvoiceResponse,
} from './portal.schemas.js';

/** A portal session's own subcontractor (its token names exactly one). */
function ownSubcontractor(ctx: RequestContext): string {
  if (!ctx.subcontractorId) throw problems.forbidden('This is for portal sessions.');
  return ctx.subcontractorId;
}

/**
 * The subcontractor portal's view of CIS: its own record, invoices and issued statements, nothing else. Every route
 * answers 403 `portal_access_ended` once the subcontractor's portal access is off, or it is archived or deleted.
 * Beside them, staff's answer to a portal invoice that is not approved: reject it with a reason.
 */
export function portalRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'post',
      path: '/invoices/:id/reject',
      summary:
        'Reject a portal-submitted invoice with a reason: it becomes Rejected and its subcontractor is e-mailed the reason',
      scopes: ['cis.inv.approve'],
      request: { params: idParam, body: rejectInvoiceBody },
      responses: {
        200: {
          description: 'The rejected invoice, and whether the e-mail went',
          schema: rejectInvoiceResponse,
        },
      },
      handler: async ({ ctx, params, body }) =>
        presentRejection(await rejectPortalInvoice(deps, ctx, params.id, body.reason)),
    })
    .route({
      method: 'get',
      path: '/portal/me',
      summary: 'The portal session’s subcontractor: name, invoices and issued statements',
      portal: true,
      scopes: ['portal.self'],
      responses: { 200: { description: 'The subcontractor’s CIS records', schema: portalRecordsResponse } },
      handler: async ({ ctx }) =>
        presentPortalRecords(await portalRecords(deps, ctx.tenantId, ownSubcontractor(ctx))),
    })
    .route({
      method: 'post',
      path: '/portal/invoices',
      summary:
        'The subcontractor submits an invoice: it waits as Portal Pending until staff approve or reject it',
      portal: true,
      scopes: ['portal.self'],
      status: 201,
      request: { body: portalInvoiceInput },
      responses: { 201: { description: 'Submitted', schema: portalInvoiceResponse } },
      handler: async ({ ctx, body }) =>
        presentPortalSubmission(await submitPortalInvoice(deps, ctx, ownSubcontractor(ctx), body)),
    })
    .route({
      method: 'get',
      path: '/portal/statements/:id/pdf',
      summary:
        'One of the subcontractor’s issued statements as a PDF (their own copy, the full UTR; audited)',
      portal: true,
      scopes: ['portal.self'],
      request: { params: statementIdParam },
      responses: { 200: { description: 'application/pdf' } },
      handler: async ({ ctx, params, res }) => {
        const { taxMonth, pdf } = await portalStatement(deps, ctx, ownSubcontractor(ctx), params.id);
        sendDocument(res, {
          type: 'application/pdf',
          disposition: 'inline',
          filename: `cis-statement-${taxMonthFilePart(taxMonth)}.pdf`,
          body: pdf,
        });
      },
    })
    .route({
      method: 'get',
      path: '/portal/dashboard',
      summary:
        'The portal dashboard: this tax month’s gross, deduction and net paid, invoices awaiting approval, the latest statement',
      portal: true,
      scopes: ['portal.self'],
      responses: { 200: { description: 'The dashboard', schema: portalDashboardResponse } },
      handler: async ({ ctx }) =>
        presentPortalDashboard(await portalDashboard(deps, ctx.tenantId, ownSubcontractor(ctx))),
    })
    .route({
      method: 'get',
      path: '/portal/invoices/:id',
      summary: 'One of the subcontractor’s own invoices (any other id: 404)',
      portal: true,
      scopes: ['portal.self'],
      request: { params: idParam },
      responses: { 200: { description: 'The invoice', schema: portalInvoiceDetailResponse } },
      handler: async ({ ctx, params }) => ({
        invoice: presentPortalInvoice(
          await portalInvoice(deps, ctx.tenantId, ownSubcontractor(ctx), params.id),
        ),
      }),
    })
    .route({
      method: 'get',
      path: '/portal/subcontractors/:id',
      summary:
        'The subcontractor’s own record (UTR and NINO masked, verification status and rate; any other id: 404)',
      portal: true,
      scopes: ['portal.self'],
      request: { params: idParam },
      responses: { 200: { description: 'Their profile', schema: portalProfileResponse } },
      handler: async ({ ctx, params }) => ({
        subcontractor: presentPortalProfile(
          await portalProfile(deps, ctx.tenantId, ownSubcontractor(ctx), params.id),
        ),
      }),
    })
    .route({
      method: 'put',
      path: '/portal/subcontractors/:id',
      summary:
        'The subcontractor changes their phone, mobile and addresses (audited as cis.subcontractor.updated by portal:<id>; any other id: 404)',
      portal: true,
      scopes: ['portal.self'],
      request: { params: idParam, body: portalProfileInput },
      responses: { 200: { description: 'Saved', schema: portalProfileResponse } },
      handler: async ({ ctx, params, body }) => ({
        subcontractor: presentPortalProfile(
          await updatePortalProfile(deps, ctx, ownSubcontractor(ctx), params.id, body),
        ),
      }),
    })
    .route({
      method: 'get',
      path: '/portal/tax-year',
      summary:
        'A tax year of the subcontractor’s payments and deductions per month with every statement issued for it (the current one by default)',
      portal: true,
      scopes: ['portal.self'],
      request: { query: portalTaxYearQuery },
      responses: { 200: { description: 'The tax year', schema: portalTaxYearResponse } },
      handler: async ({ ctx, query }) => {
        const { year, statements } = await portalTaxYear(
          deps,
          ctx.tenantId,
          ownSubcontractor(ctx),
          query.taxYear,
        );
        return { ...year, statements: statements.map(presentStatement) };
      },
    });
}
