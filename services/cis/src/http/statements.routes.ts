import { ApiRouter, hasScope } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { resendStatementEmail } from '../commands/mail-failures.js';
import {
  correctStatement,
  generateStatementNow,
  issueStatement,
  queueGenerateAll,
  statementMonth,
  statementPdf,
} from '../commands/statements.js';
import { taxMonthFilePart } from '../domain/index.js';
import { statementIdParam } from './common.schemas.js';
import { sendDocument } from './http-helpers.js';
import { presentIssued, presentStatement, presentStatementMonth } from './statements.present.js';
import {
  generateAllBody,
  generateBody,
  issueBody,
  issuedResponse,
  mailFailureResponse,
  queuedJobResponse,
  statementMonthResponse,
  statementResponse,
  statementsQuery,
} from './statements.schemas.js';

export function statementRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/statements',
      summary:
        'The statements of a tax month: the deadline, counters and each subcontractor with its invoices',
      scopes: ['cis.inv.read'],
      request: { query: statementsQuery },
      responses: { 200: { description: 'The month', schema: statementMonthResponse } },
      handler: async ({ ctx, query }) =>
        presentStatementMonth(await statementMonth(deps, ctx.tenantId, query)),
    })
    .route({
      method: 'post',
      path: '/statements/generate',
      summary: 'Generate the statement of a subcontractor for a tax month (refused when one exists)',
      scopes: ['cis.stmt.issue'],
      status: 201,
      request: { body: generateBody },
      responses: { 201: { description: 'The statement', schema: statementResponse } },
      handler: async ({ ctx, body }) => ({
        statement: presentStatement(
          await generateStatementNow(deps, ctx, body.subcontractorId, body.taxMonth),
        ),
      }),
    })
    .route({
      method: 'post',
      path: '/statements/generate-all',
      summary: 'Generate every missing statement of a tax month as a background job (progress on /jobs/:id)',
      scopes: ['cis.stmt.issue'],
      status: 202,
      request: { body: generateAllBody },
      responses: { 202: { description: 'The job', schema: queuedJobResponse } },
      handler: async ({ ctx, body }) => ({ job: await queueGenerateAll(deps, ctx, body.taxMonth) }),
    })
    .route({
      method: 'post',
      path: '/statements/:id/issue',
      summary: 'Issue a statement by email (PDF attached), portal or print; stamps each included invoice',
      scopes: ['cis.stmt.issue'],
      request: { params: statementIdParam, body: issueBody },
      responses: { 200: { description: 'Issued', schema: issuedResponse } },
      handler: async ({ ctx, params, body }) =>
        presentIssued(await issueStatement(deps, ctx, params.id, body.method)),
    })
    .route({
      method: 'post',
      path: '/statements/:id/email/resend',
      summary:
        "Resend an issued statement's email that could not be delivered, from the copy kept (PDF included), with fresh retries",
      scopes: ['cis.stmt.issue'],
      request: { params: statementIdParam },
      responses: {
        200: {
          description: 'Resent (state resending), or already resent: its state; nothing is sent twice',
          schema: mailFailureResponse,
        },
        404: { description: 'No such statement in this tenant' },
        409: { description: 'The statement has no undelivered email to resend' },
        410: { description: 'The email is older than the email retention period: issue it by email again' },
        503: { description: 'The notification service is not available' },
      },
      handler: async ({ ctx, params }) => ({
        emailFailure: await resendStatementEmail(deps, ctx, params.id),
      }),
    })
    .route({
      method: 'post',
      path: '/statements/:id/correct',
      summary:
        'A corrected statement for an issued one whose month changed since issue (generated, to be issued; the old one stays on record)',
      scopes: ['cis.stmt.issue'],
      status: 201,
      request: { params: statementIdParam },
      responses: { 201: { description: 'The corrected statement', schema: statementResponse } },
      handler: async ({ ctx, params }) => ({
        statement: presentStatement(await correctStatement(deps, ctx, params.id)),
      }),
    })
    .route({
      method: 'get',
      path: '/statements/:id/pdf',
      summary:
        'The statement as a PDF: with the full UTR for cis.pii.unmask or its print issuer (audited), else the staff copy',
      scopes: ['cis.inv.read'],
      request: { params: statementIdParam },
      responses: { 200: { description: 'application/pdf' } },
      handler: async ({ ctx, params, res }) => {
        const { taxMonth, copy, pdf } = await statementPdf(
          deps,
          {
            tenantId: ctx.tenantId,
            userId: ctx.userId,
            canUnmask: hasScope(ctx, 'cis.pii.unmask'),
            canIssue: hasScope(ctx, 'cis.stmt.issue'),
          },
          params.id,
        );
        sendDocument(res, {
          type: 'application/pdf',
          disposition: 'inline',
          filename: `cis-statement-${taxMonthFilePart(taxMonth)}-${params.id}${copy === 'staff' ? '-staff-copy' : ''}.pdf`,
          body: pdf,
        });
      },
    });
}
