import type { Knex } from '@workspace/kit';

/** A version's object as the records know it. */
export interface RecordedObject {
  key: string;
  fileId: string;
  tenantId: string;
  version: number;
  createdAt: Date;
  contentFlag: string | null;
}

/**
 * The sweep's reads across tenants, through the schema owner's functions of migration 004 (paths and ids only): the
 * runtime role, bound to one tenant per transaction, could not see every record otherwise.
 */
export class SweepStore {
  constructor(private readonly db: Knex) {}

  /** Version objects after `after` in the object store's (byte) order, `pageSize` at a time; one tenant's if given. */
  async versionsAfter(after: string, pageSize: number, tenantId?: string): Promise<RecordedObject[]> {
    const { rows } = await this.db.raw<{
      rows: {
        storage_path: string;
        file_id: string;
        tenant_id: string;
        version: number;
        created_at: Date;
        content_flag: string | null;
      }[];
    }>('SELECT * FROM drive_sweep_versions(?, ?, ?)', [after, pageSize, tenantId ?? null]);
    return rows.map((row) => ({
      key: row.storage_path,
      fileId: row.file_id,
      tenantId: row.tenant_id,
      version: row.version,
      createdAt: row.created_at,
      contentFlag: row.content_flag,
    }));
  }

  /** Which of these file ids have a record, in any tenant. */
  async knownFiles(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.db.raw<{ rows: { drive_sweep_known_files: string }[] }>(
      'SELECT drive_sweep_known_files FROM drive_sweep_known_files(?::uuid[])',
      [[...ids]],
    );
    return new Set(rows.map((row) => row.drive_sweep_known_files));
  }
}
