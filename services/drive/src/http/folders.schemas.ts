import { z } from 'zod';
import { FOLDER_COLOURS, FOLDER_NAME_MAX } from '../domain/index.js';
import { tenantId } from './common.schemas.js';

const folderName = z.string().max(FOLDER_NAME_MAX);
/** A named colour (primary, blue, ...) or one of the dialog's hex swatches; the drive stores the name. */
const colour = z.string().max(20);

export const folderCreateBody = z.object({
  tenantId,
  driveId: z.uuid(),
  name: folderName,
  color: colour.optional(),
  parentId: z.uuid().nullable().optional(),
});

export const folderUpdateBody = z.object({
  tenantId,
  driveId: z.uuid(),
  folderId: z.uuid(),
  updates: z.object({
    name: folderName.optional(),
    color: colour.optional(),
    /** null moves the folder to the drive's root; absent leaves it where it is. */
    parentId: z.uuid().nullable().optional(),
  }),
});

export const folderDeleteBody = z.object({ tenantId, driveId: z.uuid(), folderId: z.uuid() });

export const driveFoldersParams = z.object({ driveId: z.uuid() });

export const folderPathQuery = z.object({ slugs: z.string().min(1).max(2000) });

export const updateCountsBody = z.object({ tenantId, driveId: z.uuid() });

/** driveId is optional here so that its absence answers the spec's 'Missing drive context for folder assignment'. */
export const folderAssignBody = z.object({
  tenantId,
  driveId: z.uuid().optional(),
  fileIds: z.array(z.uuid()).min(1).max(1000),
  toFolderId: z.uuid().nullable(),
});

export const folderView = z.object({
  id: z.string(),
  driveId: z.string(),
  libraryId: z.string().nullable(),
  parentId: z.string().nullable(),
  ancestors: z.array(z.string()),
  slug: z.string(),
  name: z.string(),
  color: z.enum(FOLDER_COLOURS),
  colorHex: z.string().nullable(),
  type: z.enum(['folder', 'module']),
  fileCount: z.number().int(),
  totalSize: z.number().int(),
  driveName: z.string(),
  libraryName: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const folderCrumb = z.object({ id: z.string(), name: z.string(), slug: z.string(), path: z.string() });

export const folderCreateResponse = z.object({ folderId: z.string(), folder: folderView });
export const folderUpdateResponse = z.object({ folder: folderView });
export const folderDeleteResponse = z.object({
  message: z.string(),
  removedFolders: z.number().int(),
  movedFiles: z.number().int(),
  movedTo: z.string().nullable(),
});
export const folderListResponse = z.object({ items: z.array(folderView) });
export const folderPathResponse = z.object({
  drive: z.object({ id: z.string(), name: z.string() }),
  folder: folderView,
  breadcrumbs: z.array(folderCrumb),
});
export const updateCountsResponse = z.object({ driveId: z.string(), recounted: z.number().int() });
export const folderAssignResponse = z.object({
  message: z.string(),
  moved: z.array(z.object({ id: z.string(), name: z.string(), folderId: z.string().nullable() })),
  unchanged: z.array(z.string()),
});
