import { z } from 'zod';
import { tenantId } from './common.schemas.js';
import {
  FILE_SORT_KEYS,
  FILE_STATUSES,
  FILE_TYPE_CLASSES,
  FILE_VIEWS,
  FILE_VISIBILITIES,
  isPageSizeAllowed,
  PAGE_SIZE,
  PAGE_SIZE_MESSAGE,
  VISIBILITY_FILTERS,
} from '../domain/index.js';

/** The spec's payloads carry a tenantId: another tenant's answers 404, absent means the caller's. */

export const fileListQuery = z.object({
  tenantId,
  view: z.enum(FILE_VIEWS).default('all'),
  driveId: z.uuid().optional(),
  libraryId: z.uuid().optional(),
  folderId: z.uuid().optional(),
  visibility: z.enum(VISIBILITY_FILTERS).default('all'),
  /** Part of a file's name or of its owner's name. */
  q: z.string().trim().max(200).optional(),
  /** Default: created, newest first (Recent: last opened first). */
  sort: z.enum(FILE_SORT_KEYS).optional(),
  /** The sort's direction. Default: ascending when a sort is named, else descending. */
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number({ error: PAGE_SIZE_MESSAGE })
    .refine(isPageSizeAllowed, { error: PAGE_SIZE_MESSAGE })
    .default(PAGE_SIZE),
});

/** A file as the list, the grid and the detail show it. */
export const fileEntry = z.object({
  id: z.string(),
  name: z.string(),
  ext: z.string(),
  mimeType: z.string(),
  typeClass: z.enum(FILE_TYPE_CLASSES),
  size: z.number(),
  checksum: z.string(),
  version: z.number(),
  versionsCount: z.number(),
  status: z.enum(FILE_STATUSES),
  binnedAt: z.string().nullable(),
  driveId: z.string(),
  driveName: z.string(),
  libraryId: z.string(),
  libraryName: z.string(),
  folderId: z.string().nullable(),
  folderName: z.string().nullable(),
  ownerId: z.string(),
  /** The owner's name as stored; the web shows 'You' for the current user. */
  ownerName: z.string(),
  visibility: z.enum(FILE_VISIBILITIES),
  /** How many people it is shared with by name (the Shared column's '{n} people'). */
  sharedWithCount: z.number(),
  sharedWith: z.array(z.string()),
  /** Starred by the caller. */
  starred: z.boolean(),
  /** 'Needs repair': a module reference of the file is orphaned. */
  orphanedRef: z.boolean(),
  signed: z.boolean(),
  /** Uploaded with 'Require signatures' on (PDFs only). */
  signatureRequired: z.boolean(),
  /** signatureRequired and not signed yet: the list's 'Awaiting signature'. */
  awaitingSignature: z.boolean(),

  /** A thumbnail of the current version exists: GET /v1/files/{id}/thumbnail. */
  hasThumbnail: z.boolean(),
  /** Recent: when the caller last opened (or uploaded) it. */
  openedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const fileListResponse = z.object({
  items: z.array(fileEntry),
  /** Every file of the list (the pager's total); Recent counts at most 50. */
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const fileResponse = z.object({ file: fileEntry });

export const renameBody = z.object({
  tenantId,
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, { error: 'Name is required' })
    .max(1000, { error: 'Name is too long' }),
});

export const shareWithBody = z.object({
  tenantId,
  /** The users to share with (their user ids); at least one, never the caller. */
  userIds: z.array(z.string().max(200)).max(500),
});

export const shareWithResponse = z.object({ file: fileEntry, message: z.string() });

export const clearedResponse = z.object({ cleared: z.number() });
