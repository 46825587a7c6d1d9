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

  /** The lower-cased names already taken in one drive, library and folder that start with `stem` (duplicate naming). */
  async namesLike(
    place: { driveId: string; libraryId: string; folderId: string | null },
    stem: string,
  ): Promise<string[]> {
    const query = this.trx<FileRow>('files')
      .where({ drive_id: place.driveId, library_id: place.libraryId })
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

  /** The files of any status directly in these folders (a deleted folder's files move out first). */
  async inFolders(folderIds: readonly string[]): Promise<FileRecord[]> {
    if (folderIds.length === 0) return [];
    const rows = await this.trx<FileRow>('files').whereIn('folder_id', folderIds).orderBy('created_at');
    return rows.map(camelise);
  }
}
