import type { Knex } from '@workspace/kit';
import type { EmailStatus } from '../domain/delivery.js';
import type { OutgoingAttachment, OutgoingEmail } from '../clients/smtp-mailer.js';

interface EmailRow {
  email_id: string;
  tenant_id: string;
  idempotency_key: string | null;
  request_hash: string;
  category: string | null;
  from_address: string;
  to_addresses: string[];
  cc_addresses: string[];
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: EmailStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  message_id: string;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An e-mail's record without its content. */
export interface EmailRecord {
  id: string;
  tenantId: string;
  idempotencyKey: string | null;
  requestHash: string;
  category: string | null;
  recipients: string[];
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  messageId: string;
  sentAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewEmail {
  id: string;
  tenantId: string;
  idempotencyKey?: string;
  requestHash: string;
  category?: string;
  email: OutgoingEmail;
  status: 'queued' | 'sending';
}

const RECORD_COLUMNS = [
  'email_id',
  'tenant_id',
  'idempotency_key',
  'request_hash',
  'category',
  'to_addresses',
  'cc_addresses',
  'status',
  'attempts',
  'last_error',
  'next_attempt_at',
  'message_id',
  'sent_at',
  'created_at',
  'updated_at',
] as const;

type RecordRow = Pick<EmailRow, (typeof RECORD_COLUMNS)[number]>;

const toRecord = (row: RecordRow): EmailRecord => ({
  id: row.email_id,
  tenantId: row.tenant_id,
  idempotencyKey: row.idempotency_key,
  requestHash: row.request_hash,
  category: row.category,
  recipients: [...row.to_addresses, ...row.cc_addresses],
  status: row.status,
  attempts: row.attempts,
  lastError: row.last_error,
  nextAttemptAt: row.next_attempt_at,
  messageId: row.message_id,
  sentAt: row.sent_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The tenant's e-mails; every method runs inside `withTenant`, so row-level security scopes it as well. */
export class EmailStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** Inserts the e-mail and its attachments; undefined when the tenant already has one with this idempotency key. */
  async insert(email: NewEmail): Promise<EmailRecord | undefined> {
    const rows = await this.trx('emails')
      .insert({
        email_id: email.id,
        tenant_id: email.tenantId,
        idempotency_key: email.idempotencyKey ?? null,
        request_hash: email.requestHash,
        category: email.category ?? null,
        from_address: email.email.from,
        to_addresses: email.email.to,
        cc_addresses: email.email.cc,
        reply_to: email.email.replyTo ?? null,
        subject: email.email.subject,
        text_body: email.email.text,
        html_body: email.email.html ?? null,
        status: email.status,
        message_id: email.email.messageId,
      })
      .onConflict(this.trx.raw('(tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL'))
      .ignore()
      .returning<RecordRow[]>(RECORD_COLUMNS);
    const inserted = rows[0];
    if (!inserted) return undefined;
    if (email.email.attachments.length > 0) {
      await this.trx('email_attachments').insert(
        email.email.attachments.map((attachment, position) => ({
          email_id: email.id,
          position,
          tenant_id: email.tenantId,
          filename: attachment.filename,
          content_type: attachment.contentType,
          content: attachment.content,
          size: attachment.content.length,
        })),
      );
    }
    return toRecord(inserted);
  }

  async byId(id: string): Promise<EmailRecord | undefined> {
    const row = await this.trx('emails')
      .where({ email_id: id })
      .first<RecordRow | undefined>([...RECORD_COLUMNS]);
    return row ? toRecord(row) : undefined;
  }

  async byIdempotencyKey(key: string): Promise<EmailRecord | undefined> {
    const row = await this.trx('emails')
      .where({ idempotency_key: key })
      .first<RecordRow | undefined>([...RECORD_COLUMNS]);
    return row ? toRecord(row) : undefined;
  }

  /**
   * Locks the e-mail and, unless it is already final, counts the attempt about to be made and marks it `sending`.
   * Returns the record and the message to send, or just the record when there is nothing to send.
   */
  async beginAttempt(id: string): Promise<{ record: EmailRecord; email?: OutgoingEmail } | undefined> {
    const row = await this.trx<EmailRow>('emails').where({ email_id: id }).forUpdate().first();
    if (!row) return undefined;
    if (row.status === 'sent' || row.status === 'failed') return { record: toRecord(row) };
    const [updated] = await this.trx('emails')
      .where({ email_id: id })
      .update({
        status: 'sending',
        attempts: row.attempts + 1,
        next_attempt_at: null,
        updated_at: this.trx.fn.now(),
      })
      .returning<RecordRow[]>(RECORD_COLUMNS);
    const attachments = await this.trx('email_attachments')
      .select<{ filename: string; content_type: string; content: Buffer }[]>(
        'filename',
        'content_type',
        'content',
      )
      .where({ email_id: id })
      .orderBy('position');
    return {
      record: toRecord(updated ?? row),
      email: {
        from: row.from_address,
        to: row.to_addresses,
        cc: row.cc_addresses,
        ...(row.reply_to ? { replyTo: row.reply_to } : {}),
        subject: row.subject,
        text: row.text_body,
        ...(row.html_body ? { html: row.html_body } : {}),
        messageId: row.message_id,
        attachments: attachments.map((attachment): OutgoingAttachment => ({
          filename: attachment.filename,
          contentType: attachment.content_type,
          content: attachment.content,
        })),
      },
    };
  }

  async finish(
    id: string,
    outcome:
      | { status: 'sent' }
      | { status: 'retrying'; error: string; nextAttemptAt: Date }
      | { status: 'failed'; error: string },
  ): Promise<EmailRecord> {
    const [row] = await this.trx('emails')
      .where({ email_id: id })
      .update({
        status: outcome.status,
        last_error: outcome.status === 'sent' ? null : outcome.error,
        next_attempt_at: outcome.status === 'retrying' ? outcome.nextAttemptAt : null,
        ...(outcome.status === 'sent' ? { sent_at: this.trx.fn.now() } : {}),
        updated_at: this.trx.fn.now(),
      })
      .returning<RecordRow[]>(RECORD_COLUMNS);
    if (!row) throw new Error(`email ${id} disappeared during its attempt`);
    return toRecord(row);
  }
}

/** The retry worker's queue (no row-level security: it holds only ids and due times). */
export const deliveryQueue = {
  async schedule(trx: Knex.Transaction, emailId: string, tenantId: string, dueAt: Date): Promise<void> {
    await trx('delivery_queue')
      .insert({ email_id: emailId, tenant_id: tenantId, due_at: dueAt })
      .onConflict('email_id')
      .merge(['due_at']);
  },

  async remove(trx: Knex.Transaction, emailId: string): Promise<void> {
    await trx('delivery_queue').where({ email_id: emailId }).delete();
  },

  /**
   * Claims up to `limit` due e-mails for this worker: their due time moves `leaseMs` ahead, so no other replica
   * takes them while this one works (SKIP LOCKED lets concurrent claims pass each other), and a worker that dies
   * mid-attempt only delays them by the lease.
   */
  async claimDue(db: Knex, limit: number, leaseMs: number): Promise<{ emailId: string; tenantId: string }[]> {
    const result = await db.raw<{ rows: { email_id: string; tenant_id: string }[] }>(
      `UPDATE delivery_queue SET due_at = now() + make_interval(secs => ?)
        WHERE email_id IN (
          SELECT email_id FROM delivery_queue WHERE due_at <= now() ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED)
        RETURNING email_id, tenant_id`,
      [leaseMs / 1000, limit],
    );
    return result.rows.map((row) => ({ emailId: row.email_id, tenantId: row.tenant_id }));
  },
};
