import { camelise, type Camelised } from '@workspace/kit';
import type { Knex } from '@workspace/kit';
import type { PeriodMarkReason } from '../domain/index.js';

interface PeriodMarkRow {
  tenant_id: string;
  tax_month: string;
  reason: PeriodMarkReason;
  note: string;
  marked_by: string;
  marked_at: Date;
}

export type PeriodMarkRecord = Camelised<PeriodMarkRow>;

/**
 * Tax months marked as needing no return from this product (filed elsewhere, before this product, HMRC told of
 * inactivity): the only code touching `return_period_marks`.
 */
export class PeriodMarkStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async all(): Promise<PeriodMarkRecord[]> {
    const rows = await this.trx<PeriodMarkRow>('return_period_marks').orderBy('tax_month', 'desc');
    return rows.map((row) => camelise(row));
  }

  /** Marks a month (or changes its mark). */
  async put(mark: PeriodMarkRecord): Promise<PeriodMarkRecord> {
    const [row] = await this.trx<PeriodMarkRow>('return_period_marks')
      .insert({
        tenant_id: mark.tenantId,
        tax_month: mark.taxMonth,
        reason: mark.reason,
        note: mark.note,
        marked_by: mark.markedBy,
        marked_at: mark.markedAt,
      })
      .onConflict(['tenant_id', 'tax_month'])
      .merge()
      .returning('*');
    if (!row) throw new Error('mark write returned nothing');
    return camelise(row);
  }

  /** Clears a month's mark; the mark that was there, if any. */
  async remove(taxMonth: string): Promise<PeriodMarkRecord | undefined> {
    const [row] = await this.trx<PeriodMarkRow>('return_period_marks')
      .where({ tax_month: taxMonth })
      .delete()
      .returning('*');
    return row ? camelise(row) : undefined;
  }
}
