// The file list and reading files (drive.md §2 "File list screen", §9 paging): views, filters, sort keys, the page
// size rule, what a preview shows for each kind of file, and where a thumbnail lives. Browser-safe.
import {
  DASHBOARD_RECENT_FILES,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  RECENT_FILES_DAYS,
  RECENT_FILES_LIMIT,
  type FileTypeClass,
} from './constants.js';
import { extensionOf } from './file-types.js';
import { nameStem, slugify } from './names.js';

/** The tabs of the file list: All Files, My Files, Shared, Recent, Starred, Trash. */
export const FILE_VIEWS = ['all', 'mine', 'shared', 'recent', 'starred', 'trash'] as const;
export type FileView = (typeof FILE_VIEWS)[number];

/** The visibility pills: all, private, shared. Private takes restricted files too (shared with no one at large). */
export const VISIBILITY_FILTERS = ['all', 'shared', 'private'] as const;
export type VisibilityFilter = (typeof VISIBILITY_FILTERS)[number];

/** The list's sortable columns (Name, Drive, Library, Folder, Owner, Size, Shared, Created) and Updated. */
export const FILE_SORT_KEYS = [
  'name',
  'drive',
  'library',
  'folder',
  'owner',
  'size',
  'shared',
  'createdAt',
  'updatedAt',
] as const;
export type FileSortKey = (typeof FILE_SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

/** Created descending, as the spec says; Recent lists the last opened first whatever the column. */
export const DEFAULT_FILE_SORT: { sort: FileSortKey; direction: SortDirection } = {
  sort: 'createdAt',
  direction: 'desc',
};

/** Clicking a column: the same column toggles its direction; another column starts ascending (dates descending). */
export function nextSort(
  current: { sort: FileSortKey; direction: SortDirection },
  clicked: FileSortKey,
): { sort: FileSortKey; direction: SortDirection } {
  if (current.sort === clicked)
    return { sort: clicked, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { sort: clicked, direction: clicked === 'createdAt' || clicked === 'updatedAt' ? 'desc' : 'asc' };
}

export const PAGE_SIZE_MESSAGE = `Page size must be above 0 and not above ${String(MAX_PAGE_SIZE)}`;

/** drive.md §2: a page size is accepted only if above 0 and not above the maximum. */
export const isPageSizeAllowed = (size: number): boolean =>
  Number.isInteger(size) && size > 0 && size <= MAX_PAGE_SIZE;

export { DASHBOARD_RECENT_FILES, MAX_PAGE_SIZE, PAGE_SIZE, RECENT_FILES_DAYS, RECENT_FILES_LIMIT };

/** The window of the Recent view: what was opened or uploaded since this instant. */
export const recentSince = (now: Date): Date => new Date(now.getTime() - RECENT_FILES_DAYS * 86_400_000);

/**
 * The slice of one page: Recent holds at most RECENT_FILES_LIMIT files, so its pages stop there. Undefined when
 * the page lies wholly beyond the view's end.
 */
export function pageWindow(
  view: FileView,
  page: number,
  pageSize: number,
): { offset: number; limit: number } | undefined {
  const offset = (page - 1) * pageSize;
  if (view !== 'recent') return { offset, limit: pageSize };
  const limit = Math.min(pageSize, RECENT_FILES_LIMIT - offset);
  return limit > 0 ? { offset, limit } : undefined;
}

/** The list's total for the pager: Recent counts at most RECENT_FILES_LIMIT. */
export const viewTotal = (view: FileView, count: number): number =>
  view === 'recent' ? Math.min(count, RECENT_FILES_LIMIT) : count;

/** What the Shared column shows: Shared, Private, or '{n} people' when shared with people by name. */
export function sharedLabel(file: { visibility: string; sharedWithCount: number }): string {
  if (file.sharedWithCount > 0) return `${String(file.sharedWithCount)} people`;
  return file.visibility === 'shared' ? 'Shared' : 'Private';
}

/** What the preview modal shows for a file. */
export type PreviewKind = 'pdf' | 'image' | 'video' | 'audio' | 'csv' | 'json' | 'text' | 'none';

const TEXT_EXTENSIONS = new Set(['txt', 'md', 'log', 'ini', 'conf', 'env', 'tsv']);
const CSV_EXTENSIONS = new Set(['csv']);
/** Images a browser shows itself (tif and heic are not among them). */
const BROWSER_IMAGES = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'svg', 'avif', 'ico']);

/**
 * PDF embedded; image shown; CSV as a table; text, code and JSON as text (JSON pretty-printed by the web); video
 * and audio players; anything else: 'Preview not available for this file type'.
 */
export function previewKind(file: { name: string; mimeType: string; typeClass: FileTypeClass }): PreviewKind {
  const ext = extensionOf(file.name);
  const mime = file.mimeType.toLowerCase();
  if (file.typeClass === 'pdf') return 'pdf';
  if (file.typeClass === 'image') return BROWSER_IMAGES.has(ext) ? 'image' : 'none';
  if (file.typeClass === 'video') return 'video';
  if (file.typeClass === 'audio') return 'audio';
  if (CSV_EXTENSIONS.has(ext) || mime === 'text/csv') return 'csv';
  if (ext === 'json' || mime === 'application/json') return 'json';
  if (file.typeClass === 'code' || TEXT_EXTENSIONS.has(ext) || mime.startsWith('text/')) return 'text';
  return 'none';
}

/** Text previews (CSV, text, code, JSON) carry the file's text up to this size; beyond it, a message. */
export const PREVIEW_TEXT_MAX_BYTES = 1024 * 1024;

export const PREVIEW_NOT_AVAILABLE = 'Preview not available for this file type';
export const PREVIEW_TOO_LARGE = 'This file is too large to preview (over 1 MB). Download it to open it.';

/** Whether the thumbnail worker makes a thumbnail for a file (images sharp reads, and PDFs). */
export const takesThumbnail = (typeClass: FileTypeClass): boolean =>
  typeClass === 'image' || typeClass === 'pdf';

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320;

/**
 * Where a version's thumbnail lives (drive.md §7's thumbs/{id}/v/{version}/{name}.jpg under the tenant's prefix,
 * beside its files): the name is the file's stem as a slug ('thumbnail' when nothing is left of it).
 */
export const thumbnailPath = (tenantId: string, fileId: string, version: number, name: string): string =>
  `tenants/${tenantId}/thumbs/${fileId}/v/${String(version)}/${slugify(nameStem(name)) || 'thumbnail'}.jpg`;

/** A live update of the file list (`event: files` on GET /v1/files/stream): which drive changed, and how. */
export interface FileChange {
  driveId: string;
  action: 'insert' | 'update' | 'delete';
}

/**
 * A change of the tenant's drives, members or libraries (`event: files` too, without a drive): who sees what may
 * have changed, so the stream works out its reader's drives again and the list refetches.
 */
export interface AccessChange {
  action: 'access';
}

export type LiveListChange = FileChange | AccessChange;
