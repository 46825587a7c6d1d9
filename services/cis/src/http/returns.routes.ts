import { ApiRouter, hasScope } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import {
  amendReturn,
  compileReturn,
  currentReturn,
  downloadCis300,
  exportReturnCsv,
  returnHistory,
  returnChanges,
  returnOfMonth,
  returnValidation,
  submitReturn,
  unlockReturn,
} from '../commands/returns.js';
import { performerNames } from '../commands/performers.js';
import type { ReturnRecord } from '../db/returns.store.js';
import { RETURN_MESSAGES, returnDisplayStatus, taxMonthFilePart } from '../domain/index.js';
import { sendCsv, sendDocument } from './http-helpers.js';
import { presentReturn } from './returns.present.js';
import {
  currentReturnResponse,
  historyQuery,
  monthQuery,
  returnHistoryResponse,
  returnChangesResponse,
  returnIdParams,
  returnResponse,
  returnWithValidationResponse,
  submitReturnBody,
  taxMonthParams,
  validationResponse,
} from './returns.schemas.js';

export function returnRoutes(deps: CisDeps): ApiRouter {
  /** The names of the users who submitted these returns, as identity tells the reader (their own is not asked). */
  const submitterNames = (
    ctx: { userId: string },
    req: { headers: { authorization?: string | undefined } },
    rows: readonly ReturnRecord[],
  ) =>
    performerNames(
      deps,
      { userId: ctx.userId, authorization: req.headers.authorization ?? '' },
      rows.flatMap((row) => (row.submittedBy ? [row.submittedBy] : [])),
    );

  return new ApiRouter()
    .route({
      method: 'get',
      path: '/returns/current',
      summary:
        'A tax month (?taxMonth=YYYY-MM, by default the one in progress), its return (if compiled) and the validity check',
      scopes: ['cis.inv.read'],
      request: { query: monthQuery },
      responses: { 200: { description: 'The month', schema: currentReturnResponse } },
      handler: async ({ ctx, query, req }) => {
        const { period, row } = await currentReturn(deps, ctx.tenantId, query.taxMonth);
        return {
          period,
          return: row ? presentReturn(row, await submitterNames(ctx, req, [row])) : null,
          displayStatus: returnDisplayStatus(row ?? null),
          validation: row ? returnValidation(row) : null,
        };
      },
    })
    .route({
      method: 'get',
      path: '/returns',
      summary: 'Returns, tax month descending, a page at a time (limit, offset) with the total',
      scopes: ['cis.inv.read'],
      request: { query: historyQuery },
      responses: { 200: { description: 'History', schema: returnHistoryResponse } },
      handler: async ({ ctx, query }) => {
        const { rows, total } = await returnHistory(deps, ctx.tenantId, query);
        return { items: rows.map((row) => presentReturn(row)), total };
      },
    })
    .route({
      method: 'get',
      path: '/returns/:taxMonth',
      summary:
        'The return of a tax month by its label (its latest record: an amendment supersedes the original)',
      scopes: ['cis.inv.read'],
      request: { params: taxMonthParams },
      responses: {
        200: { description: 'The return and its validation', schema: returnWithValidationResponse },
      },
      handler: async ({ ctx, params, req }) => {
        const row = await returnOfMonth(deps, ctx.tenantId, params.taxMonth, RETURN_MESSAGES.notFound);
        return {
          return: presentReturn(row, await submitterNames(ctx, req, [row])),
          validation: returnValidation(row),
        };
      },
    })
    .route({
      method: 'get',
      path: '/returns/:taxMonth/changes',
      summary:
        "A tax month's submitted return against its live figures: changed since submission, and the difference per subcontractor and in total",
      scopes: ['cis.inv.read'],
      request: { params: taxMonthParams },
      responses: { 200: { description: 'The changes', schema: returnChangesResponse } },
      handler: async ({ ctx, params, req }) => {
        const changes = await returnChanges(deps, ctx.tenantId, params.taxMonth);
        const names = await submitterNames(ctx, req, changes.submitted ? [changes.submitted] : []);
        return {
          ...changes,
          submitted: changes.submitted ? presentReturn(changes.submitted, names) : null,
          amendment: changes.amendment ? presentReturn(changes.amendment) : null,
        };
      },
    })
    .route({
      method: 'get',
      path: '/returns/:taxMonth/validate',
      summary: 'Validate the return of a tax month (issues[])',
      scopes: ['cis.inv.read'],
      request: { params: taxMonthParams },
      responses: { 200: { description: 'Issues', schema: validationResponse } },
      handler: async ({ ctx, params }) =>
        returnValidation(await returnOfMonth(deps, ctx.tenantId, params.taxMonth, 'Return not found')),
    })
    .route({
      method: 'post',
      path: '/returns/:taxMonth/compile',
      summary: 'Compile (or recompile) the return of a tax month from its paid invoices; nil without lines',
      scopes: ['cis.ret.compile'],
      request: { params: taxMonthParams },
      responses: {
        200: { description: 'The return and its validation', schema: returnWithValidationResponse },
      },
      handler: async ({ ctx, params }) => {
        const { row, validation } = await compileReturn(deps, ctx, params.taxMonth);
        return { return: presentReturn(row), validation };
      },
    })
    .route({
      method: 'post',
      path: '/returns/:id/submit',
      summary:
        'Submit a valid, unlocked return with its declarations: it is locked, the declarations and the submitter stored and its CIS300 document (carrying them) kept ready to file',
      scopes: ['cis.ret.submit'],
      request: { params: returnIdParams, body: submitReturnBody },
      responses: { 200: { description: 'Submitted', schema: returnResponse } },
      handler: async ({ ctx, params, body }) => ({
        return: presentReturn(await submitReturn(deps, ctx, params.id, body.declarations)),
      }),
    })
    .route({
      method: 'post',
      path: '/returns/:id/amend',
      summary:
        "Amend a submitted return: a new record {id}-AMD-{timestamp} pointing at the original, compiled from the month's live figures",
      scopes: ['cis.ret.submit'],
      status: 201,
      request: { params: returnIdParams },
      responses: { 201: { description: 'The amendment', schema: returnResponse } },
      handler: async ({ ctx, params }) => ({
        return: presentReturn(await amendReturn(deps, ctx, params.id)),
      }),
    })
    .route({
      method: 'post',
      path: '/returns/:id/unlock',
      summary: 'Unlock a locked return for testing (only where the deployment enables testing tools)',
      scopes: ['cis.ret.submit'],
      request: { params: returnIdParams },
      responses: { 200: { description: 'Unlocked', schema: returnResponse } },
      handler: ({ ctx, params }) =>
        unlockReturn(deps, ctx, params.id).then((row) => ({ return: presentReturn(row) })),
    })
    .route({
      method: 'get',
      path: '/returns/:id/export.csv',
      summary:
        'A return as CSV: identifiers masked, in clear for a holder of cis.pii.unmask (audited as cis.pii.unmasked)',
      scopes: ['cis.io.export'],
      request: { params: returnIdParams },
      responses: { 200: { description: 'text/csv' } },
      handler: async ({ ctx, params, res }) => {
        const built = await exportReturnCsv(deps, ctx, params.id, hasScope(ctx, 'cis.pii.unmask'));
        sendCsv(res, built.filename, built.content);
      },
    })
    .route({
      method: 'get',
      path: '/returns/:id/cis300.xml',
      summary:
        "The submitted return's CIS300 document (HMRC's GovTalk XML): identifiers in clear, so cis.pii.unmask too; audited",
      scopes: ['cis.ret.submit', 'cis.pii.unmask'],
      request: { params: returnIdParams },
      responses: { 200: { description: 'application/xml' } },
      handler: async ({ ctx, params, res }) => {
        const { taxMonth, amendment, xml } = await downloadCis300(deps, ctx, params.id);
        sendDocument(res, {
          type: 'application/xml',
          disposition: 'attachment',
          // The period as HMRC names it: cis300-month-ending-2026-11-05.xml (…-amended.xml for an amendment).
          filename: `cis300-${taxMonthFilePart(taxMonth)}${amendment ? '-amended' : ''}.xml`,
          body: xml,
        });
      },
    });
}
