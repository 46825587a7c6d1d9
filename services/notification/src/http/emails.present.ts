import type { EmailRecord } from '../db/emails.store.js';
import type { emailView, sendEmailResult } from './emails.schemas.js';
import type { z } from 'zod';

/** The answer to a send: the e-mail's id and state. */
export const presentSendResult = (record: EmailRecord): z.input<typeof sendEmailResult> => ({
  id: record.id,
  status: record.status,
  delivered: record.status === 'sent',
  ...(record.lastError && record.status !== 'sent' ? { error: record.lastError } : {}),
});

/** An e-mail's delivery state, without its content. */
export const presentEmail = (record: EmailRecord): z.input<typeof emailView> => ({
  id: record.id,
  tenantId: record.tenantId,
  status: record.status,
  delivered: record.status === 'sent',
  attempts: record.attempts,
  category: record.category,
  reference: record.reference,
  idempotencyKey: record.idempotencyKey,
  lastError: record.lastError,
  nextAttemptAt: record.nextAttemptAt?.toISOString() ?? null,
  messageId: record.messageId,
  sentAt: record.sentAt?.toISOString() ?? null,
  deadLetteredAt: record.deadLetteredAt?.toISOString() ?? null,
  createdAt: record.createdAt.toISOString(),
  updatedAt: record.updatedAt.toISOString(),
});
