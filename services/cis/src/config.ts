import { baseConfigSchema, secretKeySchema } from '@workspace/kit';
import { z } from 'zod';

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

export const cisConfigSchema = baseConfigSchema
  .extend({
    /** `kid:base64(32 bytes)[,kid:base64...]`: seals UTRs and NINOs at rest (the first key encrypts). */
    CIS_ENCRYPTION_KEYS: z.string().min(10),
    /**
     * base64 of at least 32 random bytes: keys the hashes of UTRs, NINOs and company numbers that find duplicate
     * subcontractors (ADR 0039). A key of its own: never one of CIS_ENCRYPTION_KEYS.
     */
    CIS_IDENTIFIER_HASH_KEY: secretKeySchema(),
    /** Identity's base URL (portal magic links are created there with the caller's token). */
    IDENTITY_URL: z.url(),
    /** The notification service (email) and the internal token it accepts. */
    NOTIFICATION_URL: z.url(),
    NOTIFICATION_TOKEN: z.string().min(32),
    /** 'Unlock (Testing)' on locked returns: only where the deployment enables testing tools. Never in production. */
    CIS_TESTING_TOOLS: flag('false'),
    /** How often the statement job worker looks for due work besides the NOTIFY wake-ups. */
    CIS_JOB_POLL_MS: z.coerce.number().int().min(50).default(5_000),
    /** How often the deadline scan looks for tenants not yet scanned today (each is told once a London day). */
    CIS_DEADLINE_SCAN_INTERVAL_MS: z.coerce.number().int().min(1_000).default(3_600_000),
    /**
     * The token the drive sends for the statements and returns it files (drive ADR 0046); the drive holds the same
     * value. Unset: no one may fetch them.
     */
    CIS_DOCUMENTS_TOKEN: z.string().min(32).optional(),
  })
  .refine(
    (config) =>
      !config.CIS_ENCRYPTION_KEYS.split(',').some(
        (entry) => entry.trim().split(':')[1] === config.CIS_IDENTIFIER_HASH_KEY,
      ),
    {
      path: ['CIS_IDENTIFIER_HASH_KEY'],
      message: 'must be a key of its own, not one of CIS_ENCRYPTION_KEYS',
    },
  );

export type CisConfig = z.infer<typeof cisConfigSchema>;
