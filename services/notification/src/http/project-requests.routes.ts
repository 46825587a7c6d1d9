import { randomUUID } from 'node:crypto';
import { ApiRouter, type Knex } from '@workspace/kit';
import { submitProjectRequest, type ProjectRequestDeps } from '../commands/project-requests.js';
import type { NotificationConfig } from '../config.js';
import { domainOf, parseMailbox } from '../domain/addresses.js';
import { requireInternal } from './emails.routes.js';
import { projectRequestAccepted, projectRequestBody } from './project-requests.schemas.js';

export interface ProjectRequestRouteContext {
  db: Knex;
  cipher: ProjectRequestDeps['cipher'];
  config: NotificationConfig;
  delivery: ProjectRequestDeps['delivery'];
}

/** POST /v1/project-requests: the site's sendProjectRequest, called by the bff (internal token) on a visitor's behalf. */
export function projectRequestRoutes(
  context: ProjectRequestRouteContext,
): { basePath: string; api: ApiRouter }[] {
  const { db, cipher, config, delivery } = context;
  const from = parseMailbox(config.MAIL_FROM);
  const deps: ProjectRequestDeps = {
    db,
    cipher,
    mailFrom: config.MAIL_FROM,
    messageIdDomain: from ? domainOf(from.address) : 'workspace.local',
    salesInbox: config.SALES_INBOX,
    delivery,
  };
  const api = new ApiRouter().route({
    method: 'post',
    path: '/project-requests',
    summary:
      "Store a public site visitor's project request and queue an e-mail to the sales inbox (internal: the bff's /api/public/project-requests)",
    public: true,
    guard: (req) => {
      requireInternal(config, req);
    },
    request: { body: projectRequestBody },
    status: 201,
    responses: {
      201: {
        description: 'Stored; the e-mail to the sales inbox is queued (sent and retried after this answer)',
        schema: projectRequestAccepted,
      },
      400: { description: 'A field is missing or not valid (name, email)' },
      401: { description: 'No or wrong internal token' },
    },
    handler: async ({ body }) => {
      const stored = await submitProjectRequest(
        deps,
        { requestId: randomUUID(), emailId: randomUUID() },
        body,
      );
      return { id: stored.id, receivedAt: stored.createdAt.toISOString() };
    },
  });
  return [{ basePath: '/v1', api }];
}
