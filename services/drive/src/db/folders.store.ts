import { randomUUID } from 'node:crypto';
import { camelise, snakeise, type Camelised, type Knex } from '@workspace/kit';
import type { FolderColour } from '../domain/index.js';

interface FolderRow {
  id: string;
  tenant_id: string;
  drive_id: string;
  library_id: string | null;
  parent_id: string | null;
  ancestors: string[];
  slug: string;
  name: string;
  color: FolderColour;
  type: 'folder' | 'module';
  file_count: number;
  total_size: string | number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

export type FolderRecord = Omit<Camelised<FolderRow>, 'totalSize'> & { totalSize: number };
export type NewFolder = Omit<FolderRecord, 'fileCount' | 'totalSize' | 'createdAt' | 'updatedAt'>;

/** A folder with the names the folder list shows beside it. */
export type ListedFolder = FolderRecord & { driveName: string; libraryName: string | null };

const toRecord = (row: FolderRow): FolderRecord => ({
  ...camelise(row),
  totalSize: Number(row.total_size),
});

/** A new folder at a drive's root (a module folder, or a system folder such as a CIS tax year). */
const rootFolderRow = (
  tenantId: string,
  driveId: string,
  libraryId: string,
  folder: { name: string; slug: string },
  createdBy: string,
  type: FolderRow['type'],
) => ({
  id: randomUUID(),
  tenant_id: tenantId,
  drive_id: driveId,
  library_id: libraryId,
  parent_id: null,
  slug: folder.slug,
  name: folder.name,
  type,
  created_by: createdBy,
});

/** Folders of drives: the only code touching `folders` (its counts read `files`). */
export class FolderStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** Holds the drive's folder tree until the transaction ends (slugs among siblings, moves and deletes). */
  async lockDrive(driveId: string): Promise<void> {
    await this.trx.raw(`SELECT pg_advisory_xact_lock(hashtext('drive.folders:' || ?))`, [driveId]);
  }

