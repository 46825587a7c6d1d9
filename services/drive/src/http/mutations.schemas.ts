import { z } from 'zod';

/** The spec's payloads carry the tenant (drive.md §7); absent: the caller's, another: 404. */
const tenantId = z.string().min(1).optional();
/** Bulk operations take up to this many files per request. */
export const MAX_BULK_FILES = 1_000;
const fileIds = z.array(z.uuid()).min(1).max(MAX_BULK_FILES);

const oneOrMany = (value: { fileId?: string | undefined; fileIds?: string[] | undefined }) =>
  (value.fileId === undefined) !== (value.fileIds === undefined);
const oneOrManyIssue = { message: 'Give either fileId or fileIds.', path: ['fileId'] };

export const deleteRequest = z
  .object({
    tenantId,
    fileId: z.uuid().optional(),
    fileIds: fileIds.optional(),
    /** Delete for good instead of moving to the trash (holders of hard delete). */
    permanent: z.boolean().default(false),
  })
  .refine(oneOrMany, oneOrManyIssue);

const fileError = z.object({ fileId: z.string(), code: z.string(), message: z.string() });

export const deleteResponse = z.object({
  fileId: z.string(),
  result: z.enum(['trashed', 'deleted']),
  /** 'File moved to trash' or 'File permanently deleted'. */
  message: z.string(),
  binnedAt: z.string().nullable(),
  /** Bytes the quota released by this delete. */
  releasedBytes: z.number(),
});

export const bulkDeleteResponse = z.object({
  result: z.enum(['trashed', 'deleted']),
  message: z.string(),
  deleted: z.number(),
  failed: z.number(),
  totalSize: z.number(),
  errors: z.array(fileError),
  deletedIds: z.array(z.string()),
  /** Selected files the caller does not own: bulk delete leaves them as they are. */
  skippedIds: z.array(z.string()),
});

export const restoreRequest = z
  .object({ tenantId, fileId: z.uuid().optional(), fileIds: fileIds.optional() })
  .refine(oneOrMany, oneOrManyIssue);

export const restoreResponse = z.object({
  message: z.string(),
  restored: z.array(z.object({ fileId: z.string(), name: z.string(), renamed: z.boolean() })),
  failed: z.number(),
  errors: z.array(fileError),
});

export const purgeRequest = z.object({ tenantId, fileId: z.uuid() });

export const purgeResponse = z.object({
  fileId: z.string(),
  result: z.literal('purged'),
  message: z.string(),
  releasedBytes: z.number(),
});

export const emptyTrashRequest = z.object({ tenantId, driveId: z.uuid().optional() });

export const emptyTrashResponse = z.object({
  message: z.string(),
  purged: z.number(),
  skipped: z.number(),
  releasedBytes: z.number(),
});

export const repairRefsRequest = z.object({
  tenantId,
  fileId: z.uuid().optional(),
  driveIds: z.array(z.uuid()).min(1).max(100).optional(),
});

export const repairRefsResponse = z.object({
  fixed: z.array(z.string()),
  skipped: z.array(z.string()),
  pending: z.array(z.string()),
  /** 'Repaired {n} • Skipped {n} • Pending {n}' */
  summary: z.string(),
});
