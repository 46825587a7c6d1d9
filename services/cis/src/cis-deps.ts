import { withTenant, type Clock, type FieldCipher, type Knex, type Logger } from '@workspace/kit';
import { IdentityClient } from './clients/identity.js';
import type { Mailer } from './clients/mailer.js';
import { IdentityHasher } from './commands/identity-hashes.js';
import { SealedFields } from './commands/sealed-fields.js';
import type { CisConfig } from './config.js';
import { AuditWriter } from './events/audit.js';
import { InvoiceChangeNotifier, InvoiceFigureCache } from './events/invoice-changes.js';

/** What the commands, routes and workers of cis work with, built once when the service starts. */
export interface CisDeps {
  readonly db: Knex;
  readonly config: CisConfig;
  readonly logger: Logger;
  /** What cis reads for "today": the tax month in progress, payment dates, deadlines, penalties (a test sets it). */
  readonly clock: Clock;
  readonly cipher: FieldCipher;
  /** UTRs and NINOs sealed and opened with the spec's failure messages. */
  readonly sealed: SealedFields;
  /** Keyed hashes of UTRs, NINOs and company numbers, compared to keep one subcontractor per person (ADR 0039). */
  readonly identityHashes: IdentityHasher;
  readonly mailer: Mailer;
  readonly identity: IdentityClient;
  readonly audit: AuditWriter;
  /** The CloudEvents source of the events cis records (its outbox). */
  readonly source: string;
  readonly invoiceFigures: InvoiceFigureCache;
  readonly invoiceChanges: InvoiceChangeNotifier;
  /** `work` in one transaction whose row-level security tenant is `tenantId`. */
  inTenant<T>(tenantId: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

export function createCisDeps(options: {
  db: Knex;
  config: CisConfig;
  logger: Logger;
  cipher: FieldCipher;
  source: string;
  mailer: Mailer;
  clock: Clock;
}): CisDeps {
  const { db, config, logger, cipher, mailer, clock } = options;
  const invoiceFigures = new InvoiceFigureCache();
  return {
    db,
    config,
    logger,
    clock,
    cipher,
    sealed: new SealedFields(cipher, logger),
    identityHashes: new IdentityHasher(config.CIS_IDENTIFIER_HASH_KEY),
    mailer,
    identity: new IdentityClient(config.IDENTITY_URL, logger),
    audit: new AuditWriter(options.source),
    source: options.source,
    invoiceFigures,
    invoiceChanges: new InvoiceChangeNotifier(invoiceFigures),
    inTenant: (tenantId, work) => withTenant(db, tenantId, work),
  };
}