  async get(id: string): Promise<FolderRecord | undefined> {
    const row = await this.trx<FolderRow>('folders').where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  /** The folder row locked for a change (a move or delete of its subtree waits for another). */
  async getForUpdate(id: string): Promise<FolderRecord | undefined> {
    const row = await this.trx<FolderRow>('folders').where({ id }).forUpdate().first();
    return row ? toRecord(row) : undefined;
  }

  /** The drive's folders, oldest first (drive.md §3), with the drive's and library's names; or just folder `id`. */
  async list(driveId: string, id?: string): Promise<ListedFolder[]> {
    const query = this.trx<FolderRow>('folders as f');
    if (id !== undefined) query.where('f.id', id);
    const rows = await query
      .join('drives as d', 'd.id', 'f.drive_id')
      .leftJoin('libraries as l', 'l.id', 'f.library_id')
      .where('f.drive_id', driveId)
      .orderBy([
        { column: 'f.created_at', order: 'asc' },
        { column: 'f.id', order: 'asc' },
      ])
      .select('f.*', 'd.name as drive_name', 'l.name as library_name');
    return rows.map((row) => {
      const { drive_name, library_name, ...folder } = row as FolderRow & {
        drive_name: string;
        library_name: string | null;
      };
      return { ...toRecord(folder), driveName: drive_name, libraryName: library_name };
    });
  }

  /** Whether the folder belongs to the drive (an upload into a folder names one of the drive's). */
  async inDrive(folderId: string, driveId: string): Promise<boolean> {
    const rows = await this.trx<FolderRow>('folders').where({ id: folderId, drive_id: driveId }).select('id');
    return rows.length > 0;
  }

  /**
   * A module drive's default folders (drive.md §3 module folders: type module) at its root, skipping any it already
   * has. Returns how many were made.
   */
  async addModuleFolders(
    tenantId: string,
    driveId: string,
    libraryId: string,
    folders: { name: string; slug: string }[],
    createdBy: string,
  ): Promise<number> {
    if (folders.length === 0) return 0;
    const rows = await this.trx('folders')
      .insert(
        folders.map((folder) => rootFolderRow(tenantId, driveId, libraryId, folder, createdBy, 'module')),
      )
      .onConflict()
      .ignore()
      .returning('id');
    return rows.length;
  }

  /** A drive's top-level folders (module folders and others), oldest first. */
  async topFolders(driveId: string): Promise<FolderRecord[]> {
    const rows = await this.trx<FolderRow>('folders')
      .where({ drive_id: driveId })
      .whereNull('parent_id')
      .orderBy('created_at');
    return rows.map(toRecord);
  }

  /** A folder of the drive with this slug at the top level, or made (system folders: the CIS tax years). */
  async topFolder(
    tenantId: string,
    driveId: string,
    libraryId: string,
    folder: { name: string; slug: string },
    createdBy: string,
  ): Promise<string> {
    await this.trx('folders')
      .insert(rootFolderRow(tenantId, driveId, libraryId, folder, createdBy, 'folder'))
      .onConflict()
      .ignore();
    const row = await this.trx<FolderRow>('folders')
      .where({ drive_id: driveId, slug: folder.slug })
      .whereNull('parent_id')
      .first('id');
    if (!row) throw new Error(`folder ${folder.slug} of drive ${driveId} was not made`);
    return row.id;
  }

  /** The slugs taken under one parent (root: null) of a drive, leaving out one folder (the one being changed). */
  async siblingSlugs(driveId: string, parentId: string | null, except?: string): Promise<Set<string>> {
    const query = this.trx<FolderRow>('folders').where({ drive_id: driveId }).select('slug');
    if (parentId === null) query.whereNull('parent_id');
    else query.where({ parent_id: parentId });
    if (except !== undefined) query.whereNot({ id: except });
    return new Set((await query).map((row) => row.slug));
  }

  /** The child of `parentId` (root: null) with this slug. */
  async childBySlug(
    driveId: string,
    parentId: string | null,
    slug: string,
  ): Promise<FolderRecord | undefined> {
    const query = this.trx<FolderRow>('folders').where({ drive_id: driveId, slug });
    if (parentId === null) query.whereNull('parent_id');
    else query.where({ parent_id: parentId });
    const row = await query.first();
    return row ? toRecord(row) : undefined;
  }

  /** The folders of `ids` in the order given (a breadcrumb's ancestors). */
  async getMany(ids: readonly string[]): Promise<FolderRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.trx<FolderRow>('folders').whereIn('id', ids);
    const byId = new Map(rows.map((row) => [row.id, toRecord(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Every folder below `id`, at any depth. */
  async descendantIds(id: string): Promise<string[]> {
    const rows = await this.trx<FolderRow>('folders')
      .whereRaw('ancestors @> ARRAY[?]::uuid[]', [id])
      .select('id');
    return rows.map((row) => row.id);
  }

  async insert(folder: NewFolder): Promise<FolderRecord> {
    const [row] = await this.trx<FolderRow>('folders').insert(snakeise(folder)).returning('*');
    if (!row) throw new Error(`folder ${folder.id} was not stored`);
    return toRecord(row);
  }

  async update(
    id: string,
    changes: Partial<Pick<FolderRecord, 'name' | 'slug' | 'color' | 'parentId' | 'ancestors'>>,
  ): Promise<void> {
    await this.trx('folders')
      .where({ id })
      .update({ ...snakeise(changes), updated_at: this.trx.fn.now() });
  }

  /**
   * After `id` moved to `ancestors`: every folder below it keeps its path below `id` and gets the new path above
   * (its ancestors from `id` on, after `ancestors`).
   */
  async reparentSubtree(id: string, ancestors: readonly string[]): Promise<void> {
    await this.trx.raw(
      `UPDATE folders SET ancestors = ?::uuid[] || ancestors[array_position(ancestors, ?::uuid):],
          updated_at = now()
        WHERE ancestors @> ARRAY[?]::uuid[]`,
      [[...ancestors], id, id],
    );
  }

  /** Removes these folders (the files in them were moved out first). */
  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.trx('folders').whereIn('id', ids).delete();
  }

  /**
   * Recounts every folder of the drive: fileCount and totalSize of the active files directly in it (a sub-folder's
   * files count in the sub-folder). Returns how many folders were recounted.
   */
  async recount(driveId: string): Promise<number> {
    const result = await this.trx.raw<{ rowCount: number }>(
      `UPDATE folders AS f
          SET file_count = coalesce(c.files, 0), total_size = coalesce(c.bytes, 0)
         FROM folders AS g
         LEFT JOIN (
           SELECT folder_id, count(*)::int AS files, sum(size)::bigint AS bytes
             FROM files
            WHERE drive_id = ? AND status = 'active' AND folder_id IS NOT NULL
            GROUP BY folder_id
         ) AS c ON c.folder_id = g.id
        WHERE f.id = g.id AND g.drive_id = ?`,
      [driveId, driveId],
    );
    return result.rowCount;
  }
}
