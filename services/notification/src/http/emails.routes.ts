import { randomUUID } from 'node:crypto';
import { ApiRouter, problems, safeEqual, withTenant, type Knex } from '@workspace/kit';
import type { Request } from 'express';
import { z } from 'zod';
import { sendEmail, type SendEmailDeps } from '../commands/send-email.js';
import type { NotificationConfig } from '../config.js';
import { EmailStore } from '../db/emails.store.js';
import { domainOf, parseMailbox } from '../domain/addresses.js';
import { presentEmail, presentSendResult } from './emails.present.js';
import { emailView, sendEmailBody, sendEmailResult, tenantId } from './emails.schemas.js';

export interface RouteContext {
  db: Knex;
  cipher: SendEmailDeps['cipher'];
  config: NotificationConfig;
  delivery: SendEmailDeps['delivery'];
}

/** Every route is for other services: they send the shared internal token in `x-internal-token`. */
export function requireInternal(config: NotificationConfig, req: Request): void {
  const token = req.headers['x-internal-token'];
  if (typeof token !== 'string' || !safeEqual(token, config.INTERNAL_API_TOKEN)) {
    throw problems.unauthorized('This endpoint is for internal services only.');
  }
}

export function notificationRoutes(context: RouteContext): { basePath: string; api: ApiRouter }[] {
  const { db, cipher, config, delivery } = context;
  const internal = (req: Request) => {
    requireInternal(config, req);
  };
  const from = parseMailbox(config.MAIL_FROM);
  const sendDeps = {
    db,
    cipher,
    mailFrom: config.MAIL_FROM,
    sendingDomains: config.MAIL_SENDING_DOMAINS,
    messageIdDomain: from ? domainOf(from.address) : 'workspace.local',
    delivery,
  };

  const api = new ApiRouter()
    .route({
      method: 'post',
      path: '/emails',
      summary:
        'Send an e-mail: stored, tried once (unless waitForFirstAttempt is false), retried with backoff (internal)',
      public: true,
      guard: internal,
      // 10 MB of attachments are 13.4 MB in base64, plus the bodies; read only once the caller proved internal.
      bodyLimit: '17mb',
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
        const { status, record } = await sendEmail(sendDeps, randomUUID(), body);
        res.status(status).json(presentSendResult(record));
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
        const record = await withTenant(db, query.tenantId, (trx) =>
          new EmailStore(trx, cipher).byId(params.id),
        );
        if (!record) throw problems.notFound('E-mail not found.');
        return presentEmail(record);
      },
    });
  return [{ basePath: '/v1', api }];
}
