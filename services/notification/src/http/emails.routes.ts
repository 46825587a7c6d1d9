import { randomUUID } from 'node:crypto';
import { ApiRouter, problems, safeEqual, sha256Hex, withTenant } from '@workspace/kit';
import { queueEmail } from '../commands/queue-email.js';
import type { Request } from 'express';
import { z } from 'zod';
import type { NotificationConfig } from '../config.js';
import { EmailStore, type EmailRecord } from '../db/emails.store.js';
import { domainOf, parseMailbox } from '../domain/addresses.js';
import { isFinal } from '../domain/delivery.js';
import type { Knex } from '@workspace/kit';
import { emailView, sendEmailBody, sendEmailResult, tenantId, type SendEmailBody } from './emails.schemas.js';

export interface RouteContext {
  db: Knex;
  config: NotificationConfig;
  /** The delivery worker: one attempt at an e-mail, a nudge to look for due ones, and how long an attempt holds one. */
  delivery: {
    attempt(tenantId: string, emailId: string): Promise<EmailRecord | undefined>;
    wake(): void;
    readonly claimMs: number;
  };
}

/** Every route is for other services: they send the shared internal token in `x-internal-token`. */
export function requireInternal(config: NotificationConfig, req: Request): void {
  const token = req.headers['x-internal-token'];
  if (typeof token !== 'string' || !safeEqual(token, config.INTERNAL_API_TOKEN)) {
    throw problems.unauthorized('This endpoint is for internal services only.');
  }
}

const toResult = (record: EmailRecord) => ({
  id: record.id,
  status: record.status,
  delivered: record.status === 'sent',
  ...(record.lastError && record.status !== 'sent' ? { error: record.lastError } : {}),
});

const toView = (record: EmailRecord) => ({
  id: record.id,
  tenantId: record.tenantId,
  status: record.status,
  delivered: record.status === 'sent',
  attempts: record.attempts,
  category: record.category,
  idempotencyKey: record.idempotencyKey,
  lastError: record.lastError,
  nextAttemptAt: record.nextAttemptAt?.toISOString() ?? null,
  messageId: record.messageId,
  sentAt: record.sentAt?.toISOString() ?? null,
  createdAt: record.createdAt.toISOString(),
  updatedAt: record.updatedAt.toISOString(),
});

/** What makes two requests the same e-mail (everything but how the caller wants to wait). */
function requestHash(body: SendEmailBody): string {
  return sha256Hex(JSON.stringify({ ...body, waitForFirstAttempt: undefined }));
}

export function notificationRoutes(context: RouteContext): { basePath: string; api: ApiRouter }[] {
  const { db, config, delivery } = context;
  const internal = (req: Request) => {
    requireInternal(config, req);
  };
  const from = parseMailbox(config.MAIL_FROM);
  const messageIdDomain = from ? domainOf(from.address) : 'workspace.local';

  const api = new ApiRouter()
    .route({
      method: 'post',
      path: '/emails',
      summary:
        'Send an e-mail: stored, tried once (unless waitForFirstAttempt is false), retried with backoff (internal)',
      public: true,
      guard: internal,
      request: { body: sendEmailBody },
      responses: {
        200: {
          description: 'An e-mail with this idempotency key exists: its current state',
          schema: sendEmailResult,
        },
        201: {
          description: 'Sent (status sent), or refused for good by the server (status failed)',
          schema: sendEmailResult,
        },
        202: {
          description: 'Accepted; not sent yet (status queued or retrying): the worker will retry',
          schema: sendEmailResult,
        },
        401: { description: 'No or wrong internal token' },
        409: { description: 'The idempotency key was used for a different e-mail' },
      },
      handler: async ({ body, res }) => {
        const id = randomUUID();
        const hash = requestHash(body);
        const outcome = await queueEmail(
          { db, mailFrom: config.MAIL_FROM, messageIdDomain, claimMs: delivery.claimMs },
          { id, requestHash: hash, body },
        );
        if (outcome.existing) {
          if (outcome.existing.requestHash !== hash) {
            throw problems.conflict(
              'This idempotency key was already used for a different e-mail.',
              'idempotency_key_reused',
            );
          }
          res.status(200).json(toResult(outcome.existing));
          return undefined;
        }
        if (!body.waitForFirstAttempt) {
          delivery.wake();
          res.status(202).json(toResult(outcome.created));
          return undefined;
        }
        const attempted = (await delivery.attempt(body.tenantId, id)) ?? outcome.created;
        res.status(isFinal(attempted.status) ? 201 : 202).json(toResult(attempted));
        return undefined;
      },
    })
    .route({
      method: 'get',
      path: '/emails/:id',
      summary: "An e-mail's delivery status, in its tenant (internal)",
      public: true,
      guard: internal,
      request: { params: z.object({ id: z.uuid() }), query: z.object({ tenantId }) },
      responses: {
        200: { description: 'The e-mail, without its content', schema: emailView },
        404: { description: 'No such e-mail in this tenant' },
      },
      handler: async ({ params, query }) => {
        const record = await withTenant(db, query.tenantId, (trx) => new EmailStore(trx).byId(params.id));
        if (!record) throw problems.notFound('E-mail not found.');
        return toView(record);
      },
    });
  return [{ basePath: '/v1', api }];
}
