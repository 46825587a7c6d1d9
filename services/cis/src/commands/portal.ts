import { HttpProblem, problems, type Knex } from '@workspace/kit';
import { z } from 'zod';
import type { CisDeps } from '../cis-deps.js';
import { contractorSender } from '../clients/mailer.js';
import { InvoiceStore, type InvoiceRecord } from '../db/invoices.store.js';
import { SettingsStore } from '../db/settings.store.js';
import { StatementStore } from '../db/statements.store.js';
import { SubcontractorStore, type SubcontractorRecord } from '../db/subcontractors.store.js';
import {
  PORTAL_ACCESS_ENDED,
  PORTAL_STATEMENTS_MAX,
  portalAccessOpen,
  rejectionEmail,
  validateRejectionReason,
} from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { applyInvoiceAction } from './invoice-transitions.js';
import { createInvoice, type InvoiceInput } from './invoices.js';
import { refused } from './problems.js';
import { portalStatementPdf } from './statements.js';

/**
 * The portal session's subcontractor, refused with 403 unless it may still use the portal (access on, not archived,
 * not deleted): read on every portal call, so an edit, an archive or a delete ends access at once, before identity
 * has ended the session.
 */
export async function portalSubcontractor(
  trx: Knex.Transaction,
  subcontractorId: string,
): Promise<SubcontractorRecord> {
  const subcontractor = z.uuid().safeParse(subcontractorId).success
    ? await new SubcontractorStore(trx).findAny(subcontractorId)
    : undefined;
  if (!subcontractor) throw problems.notFound('Subcontractor not found');
  if (!portalAccessOpen(subcontractor))
    throw new HttpProblem(403, 'portal_access_ended', PORTAL_ACCESS_ENDED);
  return subcontractor;
}

/** Refuses a portal session whose subcontractor may no longer use the portal (see portalSubcontractor). */
function requirePortalAccess(deps: CisDeps, tenantId: string, subcontractorId: string): Promise<void> {
  return deps.inTenant(tenantId, async (trx) => {
    await portalSubcontractor(trx, subcontractorId);
  });
}

/**
 * A portal session's own records: its subcontractor, its newest 200 invoices (not drafts) and newest 120 issued
 * statements.
 */
export function portalRecords(deps: CisDeps, tenantId: string, subcontractorId: string) {
  return deps.inTenant(tenantId, async (trx) => {
    const subcontractor = await portalSubcontractor(trx, subcontractorId);
    const [invoices, statements] = await Promise.all([
      new InvoiceStore(trx).ofPortal(subcontractorId),
      new StatementStore(trx).issuedOf(subcontractorId, PORTAL_STATEMENTS_MAX),
    ]);
    return { subcontractor, invoices, statements };
  });
}

/**
 * One of the subcontractor's own invoices (drafts excepted, as in its list); any other id (another subcontractor's,
 * another tenant's, a draft, a deleted one) is 404 Invoice not found.
 */
export function portalInvoice(deps: CisDeps, tenantId: string, subcontractorId: string, invoiceId: string) {
  return deps.inTenant(tenantId, async (trx) => {
    await portalSubcontractor(trx, subcontractorId);
    const invoice = z.uuid().safeParse(invoiceId).success
      ? await new InvoiceStore(trx).find(invoiceId)
      : undefined;
    if (!invoice || invoice.subcontractorId !== subcontractorId || invoice.status === 'draft')
      throw problems.notFound('Invoice not found');
    return invoice;
  });
}

/** The subcontractor's own invoice, submitted through the portal (it waits as Portal Pending). */
export async function submitPortalInvoice(
  deps: CisDeps,
  actor: Actor,
  subcontractorId: string,
  input: Omit<InvoiceInput, 'subcontractorId'>,
) {
  await requirePortalAccess(deps, actor.tenantId, subcontractorId);
  return createInvoice(deps, actor, { ...input, subcontractorId }, 'portal');
}

/** One of the subcontractor's issued statements as a PDF. */
export async function portalStatement(
  deps: CisDeps,
  actor: Actor,
  subcontractorId: string,
  statementId: string,
) {
  await requirePortalAccess(deps, actor.tenantId, subcontractorId);
  return portalStatementPdf(deps, actor, subcontractorId, statementId);
}

/** A rejection as staff see it answered: the invoice, and whether its subcontractor has been e-mailed. */
export interface RejectionOutcome {
  invoice: InvoiceRecord;
  emailSent: boolean;
}

/**
 * Staff reject a portal-submitted invoice with a reason (issue 13): it becomes Rejected with the reason, who and
 * when, then its subcontractor is e-mailed the reason from the contractor (the e-mail is retried by the notification
 * service; one that cannot be handed over, or that the relay refuses for good, leaves the rejection in place and
 * answers `emailSent: false`).
 */
export async function rejectPortalInvoice(
  deps: CisDeps,
  actor: Actor,
  id: string,
  reasonGiven: unknown,
): Promise<RejectionOutcome> {
  const valid = validateRejectionReason(reasonGiven);
  if (!valid.ok) throw problems.badRequest(valid.error, [{ field: 'body.reason', message: valid.error }]);
  const result = await applyInvoiceAction(deps, actor, [id], 'reject', { reason: valid.reason });
  const failure = result.failed[0];
  if (failure)
    throw failure.error === 'Invoice not found' ? problems.notFound(failure.error) : refused(failure.error);
  const invoice = result.rows[0];
  if (!invoice) throw problems.notFound('Invoice not found');
  return { invoice, emailSent: await emailRejection(deps, actor.tenantId, invoice, valid.reason) };
}

/** Tells the subcontractor why its invoice was rejected; answers whether the e-mail is on its way. */
async function emailRejection(
  deps: CisDeps,
  tenantId: string,
  invoice: InvoiceRecord,
  reason: string,
): Promise<boolean> {
  const { subcontractor, settings } = await deps.inTenant(tenantId, async (trx) => ({
    subcontractor: await new SubcontractorStore(trx).findAny(invoice.subcontractorId),
    settings: await new SettingsStore(trx).load(tenantId),
  }));
  if (!subcontractor?.email) return false;
  const sender = contractorSender(settings, tenantId);
  const { subject, text } = rejectionEmail({
    subcontractorName: subcontractor.name,
    contractorName: sender.fromName,
    invoiceNumber: invoice.invoiceNumber,
    reason,
  });
  try {
    const mail = await deps.mailer.send({
      tenantId,
      to: subcontractor.email,
      ...sender,
      subject,
      text,
      idempotencyKey: `invoice-rejected:${invoice.id}`,
      category: 'cis-invoice-rejected',
    });
    // Delivered, or waiting for the notification service's next attempt; `failed` is the relay's final refusal.
    return mail.status !== 'failed';
  } catch (error) {
    // The client's own message names the notification service's internal address: it stays in the log.
    deps.logger.warn({ err: error, invoiceId: invoice.id }, 'rejection email not handed over');
    return false;
  }
}
