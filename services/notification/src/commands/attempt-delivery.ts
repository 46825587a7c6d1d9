import { recordEvent, withTenant, type Knex, type Logger } from '@workspace/kit';
import { notificationEvents } from '@workspace/proto';
import type { Mailer } from '../clients/smtp-mailer.js';
import { deliveryQueue, EmailStore, type EmailRecord } from '../db/emails.store.js';
import { recipientDomains } from '../domain/addresses.js';
import { describeSmtpError, failureOutcome, responseCodeOf, type RetryPolicy } from '../domain/delivery.js';

export interface AttemptDeps {
  db: Knex;
  mailer: Mailer;
  logger: Logger;
  /** CloudEvents source of the events. */
  source: string;
  policy: RetryPolicy;
  /** Blanked out of stored errors. */
  secrets: (string | undefined)[];
}

/**
 * Makes one attempt at the e-mail (unless it is already sent or failed) and records the outcome: `sent`, or
 * `retrying` with its next due time, or `failed` when the server refused it for good or the attempts ran out.
 * Never throws for an SMTP failure; a database failure propagates (the e-mail stays claimed until the lease
 * ends, then the worker tries again).
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  tenantId: string,
  emailId: string,
): Promise<EmailRecord | undefined> {
  const { db, mailer, logger, policy } = deps;
  const started = await withTenant(db, tenantId, (trx) => new EmailStore(trx).beginAttempt(emailId));
  if (!started) return undefined;
  if (!started.email) {
    await withTenant(db, tenantId, (trx) => deliveryQueue.remove(trx, emailId));
    return started.record;
  }
  const record = started.record;
  let failure: unknown;
  try {
    await mailer.send(started.email);
  } catch (error) {
    failure = error;
  }
  return withTenant(db, tenantId, async (trx) => {
    const store = new EmailStore(trx);
    const event = {
      emailId,
      category: record.category ?? '',
      idempotencyKey: record.idempotencyKey ?? '',
      recipientDomains: recipientDomains(record.recipients),
      attempts: record.attempts,
    };
    if (failure === undefined) {
      const sent = await store.finish(emailId, { status: 'sent' });
      await deliveryQueue.remove(trx, emailId);
      await recordEvent(
        trx,
        deps.source,
        notificationEvents.emailSent,
        {
          tenantId,
          aggregateId: emailId,
          data: { ...event, messageId: record.messageId },
        },
        // The message id and the idempotency key come from outside (the SMTP server, the caller): masked, never
        // refused, so a delivered e-mail is always recorded (docs/privacy.md).
        { sensitiveText: 'mask' },
      );
      logger.info({ tenantId, emailId, attempts: record.attempts, category: record.category }, 'email sent');
      return sent;
    }
    const error = describeSmtpError(failure, deps.secrets);
    const outcome = failureOutcome(policy, record.attempts, responseCodeOf(failure), new Date());
    if (outcome.status === 'retrying' && outcome.nextAttemptAt) {
      const retrying = await store.finish(emailId, {
        status: 'retrying',
        error,
        nextAttemptAt: outcome.nextAttemptAt,
      });
      await deliveryQueue.schedule(trx, emailId, tenantId, outcome.nextAttemptAt);
      logger.warn(
        { tenantId, emailId, attempts: record.attempts, error, nextAttemptAt: outcome.nextAttemptAt },
        'email not sent; will retry',
      );
      return retrying;
    }
    const failed = await store.finish(emailId, { status: 'failed', error });
    await deliveryQueue.remove(trx, emailId);
    await recordEvent(
      trx,
      deps.source,
      notificationEvents.emailFailed,
      {
        tenantId,
        aggregateId: emailId,
        data: { ...event, reason: error },
      },
      // The SMTP server's error text: masked, never refused, so the failure is always recorded.
      { sensitiveText: 'mask' },
    );
    logger.error({ tenantId, emailId, attempts: record.attempts, error }, 'email failed');
    return failed;
  });
}
