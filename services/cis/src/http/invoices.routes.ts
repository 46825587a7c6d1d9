import { ApiRouter, serveSse } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { importInvoices } from '../commands/import-invoices.js';
import { IMPORT_BODY_BYTES } from '../domain/index.js';
import {
  correctPaymentDate,
  transitionInvoice,
  transitionInvoices,
} from '../commands/invoice-transitions.js';
import {
  createInvoice,
  exportInvoices,
  listInvoices,
  readInvoice,
  updateInvoice,
} from '../commands/invoices.js';
import { invoiceImportTemplate } from '../documents/csv-import.js';
import type { InvoiceChangeHub } from '../workers/change-hubs.js';
import { batchResult, idParam, idsBody } from './common.schemas.js';
import { sendCsv } from './http-helpers.js';
import { presentInvoice, presentInvoicePage, presentSaved } from './invoices.present.js';
import {
  cancelBody,
  importBody,
  importResponse,
  invoiceExportQuery,
  invoiceInput,
  invoiceListQuery,
  invoiceListResponse,
  invoiceResponse,
  payBody,
  paymentDateBody,
  savedInvoiceResponse,
} from './invoices.schemas.js';

// Reject (a portal invoice, with a reason) is in portal.routes.ts.
const ACTION_SCOPES = {
  approve: 'cis.inv.approve',
  cancel: 'cis.inv.write',
} as const;

