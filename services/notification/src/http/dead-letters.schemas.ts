import { z } from 'zod';
import { addressList, tenantId } from './emails.schemas.js';

export const DEAD_LETTERS_MAX = 200;

export const deadLettersQuery = z.object({
  tenantId,
  category: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'Category must be lowercase letters, digits, ., _ or -'),
  /** Comma-separated references (at most 200): only the dead letters about these. */
  references: z
    .string()
    .max(20_000)
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .refine((list) => list.length <= DEAD_LETTERS_MAX, `At most ${DEAD_LETTERS_MAX} references`)
    .optional(),
  limit: z.coerce.number().int().min(1).max(DEAD_LETTERS_MAX).default(DEAD_LETTERS_MAX),
});

/**
 * Where a dead letter stands: `failed` (undelivered after its retries; a resend that failed again too), `resending`
 * (resent by its sender, on its way again), `delivered` (resent and delivered).
 */
export const DEAD_LETTER_STATES = ['failed', 'resending', 'delivered'] as const;
export type DeadLetterState = (typeof DEAD_LETTER_STATES)[number];

export const deadLetterView = z.object({
  id: z.uuid(),
  category: z.string(),
  reference: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  attempts: z.number().int(),
  /** Why the last attempt failed (no credentials, no content). */
  lastError: z.string().nullable(),
  /** When it failed for good (its last failure, when a resend failed too). */
  failedAt: z.string(),
  createdAt: z.string(),
  state: z.enum(DEAD_LETTER_STATES),
  /** When it was last resent, and who asked (the id the sending module gave); how many times. */
  resentAt: z.string().nullable(),
  resentBy: z.string().nullable(),
  resendCount: z.number().int(),
  /** When a resend was delivered. */
  deliveredAt: z.string().nullable(),
});
export type DeadLetterView = z.infer<typeof deadLetterView>;

export const deadLettersView = z.object({ items: z.array(deadLetterView) });

export const deadLetterParams = z.object({ id: z.uuid() });

export const resendDeadLetterBody = z.object({
  tenantId,
  /** The sender's category: a module resends only its own e-mails (another's answers 404). */
  category: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'Category must be lowercase letters, digits, ., _ or -'),
  /** Who asks for the resend: the person's id in the sending module (recorded, and in the event). */
  resentBy: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9:._@-]{0,199}$/,
      'resentBy must be an id: letters, digits, :, ., _, @ or -',
    ),
  /**
   * The recipients to resend to, when they changed since (the sender corrected a wrong address): they replace the
   * stored To; the content, Cc and Reply-To stay as stored. Absent: the stored recipients.
   */
  to: addressList(50).optional(),
});
