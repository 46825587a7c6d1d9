import { HttpProblem, problems, type Knex } from '@workspace/kit';
import { z } from 'zod';
import type { CisDeps } from '../cis-deps.js';
import { InvoiceStore } from '../db/invoices.store.js';
import { StatementStore } from '../db/statements.store.js';
import { SubcontractorStore, type SubcontractorRecord } from '../db/subcontractors.store.js';
import { PORTAL_ACCESS_ENDED, PORTAL_STATEMENTS_MAX, portalAccessOpen } from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { createInvoice, type InvoiceInput } from './invoices.js';
import { portalStatementPdf } from './statements.js';

/**
 * The portal session's subcontractor, refused with 403 unless it may still use the portal (access on, not archived,
 * not deleted): read on every portal call, so an edit, an archive or a delete ends access at once, before identity
 * has ended the session.
 */
async function portalSubcontractor(
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
