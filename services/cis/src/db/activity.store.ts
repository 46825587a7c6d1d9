import { camelise, type Camelised } from '@workspace/kit';
import type { Knex } from '@workspace/kit';

interface ActivityRow {
  id: number;
  action: string;
  target_type: string;
  target_id: string;
  summary: string;
  details: Record<string, string>;
  performed_by: string;
  performed_at: Date;
}

export type ActivityRecord = Camelised<ActivityRow>;

export interface NewActivity {
  tenantId: string;
  action: string;
  targetType: string;
  targetId: string;
  summary: string;
  details: Record<string, string>;
  performedBy: string;
}

/** The tenant's activity log (Recent Activity): the only code touching `activity`. */
export class ActivityStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async insert(entry: NewActivity): Promise<void> {
    await this.trx('activity').insert({
      tenant_id: entry.tenantId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      summary: entry.summary,
      details: JSON.stringify(entry.details),
      performed_by: entry.performedBy,
    });
  }

  /** The newest entries first. */
  async recent(limit: number): Promise<ActivityRecord[]> {
    const rows = await this.trx<ActivityRow>('activity')
      .orderBy([
        { column: 'performed_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit);
    return rows.map((row) => camelise(row));
  }
}
