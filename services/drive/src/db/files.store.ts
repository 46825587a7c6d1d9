import { camelise, containing, snakeise, type Camelised, type Knex } from '@workspace/kit';
import type {
  FileSortKey,
  FileStatus,
  FileTypeClass,
  FileView,
  FileVisibility,
  SortDirection,
  VisibilityFilter,
} from '../domain/index.js';

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
  /** Uploaded with 'Require signatures' (a PDF): awaiting signature until signed (migration 009). */
  signature_required: boolean;
  thumbnail_path: string | null;
  /** The version the last thumbnail attempt was for (migration 003). */
  thumbnail_version: number | null;
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
  | 'signatureRequired'
  | 'thumbnailPath'
  | 'thumbnailVersion'
  | 'releasedBytes'
  | 'version'
  | 'versionsCount'
  | 'allowedUids'
  | 'sharedWith'
> &
  Partial<Pick<FileRecord, 'allowedUids' | 'sharedWith' | 'signatureRequired'>>;

/** Whose list it is, as the read rule (canReadFile) needs it in SQL: worked out per tenant by commands/file-list.ts. */
export interface FileReader {
  userId: string;
  /** Libraries the reader may read (the library read rule), of live drives. */
  readableLibraryIds: readonly string[];
  /** Drives the reader may see (canSeeDrive). */
  visibleDriveIds: readonly string[];
  /** Manage-all (or the super-administrator claim): restricted files too. */
  manageAll: boolean;
}

export interface FileListFilter {
  view: FileView;
  driveId?: string | undefined;
  libraryId?: string | undefined;
  folderId?: string | undefined;
  visibility: VisibilityFilter;
  /** Part of the file's name or of its owner's name, any case. */
  q?: string | undefined;
  /** Only these files (the detail of one). */
  ids?: readonly string[];
  /** Recent: opened or uploaded since. */
  recentSince: Date;
  /** Recent: at most this many, the latest opened. */
  recentLimit: number;
}

export interface FileListOrder {
  /** Undefined: created descending, or for Recent the last opened first. */
  sort: FileSortKey | undefined;
  direction: SortDirection;
  offset: number;
  limit: number;
}

interface FileListRow extends FileRow {
  drive_name: string;
  library_name: string;
  folder_name: string | null;
  shared_with_count: number;
  starred: boolean;
  opened_at: Date | null;
}

/** A file as the list shows it: the record, the names of its drive, library and folder, and the reader's marks. */
export type FileListEntry = Camelised<FileListRow>;

const SORT_COLUMNS: Readonly<Record<FileSortKey, string>> = {
  name: 'f.name_lower',
  drive: 'd.name',
  library: 'l.name',
  folder: "coalesce(fo.name, '')",
  owner: 'lower(f.owner_name)',
  size: 'f.size',
  shared: 'cardinality(f.shared_with)',
  createdAt: 'f.created_at',
  updatedAt: 'f.updated_at',
};

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

  /** The file locked until the transaction ends (a new version, a restore, a trash or a purge changes it). */
  async lock(id: string): Promise<FileRecord | undefined> {
    const row = await this.trx<FileRow>('files').where({ id }).forUpdate().first();
    return row ? camelise(row) : undefined;
  }

  async version(fileId: string, version: number): Promise<FileVersionRecord | undefined> {
    const row = await this.trx<VersionRow>('file_versions').where({ file_id: fileId, version }).first();
    return row ? camelise(row) : undefined;
  }

  /** Removes these version rows of the file (their objects are the caller's to remove). */
  async removeVersions(fileId: string, versions: readonly number[]): Promise<void> {
    if (versions.length === 0) return;
    await this.trx('file_versions').where({ file_id: fileId }).whereIn('version', versions).delete();
  }
  /**
   * One page of the file list: only files the reader may read (canReadFile as SQL: the library read rule, then
   * shared with them by name or their own, else a drive they see and, when restricted, allowed to them), with the
   * view's, filters' and search's conditions, in the order asked (the id breaks ties).
   */
  async listPage(reader: FileReader, filter: FileListFilter, order: FileListOrder): Promise<FileListEntry[]> {
    const { from, where, bindings } = listConditions(reader, filter);
    const direction = order.direction === 'asc' ? 'ASC' : 'DESC';
    const recent = filter.view === 'recent';
    // The page is picked from `files` alone (an index walk that stops at the page's end), then given its names.
    // Only a sort by the drive's, library's or folder's name needs them while picking.
    const byPlaceName = order.sort === 'drive' || order.sort === 'library' || order.sort === 'folder';
    const orderBy = (opened: string) =>
      order.sort === undefined
        ? recent
          ? `${opened} DESC, f.id DESC`
          : 'f.created_at DESC, f.id DESC'
        : `${SORT_COLUMNS[order.sort]} ${direction}, f.id ${direction}`;
    const names = `JOIN drives d ON d.id = f.drive_id JOIN libraries l ON l.id = f.library_id
      LEFT JOIN folders fo ON fo.id = f.folder_id`;
    const page = `SELECT f.*, ${recent ? 'v.viewed_at' : 'NULL::timestamptz'} AS opened_at
      FROM ${from} ${byPlaceName ? names : ''} WHERE ${where} ORDER BY ${orderBy('v.viewed_at')} LIMIT ? OFFSET ?`;
    const { rows } = await this.trx.raw<{ rows: FileListRow[] }>(
      `WITH page AS MATERIALIZED (${page})
      SELECT f.*, d.name AS drive_name, l.name AS library_name, fo.name AS folder_name,
        cardinality(f.shared_with) AS shared_with_count,
        EXISTS (SELECT 1 FROM file_stars s WHERE s.file_id = f.id AND s.user_id = ?) AS starred
      FROM page f ${names} ORDER BY ${orderBy('f.opened_at')}`,
      [...bindings, order.limit, order.offset, reader.userId],
    );
    return rows.map(camelise);
  }

  /** How many files the list holds for the reader (the pager's total), the same conditions as `listPage`. */
  async listCount(reader: FileReader, filter: FileListFilter): Promise<number> {
    const { from, where, bindings } = listConditions(reader, filter);
    const { rows } = await this.trx.raw<{ rows: { n: number }[] }>(
      `SELECT count(*)::int AS n FROM ${from} WHERE ${where}`,
      bindings,
    );
    return rows[0]?.n ?? 0;
  }

  /** Images and PDFs whose current version has had no thumbnail attempt, oldest first (the thumbnail worker). */
  async thumbnailsPending(limit: number): Promise<FileRecord[]> {
    const rows = await this.trx<FileRow>('files')
      .whereIn('type_class', ['image', 'pdf'])
      .where({ status: 'active' })
      .whereRaw('(thumbnail_version IS NULL OR thumbnail_version <> version)')
      .orderBy('created_at')
      .limit(limit);
    return rows.map(camelise);
  }

  /**
   * Records a thumbnail attempt for `version` (path null: it could not be made), unless the file has moved on to
   * another version meanwhile. Not a change of the file: updated_at stays.
   */
  async setThumbnail(id: string, version: number, path: string | null): Promise<void> {
    await this.trx('files')
      .where({ id, version })
      .update({ thumbnail_path: path, thumbnail_version: version });
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

  /** The files of any status directly in these folders (a deleted folder's files move out first). */
  async inFolders(folderIds: readonly string[]): Promise<FileRecord[]> {
    if (folderIds.length === 0) return [];
    const rows = await this.trx<FileRow>('files').whereIn('folder_id', folderIds).orderBy('created_at');
    return rows.map(camelise);
  }
}

