import { sha256Hex, withTenant, type Knex } from '@workspace/kit';
import { deliveryQueue, EmailStore, type ContentCipher } from '../db/emails.store.js';
import { ProjectRequestStore, type ProjectRequestRecord } from '../db/project-requests.store.js';
import { parseMailbox, senderOf } from '../domain/addresses.js';
import type { ProjectRequest } from '../domain/project-requests.js';

/**
 * The public site's partition: a visitor belongs to no tenant, so project requests and the e-mails they queue are kept
 * under this id, which no tenant can have (tenant ids start with a letter or a digit).
 */
export const SITE_TENANT = '_site';

/** The e-mails' category (logs, events, the e-mail record). */
export const PROJECT_REQUEST_CATEGORY = 'project-request';

export interface ProjectRequestDeps {
  db: Knex;
  cipher: ContentCipher;
  /** The platform's sender (MAIL_FROM). */
  mailFrom: string;
  /** The domain of the Message-ID header. */
  messageIdDomain: string;
  /** Where project requests go (SALES_INBOX). */
  salesInbox: string;
  /** The delivery worker's nudge: the e-mail is due at once. */
  delivery: { wake(): void };
}

/** The e-mail the sales inbox gets: plain text only (a visitor's words never become HTML), replies go to the visitor. */
export function projectRequestEmail(
  request: ProjectRequest,
  requestId: string,
): { subject: string; text: string } {
  const who = request.company ? `${request.name} (${request.company})` : request.name;
  return {
    subject: `Project request from ${who}`,
    text: [
      'A visitor asked to start a project through the website.',
      '',
      `Name: ${request.name}`,
      `Email: ${request.email}`,
      `Company: ${request.company || '(not given)'}`,
      '',
      'Message:',
      request.message || '(none)',
      '',
      `Request id: ${requestId}`,
      'Reply to this e-mail to answer the visitor.',
    ].join('\n'),
  };
}

/**
 * sendProjectRequest: stores the request (sealed) and queues an e-mail to the sales inbox in the same transaction, then
 * wakes the delivery worker. The answer never waits for the mail server: while it is down the request is kept and
 * the e-mail retried on the service's usual schedule (DELIVERY_BACKOFF_MS, DELIVERY_MAX_ATTEMPTS).
 */
export async function submitProjectRequest(
  deps: ProjectRequestDeps,
  ids: { requestId: string; emailId: string },
  request: ProjectRequest,
): Promise<ProjectRequestRecord> {
  const platform = parseMailbox(deps.mailFrom);
  if (!platform) throw new Error('MAIL_FROM is not a mailbox');
  // From the platform's address under the site's name; Reply-To the visitor.
  const sender = senderOf(platform, [], { fromName: 'Workspace website', replyTo: request.email });
  const content = projectRequestEmail(request, ids.requestId);
  const stored = await withTenant(deps.db, SITE_TENANT, async (trx) => {
    const emails = new EmailStore(trx, deps.cipher);
    const email = await emails.insert({
      id: ids.emailId,
      tenantId: SITE_TENANT,
      requestHash: sha256Hex(JSON.stringify({ requestId: ids.requestId })),
      category: PROJECT_REQUEST_CATEGORY,
      status: 'queued',
      email: {
        from: sender.from,
        to: [deps.salesInbox],
        cc: [],
        ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
        subject: content.subject,
        text: content.text,
        messageId: `<${ids.emailId}@${deps.messageIdDomain}>`,
        attachments: [],
      },
    });
    if (!email) throw new Error('the project request e-mail was not stored');
    await deliveryQueue.schedule(trx, ids.emailId, SITE_TENANT, new Date());
    return new ProjectRequestStore(trx, deps.cipher).insert({
      id: ids.requestId,
      tenantId: SITE_TENANT,
      ...request,
      emailId: ids.emailId,
    });
  });
  deps.delivery.wake();
  return stored;
}
