import { problems, type Knex } from '@workspace/kit';
import { DriveStore } from '../db/drives.store.js';
import { FileStore, type FileListEntry, type FileListFilter, type FileReader } from '../db/files.store.js';
import { LibraryStore } from '../db/libraries.store.js';
import {
  driveAbilities,
  pageWindow,
  recentSince,
  RECENT_FILES_LIMIT,
  viewTotal,
  type Caller,
  type FileSortKey,
  type FileView,
  type SortDirection,
  type VisibilityFilter,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import { readerFrom } from './access-cache.js';

/**
 * Who the caller is to the list, as SQL needs it: the drives they see and the libraries they may read, from the
 * domain's own rules over the tenant's drives and libraries (tens, not thousands); the files are then filtered in
 * SQL (FileStore.listPage), so the list scales with the files. Read afresh here; the list itself takes them from the
 * access cache (commands/access-cache.ts), which checks the tenant's access version first.
 */
export async function fileReader(trx: Knex.Transaction, caller: Caller): Promise<FileReader> {
  const drives = await new DriveStore(trx).list();
  const libraries = await new LibraryStore(trx).list();
  return readerFrom({ drives, libraries }, caller);
}

/** The list needs the drive's view ability (drive.view, drive.read, drive.file.read or manage-all). */
export function requireView(caller: Caller): void {
  if (!driveAbilities(caller).canView) throw problems.forbidden("You don't have permission to view files");
}

/** Totals above this are kept until the tenant's files change (counting 100,000 rows costs more than a page). */
const CACHED_COUNT_FROM = 1_000;
const COUNT_TTL_MS = 60_000;
const MAX_COUNTS_PER_TENANT = 200;

/**
 * The pager's totals of large lists per tenant, dropped whenever a file of the tenant changes (every replica hears
 * it: workers/file-changes.ts) or after a minute. Stars and opens do not change files, so Starred and Recent (small
 * by nature) are never kept.
 */
export class FileCountCache {
  private readonly counts = new Map<string, Map<string, { value: number; expires: number }>>();

  async get(tenantId: string, key: string, load: () => Promise<number>): Promise<number> {
    const counts = this.counts.get(tenantId) ?? new Map<string, { value: number; expires: number }>();
    const hit = counts.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    const value = await load();
    if (value < CACHED_COUNT_FROM) return value;
    if (counts.size >= MAX_COUNTS_PER_TENANT) counts.clear();
    counts.set(key, { value, expires: Date.now() + COUNT_TTL_MS });
    this.counts.set(tenantId, counts);
    return value;
  }

  invalidate(tenantId: string): void {
    this.counts.delete(tenantId);
  }
}

export interface FileListQuery {
  view: FileView;
  driveId?: string | undefined;
  libraryId?: string | undefined;
  folderId?: string | undefined;
  visibility: VisibilityFilter;
  q?: string | undefined;
  sort?: FileSortKey | undefined;
  direction?: SortDirection | undefined;
  page: number;
  pageSize: number;
}

export interface FileListPage {
  items: FileListEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/** One page of the caller's file list and the total for the pager. */
export async function listFiles(
  deps: DriveDeps,
  counts: FileCountCache,
  tenantId: string,
  caller: Caller,
  query: FileListQuery,
): Promise<FileListPage> {
  requireView(caller);
  return deps.inTenant(tenantId, async (trx) => {
    const reader = await deps.access.reader(trx, tenantId, caller);
    const filter: FileListFilter = {
      view: query.view,
      driveId: query.driveId,
      libraryId: query.libraryId,
      folderId: query.folderId,
      visibility: query.visibility,
      q: query.q,
      recentSince: recentSince(deps.clock.now()),
      recentLimit: RECENT_FILES_LIMIT,
    };
    const store = new FileStore(trx);
    const window = pageWindow(query.view, query.page, query.pageSize);
    const items = window
      ? await store.listPage(reader, filter, {
          sort: query.sort,
          direction: query.direction ?? (query.sort === undefined ? 'desc' : 'asc'),
          ...window,
        })
      : [];
    const count = () => store.listCount(reader, filter);
    const cacheable = query.view !== 'starred' && query.view !== 'recent';
    const total = cacheable
      ? await counts.get(tenantId, JSON.stringify({ reader, filter: { ...filter, recentSince: 0 } }), count)
      : await count();
    return { items, total: viewTotal(query.view, total), page: query.page, pageSize: query.pageSize };
  });
}