/**
 * The FROM and WHERE of the list. Recent is the reader's own file_views (a new file is one its uploader opened:
 * migration 003) since the window's start, cut to the latest `recentLimit` before any other order or page.
 */
function listConditions(
  reader: FileReader,
  filter: FileListFilter,
): { from: string; where: string; bindings: Knex.RawBinding[] } {
  const where: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  const add = (condition: string, ...values: Knex.RawBinding[]) => {
    where.push(condition);
    bindings.push(...values);
  };
  add(
    `f.library_id = ANY(?::uuid[]) AND (f.owner_id = ? OR f.shared_with @> ARRAY[?]::text[]
      OR (f.drive_id = ANY(?::uuid[]) AND (f.visibility <> 'restricted' OR ? OR f.allowed_uids @> ARRAY[?]::text[])))`,
    [...reader.readableLibraryIds],
    reader.userId,
    reader.userId,
    [...reader.visibleDriveIds],
    reader.manageAll,
    reader.userId,
  );
  add('f.status = ?', filter.view === 'trash' ? 'trashed' : 'active');
  if (filter.view === 'mine') add('f.owner_id = ?', reader.userId);
  if (filter.view === 'shared') add(`(f.visibility = 'shared' OR cardinality(f.shared_with) > 0)`);
  if (filter.view === 'starred')
    add('EXISTS (SELECT 1 FROM file_stars st WHERE st.file_id = f.id AND st.user_id = ?)', reader.userId);
  if (filter.visibility === 'shared') add(`(f.visibility = 'shared' OR cardinality(f.shared_with) > 0)`);
  if (filter.visibility === 'private') add(`(f.visibility <> 'shared' AND cardinality(f.shared_with) = 0)`);
  if (filter.driveId !== undefined) add('f.drive_id = ?', filter.driveId);
  if (filter.libraryId !== undefined) add('f.library_id = ?', filter.libraryId);
  if (filter.folderId !== undefined) add('f.folder_id = ?', filter.folderId);
  if (filter.ids !== undefined) add('f.id = ANY(?::uuid[])', [...filter.ids]);
  const q = filter.q?.trim().toLowerCase();
  if (q) add('(f.name_lower LIKE ? OR lower(f.owner_name) LIKE ?)', containing(q), containing(q));
  if (filter.view !== 'recent') return { from: 'files f', where: where.join(' AND '), bindings };
  // Recent: the latest opened of the files the other conditions keep, then joined back for the page.
  const recent = `(SELECT rv.file_id, rv.viewed_at FROM file_views rv JOIN files f ON f.id = rv.file_id
      WHERE rv.user_id = ? AND rv.viewed_at >= ? AND ${where.join(' AND ')}
      ORDER BY rv.viewed_at DESC LIMIT ?) v`;
  return {
    from: `${recent} JOIN files f ON f.id = v.file_id`,
    where: 'TRUE',
    bindings: [reader.userId, filter.recentSince, ...bindings, filter.recentLimit],
  };
}
