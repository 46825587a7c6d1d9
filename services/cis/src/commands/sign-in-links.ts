import type { CisDeps } from '../cis-deps.js';
import { contractorSender, mailRefused } from '../clients/mailer.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';
import { portalAccessOpen } from '../domain/index.js';
import { settingsOrDefaults } from './settings.js';

/**
 * The lines every portal link e-mail ends with (ADR 0055): where to ask for a fresh link later, and the contractor
 * code that page asks for on a device that has not signed in before (the tenant id the link carries).
 */
export function signInPageLines(magicLink: string): string[] {
  const page = new URL(magicLink);
  const code = page.searchParams.get('tid') ?? '';
  page.searchParams.delete('token');
  return [`Next time, ask for a new sign-in link at ${page.toString()}`, `Your contractor code: ${code}`];
}

/**
 * Sends a fresh portal sign-in link to the subcontractor of this tenant with this address, when there is one that
 * may use the portal (portal access on, neither archived nor deleted); otherwise nothing (ADR 0055). Called by
 * identity's queue of subcontractors' requests with a short-lived token holding only cis.portal.invite; the link
 * comes from identity's invitation route with that token, and the e-mail goes through the notification service as
 * the contractor (like the invitation), once per request (`requestId` is the idempotency key). An unreachable
 * identity or notification service throws, so identity retries the request; a refused e-mail is not retried.
 */
export async function sendSignInLink(
  deps: CisDeps,
  caller: { tenantId: string; authorization: string },
  input: { email: string; requestId: string },
): Promise<{ sent: boolean }> {
  const found = await deps.inTenant(caller.tenantId, async (trx) => {
    const subcontractor = await new SubcontractorStore(trx).holderOfEmail(input.email);
    if (!subcontractor || !portalAccessOpen(subcontractor)) return undefined;
    return { subcontractor, settings: await settingsOrDefaults(deps, trx, caller.tenantId) };
  });
  if (!found) return { sent: false };
  const { subcontractor, settings } = found;
  const link = await deps.identity.createPortalLink(caller.authorization, subcontractor.id);
  try {
    const mail = await deps.mailer.send({
      tenantId: caller.tenantId,
      to: subcontractor.email,
      ...contractorSender(settings, link.tenantName),
      subject: `Your sign-in link for ${link.tenantName}'s subcontractor portal`,
      text: [
        `Hello ${subcontractor.name},`,
        '',
        `You asked for a link to sign in to ${link.tenantName}'s subcontractor portal.`,
        '',
        `Sign in: ${link.magicLink}`,
        '',
        'The link expires in 15 minutes and can be used once. If you did not ask for it, you can ignore this email.',
        '',
        ...signInPageLines(link.magicLink),
      ].join('\n'),
      category: 'portal-sign-in',
      idempotencyKey: `portal-sign-in:${input.requestId}`,
    });
    return { sent: mail.delivered };
  } catch (error) {
    if (!mailRefused(error)) throw error;
    deps.logger.warn({ err: error, subcontractorId: subcontractor.id }, 'portal sign-in link email refused');
    return { sent: false };
  }
}
