import { baseConfigSchema } from '@workspace/kit';
import { z } from 'zod';

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

export const auditConfigSchema = baseConfigSchema.extend({
  /** The consumer group reading every `<service>.events.v1` topic (one for every replica; must start with audit-). */
  AUDIT_CONSUMER_GROUP: z.string().startsWith('audit-').default('audit-trail'),
  /** A new group first stores what the topics still retain (true), or only what comes after it joins. */
  AUDIT_FROM_BEGINNING: flag('true'),
  /**
   * How many partitions of the module topics one replica ingests at once (kafkajs partitionsConsumedConcurrently).
   * Each in-flight run holds a database connection for its transaction, so keep it well under DATABASE_POOL_MAX
   * (10 by default): the routes, the outbox relay and the workers need theirs. A tenant's runs still append one
   * after another (its head's row lock); different tenants' runs append side by side (docs/audit.md "Ingest").
   */
  AUDIT_INGEST_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(3),
  /**
   * The checkpoint signing key: an Ed25519 private key, PKCS#8 PEM (docs/audit.md "Checkpoints"), from the Secret
   * audit-checkpoint-key. Unset: checkpoints are not signed (a local run without the secret), and the routes say so.
   */
  AUDIT_CHECKPOINT_PRIVATE_KEY: z
    .string()
    .min(1)
    .refine((pem) => pem.includes('PRIVATE KEY'), 'Must be a PEM private key (PKCS#8)')
    .optional(),
  /** How often each tenant's chain head is signed as a checkpoint (when it moved since the last one). */
  AUDIT_CHECKPOINT_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(15 * 60_000),
  /** How often the scheduled check verifies every tenant's chain (docs/runbook.md "Audit chain break"). */
  AUDIT_CHAIN_CHECK_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(60 * 60_000),
});

export type AuditConfig = z.infer<typeof auditConfigSchema>;
