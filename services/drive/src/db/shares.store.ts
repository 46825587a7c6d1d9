import { camelise, containing, snakeise, type Camelised, type Knex } from '@workspace/kit';
import type { ShareVisibility } from '../domain/index.js';

interface ShareRow {
  id: string;
  tenant_id: string;
  name: string;
  library_id: string;
  visibility: ShareVisibility;
  allowed_uids: string[];
  allow_download: boolean;
  watermark: boolean;
  expires_at: Date | null;
  passcode_hash: string | null;
  passcode_failures: number;
  revoked_at: Date | null;
  revoked_by: string | null;
  revoke_reason: string | null;
  expiry_recorded_at: Date | null;
  created_by: string;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export type ShareRecord = Camelised<ShareRow> & { fileCount: number };
export type NewShare = Pick<
  ShareRecord,
  | 'id'
  | 'tenantId'
  | 'name'
  | 'libraryId'
  | 'visibility'
  | 'allowedUids'
  | 'allowDownload'
  | 'watermark'
  | 'expiresAt'
  | 'passcodeHash'
  | 'createdBy'
>;
export type ShareChanges = Partial<
  Pick<
    ShareRecord,
    | 'visibility'
    | 'allowedUids'
    | 'allowDownload'
    | 'watermark'
    | 'expiresAt'
    | 'passcodeHash'
    | 'passcodeFailures'
    | 'revokedAt'
    | 'revokedBy'
    | 'revokeReason'
    | 'expiryRecordedAt'
    | 'updatedBy'
  >
>;

/** Shares (exports) and the files in them: the only code touching `shares` and `share_files`. */
export class ShareStore {
  constructor(private readonly trx: Knex.Transaction) {}

  private select() {
    return this.trx<ShareRow>('shares').select(
      'shares.*',
      this.trx.raw(
        '(SELECT count(*)::int FROM share_files WHERE share_files.share_id = shares.id) AS file_count',
      ),
    );
  }

  /** One share; `forUpdate` holds its row until the transaction ends (passcode attempts are counted one by one). */
  async get(id: string, options: { forUpdate?: boolean } = {}): Promise<ShareRecord | undefined> {
    const query = this.select().where('shares.id', id).first();
    if (options.forUpdate) query.forUpdate();
    const row = (await query) as (ShareRow & { file_count: number }) | undefined;
    return row ? camelise(row) : undefined;
  }

  /** The tenant's shares, newest change first, optionally of one library and matching a name. */
  async list(filter: { libraryId?: string; q?: string }): Promise<ShareRecord[]> {
    const query = this.select().orderBy('shares.updated_at', 'desc').orderBy('shares.id');
    if (filter.libraryId) query.where('shares.library_id', filter.libraryId);
    if (filter.q) query.whereILike('shares.name', containing(filter.q));
    const rows = (await query) as (ShareRow & { file_count: number })[];
    return rows.map(camelise);
  }

  async insert(share: NewShare, fileIds: readonly string[]): Promise<void> {
    await this.trx('shares').insert(snakeise(share));
    if (fileIds.length > 0) {
      await this.trx('share_files').insert(
        fileIds.map((fileId) => ({ tenant_id: share.tenantId, share_id: share.id, file_id: fileId })),
      );
    }
  }

  /** The ids of the files in the share, in the order they were added. */
  async fileIds(shareId: string): Promise<string[]> {
    const rows: { file_id: string }[] = await this.trx('share_files')
      .where({ share_id: shareId })
      .select('file_id');
    return rows.map((row) => row.file_id);
  }

  async update(id: string, changes: ShareChanges): Promise<void> {
    await this.trx('shares')
      .where({ id })
      .update({ ...snakeise(changes), updated_at: this.trx.fn.now() });
  }

  /** Takes the files that are gone (purged) or in the trash out of the share; how many went. */
  async removeMissingFiles(shareId: string): Promise<number> {
    const removed = await this.trx('share_files')
      .where({ share_id: shareId })
      .whereNotExists(
        this.trx('files').whereRaw("files.id = share_files.file_id AND files.status = 'active'").select(1),
      )
      .delete();
    if (removed > 0)
      await this.trx('shares').where({ id: shareId }).update({ updated_at: this.trx.fn.now() });
    return removed;
  }

  /** One more wrong passcode; the count after it. */
  async addPasscodeFailure(id: string): Promise<number> {
    const [row] = await this.trx<ShareRow>('shares')
      .where({ id })
      .increment('passcode_failures', 1)
      .returning('passcode_failures');
    return row?.passcode_failures ?? 0;
  }

  async resetPasscodeFailures(id: string): Promise<void> {
    await this.trx('shares').where({ id }).update({ passcode_failures: 0 });
  }

  /** Marks the share's expiry as recorded; true only for the call that marked it (the events are written once). */
  async recordExpiry(id: string, at: Date): Promise<boolean> {
    const marked = await this.trx('shares')
      .where({ id })
      .whereNull('expiry_recorded_at')
      .update({ expiry_recorded_at: at });
    return marked > 0;
  }
}
