import { systemClock, type Clock, type ServiceDefinition } from '@workspace/kit';
import { driveEvents } from '@workspace/proto';
import { driveMigrations } from '../migrations/index.js';
import type { ObjectStore } from './clients/object-store.js';
import type { DriveConfig } from './config.js';
import { createDriveDeps, type DriveDeps } from './drive-deps.js';
import { folderRoutes } from './http/folders.routes.js';
import { meRoutes } from './http/me.routes.js';
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
      return [
        { basePath: '/v1', api: meRoutes(ready) },
        { basePath: '/v1', api: signatureRoutes(ready) },
        { basePath: '/v1', api: folderRoutes(ready) },
      ];
    },
  };
}
