import { problems, sha256Hex, withTenant, type Knex } from '@workspace/kit';
import { deliveryQueue, EmailStore, type ContentCipher, type EmailRecord } from '../db/emails.store.js';
import { parseMailbox, senderOf } from '../domain/addresses.js';
import { isFinal } from '../domain/delivery.js';

/** A send request as the route parsed it (addresses as lists, attachments in base64). */
export interface SendEmailRequest {
  tenantId: string;
  to: string[];
  cc?: string[] | undefined;
  replyTo?: string | undefined;
  /** The name the recipient sees as the sender (e.g. the contractor's); MAIL_FROM's name otherwise. */
  fromName?: string | undefined;
  /** The address the caller would send from: used only on a domain set up to send, else it becomes the Reply-To. */
  fromAddress?: string | undefined;
  subject: string;
  text: string;
  html?: string | undefined;
  attachments?: { filename: string; contentType: string; contentBase64: string }[] | undefined;
  idempotencyKey?: string | undefined;
  category?: string | undefined;
  reference?: string | undefined;
  /** The caller waits for the first attempt: the e-mail is not due for the worker until that attempt's claim ends. */
  waitForFirstAttempt: boolean;
}

export interface SendEmailDeps {
  db: Knex;
  /** Seals the subject, bodies and attachments before they are stored. */
  cipher: ContentCipher;
  /** The platform's sender (MAIL_FROM): the From address of every e-mail not on a sending domain. */
  mailFrom: string;
  /** The domains set up to send (MAIL_SENDING_DOMAINS). */
  sendingDomains: readonly string[];
  /** The domain of the Message-ID header. */
  messageIdDomain: string;
  /** The delivery worker: one attempt at an e-mail, a nudge to look for due ones, and how long an attempt holds one. */
  delivery: {
    attempt(tenantId: string, emailId: string): Promise<EmailRecord | undefined>;
    wake(): void;
    readonly claimMs: number;
  };
}

/** What makes two requests the same e-mail (everything but how the caller wants to wait). */
function requestHash(body: SendEmailRequest): string {
  return sha256Hex(JSON.stringify({ ...body, waitForFirstAttempt: undefined }));
}

/**
 * Sends an e-mail: stores and queues it, then tries it once unless the caller does not wait (the worker then takes
 * it at once). A repeat of an idempotency key answers the first e-mail's state (200); the same key for a different
 * e-mail is a 409. The status is 201 when the e-mail reached a final state, else 202.
 */
export async function sendEmail(
  deps: SendEmailDeps,
  id: string,
  body: SendEmailRequest,
): Promise<{ status: 200 | 201 | 202; record: EmailRecord }> {
  const hash = requestHash(body);
  const outcome = await queueEmail(deps, { id, requestHash: hash, body });
  if (outcome.existing) {
    if (outcome.existing.requestHash !== hash) {
      throw problems.conflict(
        'This idempotency key was already used for a different e-mail.',
        'idempotency_key_reused',
      );
    }
    return { status: 200, record: outcome.existing };
  }
  if (!body.waitForFirstAttempt) {
    deps.delivery.wake();
    return { status: 202, record: outcome.created };
  }
  const attempted = (await deps.delivery.attempt(body.tenantId, id)) ?? outcome.created;
  return { status: isFinal(attempted.status) ? 201 : 202, record: attempted };
}

/**
 * Stores a new e-mail and queues it (due now, or once the first attempt's claim ends when the caller waits for it);
 * an idempotency key already used answers that e-mail instead.
 */
function queueEmail(
  { db, cipher, mailFrom, sendingDomains, messageIdDomain, delivery }: SendEmailDeps,
  { id, requestHash: hash, body }: { id: string; requestHash: string; body: SendEmailRequest },
): Promise<{ created: EmailRecord; existing?: undefined } | { existing: EmailRecord; created?: undefined }> {
  const platform = parseMailbox(mailFrom);
  if (!platform) throw new Error('MAIL_FROM is not a mailbox');
  const sender = senderOf(platform, sendingDomains, body);
  return withTenant(db, body.tenantId, async (trx) => {
    const store = new EmailStore(trx, cipher);
    const created = await store.insert({
      id,
      tenantId: body.tenantId,
      ...(body.idempotencyKey ? { idempotencyKey: body.idempotencyKey } : {}),
      requestHash: hash,
      ...(body.category ? { category: body.category } : {}),
      ...(body.reference ? { reference: body.reference } : {}),
      status: 'queued',
      email: {
        from: sender.from,
        to: body.to,
        cc: body.cc ?? [],
        ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
        subject: body.subject,
        text: body.text,
        ...(body.html ? { html: body.html } : {}),
        messageId: `<${id}@${messageIdDomain}>`,
        attachments: (body.attachments ?? []).map((item) => ({
          filename: item.filename,
          contentType: item.contentType,
          content: Buffer.from(item.contentBase64, 'base64'),
        })),
      },
    });
    if (!created) {
      const existing = body.idempotencyKey ? await store.byIdempotencyKey(body.idempotencyKey) : undefined;
      if (!existing) throw new Error('idempotency conflict without an existing e-mail');
      return { existing };
    }
    // The first attempt (below) holds the e-mail for as long as a claim lasts; otherwise it is due now.
    const dueAt = new Date(Date.now() + (body.waitForFirstAttempt ? delivery.claimMs : 0));
    await deliveryQueue.schedule(trx, id, body.tenantId, dueAt);
    return { created };
  });
}
