import { z } from 'zod';

export const bucketParams = z.object({
  bucket: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'Not a bucket name'),
});

export const hitBody = z.object({
  /** HMACs of the client address and user, made by the bff (no address is sent or stored in clear). */
  keys: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Not a rate-limit key'))
    .min(1)
    .max(4),
  limit: z.number().int().min(1).max(1_000_000),
  windowMs: z
    .number()
    .int()
    .min(1000)
    .max(24 * 3600 * 1000),
});

export const decisionView = z.object({ allowed: z.boolean(), retryAfterSeconds: z.number().int() });
