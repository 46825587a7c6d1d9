import type { CisDeps } from '../cis-deps.js';

/** An e-mail of cis the notification service could not deliver after its retries (a dead letter, ADR 0052). */
export interface MailFailure {
  /** When it failed for good (ISO). */
  failedAt: string;
  /** The mail server's last answer, e.g. '550 5.1.1 mailbox unavailable'. */
  reason: string;
}

/** The categories cis sends under (the notification service's `category`). */
export const MAIL_CATEGORY = { invitation: 'portal-invite', statement: 'cis-statement' } as const;

const failure = (letter: { failedAt: string; lastError: string | null }): MailFailure => ({
  failedAt: letter.failedAt,
  reason: letter.lastError ?? 'The email could not be delivered',
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
  return found.get(subcontractorId) ?? null;
}

/** The issued statements whose e-mail could not be delivered, by statement id. */
export function statementEmailFailures(
  deps: CisDeps,
  tenantId: string,
  statementIds: readonly string[],
): Promise<Map<string, MailFailure>> {
  return failuresOf(deps, tenantId, MAIL_CATEGORY.statement, statementIds);
}
