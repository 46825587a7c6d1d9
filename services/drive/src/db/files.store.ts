import { camelise, snakeise, type Camelised, type Knex } from '@workspace/kit';
import type { FileStatus, FileTypeClass, FileVisibility } from '../domain/index.js';

interface FileRow {
  id: string;
  tenant_id: string;
  drive_id: string;
  library_id: string;
  folder_id: string | null;
  name: string;
  name_lower: string;
  ext: string;
  mime_type: string;
  type_class: FileTypeClass;
  size: number;
  checksum: string;
  version: number;
  versions_count: number;
  storage_path: string;
  status: FileStatus;
  binned_at: Date | null;
  binned_by: string | null;
  scan_status: string;
  content_flag: string | null;
  owner_id: string;
  owner_name: string;
  visibility: FileVisibility;
  allowed_uids: string[];
  shared_with: string[];
  orphaned_ref: boolean;
  signed: boolean;
  thumbnail_path: string | null;
  /** What a soft delete released from the quota (migration 004); null: the file still counts. */
  released_bytes: number | null;
  created_by: string;
  updated_by: string;
  created_at: Date;
  updated_at: Date;
}

interface VersionRow {
  tenant_id: string;
  file_id: string;
  version: number;
  storage_path: string;
  size: number;
  checksum: string;
  mime_type: string;
  note: string;
  created_by: string;
  created_at: Date;
}

export type FileRecord = Camelised<FileRow>;
export type FileVersionRecord = Camelised<VersionRow>;
export type NewFile = Omit<
  FileRecord,
  | 'nameLower'
  | 'createdAt'
  | 'updatedAt'
  | 'status'
  | 'binnedAt'
  | 'binnedBy'
  | 'scanStatus'
  | 'orphanedRef'
  | 'signed'
  | 'thumbnailPath'
  | 'releasedBytes'
  | 'version'
  | 'versionsCount'
  | 'allowedUids'
  | 'sharedWith'
> &
  Partial<Pick<FileRecord, 'allowedUids' | 'sharedWith'>>;

/** Files and their versions: the only code touching `files` and `file_versions`. */
export class FileStore {
  constructor(private readonly trx: Knex.Transaction) {}

  async get(id: string): Promise<FileRecord | undefined> {
    const row = await this.trx<FileRow>('files').where({ id }).first();
    return row ? camelise(row) : undefined;
  }

  async getMany(ids: readonly string[]): Promise<FileRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.trx<FileRow>('files').whereIn('id', ids);
    return rows.map(camelise);
  }

  /**
   * The lower-cased names live files already hold in one drive, library and folder that start with `stem` (duplicate
   * naming; a trashed file holds no name: migration 004).
   */
  async namesLike(
    place: { driveId: string; libraryId: string; folderId: string | null },
    stem: string,
  ): Promise<string[]> {
    const query = this.trx<FileRow>('files')
      .where({ drive_id: place.driveId, library_id: place.libraryId, status: 'active' })
      .whereRaw('starts_with(name_lower, ?)', [stem.toLowerCase()])
      .select('name_lower');
    if (place.folderId === null) query.whereNull('folder_id');
    else query.where({ folder_id: place.folderId });
    return (await query).map((row) => row.name_lower);
  }

  /** A new file (version 1) and its first version row. */
  async insert(file: NewFile): Promise<FileRecord> {
    const [row] = await this.trx<FileRow>('files')
      .insert({ ...snakeise(file), name_lower: file.name.toLowerCase() })
      .returning('*');
    await this.trx('file_versions').insert(
      snakeise({
        tenantId: file.tenantId,
        fileId: file.id,
        version: 1,
        storagePath: file.storagePath,
        size: file.size,
        checksum: file.checksum,
        mimeType: file.mimeType,
        createdBy: file.createdBy,
      }),
    );
    if (!row) throw new Error(`file ${file.id} was not stored`);
    return camelise(row);
  }

  async update(
    id: string,
    changes: Partial<Omit<FileRecord, 'id' | 'tenantId' | 'createdAt'>>,
  ): Promise<void> {
    const columns = snakeise(changes);
    if (changes.name !== undefined) columns.name_lower = changes.name.toLowerCase();
    await this.trx('files')
      .where({ id })
      .update({ ...columns, updated_at: this.trx.fn.now() });
  }

  async addVersion(version: Omit<FileVersionRecord, 'createdAt'>): Promise<void> {
    await this.trx('file_versions').insert(snakeise(version));
  }

  async versions(fileId: string): Promise<FileVersionRecord[]> {
    const rows = await this.trx<VersionRow>('file_versions')
      .where({ file_id: fileId })
      .orderBy('version', 'desc');
    return rows.map(camelise);
  }

  // Trash, restore and purge (commands/trash.ts).

  /** The file locked until the transaction ends (a trash, restore or purge; the same as the uploads helper's). */
  async lock(id: string): Promise<FileRecord | undefined> {
    const row = await this.trx<FileRow>('files').where({ id }).forUpdate().first();
    return row ? camelise(row) : undefined;
  }

  /** Trashed files by id after `afterId`, of one drive when given (Empty Trash pages through them). */
  async trashed(limit: number, afterId?: string, driveId?: string): Promise<FileRecord[]> {
    const query = this.trx<FileRow>('files').where({ status: 'trashed' }).orderBy('id').limit(limit);
    if (afterId !== undefined) query.where('id', '>', afterId);
    if (driveId !== undefined) query.where({ drive_id: driveId });
    return (await query).map(camelise);
  }

  /** Orphaned files (a module reference could not be written), of these drives when given. */
  async orphaned(driveIds?: readonly string[]): Promise<FileRecord[]> {
    const query = this.trx<FileRow>('files').where({ orphaned_ref: true }).orderBy('created_at');
    if (driveIds !== undefined) query.whereIn('drive_id', driveIds);
    return (await query).map(camelise);
  }

  /** These files locked until the transaction ends (a purge of many); the ones gone meanwhile are not there. */
  async lockMany(ids: readonly string[]): Promise<FileRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.trx<FileRow>('files').whereIn('id', ids).orderBy('id').forUpdate();
    return rows.map(camelise);
  }

  /** Every version of these files. */
  async versionsOf(fileIds: readonly string[]): Promise<FileVersionRecord[]> {
    if (fileIds.length === 0) return [];
    const rows = await this.trx<VersionRow>('file_versions').whereIn('file_id', fileIds);
    return rows.map(camelise);
  }

  /**
   * Removes the files' records and what hangs off them: versions, stars and views (by foreign key) and their share
   * entries. Their references are the reference store's (commands/trash.ts removes them first).
   */
  async purge(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.trx('share_files').whereIn('file_id', ids).delete();
    await this.trx('files').whereIn('id', ids).delete();
  }
}
