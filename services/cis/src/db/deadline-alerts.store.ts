import type { Knex } from '@workspace/kit';

/** A deadline told: its tax month, kind, state and date. */
export interface ToldDeadline {
  tenantId: string;
  taxMonth: string;
  kind: 'statements' | 'filing' | 'payment';
  state: 'due' | 'overdue';
  /** 'YYYY-MM-DD'. */
  dueDate: string;
  alertedAt: Date;
}

/** The deadlines already told per tenant (migration 010): the only code touching `deadline_alerts`. */
export class DeadlineAlertStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** Records a deadline as told; false when it was told before (same tax month, kind and state). */
  async record(told: ToldDeadline): Promise<boolean> {
    const rows = (await this.trx('deadline_alerts')
      .insert({
        tenant_id: told.tenantId,
        tax_month: told.taxMonth,
        kind: told.kind,
        state: told.state,
        due_date: told.dueDate,
        alerted_at: told.alertedAt,
      })
      .onConflict(['tenant_id', 'tax_month', 'kind', 'state'])
      .ignore()
      .returning('tax_month')) as unknown[];
    return rows.length > 0;
  }
}

/** A tenant claimed for today's scan. */
export interface ClaimedScan {
  tenantId: string;
  /** Marks the tenant scanned on `day` (in the claim's transaction). */
  done(day: string): Promise<void>;
}

/**
 * The tenants the daily deadline scan looks at and the London date each was last scanned (migration 010): the only
 * code touching `deadline_scan_tenants`. Tenant ids and dates only, read across tenants.
 */
export class DeadlineScanQueue {
  constructor(private readonly db: Knex) {}

  /** Lists a tenant for the scan (its module switched on), in the caller's transaction. */
  static async enlist(trx: Knex.Transaction, tenantId: string): Promise<void> {
    await trx('deadline_scan_tenants').insert({ tenant_id: tenantId }).onConflict('tenant_id').ignore();
  }

  /** Takes a tenant off the scan (its module switched off), in the caller's transaction. */
  static async delist(trx: Knex.Transaction, tenantId: string): Promise<void> {
    await trx('deadline_scan_tenants').where({ tenant_id: tenantId }).delete();
  }

  /**
   * Claims one tenant not yet scanned on `today` with FOR UPDATE SKIP LOCKED (replicas share the tenants) and runs
   * `work` while the claim holds; false when every tenant (but those in `except`) was scanned today.
   */
  claim(
    today: string,
    except: readonly string[],
    work: (scan: ClaimedScan) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (queueTrx) => {
      const row = await queueTrx<{ tenant_id: string; scanned_on: string | null }>('deadline_scan_tenants')
        .where((query) => {
          void query.whereNull('scanned_on').orWhere('scanned_on', '<', today);
        })
        .whereNotIn('tenant_id', [...except])
        .orderBy('tenant_id')
        .forUpdate()
        .skipLocked()
        .first('tenant_id');
      if (!row) return false;
      await work({
        tenantId: row.tenant_id,
        done: async (day) => {
          await queueTrx('deadline_scan_tenants')
            .where({ tenant_id: row.tenant_id })
            .update({ scanned_on: day });
        },
      });
      return true;
    });
  }
}
