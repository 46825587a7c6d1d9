// The drive's API contract for other packages, the web above all (ADR 0028): the request and response schemas, and
// the types of the views as the browser reads them. Browser-safe: the schemas import only zod, the drive's domain/
// and each other. The web imports this module with `import type` only, so no zod reaches its bundle.
import type { z } from 'zod';
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
import type { abilitiesResponse } from './me.schemas.js';
import type {
  declineResponse,
  signTaskListResponse,
  signTaskResponse,
  signTaskView,
} from './signatures.schemas.js';

export * from './me.schemas.js';
export * from './signatures.schemas.js';
export * from './folders.schemas.js';

/** GET /v1/me/abilities. */
export type DriveAbilitiesResponse = z.output<typeof abilitiesResponse>;

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
