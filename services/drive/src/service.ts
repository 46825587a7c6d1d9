import { systemClock, type Clock, type ServiceDefinition } from '@workspace/kit';
import { driveEvents } from '@workspace/proto';
import { driveMigrations } from '../migrations/index.js';
import type { ObjectStore } from './clients/object-store.js';
import type { DriveConfig } from './config.js';
import { createDriveDeps, type DriveDeps } from './drive-deps.js';
import { FileCountCache } from './commands/file-list.js';
import { downloadRoutes } from './http/downloads.routes.js';
import { fileRoutes } from './http/files.routes.js';
import { meRoutes } from './http/me.routes.js';
import { storageRoutes } from './http/storage.routes.js';
import { uploadRoutes } from './http/uploads.routes.js';
import { versionRoutes } from './http/versions.routes.js';
import { UploadCleanupWorker } from './workers/upload-cleanup.worker.js';
import { FileChangeHub } from './workers/file-changes.js';
import { ThumbnailWorker } from './workers/thumbnail.worker.js';
import { folderRoutes } from './http/folders.routes.js';
import { signatureRoutes } from './http/signatures.routes.js';

export const DRIVE_SCHEMA = 'drive';

export interface DriveService extends ServiceDefinition<DriveConfig> {
  /** What the routes, commands, workers and consumers work with (once started). */
  deps(): DriveDeps;
}

/** What a test may swap: the clock (the machine's by default) and the object store (to stop it mid-upload). */
export interface DriveSeams {
  clock?: Clock;
  objects?: ObjectStore;
}

/** The drive (drive.md): drives, libraries, folders, files in the region's object store, shares, signatures. */
export function driveService(config: DriveConfig, seams: DriveSeams = {}): DriveService {
  let deps: DriveDeps | undefined;
  // The file list's live updates, its count cache and the thumbnail worker (docs/drive.md "File list and reading files").
  const fileCounts = new FileCountCache();
  let fileChanges: FileChangeHub | undefined;
  let thumbnails: ThumbnailWorker | undefined;
  const started = () => {
    if (!deps) throw new Error('drive has not started');
    return deps;
  };
  return {
    name: 'drive',
    schema: DRIVE_SCHEMA,
    migrations: driveMigrations,
    publishes: Object.values(driveEvents),
    deps: started,
    async setup(service) {
      const ready = createDriveDeps({
        db: service.db,
        config,
        logger: service.logger,
        source: service.source,
        clock: seams.clock ?? systemClock,
        ...(seams.objects ? { objects: seams.objects } : {}),
      });
      deps = ready;
      const thumbnailWorker = new ThumbnailWorker(ready);
      thumbnails = thumbnailWorker;
      fileChanges = new FileChangeHub(config.DATABASE_URL, service.logger, (tenantId) => {
        fileCounts.invalidate(tenantId);
        thumbnailWorker.wake();
      });
      // The bucket is made now when the object store answers, else on first use (a clear error until then).
      await ready.objects.ensureBucket().catch((error: unknown) => {
        service.logger.warn(
          { err: error },
          'object store unavailable at start; the bucket is made on first use',
        );
      });
    },
    routes: () => {
      const ready = started();
      if (!fileChanges) throw new Error('drive has not started');
      return [
        { basePath: '/v1', api: meRoutes(ready) },
        { basePath: '/v1', api: uploadRoutes(ready) },
        { basePath: '/v1', api: versionRoutes(ready) },
        { basePath: '/v1', api: storageRoutes(ready) },
        { basePath: '/v1', api: fileRoutes(ready, fileCounts, fileChanges) },
        { basePath: '/v1', api: downloadRoutes(ready) },
        { basePath: '/v1', api: signatureRoutes(ready) },
        { basePath: '/v1', api: folderRoutes(ready) },
      ];
    },
    workers: () =>
      [fileChanges, thumbnails, new UploadCleanupWorker(started())].filter((worker) => worker !== undefined),
  };
}
