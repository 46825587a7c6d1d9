import { randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { contractorSender } from '../clients/mailer.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';
import {
  inviteeExistsMessage,
  maskNino,
  maskUtr,
  validateNino,
  validateSubcontractorInput,
  validateUtr,
  type InviteeFields,
} from '../domain/index.js';
import type { Actor } from '../events/audit.js';
import { assertValid, refused } from './problems.js';
import { settingsOrDefaults } from './settings.js';
import { signInPageLines } from './sign-in-links.js';
import { assertNoDuplicate, guardingIdentity } from './subcontractor-identity.js';

/** Who to invite: an existing subcontractor, or a new one made from the invitation's fields. */
export type InviteInput = { subcontractorId: string } | InviteeFields;

export interface InviteOutcome {
  subcontractorId: string;
  magicLink: string;
  tenantName: string;
  emailSent: boolean;
}

interface Invitee {
  id: string;
  name: string;
  email: string;
  portalAccess: boolean;
}

/** An archived subcontractor cannot use the portal (commands/portal.ts), so it is not invited. */
export const ARCHIVED_NOT_INVITED = 'Archived subcontractors cannot be invited to the portal';

const NAME_AND_EMAIL_REQUIRED = 'Name and email are required';

/**
 * The person invited is already a live subcontractor (same email, or same UTR): 409 naming the record, with its id
 * and name (`existing`) so the invitation can be sent to it instead of creating a second record (ADR 0039).
 */
async function assertNotOnFile(trx: Knex.Transaction, email: string, utrHash: string | null): Promise<void> {
  const store = new SubcontractorStore(trx);
  const byUtr = utrHash ? await store.holderOf('utr', utrHash) : undefined;
  const byEmail = byUtr ? undefined : await store.holderOfEmail(email);
  const found = byUtr ?? byEmail;
  if (!found) return;
  const by = byUtr ? 'utr' : 'email';
  const message = inviteeExistsMessage(by, found.name);
  throw new HttpProblem(409, 'subcontractor_exists', message, undefined, {
    existing: { id: found.id, name: found.name, email: found.email },
    matchedBy: by,
  });
}

/**
 * A new subcontractor from an invitation (portal access, standard rate, its details incomplete until its address and
 * GDPR consent are filled in), with its audit entry; refused when the person is already on file.
 */
async function createInvitee(
  deps: CisDeps,
  actor: Actor & { canWrite: boolean },
  input: Exclude<InviteInput, { subcontractorId: string }>,
): Promise<Invitee> {
  const name = input.name.trim();
  const email = input.email.trim();
  if (name.length === 0 || email.length === 0) throw problems.badRequest(NAME_AND_EMAIL_REQUIRED);
  if (!actor.canWrite) throw problems.forbidden('This requires the cis.sub.write permission.');
  const errors = validateSubcontractorInput(
    {
      type: input.type,
      name,
      email,
      // The UTR is checked as the create form checks it (security review L17), when one is given.
      ...(input.utr.trim() ? { utr: input.utr } : {}),
      ...(input.type === 'individual' && input.nino ? { nino: input.nino } : {}),
      ...(input.type === 'company' && input.companyNumber ? { companyNumber: input.companyNumber } : {}),
    },
    'edit',
  );
  assertValid(
    Object.fromEntries(
      Object.entries(errors).filter(([field]) => ['name', 'email', 'utr', 'nino', 'type'].includes(field)),
    ),
  );
  const utr = input.utr.trim() ? validateUtr(input.utr).normalised : '';
  const nino = input.type === 'individual' && input.nino ? validateNino(input.nino).normalised : '';
  const companyNumber = input.type === 'company' ? input.companyNumber.replace(/\s+/g, '').toUpperCase() : '';
  const hashes = deps.identityHashes.hashes(actor.tenantId, { utr, nino, companyNumber });
  return guardingIdentity(deps, actor.tenantId, hashes, undefined, () =>
    deps.inTenant(actor.tenantId, async (trx) => {
      await assertNotOnFile(trx, email, hashes.utr);
      await assertNoDuplicate(trx, hashes);
      const id = randomUUID();
      await new SubcontractorStore(trx).insert({
        id,
        tenantId: actor.tenantId,
        type: input.type,
        name,
        email,
        ...(utr ? { utrEnc: deps.sealed.seal(utr), utrMasked: maskUtr(utr) } : {}),
        ...(nino ? { ninoEnc: deps.sealed.seal(nino), ninoMasked: maskNino(nino) } : {}),
        companyNumber,
        utrHash: hashes.utr,
        ninoHash: hashes.nino,
        crnHash: hashes.crn,
        detailsIncomplete: true,
        portalAccess: true,
        active: true,
        verificationStatus: 'standard',
        verificationRate: 20,
        createdBy: actor.userId,
        updatedBy: actor.userId,
      });
      await deps.audit.write(trx, actor, 'cis.subcontractor.created', {
        targetType: 'subcontractor',
        targetId: id,
        summary: `Subcontractor ${name} added by portal invitation`,
        details: { type: input.type, rate: 20 },
      });
      return { id, name, email, portalAccess: true };
    }),
  );
}

async function existingInvitee(deps: CisDeps, tenantId: string, id: string): Promise<Invitee> {
  const row = await deps.inTenant(tenantId, (trx) => new SubcontractorStore(trx).find(id));
  if (!row) throw problems.notFound('Subcontractor not found');
  if (!row.email) throw problems.badRequest(NAME_AND_EMAIL_REQUIRED);
  if (row.archived) throw refused(ARCHIVED_NOT_INVITED, 'archived');
  return row;
}

/**
 * Invites a subcontractor to the portal: creates it when needed, gets a magic link from identity (with the
 * caller's token), emails it through the notification service, grants portal access and records the invitation.
 * An email that cannot be handed over is not a failure: the link is answered for sharing by hand. Inviting a
 * subcontractor whose portal access was turned off turns it back on: the invitation is that decision (recorded in
 * its audit entry); an archived one is refused.
 */
export async function inviteSubcontractor(
  deps: CisDeps,
  actor: Actor & { canWrite: boolean; authorization: string },
  input: InviteInput,
): Promise<InviteOutcome> {
  const subcontractor =
    'subcontractorId' in input
      ? await existingInvitee(deps, actor.tenantId, input.subcontractorId)
      : await createInvitee(deps, actor, input);
  const link = await deps.identity.createPortalLink(actor.authorization, subcontractor.id);
  // Sent as the contractor (name, Reply-To, and its From address on a sending domain), as statements are.
  const settings = await deps.inTenant(actor.tenantId, (trx) =>
    settingsOrDefaults(deps, trx, actor.tenantId),
  );
  const mail = await deps.mailer
    .send({
      tenantId: actor.tenantId,
      to: subcontractor.email,
      ...contractorSender(settings, link.tenantName),
      subject: `${link.tenantName} has invited you to their subcontractor portal`,
      text: [
        `Hello ${subcontractor.name},`,
        '',
        `${link.tenantName} has invited you to their subcontractor portal, where you can see your invoices and payment and deduction statements.`,
        '',
        `Open the portal: ${link.magicLink}`,
        '',
        'The link expires in 15 minutes and can be used once.',
        '',
        ...signInPageLines(link.magicLink),
      ].join('\n'),
      category: 'portal-invite',
      // Its dead letter, if it cannot be delivered, is shown on the subcontractor (commands/mail-failures.ts).
      reference: subcontractor.id,
    })
    .catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'portal invitation email could not be handed over');
      return { delivered: false };
    });
  await deps.inTenant(actor.tenantId, async (trx) => {
    await new SubcontractorStore(trx).grantPortalAccess(subcontractor.id);
    await deps.audit.write(trx, actor, 'cis.subcontractor.invited', {
      targetType: 'subcontractor',
      targetId: subcontractor.id,
      summary: `Subcontractor ${subcontractor.name} invited to the portal${subcontractor.portalAccess ? '' : ' (portal access turned back on)'}`,
      details: {
        emailSent: mail.delivered,
        ...(subcontractor.portalAccess ? {} : { portalAccessRestored: true }),
      },
    });
  });
  return {
    subcontractorId: subcontractor.id,
    magicLink: link.magicLink,
    tenantName: link.tenantName,
    emailSent: mail.delivered,
  };
}
