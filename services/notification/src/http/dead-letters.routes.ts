import { ApiRouter, withTenant, type Knex } from '@workspace/kit';
import { resendDeadLetter, type ResendDeps } from '../commands/resend-dead-letter.js';
import type { NotificationConfig } from '../config.js';
import { EmailStore, type ContentCipher, type EmailRecord } from '../db/emails.store.js';
import {
  deadLetterParams,
  deadLettersQuery,
  deadLettersView,
  deadLetterView,
  resendDeadLetterBody,
  type DeadLetterState,
  type DeadLetterView,
} from './dead-letters.schemas.js';
import { requireInternal } from './emails.routes.js';

const stateOf = (record: EmailRecord): DeadLetterState =>
  record.status === 'failed' ? 'failed' : record.status === 'sent' ? 'delivered' : 'resending';

const present = (record: EmailRecord): DeadLetterView => ({
  id: record.id,
  category: record.category ?? '',
  reference: record.reference,
  idempotencyKey: record.idempotencyKey,
  attempts: record.attempts,
  lastError: record.lastError,
  failedAt: (record.deadLetteredAt ?? record.updatedAt).toISOString(),
  createdAt: record.createdAt.toISOString(),
  state: stateOf(record),
  resentAt: record.resentAt?.toISOString() ?? null,
  resentBy: record.resentBy,
  resendCount: record.resendCount,
  deliveredAt: record.status === 'sent' ? (record.sentAt?.toISOString() ?? null) : null,
});

/**
 * The sending service's own dead letters (ADR 0052): e-mails of one of its categories that failed for good and that
 * no later e-mail about the same reference replaced. Internal token only; never the content or the addresses.
 */
export function deadLetterRoutes(context: {
  db: Knex;
  cipher: ContentCipher;
  config: NotificationConfig;
  source: string;
  delivery: ResendDeps['delivery'];
}): { basePath: string; api: ApiRouter }[] {
  const resendDeps: ResendDeps = {
    db: context.db,
    cipher: context.cipher,
    source: context.source,
    retentionDays: context.config.EMAIL_RETENTION_DAYS,
    delivery: context.delivery,
  };
  const api = new ApiRouter().route({
    method: 'get',
    path: '/dead-letters',
    summary:
      "A tenant's e-mails of a category that could not be delivered after their retries, newest first (internal)",
    public: true,
    guard: (req) => {
      requireInternal(context.config, req);
    },
    request: { query: deadLettersQuery },
    responses: {
      200: { description: 'The dead letters (no content, no addresses)', schema: deadLettersView },
      401: { description: 'No or wrong internal token' },
    },
    handler: async ({ query }) => {
      const records = await withTenant(context.db, query.tenantId, (trx) =>
        new EmailStore(trx, context.cipher).deadLetters({
          category: query.category,
          ...(query.references ? { references: query.references } : {}),
          limit: query.limit,
        }),
      );
      return { items: records.map(present) };
    },
  });
  api.route({
    method: 'post',
    path: '/dead-letters/:id/resend',
    summary:
      'Resend a dead letter from its stored content: back on the delivery queue with fresh retries (internal)',
    public: true,
    guard: (req) => {
      requireInternal(context.config, req);
    },
    request: { params: deadLetterParams, body: resendDeadLetterBody },
    responses: {
      200: {
        description: 'Already resent and not failed since: its state (nothing is sent again)',
        schema: deadLetterView,
      },
      202: { description: 'Resent: on the delivery queue again (state resending)', schema: deadLetterView },
      401: { description: 'No or wrong internal token' },
      404: { description: 'No such e-mail of this category in this tenant' },
      409: { description: 'The e-mail has not failed: nothing to resend' },
      410: { description: 'Its content is no longer kept (past EMAIL_RETENTION_DAYS): send a new e-mail' },
    },
    handler: async ({ params, body, res }) => {
      const { status, record } = await resendDeadLetter(resendDeps, { ...body, id: params.id });
      res.status(status).json(present(record));
      return undefined;
    },
  });
  return [{ basePath: '/v1', api }];
}
