import { HttpProblem, problems } from '@workspace/kit';
import { NotificationRequestError, type DeadLetter } from '@workspace/notification';
import type { CisDeps } from '../cis-deps.js';
import { StatementStore } from '../db/statements.store.js';
import { SubcontractorStore } from '../db/subcontractors.store.js';
import type { Actor } from '../events/audit.js';
import { refused } from './problems.js';

/**
 * An e-mail of cis the notification service could not deliver after its retries (a dead letter, ADR 0052), and what
 * became of it when it was resent (docs/notifications.md "Resending a dead letter").
 */
export interface MailFailure {
  /** When it failed for good (ISO); its last failure, when a resend failed too. */
  failedAt: string;
  /** The mail server's last answer, e.g. '550 5.1.1 mailbox unavailable'. */
  reason: string;
  /** failed: not delivered (offer Resend); resending: resent, on its way; delivered: resent and delivered. */
  state: DeadLetter['state'];
  /** When it was last resent (ISO), if it was. */
  resentAt: string | null;
  /** When the resend was delivered (ISO). */
  deliveredAt: string | null;
}

/** What the resend of a statement's e-mail answers when it cannot be done (texts a user reads). */
export const RESEND_MESSAGES = {
  nothingToResend: 'This statement has no undelivered email to resend.',
  expired:
    'This email can no longer be resent: it is older than the email retention period. Issue the statement by email again.',
  unavailable: 'The email service is not available right now. Please try again shortly.',
} as const;

/** The categories cis sends under (the notification service's `category`). */
export const MAIL_CATEGORY = { invitation: 'portal-invite', statement: 'cis-statement' } as const;

const failure = (letter: DeadLetter): MailFailure => ({
  failedAt: letter.failedAt,
  reason: letter.lastError ?? 'The email could not be delivered',
  state: letter.state,
  resentAt: letter.resentAt,
  deliveredAt: letter.deliveredAt,
});

/**
 * The dead letters of these references in a category, by reference. When the notification service cannot answer,
 * none (logged): the screen shows what it has rather than failing.
 */
async function failuresOf(
  deps: CisDeps,
  tenantId: string,
  category: string,
  references: readonly string[],
): Promise<Map<string, MailFailure>> {
  if (references.length === 0) return new Map();
  try {
    const letters = await deps.mailer.deadLetters(tenantId, category, references);
    const found = new Map<string, MailFailure>();
    // Newest first: the first of a reference is its latest failure.
    for (const letter of letters) {
      if (letter.reference && !found.has(letter.reference)) found.set(letter.reference, failure(letter));
    }
    return found;
  } catch (error) {
    deps.logger.warn({ err: error, category }, 'dead letters not available');
    return new Map();
  }
}

/** The subcontractor's portal invitation that could not be delivered (and no later one was), if any. */
export async function invitationEmailFailure(
  deps: CisDeps,
  tenantId: string,
  subcontractorId: string,
): Promise<MailFailure | null> {
  const found = await failuresOf(deps, tenantId, MAIL_CATEGORY.invitation, [subcontractorId]);
  const latest = found.get(subcontractorId);
  // An invitation is never resent from its stored copy (its sign-in link lasted 15 minutes): a new one replaces it.
  return latest?.state === 'failed' ? latest : null;
}

/** The issued statements whose e-mail could not be delivered, by statement id. */
export function statementEmailFailures(
  deps: CisDeps,
  tenantId: string,
  statementIds: readonly string[],
): Promise<Map<string, MailFailure>> {
  return failuresOf(deps, tenantId, MAIL_CATEGORY.statement, statementIds);
}

/**
 * Resends the e-mail of an issued statement that could not be delivered (its dead letter) from the copy the
 * notification service keeps, PDF included, to the subcontractor's address as it is now: back on its way with fresh
 * retries, recorded as resent by this person.
 * A statement whose e-mail is already being resent, or was delivered since, answers that state and sends nothing.
 */
export async function resendStatementEmail(
  deps: CisDeps,
  actor: Actor,
  statementId: string,
): Promise<MailFailure> {
  const email = await deps.inTenant(actor.tenantId, async (trx) => {
    const statement = await new StatementStore(trx).find(statementId);
    if (!statement) throw problems.notFound('Statement not found');
    // Sent to the subcontractor's address as it is now: a wrong address corrected since is the usual fix.
    const subcontractor = await new SubcontractorStore(trx).find(statement.subcontractorId);
    if (!subcontractor) throw problems.notFound('Subcontractor not found');
    if (!subcontractor.email) throw refused(`${subcontractor.name} has no email address`, 'no_email');
    return subcontractor.email;
  });
  try {
    const [latest] = await deps.mailer.deadLetters(actor.tenantId, MAIL_CATEGORY.statement, [statementId]);
    if (!latest) throw refused(RESEND_MESSAGES.nothingToResend, 'nothing_to_resend');
    if (latest.state !== 'failed') return failure(latest);
    return failure(
      await deps.mailer.resendDeadLetter(
        actor.tenantId,
        MAIL_CATEGORY.statement,
        latest.id,
        actor.userId,
        email,
      ),
    );
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    if (error instanceof NotificationRequestError) {
      if (error.status === 410) throw new HttpProblem(410, 'email_expired', RESEND_MESSAGES.expired);
      // Purged between the two calls, or replaced by a later e-mail: nothing left to resend.
      if (error.status === 404 || error.status === 409) {
        throw refused(RESEND_MESSAGES.nothingToResend, 'nothing_to_resend');
      }
    }
    deps.logger.warn({ err: error, statementId }, 'statement email could not be resent');
    throw problems.unavailable(RESEND_MESSAGES.unavailable);
  }
}
