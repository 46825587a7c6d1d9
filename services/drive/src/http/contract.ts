// The drive's API contract for other packages, the web above all (ADR 0028): the request and response schemas, and
// the types of the views as the browser reads them. Browser-safe: the schemas import only zod, the drive's domain/
// and each other. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
import type { downloadResponse, previewResponse } from './downloads.schemas.js';
import type { fileEntry, fileListQuery, fileListResponse } from './files.schemas.js';
import type { abilitiesResponse } from './me.schemas.js';
import type { storageResponse } from './storage.schemas.js';
import type { registeredResponse, uploadGrantResponse } from './uploads.schemas.js';
import type { restoredResponse, versionsResponse } from './versions.schemas.js';
import type {
  folderAssignResponse,
  folderCreateResponse,
  folderCrumb,
  folderDeleteResponse,
  folderListResponse,
  folderPathResponse,
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

export * from './common.schemas.js';
export * from './me.schemas.js';
export * from './storage.schemas.js';
export * from './uploads.schemas.js';
export * from './versions.schemas.js';
export * from './signatures.schemas.js';
export * from './folders.schemas.js';

/** GET /v1/me/abilities. */
export type DriveAbilitiesResponse = z.output<typeof abilitiesResponse>;

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