export function invoiceRoutes(deps: CisDeps, hub: InvoiceChangeHub): ApiRouter {
  const router = new ApiRouter()
    .route({
      // Before /invoices/:id, which would otherwise take 'stream' for an id.
      method: 'get',
      path: '/invoices/stream',
      summary:
        'Server-Sent Events: `invoices` whenever an invoice of the tenant changes (the list refetches)',
      scopes: ['cis.inv.read'],
      responses: { 200: { description: 'text/event-stream' } },
      handler: ({ ctx, req, res }) => serveSse(hub, ctx.tenantId, req, res),
    })
    .route({
      method: 'get',
      path: '/invoices',
      summary: 'Invoices (invoice date descending; soft-deleted never) with the five summary cards',
      scopes: ['cis.inv.read'],
      request: { query: invoiceListQuery },
      responses: { 200: { description: 'A page of invoices', schema: invoiceListResponse } },
      handler: async ({ ctx, query }) =>
        presentInvoicePage(await listInvoices(deps, ctx.tenantId, query), query),
    })
    .route({
      method: 'get',
      path: '/invoices/export.csv',
      summary: 'Invoices as CSV (cis-invoices-{date}.csv; formula-like cells neutralised)',
      scopes: ['cis.inv.read', 'cis.io.export'],
      request: { query: invoiceExportQuery },
      responses: { 200: { description: 'text/csv' } },
      handler: async ({ ctx, query, res }) => {
        const { content, filename } = await exportInvoices(deps, ctx, query);
        sendCsv(res, filename, content);
      },
    })
    .route({
      method: 'get',
      path: '/invoices/import/template.csv',
      summary: 'The invoice import template (header row)',
      scopes: ['cis.io.import'],
      responses: { 200: { description: 'text/csv' } },
      handler: ({ res }) => {
        sendCsv(res, 'cis-invoice-import-template.csv', `${invoiceImportTemplate}\r\n`);
        return Promise.resolve();
      },
    })
    .route({
      method: 'get',
      path: '/invoices/:id',
      summary: 'One invoice',
      scopes: ['cis.inv.read'],
      request: { params: idParam },
      responses: { 200: { description: 'The invoice', schema: invoiceResponse } },
      handler: async ({ ctx, params }) => ({
        invoice: presentInvoice(await readInvoice(deps, ctx.tenantId, params.id)),
      }),
    })
    .route({
      method: 'post',
      path: '/invoices',
      summary: 'Record an invoice (draft); amounts calculated from the subcontractor’s verified rate',
      scopes: ['cis.inv.write'],
      status: 201,
      request: { body: invoiceInput },
      responses: { 201: { description: 'Created', schema: savedInvoiceResponse } },
      handler: async ({ ctx, body }) => presentSaved(await createInvoice(deps, ctx, body, 'staff')),
    })
    .route({
      method: 'put',
      path: '/invoices/:id',
      summary: 'Edit a draft invoice',
      scopes: ['cis.inv.write'],
      request: { params: idParam, body: invoiceInput },
      responses: { 200: { description: 'Saved', schema: savedInvoiceResponse } },
      handler: async ({ ctx, params, body }) => presentSaved(await updateInvoice(deps, ctx, params.id, body)),
    });

  for (const action of ['approve'] as const) {
    router.route({
      method: 'post',
      path: `/invoices/:id/${action}`,
      summary: `${action[0]?.toUpperCase() ?? ''}${action.slice(1)} an invoice`,
      scopes: [ACTION_SCOPES[action]],
      request: { params: idParam },
      responses: { 200: { description: 'The invoice', schema: invoiceResponse } },
      handler: async ({ ctx, params }) => ({
        invoice: presentInvoice(await transitionInvoice(deps, ctx, params.id, action)),
      }),
    });
  }

  const submittedReturn = {
    description:
      'The change reaches a month whose return is submitted (`return_submitted`, the warning in `detail`): sent again with `confirmSubmittedReturn: true` it goes through',
  };
  return router
    .route({
      method: 'post',
      path: '/invoices/:id/cancel',
      summary:
        'Cancel an invoice (a paid one in a month whose return is submitted: confirmed after the warning)',
      scopes: [ACTION_SCOPES.cancel],
      request: { params: idParam, body: cancelBody },
      responses: {
        200: { description: 'The invoice', schema: invoiceResponse },
        409: submittedReturn,
      },
      handler: async ({ ctx, params, body }) => ({
        invoice: presentInvoice(await transitionInvoice(deps, ctx, params.id, 'cancel', body)),
      }),
    })
    .route({
      method: 'post',
      path: '/invoices/:id/pay',
      summary:
        'Mark an approved invoice paid; the payment date (default today, never after today) sets its tax month',
      scopes: ['cis.inv.pay'],
      request: { params: idParam, body: payBody },
      responses: {
        200: { description: 'The invoice', schema: invoiceResponse },
        409: submittedReturn,
      },
      handler: async ({ ctx, params, body }) => ({
        invoice: presentInvoice(await transitionInvoice(deps, ctx, params.id, 'pay', body)),
      }),
    })
    .route({
      method: 'post',
      path: '/invoices/:id/payment-date',
      summary:
        "Correct a paid invoice's payment date (audited) while its month's return is not submitted; never after today",
      scopes: ['cis.inv.pay'],
      request: { params: idParam, body: paymentDateBody },
      responses: {
        200: { description: 'The invoice', schema: invoiceResponse },
        409: submittedReturn,
      },
      handler: async ({ ctx, params, body }) => ({
        invoice: presentInvoice(await correctPaymentDate(deps, ctx, params.id, body)),
      }),
    })
    .route({
      method: 'post',
      path: '/invoices/approve',
      summary: 'Approve invoices in bulk (one bulk audit entry)',
      scopes: ['cis.inv.approve'],
      request: { body: idsBody },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: ({ ctx, body }) => transitionInvoices(deps, ctx, body.ids, 'approve'),
    })
    .route({
      method: 'post',
      path: '/invoices/pay',
      summary: 'Mark invoices paid in bulk',
      scopes: ['cis.inv.pay'],
      request: { body: idsBody.extend(payBody.shape) },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: ({ ctx, body }) =>
        transitionInvoices(deps, ctx, body.ids, 'pay', {
          paymentDate: body.paymentDate,
          confirmSubmittedReturn: body.confirmSubmittedReturn,
        }),
    })
    .route({
      method: 'post',
      path: '/invoices/delete',
      summary: 'Soft-delete invoices (deletedAt set, archived; never listed again)',
      scopes: ['cis.inv.write'],
      request: { body: idsBody },
      responses: { 200: { description: 'Per-id outcome', schema: batchResult } },
      handler: ({ ctx, body }) => transitionInvoices(deps, ctx, body.ids, 'delete'),
    })
    .route({
      method: 'post',
      path: '/invoices/import',
      summary:
        'Import invoices from CSV: each row validated; valid rows created, invalid ones reported by row',
      scopes: ['cis.io.import', 'cis.inv.write'],
      // The largest body of cis: an invoice import (IMPORT_LIMITS.fileBytes of CSV in JSON); every other route 256 kB.
      bodyLimit: `${IMPORT_BODY_BYTES / 1024}kb`,
      request: { body: importBody },
      responses: {
        200: {
          description: 'Created ids and the failed rows (1-based data row numbers)',
          schema: importResponse,
        },
      },
      handler: ({ ctx, body }) => importInvoices(deps, ctx, body.csv),
    });
}
