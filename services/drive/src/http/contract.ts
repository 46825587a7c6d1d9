// The drive's API contract for other packages, the web above all (ADR 0028): the request and response schemas, and
// the types of the views as the browser reads them. Browser-safe: the schemas import only zod, the drive's domain/
// and each other. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
import type { downloadResponse, previewResponse } from './downloads.schemas.js';
import type { fileEntry, fileListQuery, fileListResponse } from './files.schemas.js';
import type { abilitiesResponse } from './me.schemas.js';
import type {
  createDriveBody,
  driveCreatedResponse,
  driveResponse,
  driveView,
  drivesResponse,
  updateDriveBody,
} from './drives.schemas.js';
import type {
  createLibraryBody,
  ensureDefaultResponse,
  libraryResponse,
  ensureModuleBaselineResponse,
  getOrCreateResponse,
  librariesResponse,
  libraryView,
} from './libraries.schemas.js';
import type { publicShareView, viewerTokenResponse } from './public-shares.schemas.js';
import type {
  createShareBody,
  rebuildResponse,
  shareDetailResponse,
  shareListResponse,
  shareSettingsBody,
  shareView,
} from './shares.schemas.js';

export * from './me.schemas.js';
export * from './drives.schemas.js';
export * from './libraries.schemas.js';
import type { storageResponse } from './storage.schemas.js';
import type { registeredResponse, uploadGrantResponse } from './uploads.schemas.js';
import type { restoredResponse, versionsResponse } from './versions.schemas.js';
import type {
  bulkDeleteResponse,
  deleteRequest,
  deleteResponse,
  emptyTrashResponse,
  purgeRequest,
  purgeResponse,
  repairRefsRequest,
  repairRefsResponse,
  restoreRequest,
  restoreResponse,
} from './mutations.schemas.js';
import type { addReferenceRequest, referencesResponse, referenceView } from './references.schemas.js';
import type { sweepResponse } from './sweep.schemas.js';

export * from './common.schemas.js';
export * from './storage.schemas.js';
export * from './uploads.schemas.js';
export * from './versions.schemas.js';
export * from './mutations.schemas.js';
export * from './references.schemas.js';
export * from './sweep.schemas.js';
import type {
  folderAssignBody,
  folderAssignResponse,
  folderCreateBody,
  folderCreateResponse,
  folderCrumb,
  folderDeleteBody,
  folderDeleteResponse,
  folderListResponse,
  folderPathResponse,
  folderUpdateBody,
  folderUpdateResponse,
  folderView,
  updateCountsResponse,
} from './folders.schemas.js';
import type {
  declineResponse,
  signTaskListResponse,
  signTaskResponse,
  signTaskView,
} from './signatures.schemas.js';

export * from './signatures.schemas.js';
export * from './folders.schemas.js';

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
// The file list and reading files (docs/drive.md "File list and reading files").
export * from './files.schemas.js';
export * from './downloads.schemas.js';

/** GET /v1/files: a page of the file list. */
export type FileListResponse = z.output<typeof fileListResponse>;
/** One file as the list, grid and detail show it. */
export type FileListItem = z.output<typeof fileEntry>;
/** GET /v1/files query (before defaults). */
export type FileListQuery = z.input<typeof fileListQuery>;
/** GET /v1/preview. */
export type FilePreviewResponse = z.output<typeof previewResponse>;
/** GET /v1/download with Accept: application/json. */
export type FileDownloadResponse = z.output<typeof downloadResponse>;
/** POST /v1/mutations/delete: the request, one file's answer and a bulk answer. */
export type DeleteRequest = z.input<typeof deleteRequest>;
export type DeleteResponse = z.output<typeof deleteResponse>;
export type BulkDeleteResponse = z.output<typeof bulkDeleteResponse>;
/** POST /v1/mutations/restore, /purge, /empty-trash, /repair-refs. */
export type RestoreResponse = z.output<typeof restoreResponse>;
export type PurgeResponse = z.output<typeof purgeResponse>;
export type EmptyTrashResponse = z.output<typeof emptyTrashResponse>;
export type RepairRefsResponse = z.output<typeof repairRefsResponse>;
/** GET/POST/DELETE /v1/files/:id/references. */
export type FileReferenceView = z.output<typeof referenceView>;
export type AddReferenceRequest = z.input<typeof addReferenceRequest>;
export type FileReferencesResponse = z.output<typeof referencesResponse>;
/** POST /v1/admin/sweep. */
export type SweepResponse = z.output<typeof sweepResponse>;
export * from './shares.schemas.js';
export * from './public-shares.schemas.js';

/** POST /v1/mutations/share (the body as the web sends it; defaults filled by the service). */
export type CreateShareRequest = z.input<typeof createShareBody>;
/** A share as the staff screens read it (the create, settings and revoke answers; a card of the list). */
export type ShareView = z.output<typeof shareView>;
/** GET /v1/shares: the cards and the toolbar's counts per status. */
export type ShareListResponse = z.output<typeof shareListResponse>;
/** GET /v1/shares/:shareId. */
export type ShareDetail = z.output<typeof shareDetailResponse>;
/** POST /v1/shares/:shareId/settings. */
export type ShareSettingsRequest = z.input<typeof shareSettingsBody>;
/** POST /v1/shares/:shareId/rebuild. */
export type ShareRebuildResponse = z.output<typeof rebuildResponse>;
/** GET /v1/public/shares/:shareId. */
export type PublicShareView = z.output<typeof publicShareView>;
/** POST /v1/public/shares/:shareId/unlock. */
export type ShareViewerToken = z.output<typeof viewerTokenResponse>;
/** A signature request (GET /v1/signatures items; POST /v1/signatures and /sign answers carry one with a message). */
export type SignTaskView = z.output<typeof signTaskView>;
export type SignTaskResponse = z.output<typeof signTaskResponse>;
export type SignTaskListResponse = z.output<typeof signTaskListResponse>;
export type DeclineResponse = z.output<typeof declineResponse>;

/** A folder (GET /v1/drives/:driveId/folders items and the folder calls' answers). */
export type FolderView = z.output<typeof folderView>;
export type FolderCrumb = z.output<typeof folderCrumb>;
export type FolderCreateResponse = z.output<typeof folderCreateResponse>;
export type FolderUpdateResponse = z.output<typeof folderUpdateResponse>;
export type FolderDeleteResponse = z.output<typeof folderDeleteResponse>;
export type FolderListResponse = z.output<typeof folderListResponse>;
export type FolderPathResponse = z.output<typeof folderPathResponse>;
export type UpdateCountsResponse = z.output<typeof updateCountsResponse>;
export type FolderAssignResponse = z.output<typeof folderAssignResponse>;

/** The request bodies the browser sends (z.input: tenantId and defaulted fields may be left out). */
export type CreateDriveRequest = z.input<typeof createDriveBody>;
export type UpdateDriveRequest = z.input<typeof updateDriveBody>;
export type DriveUpdatedResponse = z.output<typeof driveResponse>;
export type CreateLibraryRequest = z.input<typeof createLibraryBody>;
export type LibraryCreatedResponse = z.output<typeof libraryResponse>;
export type FolderCreateRequest = z.input<typeof folderCreateBody>;
export type FolderUpdateRequest = z.input<typeof folderUpdateBody>;
export type FolderDeleteRequest = z.input<typeof folderDeleteBody>;
export type FolderAssignRequest = z.input<typeof folderAssignBody>;
export type PurgeRequest = z.input<typeof purgeRequest>;
export type RestoreRequest = z.input<typeof restoreRequest>;
export type RepairRefsRequest = z.input<typeof repairRefsRequest>;
