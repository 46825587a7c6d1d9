import { systemClock, withTenant, type Clock, type Knex, type Logger } from '@workspace/kit';
import { IdentityClient } from './clients/identity.js';
import { AccessCache } from './commands/access-cache.js';
import { ObjectStore } from './clients/object-store.js';
import type { DriveConfig } from './config.js';
import { AuditWriter } from './events/audit.js';

/** What the commands, routes, workers and consumers of the drive work with, built once when the service starts. */
export interface DriveDeps {
  readonly db: Knex;
  readonly config: DriveConfig;
  readonly logger: Logger;
  /** What the drive reads for "now": upload grant expiry, share expiry, recent files, daily usage (a test sets it). */
  readonly clock: Clock;
  /** The region's bucket (design §2: the drive talks S3 through the minio client only). */
  readonly objects: ObjectStore;
  readonly identity: IdentityClient;
  readonly audit: AuditWriter;
  /** The tenants' drives, members and libraries, checked against their access version on every use (ADR 0050). */
  readonly access: AccessCache;
  /** `work` in one transaction whose row-level security tenant is `tenantId`. */
  inTenant<T>(tenantId: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

export function createDriveDeps(options: {
  db: Knex;
  config: DriveConfig;
  logger: Logger;
  source: string;
  clock: Clock;
  objects?: ObjectStore;
}): DriveDeps {
  const { db, config, logger, clock } = options;
  return {
    db,
    config,
    logger,
    clock,
    objects: options.objects ?? new ObjectStore(config),
    identity: new IdentityClient(config.IDENTITY_URL, logger),
    audit: new AuditWriter(options.source),
    // A monotonic clock in production; a test's clock (ControlledClock) moves the cache's time with its own.
    access: new AccessCache(clock === systemClock ? undefined : { now: () => clock.now().getTime() }),
    inTenant: (tenantId, work) => withTenant(db, tenantId, work),
  };
}
