import type { Knex } from '@workspace/kit';
import type { UsageCounter } from '../domain/index.js';

interface UsageRow {
  tenant_id: string;
  used: number;
  file_count: number;
  by_type: Partial<Record<UsageCounter, number>>;
  custom_limit: number | null;
  custom_features: Record<string, boolean>;
  created_at: Date;
  updated_at: Date;
}

export interface UsageChange {
  /** Bytes taken (positive) or released (negative). */
  bytes: number;
  /** Files added (+1), removed (-1) or neither (0, a new version). */
  files: number;
  counter: UsageCounter;
  /** The Europe/London calendar date the change counts on (daily and monthly usage). */
  day: string;
}

export interface UsageRecord {
  used: number;
  fileCount: number;
  byType: Partial<Record<UsageCounter, number>>;
  customLimit: number | null;
  customFeatures: Record<string, boolean>;
  lastUpdated: Date | null;
}

export interface DailyUsage {
  day: string;
  bytesAdded: number;
  bytesRemoved: number;
  filesAdded: number;
  filesRemoved: number;
}

/** The tenant's storage use (drive.md §3 usage stats): the only code touching `storage_usage` and its daily rows. */
export class UsageStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** Adds a change to the tenant's totals, its type counter and its day, in the caller's transaction. */
  async record(tenantId: string, change: UsageChange): Promise<void> {
    const { trx } = this;
    await trx.raw(`INSERT INTO storage_usage (tenant_id) VALUES (?) ON CONFLICT (tenant_id) DO NOTHING`, [
      tenantId,
    ]);
    await trx.raw(
      `UPDATE storage_usage SET
         used = greatest(used + ?::bigint, 0),
         file_count = greatest(file_count + ?::int, 0),
         by_type = by_type || jsonb_build_object(?::text, greatest(coalesce((by_type ->> ?::text)::bigint, 0) + ?::bigint, 0)),
         updated_at = now()
       WHERE tenant_id = ?`,
      [change.bytes, change.files, change.counter, change.counter, change.bytes, tenantId],
    );
    await trx.raw(
      `INSERT INTO storage_usage_daily (tenant_id, day, bytes_added, bytes_removed, files_added, files_removed)
         VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, day) DO UPDATE SET
         bytes_added = storage_usage_daily.bytes_added + excluded.bytes_added,
         bytes_removed = storage_usage_daily.bytes_removed + excluded.bytes_removed,
         files_added = storage_usage_daily.files_added + excluded.files_added,
         files_removed = storage_usage_daily.files_removed + excluded.files_removed`,
      [
        tenantId,
        change.day,
        Math.max(change.bytes, 0),
        Math.max(-change.bytes, 0),
        Math.max(change.files, 0),
        Math.max(-change.files, 0),
      ],
    );
  }

  async get(tenantId: string): Promise<UsageRecord> {
    const row = await this.trx<UsageRow>('storage_usage').where({ tenant_id: tenantId }).first();
    return {
      used: row?.used ?? 0,
      fileCount: row?.file_count ?? 0,
      byType: row?.by_type ?? {},
      customLimit: row?.custom_limit ?? null,
      customFeatures: row?.custom_features ?? {},
      lastUpdated: row?.updated_at ?? null,
    };
  }

  /** Daily rows from `fromDay` on, oldest first. */
  async daily(fromDay: string): Promise<DailyUsage[]> {
    const rows = await this.trx('storage_usage_daily')
      .where('day', '>=', fromDay)
      .orderBy('day')
      .select(
        this.trx.raw(`to_char(day, 'YYYY-MM-DD') AS day`),
        'bytes_added',
        'bytes_removed',
        'files_added',
        'files_removed',
      );
    return (rows as Record<string, unknown>[]).map((row) => ({
      day: String(row.day),
      bytesAdded: Number(row.bytes_added),
      bytesRemoved: Number(row.bytes_removed),
      filesAdded: Number(row.files_added),
      filesRemoved: Number(row.files_removed),
    }));
  }

  /** The tenant's custom limit (bytes; null: none) and custom features (the tier change). */
  async setCustom(
    tenantId: string,
    custom: { customLimit: number | null; customFeatures: Record<string, boolean> },
  ): Promise<void> {
    await this.trx.raw(
      `INSERT INTO storage_usage (tenant_id, custom_limit, custom_features) VALUES (?, ?, ?::jsonb)
       ON CONFLICT (tenant_id) DO UPDATE SET custom_limit = excluded.custom_limit,
         custom_features = excluded.custom_features, updated_at = now()`,
      [tenantId, custom.customLimit, JSON.stringify(custom.customFeatures)],
    );
  }
}
