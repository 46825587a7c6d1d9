import type { Knex } from '@workspace/kit';
import type { EmailStatus } from '../domain/delivery.js';
import type { OutgoingAttachment, OutgoingEmail } from '../clients/smtp-mailer.js';

interface EmailRow {
  email_id: string;
  tenant_id: string;
  idempotency_key: string | null;
  request_hash: string;
  category: string | null;
  reference: string | null;
  from_address: string;
  to_addresses: string[];
  cc_addresses: string[];
  reply_to: string | null;
  /** Written in clear by versions before migration 002; null since (ADR 0030). */
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  /** The subject and bodies, sealed ({@link SealedContent}); null once the e-mail is final. */
  content_sealed: string | null;
  status: EmailStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  message_id: string;
  sent_at: Date | null;
  dead_lettered_at: Date | null;
  resent_at: Date | null;
  resent_by: string | null;
  resend_count: number;
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
  /** The sender's own id of what the e-mail is about (a statement, a subcontractor), to find its dead letter. */
  reference: string | null;
  recipients: string[];
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  messageId: string;
  sentAt: Date | null;
  /** When it failed for good (a dead letter: its sealed content kept until the retention clean-up). */
  deadLetteredAt: Date | null;
  /** When the sender's module last put it back on the queue (a dead letter resent), and who asked; how often. */
  resentAt: Date | null;
  resentBy: string | null;
  resendCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewEmail {
  id: string;
  tenantId: string;
  idempotencyKey?: string;
  requestHash: string;
  category?: string;
  reference?: string;
  email: OutgoingEmail;
  status: 'queued' | 'sending';
}

const RECORD_COLUMNS = [
  'email_id',
  'tenant_id',
  'idempotency_key',
  'request_hash',
  'category',
  'reference',
  'to_addresses',
  'cc_addresses',
  'status',
  'attempts',
  'last_error',
  'next_attempt_at',
  'message_id',
  'sent_at',
  'dead_lettered_at',
  'resent_at',
  'resent_by',
  'resend_count',
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
  reference: row.reference,
  recipients: [...row.to_addresses, ...row.cc_addresses],
  status: row.status,
  attempts: row.attempts,
  lastError: row.last_error,
  nextAttemptAt: row.next_attempt_at,
  messageId: row.message_id,
  sentAt: row.sent_at,
  deadLetteredAt: row.dead_lettered_at,
  resentAt: row.resent_at,
  resentBy: row.resent_by,
  resendCount: row.resend_count,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * An attempt's start: the record, and the message to send; nothing when the e-mail is already final, or `unreadable`
 * (why, without the content) when its sealed content cannot be opened.
 */
export interface AttemptStart {
  record: EmailRecord;
  email?: OutgoingEmail;
  unreadable?: string;
}

/** Seals and opens content at rest: the kit's FieldCipher (AES-256-GCM, keys from NOTIFICATION_ENCRYPTION_KEYS). */
export interface ContentCipher {
  encrypt(plaintext: string): string;
  decrypt(sealed: string): string;
}

/**
 * What `emails.content_sealed` and `email_attachments.content_sealed` hold once opened. Each names the e-mail (and
 * the attachment its position) it belongs to, and is refused when opened for another row: FieldCipher binds a value
 * to its key only, so a sealed value copied into another row (another tenant's) would otherwise open there.
 */
interface SealedContent {
  emailId: string;
  subject: string;
  text: string;
  html?: string;
}

interface SealedAttachment {
  emailId: string;
  position: number;
  filename: string;
  contentType: string;
  contentBase64: string;
}

interface AttachmentRow {
  position: number;
  filename: string | null;
  content_type: string | null;
  content: Buffer | null;
  content_sealed: string | null;
}

/** Columns that hold an e-mail's content, cleared together once it is final. */
const CONTENT_CLEARED = { subject: null, text_body: null, html_body: null, content_sealed: null } as const;

/**
 * The tenant's e-mails; every method runs inside `withTenant`, so row-level security scopes it as well. An e-mail's
 * subject, bodies and attachments are stored only sealed, and only until it is sent or has failed for good.
 */
export class EmailStore {
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly cipher: ContentCipher,
  ) {}

  private seal(value: SealedContent | SealedAttachment): string {
    return this.cipher.encrypt(JSON.stringify(value));
  }

  private openContent(row: EmailRow): Pick<OutgoingEmail, 'subject' | 'text' | 'html'> {
    if (row.content_sealed === null) {
      // Written in clear by a version before migration 002 and not sealed yet (commands/retention.ts seals it).
      if (row.subject === null || row.text_body === null) {
        throw new Error(`email ${row.email_id} has no content to send`);
      }
      return { subject: row.subject, text: row.text_body, ...(row.html_body ? { html: row.html_body } : {}) };
    }
    const content = JSON.parse(this.cipher.decrypt(row.content_sealed)) as SealedContent;
    if (content.emailId !== row.email_id)
      throw new Error(`email ${row.email_id} holds another e-mail's content`);
    return { subject: content.subject, text: content.text, ...(content.html ? { html: content.html } : {}) };
  }

  private openAttachment(emailId: string, row: AttachmentRow): OutgoingAttachment {
    if (row.content_sealed === null) {
      if (row.filename === null || row.content_type === null || row.content === null) {
        throw new Error(`attachment ${row.position} of email ${emailId} has no content`);
      }
      return { filename: row.filename, contentType: row.content_type, content: row.content };
    }
    const attachment = JSON.parse(this.cipher.decrypt(row.content_sealed)) as SealedAttachment;
    if (attachment.emailId !== emailId || attachment.position !== row.position) {
      throw new Error(`attachment ${row.position} of email ${emailId} holds another attachment`);
    }
    return {
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: Buffer.from(attachment.contentBase64, 'base64'),
    };
  }

  /** Inserts the e-mail and its attachments; undefined when the tenant already has one with this idempotency key. */
  async insert(email: NewEmail): Promise<EmailRecord | undefined> {
    const rows = await this.trx('emails')
      .insert({
        email_id: email.id,
        tenant_id: email.tenantId,
        idempotency_key: email.idempotencyKey ?? null,
        request_hash: email.requestHash,
        category: email.category ?? null,
        reference: email.reference ?? null,
        from_address: email.email.from,
        to_addresses: email.email.to,
        cc_addresses: email.email.cc,
        reply_to: email.email.replyTo ?? null,
        content_sealed: this.seal({
          emailId: email.id,
          subject: email.email.subject,
          text: email.email.text,
          ...(email.email.html ? { html: email.email.html } : {}),
        }),
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
          content_sealed: this.seal({
            emailId: email.id,
            position,
            filename: attachment.filename,
            contentType: attachment.contentType,
            contentBase64: attachment.content.toString('base64'),
          }),
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

  /**
   * The tenant's dead letters of a category (failed for good) and those its sender resent (on their way again, or
   * delivered since), newest first, only those no later e-mail of the same category and reference replaced (one sent
   * or still on its way): what the sender must still act on, and what became of its resends.
   */
  async deadLetters(query: {
    category: string;
    references?: readonly string[];
    limit: number;
  }): Promise<EmailRecord[]> {
    const rows = await this.trx('emails as failed')
      .where({ 'failed.category': query.category })
      .where((either) => {
        void either.where('failed.status', 'failed').orWhereNotNull('failed.resent_at');
      })
      .modify((builder) => {
        if (query.references) void builder.whereIn('failed.reference', [...query.references]);
      })
      .whereNotExists((later) => {
        void later
          .select(this.trx.raw('1'))
          .from('emails as later')
          .whereRaw('later.category = failed.category')
          .whereRaw('later.reference = failed.reference')
          .whereRaw('later.created_at > failed.created_at')
          .whereNot('later.status', 'failed');
      })
      .orderBy([
        { column: 'failed.updated_at', order: 'desc' },
        { column: 'failed.email_id', order: 'desc' },
      ])
      .limit(query.limit)
      .select<RecordRow[]>(RECORD_COLUMNS.map((column) => `failed.${column}`));
    return rows.map(toRecord);
  }

  async byIdempotencyKey(key: string): Promise<EmailRecord | undefined> {
    const row = await this.trx('emails')
      .where({ idempotency_key: key })
      .first<RecordRow | undefined>([...RECORD_COLUMNS]);
    return row ? toRecord(row) : undefined;
  }

  /**
   * Locks the e-mail for a resend: its record, and whether its sealed content is still there and opens (a failure
   * from before migration 004 had its content dropped; a key since retired cannot open it).
   */
  async lockForResend(id: string): Promise<{ record: EmailRecord; sendable: boolean } | undefined> {
    const row = await this.trx<EmailRow>('emails').where({ email_id: id }).forUpdate().first();
    if (!row) return undefined;
    try {
      this.openContent(row);
      return { record: toRecord(row), sendable: true };
    } catch {
      return { record: toRecord(row), sendable: false };
    }
  }

  /**
   * Puts a dead letter back on its way with fresh retries: `queued`, no attempt counted yet, and who resent it when;
   * to `to` instead of its stored To when given. Its last error and the time it failed stay, until the next
   * attempt's outcome replaces them.
   */
  async markResent(id: string, resentBy: string, to?: readonly string[]): Promise<EmailRecord> {
    const [row] = await this.trx('emails')
      .where({ email_id: id, status: 'failed' })
      .update({
        status: 'queued',
        attempts: 0,
        next_attempt_at: null,
        resent_at: this.trx.fn.now(),
        resent_by: resentBy,
        resend_count: this.trx.raw('resend_count + 1'),
        ...(to ? { to_addresses: [...to] } : {}),
        updated_at: this.trx.fn.now(),
      })
      .returning<RecordRow[]>(RECORD_COLUMNS);
    if (!row) throw new Error(`email ${id} is not a dead letter`);
    return toRecord(row);
  }

  /**
   * Locks the e-mail and, unless it is already final, counts the attempt about to be made and marks it `sending`.
   * Returns the record and the message to send, or just the record when there is nothing to send.
   */
  async beginAttempt(id: string): Promise<AttemptStart | undefined> {
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
    const record = toRecord(updated ?? row);
    const attachments = await this.trx('email_attachments')
      .select<AttachmentRow[]>('position', 'filename', 'content_type', 'content', 'content_sealed')
      .where({ email_id: id })
      .orderBy('position');
    try {
      return {
        record,
        email: {
          from: row.from_address,
          to: row.to_addresses,
          cc: row.cc_addresses,
          ...(row.reply_to ? { replyTo: row.reply_to } : {}),
          ...this.openContent(row),
          messageId: row.message_id,
          attachments: attachments.map((attachment) => this.openAttachment(id, attachment)),
        },
      };
    } catch (error) {
      // No retry can open it (its key is gone, or the value was tampered with): the caller fails it for good.
      return { record, unreadable: `ECONTENT: ${(error as Error).message}` };
    }
  }

  /**
   * Records the attempt's outcome. A sent one also drops the content: the subject, bodies and attachments are
   * deleted in the same transaction, the record (recipients, status, attempts, times) stays until the retention
   * clean-up. A failed one is a dead letter (ADR 0052): its content stays sealed, as it was, until the same clean-up
   * deletes the whole record.
   */
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
        ...(outcome.status === 'sent' ? { sent_at: this.trx.fn.now(), ...CONTENT_CLEARED } : {}),
        ...(outcome.status === 'failed' ? { dead_lettered_at: this.trx.fn.now() } : {}),
        updated_at: this.trx.fn.now(),
      })
      .returning<RecordRow[]>(RECORD_COLUMNS);
    if (!row) throw new Error(`email ${id} disappeared during its attempt`);
    if (outcome.status === 'sent') await this.trx('email_attachments').where({ email_id: id }).delete();
    return toRecord(row);
  }

  /**
   * Seals the content of this tenant's pending e-mails that a version before migration 002 wrote in clear (the
   * migration dropped the content of final ones, which needs no key); returns how many e-mails it sealed.
   */
  async sealClearContent(): Promise<number> {
    const emails = await this.trx<EmailRow>('emails')
      .whereNotNull('text_body')
      .whereNotIn('status', ['sent', 'failed'])
      .forUpdate();
    for (const row of emails) {
      await this.trx('emails')
        .where({ email_id: row.email_id })
        .update({
          ...CONTENT_CLEARED,
          content_sealed: this.seal({ emailId: row.email_id, ...this.openContent(row) }),
        });
    }
    const attachments = await this.trx('email_attachments')
      .select<(AttachmentRow & { email_id: string })[]>(
        'email_id',
        'position',
        'filename',
        'content_type',
        'content',
        'content_sealed',
      )
      .whereNotNull('content')
      .forUpdate();
    for (const row of attachments) {
      const attachment = this.openAttachment(row.email_id, row);
      await this.trx('email_attachments')
        .where({ email_id: row.email_id, position: row.position })
        .update({
          filename: null,
          content_type: null,
          content: null,
          content_sealed: this.seal({
            emailId: row.email_id,
            position: row.position,
            filename: attachment.filename,
            contentType: attachment.contentType,
            contentBase64: attachment.content.toString('base64'),
          }),
        });
    }
    return emails.length;
  }
}

/**
 * The retention clean-up: deletes the records of e-mails that have been final (sent or failed) for longer than
 * `retentionDays`, in every tenant, through `purge_expired_emails` (migration 002: a SECURITY DEFINER function that
 * can delete nothing else); attachments and queue entries go with them. Returns how many e-mails it deleted.
 */
export async function purgeExpiredEmails(db: Knex, retentionDays: number): Promise<number> {
  const result = await db.raw<{ rows: { deleted: number }[] }>('SELECT purge_expired_emails(?) AS deleted', [
    retentionDays,
  ]);
  return result.rows[0]?.deleted ?? 0;
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

  /** The tenants that have e-mails waiting (the queue holds every e-mail that is not final). */
  async tenants(db: Knex): Promise<string[]> {
    const rows = await db('delivery_queue').distinct<{ tenant_id: string }[]>('tenant_id');
    return rows.map((row) => row.tenant_id);
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
