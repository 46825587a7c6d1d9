import type { BackgroundWorker } from '@workspace/kit';
import { attemptDelivery, type AttemptDeps } from '../commands/attempt-delivery.js';
import { deliveryQueue, type EmailRecord } from '../db/emails.store.js';

export interface DeliveryOptions extends AttemptDeps {
  /** The longest one attempt may take; the worker's claim on an e-mail lasts well beyond it. */
  attemptTimeoutMs: number;
  pollIntervalMs: number;
  concurrency: number;
}

/**
 * Sends e-mails and records what happened: one attempt at a time per e-mail, retries on the policy's schedule, an
 * event when an e-mail is sent or fails for good. The retry worker runs in every replica; replicas share the work
 * through `delivery_queue` claims.
 */
export class DeliveryWorker implements BackgroundWorker {
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

  /** One attempt at the e-mail, recorded (commands/attempt-delivery.ts). */
  attempt(tenantId: string, emailId: string): Promise<EmailRecord | undefined> {
    return attemptDelivery(this.options, tenantId, emailId);
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
