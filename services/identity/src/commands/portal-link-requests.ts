import { randomUUID } from 'node:crypto';
import { HttpProblem, type ServiceClient } from '@workspace/kit';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import { PortalLinkRequestStore, type ClaimedPortalLinkRequest } from '../db/portal-link-requests.store.js';

/** The subject of the short-lived token identity gives cis for a requested sign-in link (ADR 0055). */
export const PORTAL_SIGN_IN_SUBJECT = 'portal-sign-in';
/** The scope cis's sign-in-link route and identity's link route need: the invitation's own. */
const LINK_SCOPE = 'cis.portal.invite';
/** The token lives long enough for cis to ask for the link and hand the e-mail over. */
const SERVICE_TOKEN_TTL_SECONDS = 60;
/** A request that cannot be handled (cis unreachable) is retried after these delays, then dropped with a warning. */
export const PORTAL_LINK_REQUEST_BACKOFF_MS = [5_000, 30_000, 120_000, 600_000];

const sentView = z.object({ sent: z.boolean() });

/**
 * Queues a subcontractor's request for a fresh sign-in link (ADR 0055): the address is sealed and the request is
 * handled by the worker, so the answer is the same, and as quick, for every address and every tenant id.
 */
export async function requestPortalLink(
  context: IdentityContext,
  input: { tenantId: string; email: string },
): Promise<string> {
  const requestId = randomUUID();
  await new PortalLinkRequestStore(context.db).add({
    requestId,
    tenantId: input.tenantId,
    emailSealed: context.cipher.encrypt(input.email.trim()),
  });
  return requestId;
}

/**
 * Handles one queued request: for a tenant that exists, cis (which knows its subcontractors' addresses and whether
 * each may use the portal) is asked, with a 60-second token of this tenant holding only the invitation's scope, to
 * send the link; cis asks identity for the link with that token (the invitation's own POST /v1/portal/links) and
 * e-mails it through the notification service. Nothing is sent for an unknown tenant or address. True when handled.
 */
export async function sendRequestedPortalLink(
  context: IdentityContext,
  cis: ServiceClient,
  request: Pick<ClaimedPortalLinkRequest, 'requestId' | 'tenantId' | 'emailSealed'>,
): Promise<{ sent: boolean }> {
  const tenant = await context.inTenant(request.tenantId, (stores) =>
    stores.tenants.tenant(request.tenantId),
  );
  if (!tenant) return { sent: false };
  const accessToken = await context.signer.sign({
    tenantId: tenant.id,
    subject: PORTAL_SIGN_IN_SUBJECT,
    role: 'standard',
    scopes: [LINK_SCOPE],
    ttlSeconds: SERVICE_TOKEN_TTL_SECONDS,
  });
  return cis.post({
    path: '/v1/portal-sign-in-links',
    caller: { accessToken },
    body: { email: context.cipher.decrypt(request.emailSealed), requestId: request.requestId },
    schema: sentView,
  });
}

/**
 * Claims one due request and handles it; a failure (cis or the database unreachable) puts it back with backoff, and
 * after the last attempt drops it with a warning (the subcontractor can ask again). False when none was due.
 */
export function handleNextPortalLinkRequest(context: IdentityContext, cis: ServiceClient): Promise<boolean> {
  return new PortalLinkRequestStore(context.db).claim(async (request) => {
    try {
      const { sent } = await sendRequestedPortalLink(context, cis, request);
      context.logger.info(
        { requestId: request.requestId, tenantId: request.tenantId, sent },
        'portal sign-in link request handled',
      );
      await request.done();
    } catch (error) {
      const delay = PORTAL_LINK_REQUEST_BACKOFF_MS[request.attempts];
      const refused = error instanceof HttpProblem && error.status >= 400 && error.status < 500;
      if (delay === undefined || refused) {
        context.logger.warn(
          {
            err: error,
            requestId: request.requestId,
            tenantId: request.tenantId,
            attempts: request.attempts + 1,
          },
          'portal sign-in link request dropped',
        );
        await request.done();
        return;
      }
      context.logger.warn(
        { err: error, requestId: request.requestId, tenantId: request.tenantId, retryInMs: delay },
        'portal sign-in link request failed; retrying',
      );
      await request.retryIn(delay);
    }
  });
}
