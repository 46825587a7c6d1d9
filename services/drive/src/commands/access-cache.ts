// The drive's access cache (ADR 0050): what every answer about who may see and read what is computed from (the
// tenant's drives with their members, and its libraries with their ACLs and policies), kept in memory and checked
// against the tenant's access version (migration 008) on every use, so a change by any writer on any replica is seen
// by the next request. The spec's permission caches (drive.md §6, §9) give the bounds.
import { presetCache, type CacheClock, type Knex, type TtlLruCache } from '@workspace/kit';
import { AccessVersionStore } from '../db/access-versions.store.js';
import { DriveStore, type DriveRecord } from '../db/drives.store.js';
import type { FileReader } from '../db/files.store.js';
import { LibraryStore, type LibraryRecord } from '../db/libraries.store.js';
import { canReadLibrary, canSeeDrive, holds, MANAGE_ALL_SCOPE, type Caller } from '../domain/index.js';

/** A tenant's drives (live, with members) and libraries (live), as read at `version`. */
export interface TenantAccess {
  readonly tenantId: string;
  readonly version: string;
  readonly drives: readonly DriveRecord[];
  readonly libraries: readonly LibraryRecord[];
}

/** The caller's reader sets from a tenant's drives and libraries: the domain's rules, nothing cached. */
export function readerFrom(access: Pick<TenantAccess, 'drives' | 'libraries'>, caller: Caller): FileReader {
  const live = new Set(access.drives.map((drive) => drive.id));
  return Object.freeze({
    userId: caller.userId,
    visibleDriveIds: Object.freeze(
      access.drives.filter((drive) => canSeeDrive(caller, drive)).map((drive) => drive.id),
    ),
    readableLibraryIds: Object.freeze(
      access.libraries
        .filter((library) => live.has(library.driveId) && canReadLibrary(caller, library))
        .map((library) => library.id),
    ),
    manageAll: holds(caller, MANAGE_ALL_SCOPE),
  });
}

/** Everything the reader sets depend on: tenant, access version, user, scopes, the super-administrator claim. */
const readerKey = (tenantId: string, version: string, caller: Caller): string =>
  JSON.stringify([tenantId, version, caller.userId, caller.superAdmin === true, [...caller.scopes].sort()]);

/**
 * Two levels, both checked against the tenant's access version read in the request's own transaction:
 * - `tenants` (the spec's 90 s permission cache of the drive access service, DRV-336): per tenant, its drives,
 *   members and libraries, read at most every 90 s and again whenever the version moved.
 * - `readers` (the spec's overall permission cache, 1 hour and at most 20 entries, DRV-338): per tenant, version,
 *   user and scopes, the drives the caller sees and the libraries they may read. The version in the key retires an
 *   entry at the tenant's first access change; the 20 entries are the busiest callers (least recently used go).
 * A key never crosses tenants: every key starts with the tenant, and the tenant entry is filled only from a
 * transaction whose row-level-security tenant is that tenant (checked).
 */
export class AccessCache {
  readonly tenants: TtlLruCache<string, TenantAccess>;
  readonly readers: TtlLruCache<string, FileReader>;
  /** How often the tenants' drives and libraries were read from the database (for tests and the benchmark). */
  loads = 0;
  /** How often a caller's reader sets were worked out (not taken from `readers`). */
  builds = 0;

  constructor(clock?: CacheClock) {
    const options = clock ? { clock } : {};
    this.tenants = presetCache<string, TenantAccess>('driveAccess', options);
    this.readers = presetCache<string, FileReader>('permissions', options);
  }

  /** The tenant's drives and libraries, from memory when the version has not moved since they were read. */
  async tenantAccess(trx: Knex.Transaction, tenantId: string): Promise<TenantAccess> {
    const current = await new AccessVersionStore(trx).current();
    if (current.tenantId !== tenantId)
      throw new Error(
        `access cache: asked for tenant ${tenantId} in a transaction of ${current.tenantId || 'none'}`,
      );
    const cached = this.tenants.get(tenantId);
    if (cached?.version === current.version) return cached;
    // Read after the version: what is read is at least as new as the version it is labelled with.
    const drives = await new DriveStore(trx).list();
    const libraries = await new LibraryStore(trx).list();
    const access: TenantAccess = Object.freeze({
      tenantId,
      version: current.version,
      drives: Object.freeze(drives),
      libraries: Object.freeze(libraries),
    });
    this.loads += 1;
    this.tenants.set(tenantId, access);
    return access;
  }

  /** The caller's reader sets for the file list (FileStore.listPage), in `trx` (the tenant's transaction). */
  async reader(trx: Knex.Transaction, tenantId: string, caller: Caller): Promise<FileReader> {
    const access = await this.tenantAccess(trx, tenantId);
    const key = readerKey(tenantId, access.version, caller);
    const cached = this.readers.get(key);
    if (cached) return cached;
    const reader = readerFrom(access, caller);
    this.builds += 1;
    this.readers.set(key, reader);
    return reader;
  }

  /** Forgets a tenant's entries (memory only: correctness comes from the version check). */
  invalidate(tenantId: string): void {
    this.tenants.delete(tenantId);
    const prefix = JSON.stringify([tenantId]).slice(0, -1) + ',';
    this.readers.deleteWhere((key) => key.startsWith(prefix));
  }
}
