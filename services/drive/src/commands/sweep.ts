import { Counter, Gauge, type Registry } from 'prom-client';
import { FileStore } from '../db/files.store.js';
import { SweepStore, type RecordedObject } from '../db/sweep.store.js';
import type { DriveDeps } from '../drive-deps.js';

/** A version's object: tenants/{t}/files/{id}/v/{n} (commands/server-files.ts versionPath). */
const VERSION_KEY = /^tenants\/[^/]+\/files\/[0-9a-f-]{36}\/v\/\d+$/;
/** A thumbnail: drive.md §7's thumbs/{id}/v/{version}/{name}.jpg under the tenant's prefix (domain/file-list.ts). */
const THUMBNAIL_KEY = /^tenants\/[^/]+\/thumbs\/([0-9a-f-]{36})\//;
/** The content flag of a file one of whose versions has no object. */
export const MISSING_FLAG = 'missing';
const PAGE = 1_000;
const SAMPLE = 100;
/** A version recorded this recently may still be on its way to the store (the service's own files write first). */
const RECENT_RECORD_MS = 60_000;

export interface SweepMetrics {
  missing: Gauge;
  removed: Counter;
}

const metricsByRegistry = new WeakMap<Registry, SweepMetrics>();

/** The sweep's metrics in the service's registry (made once per registry). */
export function sweepMetrics(registry: Registry): SweepMetrics {
  let metrics = metricsByRegistry.get(registry);
  if (!metrics) {
    metrics = {
      missing: new Gauge({
        name: 'drive_sweep_missing_objects',
        help: 'Versions whose object the last region sweep did not find in the bucket',
        registers: [registry],
      }),
      removed: new Counter({
        name: 'drive_sweep_orphan_objects_removed_total',
        help: 'Objects without a record that the sweep removed',
        registers: [registry],
      }),
    };
    metricsByRegistry.set(registry, metrics);
  }
  return metrics;
}

export interface SweepReport {
  /** region: every tenant's objects and records; tenant: one tenant's. */
  scope: 'region' | 'tenant';
  objectsScanned: number;
  recordsScanned: number;
  /** Objects without a record, older than the upload grant TTL: removed. */
  orphanObjectsRemoved: number;
  /** Objects without a record still younger than the upload grant TTL (an upload in flight): left alone. */
  recentObjectsLeft: number;
  /** Keys the sweep does not recognise as the drive's: left alone. */
  unrecognisedObjects: number;
  /** Versions whose object is missing from the bucket. */
  missingObjects: number;
  /** Files newly flagged missing, and files whose objects are back (flag cleared). */
  filesFlagged: number;
  filesCleared: number;
  /** Up to 100 of each, for the operator. */
  orphanKeys: string[];
  missing: { fileId: string; tenantId: string; version: number; key: string }[];
}

async function* recordedVersions(
  store: SweepStore,
  prefix: string,
  tenantId: string | undefined,
): AsyncGenerator<RecordedObject> {
  let after = prefix;
  for (;;) {
    const page = await store.versionsAfter(after, PAGE, tenantId);
    for (const record of page) {
      if (!record.key.startsWith(prefix)) return;
      yield record;
    }
    const last = page.at(-1);
    if (page.length < PAGE || !last) return;
    after = last.key;
  }
}

interface ListedObject {
  name: string;
  lastModified: Date;
}

/** The next item of an iteration, undefined at its end. */
async function next<T>(items: AsyncGenerator<T>): Promise<T | undefined> {
  const result = await items.next();
  return result.done ? undefined : result.value;
}

async function* listedObjects(deps: DriveDeps, prefix: string): AsyncGenerator<ListedObject> {
  for await (const item of deps.objects.list(prefix)) {
    if (item.name !== undefined) yield { name: item.name, lastModified: item.lastModified };
  }
}

/**
 * Finds objects without a record and records without an object (docs/drive.md "The sweep"): the bucket's listing
 * and the version records, both in byte order, are walked side by side. An object without a record older than the
 * upload grant TTL is removed (younger ones may be uploads in flight); a version without its object is logged,
 * counted (drive_sweep_missing_objects) and its file flagged missing, and a flag whose objects are back is cleared.
 * Thumbnails of files that no longer exist are removed as orphans too.
 */
