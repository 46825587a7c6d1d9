import { withTenant, type Clock, type Knex, type Logger } from '@workspace/kit';
import { checkpointKey, type CheckpointKey } from './chain/hash.js';
import type { AuditConfig } from './config.js';

/** What the commands, routes, workers and the consumer of the audit service work with, built once at start. */
export interface AuditDeps {
  readonly db: Knex;
  readonly config: AuditConfig;
  readonly logger: Logger;
  /** The CloudEvents source of audit.v1 (/workspace/audit). */
  readonly source: string;
  /** "Now" for recordedAt and checkpoints (a test sets it). */
  readonly clock: Clock;
  /** The checkpoint signing key; undefined when AUDIT_CHECKPOINT_PRIVATE_KEY is unset. */
  readonly checkpointKey: CheckpointKey | undefined;
  /** `work` in one transaction whose row-level security tenant is `tenantId`. */
  inTenant<T>(tenantId: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

export function createAuditDeps(options: {
  db: Knex;
  config: AuditConfig;
  logger: Logger;
  source: string;
  clock: Clock;
}): AuditDeps {
  const { db, config } = options;
  return {
    ...options,
    checkpointKey: config.AUDIT_CHECKPOINT_PRIVATE_KEY
      ? checkpointKey(config.AUDIT_CHECKPOINT_PRIVATE_KEY)
      : undefined,
    inTenant: (tenantId, work) => withTenant(db, tenantId, work),
  };
}
