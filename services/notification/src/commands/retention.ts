import { withTenant, type Knex, type Logger } from '@workspace/kit';
import { deliveryQueue, EmailStore, purgeExpiredEmails, type ContentCipher } from '../db/emails.store.js';

export interface RetentionDeps {
  db: Knex;
  cipher: ContentCipher;
  logger: Logger;
  /** Days an e-mail's record is kept once it is final (EMAIL_RETENTION_DAYS). */
  retentionDays: number;
}

export interface RetentionReport {
  /** Pending e-mails an older version had stored in clear, now sealed. */
  sealed: number;
  /** Records of e-mails final for longer than the retention period, deleted. */
  deleted: number;
}

/**
 * One round of the retention clean-up (safe on every replica at once): seals what an older version left in clear on
 * e-mails still waiting to be sent, tenant by tenant (the delivery queue names them), then deletes the records of
 * e-mails that have been final for longer than the retention period, in every tenant.
 */
export async function runRetention(deps: RetentionDeps): Promise<RetentionReport> {
  const { db, cipher, logger, retentionDays } = deps;
  let sealed = 0;
  for (const tenantId of await deliveryQueue.tenants(db)) {
    sealed += await withTenant(db, tenantId, (trx) => new EmailStore(trx, cipher).sealClearContent());
  }
  const deleted = await purgeExpiredEmails(db, retentionDays);
  const report = { sealed, deleted };
  if (sealed > 0 || deleted > 0) logger.info({ ...report, retentionDays }, 'email retention clean-up');
  return report;
}
