import { ApiRouter, problems, type RequestContext } from '@workspace/kit';
import { z } from 'zod';
import type { CisContext } from '../context.js';
import { renderStatementPdf } from '../documents/statement-pdf.js';
import { looseObject } from './common.js';
import { createInvoice, invoiceInput, invoiceView, type InvoiceRow } from './invoices.js';
import { statementPdfInput, statementView, type StatementRow } from './statements.js';
import type { SubcontractorRow } from './subcontractors.js';

/** A portal session's own subcontractor (its token names exactly one). */
function ownSubcontractor(ctx: RequestContext): string {
  if (!ctx.subcontractorId) throw problems.forbidden('This is for portal sessions.');
  return ctx.subcontractorId;
}

/** The subcontractor portal's view of CIS: its own record, invoices and issued statements, nothing else. */
export function portalRoutes(context: CisContext): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/portal/me',
      summary: 'The portal session’s subcontractor: name, invoices and issued statements',
      portal: true,
      scopes: ['portal.self'],
      responses: { 200: { description: 'The subcontractor’s CIS records', schema: looseObject } },
      handler: ({ ctx }) =>
        context.inTenant(ctx.tenantId, async (trx) => {
          const id = ownSubcontractor(ctx);
          const sub = z.uuid().safeParse(id).success
            ? await trx<SubcontractorRow>('subcontractors').where({ id }).whereNull('deleted_at').first()
            : undefined;
          if (!sub) throw problems.notFound('Subcontractor not found');
          const [invoices, statements] = await Promise.all([
            trx<InvoiceRow>('invoices')
              .where({ subcontractor_id: id })
              .whereNull('deleted_at')
              .whereNot('status', 'draft')
              .orderBy('invoice_date', 'desc')
              .limit(200),
            trx<StatementRow>('statements')
              .where({ subcontractor_id: id, status: 'issued' })
              .orderBy('tax_month', 'desc'),
          ]);
          return {
            subcontractor: {
              id: sub.id,
              name: sub.name,
              type: sub.type,
              utrMasked: sub.utr_masked,
              verification: { status: sub.verification_status, rate: sub.verification_rate },
            },
            invoices: invoices.map((row) => {
              const view = invoiceView(row);
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
              };
            }),
            statements: statements.map(statementView),
          };
        }),
    })
    .route({
      method: 'post',
      path: '/portal/invoices',
      summary:
        'The subcontractor submits an invoice: it waits as Portal Pending until staff approve or reject it',
      portal: true,
      scopes: ['portal.self'],
      status: 201,
      request: { body: invoiceInput.omit({ subcontractorId: true }) },
      responses: { 201: { description: 'Submitted', schema: looseObject } },
      handler: async ({ ctx, body }) => {
        const { invoice, warnings } = await createInvoice(
          context,
          ctx,
          { ...body, subcontractorId: ownSubcontractor(ctx) },
          'portal',
        );
        return {
          invoice: {
            id: invoice.id,
            invoiceNumber: invoice.invoiceNumber,
            status: invoice.status,
            statusLabel: invoice.statusLabel,
            amounts: invoice.amounts,
          },
          warnings,
        };
      },
    })
    .route({
      method: 'get',
      path: '/portal/statements/:id/pdf',
      summary: 'One of the subcontractor’s issued statements as a PDF',
      portal: true,
      scopes: ['portal.self'],
      request: { params: z.object({ id: z.string().regex(/^[0-9a-f]{16}$/) }) },
      responses: { 200: { description: 'application/pdf' } },
      handler: async ({ ctx, params, res }) => {
        const id = ownSubcontractor(ctx);
        const input = await context.inTenant(ctx.tenantId, async (trx) => {
          const row = await trx<StatementRow>('statements')
            .where({ id: params.id, subcontractor_id: id, status: 'issued' })
            .first();
          if (!row) throw problems.notFound('Statement not found');
          return statementPdfInput(context, trx, ctx.tenantId, row);
        });
        const pdf = await renderStatementPdf(input);
        res
          .status(200)
          .type('application/pdf')
          .set('Content-Disposition', `inline; filename="cis-statement-${input.taxMonth}.pdf"`)
          .set('Cache-Control', 'no-store')
          .send(pdf);
      },
    });
}
