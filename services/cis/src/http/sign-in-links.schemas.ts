import { z } from 'zod';

/** identity's request to send a subcontractor a fresh portal sign-in link (ADR 0055). */
export const signInLinkInput = z.object({
  email: z.email('Enter a valid email address').max(254),
  requestId: z.uuid(),
});

export const signInLinkResponse = z.object({
  /** Whether an e-mail was handed to the notification service (false for an unknown address: identity only). */
  sent: z.boolean(),
});
