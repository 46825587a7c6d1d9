import { recordEvent, withTenant, type BackgroundWorker, type Knex, type Logger } from '@workspace/kit';
import { notificationEvents } from '@workspace/proto';
import { deliveryQueue, EmailStore, type EmailRecord } from './db/emails.js';
import { recipientDomains } from './domain/addresses.js';
import { describeSmtpError, failureOutcome, responseCodeOf, type RetryPolicy } from './domain/delivery.js';
import type { Mailer } from './mailer.js';

export interface DeliveryOptions {
  db: Knex;
  mailer: Mailer;
  logger: Logger;
  /** CloudEvents source of the events. */
  source: string;
  policy: RetryPolicy;
  /** The longest one attempt may take; the worker's claim on an e-mail lasts well beyond it. */
  attemptTimeoutMs: number;
  pollIntervalMs: number;
  concurrency: number;
  /** Blanked out of stored errors. */
  secrets: (string | undefined)[];
}

/**
 * Sends e-mails and records what happened: one attempt at a time per e-mail, retries on the policy's schedule, an
 * event when an e-mail is sent or fails for good. The retry worker runs in every replica; replicas share the work
 * through `delivery_queue` claims.
 */
export class Delivery implements BackgroundWorker {
  readonly name = 'email-delivery';
  private readonly controller = new AbortController();
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private pendingWake = false;
  private readonly leaseMs: number;

  constructor(private readonly options: DeliveryOptions) {
    this.leaseMs = options.attemptTimeoutMs * 2 + 30_000;
  }

  /** How long an e-mail stays claimed by the attempt under way, so the worker leaves it alone. */
  get claimMs(): number {
    return this.leaseMs;
  }

  /**
   * Makes one attempt at the e-mail (unless it is already sent or failed) and records the outcome: `sent`, or
   * `retrying` with its next due time, or `failed` when the server refused it for good or the attempts ran out.
   * Never throws for an SMTP failure; a database failure propagates (the e-mail stays claimed until the lease
   * ends, then the worker tries again).
   */
  async attempt(tenantId: string, emailId: string): Promise<EmailRecord | undefined> {
    const { db, mailer, logger, policy } = this.options;
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
          this.options.source,
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
        logger.info(
          { tenantId, emailId, attempts: record.attempts, category: record.category },
          'email sent',
        );
        return sent;
      }
      const error = describeSmtpError(failure, this.options.secrets);
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
        this.options.source,
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

  /** Claims the e-mails that are due and attempts them; returns how many it claimed. */
  async runOnce(): Promise<number> {
    const claimed = await deliveryQueue.claimDue(this.options.db, this.options.concurrency, this.leaseMs);
    await Promise.all(
      claimed.map(async ({ tenantId, emailId }) => {
        try {
          await this.attempt(tenantId, emailId);
        } catch (error) {
          this.options.logger.error(
            { err: error, tenantId, emailId },
            'delivery attempt could not be recorded',
          );
        }
      }),
    );
    return claimed.length;
  }

  /** Starts the retry worker: it looks for due e-mails every poll interval, or at once when woken. */
  start(): void {
    this.loop ??= this.run();
  }

  /** Asks the worker to look now (an e-mail was queued without a first attempt). */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.pendingWake = true;
  }

  /** Stops the worker after the attempts under way have been recorded. */
  async stop(): Promise<void> {
    this.controller.abort();
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { signal } = this.controller;
    let failures = 0;
    while (!signal.aborted) {
      let claimed = 0;
      try {
        claimed = await this.runOnce();
        failures = 0;
      } catch (error) {
        failures += 1;
        this.options.logger.error({ err: error, failures }, 'delivery worker could not claim e-mails');
      }
      // A full batch means more may be due: go again at once. Otherwise wait, longer after repeated failures.
      if (claimed < this.options.concurrency || failures > 0) {
        await this.idle(this.options.pollIntervalMs * Math.min(2 ** failures, 12));
      }
    }
  }

  private idle(ms: number): Promise<void> {
    if (this.pendingWake || this.controller.signal.aborted) {
      this.pendingWake = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    }).then(() => {
      this.wakeUp = undefined;
    });
  }
}
