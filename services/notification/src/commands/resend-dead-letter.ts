import { HttpProblem, problems, recordEvent, withTenant, type Knex } from '@workspace/kit';
import { notificationEvents } from '@workspace/proto';
import { deliveryQueue, EmailStore, type ContentCipher, type EmailRecord } from '../db/emails.store.js';
import { recipientDomains } from '../domain/addresses.js';

export interface ResendDeps {
  db: Knex;
  /** Opens the stored content, to check it is still there to send. */
  cipher: ContentCipher;
  /** CloudEvents source of the events. */
  source: string;
  /** EMAIL_RETENTION_DAYS: a dead letter final for longer is due for deletion and is not resent. */
  retentionDays: number;
  /** The delivery worker, told to look at once. */
  delivery: { wake(): void };
  now?: () => Date;
}

export interface ResendRequest {
  tenantId: string;
  /** The sender's category: a module resends only its own e-mails. */
  category: string;
  id: string;
  /** Who asked (the person's id, as the sending module knows them). */
  resentBy: string;
  /** New recipients replacing the stored To (a corrected address); the stored ones when absent. */
  to?: readonly string[] | undefined;
}

/** The problem a dead letter whose content is no longer kept answers (410). */
export const DEAD_LETTER_GONE =
  'This e-mail can no longer be resent: its content is no longer kept (it passed the retention period). Send a new one instead.';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Resends a dead letter from its stored, sealed content: back on the delivery queue, due now, with fresh retries
 * (the worker's attempts, as a new e-mail's), recorded as resent (when, by whom) with a `notification.email.resent`
 * event through the outbox; to new recipients when the sender gives them (a corrected address). Its outcome is the delivery's: sent, or a dead letter again after its retries.
 * - Another tenant's id, or another category's: 404, as an unknown one.
 * - Already resent and not failed since (on its way, or delivered): nothing is sent again; its state answers (200).
 * - Not a dead letter (never failed): 409. Content gone or past EMAIL_RETENTION_DAYS: 410.
 */
export async function resendDeadLetter(
  deps: ResendDeps,
  request: ResendRequest,
): Promise<{ status: 200 | 202; record: EmailRecord }> {
  const now = deps.now?.() ?? new Date();
  const outcome = await withTenant(deps.db, request.tenantId, async (trx) => {
    const store = new EmailStore(trx, deps.cipher);
    const found = await store.lockForResend(request.id);
    if (!found || found.record.category !== request.category) {
      throw problems.notFound('Dead letter not found.');
    }
    const { record } = found;
    if (record.status !== 'failed') {
      if (record.resentAt) return { status: 200 as const, record };
      throw problems.conflict('This e-mail has not failed: there is nothing to resend.', 'not_dead_letter');
    }
    const finalSince = record.deadLetteredAt ?? record.updatedAt;
    if (!found.sendable || now.getTime() - finalSince.getTime() > deps.retentionDays * DAY_MS) {
      throw new HttpProblem(410, 'dead_letter_expired', DEAD_LETTER_GONE);
    }
    const resent = await store.markResent(request.id, request.resentBy, request.to);
    await deliveryQueue.schedule(trx, request.id, request.tenantId, now);
    // The idempotency key and the uid come from the caller: masked, never refused (docs/privacy.md).
    await recordEvent(
      trx,
      deps.source,
      notificationEvents.emailResent,
      {
        tenantId: request.tenantId,
        aggregateId: request.id,
        data: {
          emailId: request.id,
          category: record.category ?? '',
          idempotencyKey: record.idempotencyKey ?? '',
          recipientDomains: recipientDomains(resent.recipients),
          attempts: record.attempts,
          resentBy: request.resentBy,
          resendCount: resent.resendCount,
        },
      },
      { sensitiveText: 'mask' },
    );
    return { status: 202 as const, record: resent };
  });
  if (outcome.status === 202) deps.delivery.wake();
  return outcome;
}
