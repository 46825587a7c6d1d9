import { withTenant, type Knex } from '@workspace/kit';
import { deliveryQueue, EmailStore, type EmailRecord } from '../db/emails.store.js';
import type { SendEmailBody } from '../http/emails.schemas.js';

export interface QueueEmailDeps {
  db: Knex;
  /** The From of every e-mail (MAIL_FROM). */
  mailFrom: string;
  /** The domain of the Message-ID header. */
  messageIdDomain: string;
  /** How long the first attempt holds a new e-mail (the worker's claim). */
  claimMs: number;
}

/**
 * Stores a new e-mail and queues it (due now, or once the first attempt's claim ends when the caller waits for it);
 * an idempotency key already used answers that e-mail instead.
 */
export function queueEmail(
  { db, mailFrom, messageIdDomain, claimMs }: QueueEmailDeps,
  { id, requestHash: hash, body }: { id: string; requestHash: string; body: SendEmailBody },
): Promise<{ created: EmailRecord; existing?: undefined } | { existing: EmailRecord; created?: undefined }> {
  return withTenant(db, body.tenantId, async (trx) => {
    const store = new EmailStore(trx);
    const created = await store.insert({
      id,
      tenantId: body.tenantId,
      ...(body.idempotencyKey ? { idempotencyKey: body.idempotencyKey } : {}),
      requestHash: hash,
      ...(body.category ? { category: body.category } : {}),
      status: 'queued',
      email: {
        from: mailFrom,
        to: body.to,
        cc: body.cc ?? [],
        ...(body.replyTo ? { replyTo: body.replyTo } : {}),
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
    const dueAt = new Date(Date.now() + (body.waitForFirstAttempt ? claimMs : 0));
    await deliveryQueue.schedule(trx, id, body.tenantId, dueAt);
    return { created };
  });
}
