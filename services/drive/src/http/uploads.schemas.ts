import { z } from 'zod';

const sha256 = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{64}$/, 'Must be the SHA-256 of the whole file, 64 hexadecimal characters');

/** POST /uploads: an upload grant (drive.md §5's checks first). name and size missing answer 'No file'. */
export const grantUploadBody = z.object({
  tenantId: z.string().optional(),
  driveId: z.uuid(),
  libraryId: z.uuid(),
  folderId: z.uuid().nullable().optional(),
  name: z.string().max(2000).optional(),
  /** Bytes; the configured maximum is checked by the service (its message). */
  size: z.number().int().min(0).optional(),
  mimeType: z.string().max(255).optional(),
  /** Upload a new version of this file. */
  fileId: z.uuid().optional(),
  requireSignatures: z.boolean().optional(),
});

export const uploadGrantResponse = z.object({
  uploadId: z.string(),
  fileId: z.string(),
  newVersion: z.boolean(),
  /** The object key the parts assemble to (tenants/{t}/files/{id}/v/{n}). */
  objectPath: z.string(),
  /** Bytes per part (5 MiB); the last part holds the rest. */
  partSize: z.number(),
  /** A presigned PUT URL per part, numbered from 1. */
  parts: z.array(z.object({ partNumber: z.number(), url: z.string() })),
  expiresAt: z.string(),
});

export const uploadParams = z.object({ id: z.uuid() });

export const completeUploadBody = z.object({ checksum: sha256 });

/** POST /files/register (drive.md §7). canonicalFile is accepted and not read: the grant holds the file's facts. */
export const registerFileBody = z.object({
  tenantId: z.string().optional(),
  fileId: z.uuid(),
  driveId: z.uuid(),
  canonicalFile: z.record(z.string(), z.unknown()).optional(),
  version: z.object({
    objectPath: z.string().min(1).max(1000),
    checksum: sha256,
    size: z.number().int().min(0),
  }),
});

/** The file as registered (the file list's views are the files part's). */
export const uploadedFileView = z.object({
  id: z.string(),
  name: z.string(),
  ext: z.string(),
  mimeType: z.string(),
  typeClass: z.string(),
  size: z.number(),
  checksum: z.string(),
  version: z.number(),
  versionsCount: z.number(),
  driveId: z.string(),
  libraryId: z.string(),
  folderId: z.string().nullable(),
  storagePath: z.string(),
  /** What content sniffing found when it differs in format from the name (same kind): docs/drive.md. */
  contentFlag: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const registeredResponse = z.object({
  ok: z.literal(true),
  code: z.enum(['REGISTERED', 'ALREADY_REGISTERED']),
  uploadId: z.string(),
  file: uploadedFileView,
});

export const cancelledResponse = z.object({ uploadId: z.string(), status: z.literal('aborted') });
