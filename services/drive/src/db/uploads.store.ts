import { camelise, snakeise, type Camelised, type Knex } from '@workspace/kit';

export type UploadStatus = 'granted' | 'registered' | 'aborted';

interface UploadRow {
  id: string;
  tenant_id: string;
  file_id: string;
  new_version: boolean;
  drive_id: string;
  library_id: string;
  folder_id: string | null;
  name: string;
  size: number;
  mime_type: string;
  object_key: string;
  multipart_id: string;
  part_size: number;
  part_count: number;
  require_signatures: boolean;
  status: UploadStatus;
  created_by: string;
  created_at: Date;
  expires_at: Date;
}

export type UploadRecord = Camelised<UploadRow>;
export type NewUpload = Omit<UploadRecord, 'status' | 'createdAt'>;

const toRecord = (row: UploadRow): UploadRecord => camelise(row);

/** Upload grants (the browser's right to write one object) and their expiry queue: the only code touching them. */
export class UploadStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** A grant and its place in the expiry queue, in the caller's transaction. */
  async insert(upload: NewUpload): Promise<void> {
    await this.trx('uploads').insert(snakeise(upload));
    await this.trx('upload_expiry').insert({
      upload_id: upload.id,
      tenant_id: upload.tenantId,
      expires_at: upload.expiresAt,
    });
  }

  async get(id: string): Promise<UploadRecord | undefined> {
    const row = await this.trx<UploadRow>('uploads').where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  /** The grant, locked until the transaction ends (one completion, cancel or cleanup at a time). */
  async lock(id: string): Promise<UploadRecord | undefined> {
    const row = await this.trx<UploadRow>('uploads').where({ id }).forUpdate().first();
    return row ? toRecord(row) : undefined;
  }

  /** The grant locked, or undefined when it is missing or another transaction holds it (the cleanup skips it). */
  async lockIfFree(id: string): Promise<UploadRecord | undefined> {
    const row = await this.trx<UploadRow>('uploads').where({ id }).forUpdate().skipLocked().first();
    return row ? toRecord(row) : undefined;
  }

  /** The open grant that writes this object of this file (the spec's files/register names the object). */
  async openFor(fileId: string, objectKey: string): Promise<UploadRecord | undefined> {
    const row = await this.trx<UploadRow>('uploads')
      .where({ file_id: fileId, object_key: objectKey, status: 'granted' })
      .first();
    return row ? toRecord(row) : undefined;
  }

  /** An unexpired open grant of a new version of this file (one at a time: they would write the same key). */
  async openVersionGrant(fileId: string, now: Date): Promise<UploadRecord | undefined> {
    const row = await this.trx<UploadRow>('uploads')
      .where({ file_id: fileId, new_version: true, status: 'granted' })
      .where('expires_at', '>', now)
      .first();
    return row ? toRecord(row) : undefined;
  }

  /** Ends a grant (registered or aborted): it leaves the expiry queue. */
  async finish(id: string, status: Exclude<UploadStatus, 'granted'>): Promise<void> {
    await this.setStatus(id, status);
    await this.trx('upload_expiry').where({ upload_id: id }).delete();
  }

  /** Only the status (the cleanup worker removes the queue entry it holds itself). */
  async setStatus(id: string, status: Exclude<UploadStatus, 'granted'>): Promise<void> {
    await this.trx('uploads').where({ id }).update({ status });
  }
}

/** A due entry of the expiry queue, claimed until `work` ends. */
export interface ClaimedExpiry {
  uploadId: string;
  tenantId: string;
  remove(): Promise<void>;
}

/** The expiry queue across tenants (no row-level security: ids and times only). */
export class UploadExpiryQueue {
  constructor(private readonly db: Knex) {}

  /** Claims the first grant due by `now` (FOR UPDATE SKIP LOCKED) and runs `work`; false when none is due. */
  claim(now: Date, work: (claimed: ClaimedExpiry) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (queueTrx) => {
      const claimed = (await queueTrx('upload_expiry')
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .forUpdate()
        .skipLocked()
        .first()) as { upload_id: string; tenant_id: string } | undefined;
      if (!claimed) return false;
      await work({
        uploadId: claimed.upload_id,
        tenantId: claimed.tenant_id,
        remove: async () => {
          await queueTrx('upload_expiry').where({ upload_id: claimed.upload_id }).delete();
        },
      });
      return true;
    });
  }
}
