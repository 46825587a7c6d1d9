import { z } from 'zod';
import { tenantId } from './emails.schemas.js';

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

export const deadLetterView = z.object({
  id: z.uuid(),
  category: z.string(),
  reference: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  attempts: z.number().int(),
  /** Why the last attempt failed (no credentials, no content). */
  lastError: z.string().nullable(),
  /** When it failed for good. */
  failedAt: z.string(),
  createdAt: z.string(),
});
export type DeadLetterView = z.infer<typeof deadLetterView>;

export const deadLettersView = z.object({ items: z.array(deadLetterView) });