export async function sweep(
  deps: DriveDeps,
  options: { tenantId?: string; metrics?: SweepMetrics },
): Promise<SweepReport> {
  const { tenantId, metrics } = options;
  const store = new SweepStore(deps.db);
  const now = deps.clock.now();
  const oldEnough = (object: ListedObject) =>
    object.lastModified.getTime() <= now.getTime() - deps.config.UPLOAD_GRANT_TTL_MS;
  const report: SweepReport = {
    scope: tenantId === undefined ? 'region' : 'tenant',
    objectsScanned: 0,
    recordsScanned: 0,
    orphanObjectsRemoved: 0,
    recentObjectsLeft: 0,
    unrecognisedObjects: 0,
    missingObjects: 0,
    filesFlagged: 0,
    filesCleared: 0,
    orphanKeys: [],
    missing: [],
  };
  let doomed: string[] = [];
  const removeDoomed = async () => {
    if (doomed.length === 0) return;
    await deps.objects.remove(doomed);
    report.orphanObjectsRemoved += doomed.length;
    metrics?.removed.inc(doomed.length);
    doomed = [];
  };
  const orphan = async (object: ListedObject) => {
    if (!oldEnough(object)) {
      report.recentObjectsLeft += 1;
      return;
    }
    if (report.orphanKeys.length < SAMPLE) report.orphanKeys.push(object.name);
    doomed.push(object.name);
    if (doomed.length >= PAGE) await removeDoomed();
  };

  // Thumbnails of files that no longer exist, checked a page at a time (their keys are never a version's).
  let thumbnails: ListedObject[] = [];
  const settleThumbnails = async () => {
    const fileOf = (item: ListedObject) => THUMBNAIL_KEY.exec(item.name)?.[1] ?? '';
    const known = await store.knownFiles([...new Set(thumbnails.map(fileOf))]);
    for (const item of thumbnails) if (!known.has(fileOf(item))) await orphan(item);
    thumbnails = [];
  };

  // Versions: tenants/{t}/files/{id}/v/{n} against file_versions.
  const missingFiles = new Map<string, { tenantId: string; flagged: boolean }>();
  const flaggedPresent = new Map<string, string>();
  const prefix = tenantId === undefined ? 'tenants/' : `tenants/${tenantId}/`;
  const objects = listedObjects(deps, prefix);
  const records = recordedVersions(store, prefix, tenantId);
  let object = await next(objects);
  let record = await next(records);
  while (object || record) {
    if (object && (!record || object.name < record.key)) {
      report.objectsScanned += 1;
      if (VERSION_KEY.test(object.name)) {
        await orphan(object);
      } else if (THUMBNAIL_KEY.test(object.name)) {
        thumbnails.push(object);
        if (thumbnails.length >= PAGE) await settleThumbnails();
      } else {
        report.unrecognisedObjects += 1;
      }
      object = await next(objects);
    } else if (record && (!object || record.key < object.name)) {
      report.recordsScanned += 1;
      if (record.createdAt.getTime() < now.getTime() - RECENT_RECORD_MS) {
        report.missingObjects += 1;
        if (report.missing.length < SAMPLE) {
          report.missing.push({
            fileId: record.fileId,
            tenantId: record.tenantId,
            version: record.version,
            key: record.key,
          });
        }
        deps.logger.warn(
          { tenantId: record.tenantId, fileId: record.fileId, version: record.version, key: record.key },
          'sweep: a version has no object in the bucket',
        );
        missingFiles.set(record.fileId, {
          tenantId: record.tenantId,
          flagged: record.contentFlag === MISSING_FLAG,
        });
      }
      record = await next(records);
    } else if (object && record) {
      report.objectsScanned += 1;
      report.recordsScanned += 1;
      if (record.contentFlag === MISSING_FLAG) flaggedPresent.set(record.fileId, record.tenantId);
      object = await next(objects);
      record = await next(records);
    }
  }

  await settleThumbnails();
  await removeDoomed();

  for (const [fileId, file] of missingFiles) {
    if (file.flagged) continue;
    await deps.inTenant(file.tenantId, async (trx) => {
      await new FileStore(trx).update(fileId, { contentFlag: MISSING_FLAG });
      await deps.audit.write(trx, { tenantId: file.tenantId, userId: 'system' }, 'FILE_CONTENT_FLAGGED', {
        targetType: 'file',
        targetId: fileId,
        details: { flag: MISSING_FLAG, source: 'sweep' },
      });
    });
    report.filesFlagged += 1;
  }
  for (const [fileId, fileTenant] of flaggedPresent) {
    if (missingFiles.has(fileId)) continue;
    await deps.inTenant(fileTenant, (trx) => new FileStore(trx).update(fileId, { contentFlag: null }));
    report.filesCleared += 1;
  }
  if (tenantId === undefined) metrics?.missing.set(report.missingObjects);
  deps.logger.info(
    { ...report, orphanKeys: undefined, missing: undefined },
    'sweep: objects without a record removed, records without an object flagged',
  );
  return report;
}
