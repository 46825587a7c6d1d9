// The file list's local cache (drive.md §4 "loads from cache first", §8 live subscription with local caching): the
// last answer of each list query, kept in the tab's sessionStorage per tenant and user, shown at once on a reload
// while the fresh answer is fetched. sessionStorage, not localStorage: file names do not outlive the tab (a shared
// computer's next user never reads them), and the key names the user. Pure: the storage is passed in.
import type { FileList, FileListQuery } from '../api/types';

/** How many list answers are kept (the newest; older ones are dropped). */
export const FILE_CACHE_ENTRIES = 20;

const STORAGE_KEY = 'drive.fileLists';

interface Entry {
  at: number;
  data: FileList;
}
type Entries = Record<string, Entry>;

/** One query's key: the tenant, the user and the query's fields in a stable order. */
export function fileCacheKey(tenantId: string, userId: string, query: FileListQuery): string {
  const fields = Object.entries(query as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([tenantId, userId, fields]);
}

function load(storage: Storage | undefined): Entries {
  try {
    const saved = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '{}') as unknown;
    return saved && typeof saved === 'object' ? (saved as Entries) : {};
  } catch {
    return {};
  }
}

/** The cached answer of a query, if any. */
export function readCachedFiles(storage: Storage | undefined, key: string): FileList | undefined {
  return load(storage)[key]?.data;
}

/** Keeps a query's answer (the newest FILE_CACHE_ENTRIES); a full or missing storage only loses the cache. */
export function writeCachedFiles(
  storage: Storage | undefined,
  key: string,
  data: FileList,
  now: number,
): void {
  if (!storage) return;
  const entries = { ...load(storage), [key]: { at: now, data } };
  const kept = Object.entries(entries)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, FILE_CACHE_ENTRIES);
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify({ [key]: { at: now, data } }));
    } catch {
      storage.removeItem(STORAGE_KEY);
    }
  }
}

/** The tab's storage for the cache, when there is one. */
export const cacheStorage = (): Storage | undefined => {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
};
