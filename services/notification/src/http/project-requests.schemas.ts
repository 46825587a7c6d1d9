// sendProjectRequest's schemas (`@workspace/notification/project-requests`, browser-safe): the request, written once in
// the domain, and the answer.
import { z } from 'zod';

export * from '../domain/project-requests.js';

/**
 * sendProjectRequest's answer (201): the request is stored and the e-mail to the sales inbox queued (it is sent, and
 * retried while the mail server is down, after the answer). Nothing about the sales inbox or the e-mail's fate.
 */
export const projectRequestAccepted = z.object({
  /** The stored request's id, for a visitor who writes to us about it. */
  id: z.uuid(),
  /** When it was stored (ISO 8601). */
  receivedAt: z.iso.datetime(),
});

export type ProjectRequestAccepted = z.infer<typeof projectRequestAccepted>;
