import { recordEvent, withTenant, type Knex, type Logger, type NewEvent } from '@workspace/kit';
import { notificationEvents, type EventDefinition } from '@workspace/proto';
import type { Mailer } from '../clients/smtp-mailer.js';
import { deliveryQueue, EmailStore, type ContentCipher, type EmailRecord } from '../db/emails.store.js';
import { recipientDomains } from '../domain/addresses.js';
import { describeSmtpError, failureOutcome, responseCodeOf, type RetryPolicy } from '../domain/delivery.js';

export interface AttemptDeps {
  db: Knex;
  mailer: Mailer;
  /** Opens the e-mail's sealed content for the attempt. */
  cipher: ContentCipher;
  logger: Logger;
  /** CloudEvents source of the events. */
  source: string;
  policy: RetryPolicy;
  /** Blanked out of stored errors. */
  secrets: (string | undefined)[];
}

/**
 * Makes one attempt at the e-mail (unless it is already sent or failed) and records the outcome: `sent`, or
 * `retrying` with its next due time, or `failed` when the server refused it for good, the attempts ran out or its
 * sealed content cannot be opened (no retry would help). A final outcome drops the e-mail's content
 * (EmailStore.finish).
 * Never throws for an SMTP failure; a database failure propagates (the e-mail stays claimed until the lease
 * ends, then the worker tries again).
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  tenantId: string,
  emailId: string,
): Promise<EmailRecord | undefined> {
  const { db, mailer, cipher, logger, policy } = deps;
  const started = await withTenant(db, tenantId, (trx) => new EmailStore(trx, cipher).beginAttempt(emailId));
  if (!started) return undefined;
  if (!started.email && started.unreadable === undefined) {
    await withTenant(db, tenantId, (trx) => deliveryQueue.remove(trx, emailId));
    return started.record;
  }
  const record = started.record;
  let failure: unknown;
  if (started.email) {
    try {
      await mailer.send(started.email);
    } catch (error) {
      failure = error;
    }
  }
  return withTenant(db, tenantId, async (trx) => {
    const store = new EmailStore(trx, cipher);
    const event = {
      emailId,
      category: record.category ?? '',
      idempotencyKey: record.idempotencyKey ?? '',
      recipientDomains: recipientDomains(record.recipients),
      attempts: record.attempts,
    };
    /** Ends the e-mail's delivery for good and records its event. */
    const settle = async <Event extends EventDefinition>(
      finish: { status: 'sent' } | { status: 'failed'; error: string },
      definition: Event,
      data: NewEvent<Event['schema']>['data'],
    ) => {
      const settled = await store.finish(emailId, finish);
      await deliveryQueue.remove(trx, emailId);
      // The message id, the idempotency key and the SMTP server's error text come from outside (the SMTP server,
      // the caller): masked, never refused, so the outcome is always recorded (docs/privacy.md).
      await recordEvent(
        trx,
        deps.source,
        definition,
        { tenantId, aggregateId: emailId, data },
        { sensitiveText: 'mask' },
      );
      return settled;
    };
    if (failure === undefined && started.unreadable === undefined) {
      const sent = await settle({ status: 'sent' }, notificationEvents.emailSent, {
        ...event,
        messageId: record.messageId,
      });
      logger.info({ tenantId, emailId, attempts: record.attempts, category: record.category }, 'email sent');
      return sent;
    }
    const error = started.unreadable ?? describeSmtpError(failure, deps.secrets);
    const outcome =
      started.unreadable === undefined
        ? failureOutcome(policy, record.attempts, responseCodeOf(failure), new Date())
        : { status: 'failed' as const };
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
    const failed = await settle({ status: 'failed', error }, notificationEvents.emailFailed, {
      ...event,
      reason: error,
    });
    logger.error({ tenantId, emailId, attempts: record.attempts, error }, 'email failed');
    return failed;
  });
}
