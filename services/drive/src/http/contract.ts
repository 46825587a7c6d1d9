// The drive's API contract for other packages, the web above all (ADR 0028): the request and response schemas, and
// the types of the views as the browser reads them. Browser-safe: the schemas import only zod, the drive's domain/
// and each other. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
import type { abilitiesResponse } from './me.schemas.js';
import type { driveCreatedResponse, driveView, drivesResponse } from './drives.schemas.js';
import type {
  ensureDefaultResponse,
  ensureModuleBaselineResponse,
  getOrCreateResponse,
  librariesResponse,
  libraryView,
} from './libraries.schemas.js';

export * from './me.schemas.js';
export * from './drives.schemas.js';
export * from './libraries.schemas.js';
import type { storageResponse } from './storage.schemas.js';
import type { registeredResponse, uploadGrantResponse } from './uploads.schemas.js';
import type { restoredResponse, versionsResponse } from './versions.schemas.js';

export * from './me.schemas.js';
export * from './storage.schemas.js';
export * from './uploads.schemas.js';
export * from './versions.schemas.js';

/** GET /v1/me/abilities. */
export type DriveAbilitiesResponse = z.output<typeof abilitiesResponse>;

/** A drive (GET /v1/drives, /v1/drives/:id): members, settings, stats. */
export type DriveView = z.output<typeof driveView>;
export type DrivesResponse = z.output<typeof drivesResponse>;
export type DriveCreatedResponse = z.output<typeof driveCreatedResponse>;
/** A library (GET /v1/libraries): ACL scopes, policies, share-source policy. */
export type LibraryView = z.output<typeof libraryView>;
export type LibrariesResponse = z.output<typeof librariesResponse>;
export type EnsureDefaultResponse = z.output<typeof ensureDefaultResponse>;
export type EnsureModuleBaselineResponse = z.output<typeof ensureModuleBaselineResponse>;
export type GetOrCreateLibraryResponse = z.output<typeof getOrCreateResponse>;
/** POST /v1/uploads. */
export type UploadGrantResponse = z.output<typeof uploadGrantResponse>;
/** POST /v1/uploads/:id/complete and POST /v1/files/register. */
export type RegisteredFileResponse = z.output<typeof registeredResponse>;
/** GET /v1/files/:id/versions. */
export type FileVersionsResponse = z.output<typeof versionsResponse>;
/** POST /v1/files/:id/versions/:version/restore. */
export type RestoredVersionResponse = z.output<typeof restoredResponse>;
/** GET /v1/storage. */
export type StorageSummaryResponse = z.output<typeof storageResponse>;
