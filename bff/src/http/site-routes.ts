import { ApiRouter, HttpProblem, type ServiceClient } from '@workspace/kit';
import { projectRequestAccepted, projectRequestBody } from '@workspace/notification/project-requests';
import { clientIp, type RateLimiter } from '../rate-limit.js';
import type { BffContext } from './context.js';

/** The 429's detail: who is limited, and when they may send again. */
export function projectRequestLimited(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = retryAfterSeconds < 120 ? `${retryAfterSeconds} seconds` : `${minutes} minutes`;
  return `Too many project requests from your network. Please try again in ${wait}.`;
}

async function limitPerIp(
  limiter: RateLimiter,
  ip: string,
  res: { setHeader(name: string, value: string): unknown },
) {
  const decision = await limiter.hit([`ip:${ip}`]);
  if (decision.allowed) return;
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  throw new HttpProblem(429, 'rate_limited', projectRequestLimited(decision.retryAfterSeconds));
}

/**
 * The public site's calls (no session): `POST /api/public/project-requests` is the spec's sendProjectRequest. It is
 * parsed with the schema the site's drawer validates with (`@workspace/notification/project-requests`), limited per
 * client IP, and handed to the notification service, which stores it and e-mails the sales inbox. Under /api/public/,
 * so no CSRF token is asked for (a cross-site form cannot send JSON; docs/site.md).
 */
export function siteRoutes(context: BffContext, notification: ServiceClient | undefined): ApiRouter {
  return new ApiRouter().route({
    method: 'post',
    path: '/public/project-requests',
    summary:
      "The public site's Start a project form (sendProjectRequest): stored and e-mailed to the sales inbox by the notification service; limited per client IP",
    public: true,
    request: { body: projectRequestBody },
    status: 201,
    responses: {
      201: {
        description: 'Received: stored, and the e-mail to the sales inbox queued',
        schema: projectRequestAccepted,
      },
      400: { description: 'Name or email missing, or the email is not an address (field errors)' },
      429: { description: 'Too many project requests from this client IP (Retry-After)' },
      503: { description: 'The notification service cannot be reached: nothing was stored' },
    },
    handler: async ({ body, req, res }) => {
      await limitPerIp(context.limits.projectRequests, clientIp(req), res);
      if (!notification) {
        throw new HttpProblem(503, 'unavailable', 'Project requests cannot be received at the moment.');
      }
      return notification.post({
        path: '/project-requests',
        caller: 'internal',
        body,
        schema: projectRequestAccepted,
        unavailable: 'Project requests cannot be received at the moment. Please try again later.',
      });
    },
  });
}
