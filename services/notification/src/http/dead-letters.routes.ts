import { ApiRouter, withTenant, type Knex } from '@workspace/kit';
import type { NotificationConfig } from '../config.js';
import { EmailStore, type ContentCipher, type EmailRecord } from '../db/emails.store.js';
import { deadLettersQuery, deadLettersView, type DeadLetterView } from './dead-letters.schemas.js';
import { requireInternal } from './emails.routes.js';

const present = (record: EmailRecord): DeadLetterView => ({
  id: record.id,
  category: record.category ?? '',
  reference: record.reference,
  idempotencyKey: record.idempotencyKey,
  attempts: record.attempts,
  lastError: record.lastError,
  failedAt: (record.deadLetteredAt ?? record.updatedAt).toISOString(),
  createdAt: record.createdAt.toISOString(),
});

/**
 * The sending service's own dead letters (ADR 0052): e-mails of one of its categories that failed for good and that
 * no later e-mail about the same reference replaced. Internal token only; never the content or the addresses.
 */
export function deadLetterRoutes(context: {
  db: Knex;
  cipher: ContentCipher;
  config: NotificationConfig;
}): { basePath: string; api: ApiRouter }[] {
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
  return [{ basePath: '/v1', api }];
}
