import { z } from 'zod';
import { DEFAULT_REFERENCE_TYPE } from '../domain/index.js';
import { referenceView } from './references.schemas.js';

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

/**
 * The module reference an upload asks for (drive.md §4 upload registration): written when the file is registered.
 * Needs drive.attachment.add. When writing it fails the file is still registered and the answer's code is
 * FILE_REF_WRITE_FAILED.
 */
export const registrationReference = z.object({
  moduleId: z.string().trim().min(1, 'moduleId is required').max(100),
  entityId: z.string().trim().min(1, 'entityId is required').max(200),
  referenceType: z.string().trim().min(1).max(50).default(DEFAULT_REFERENCE_TYPE),
  metadata: z.record(z.string(), z.unknown()).default({}),
});

export const completeUploadBody = z.object({ checksum: sha256, reference: registrationReference.optional() });

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
  reference: registrationReference.optional(),
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
  /** A module reference of the file could not be written ('Needs repair'; repair-refs fixes it). */
  orphanedRef: z.boolean(),
  /** Uploaded with 'Require signatures' on (PDFs only). */
  signatureRequired: z.boolean(),
  /** signatureRequired and not signed yet: the list's 'Awaiting signature'. */
  awaitingSignature: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * ok is true whenever the file is registered. code FILE_REF_WRITE_FAILED: registered and kept, but the module
 * reference asked for was not written; message is 'Reference creation failed' and the file's orphanedRef is true
 * (the web offers Retry: POST /mutations/repair-refs with the fileId).
 */
export const registeredResponse = z.object({
  ok: z.literal(true),
  code: z.enum(['REGISTERED', 'ALREADY_REGISTERED', 'FILE_REF_WRITE_FAILED']),
  uploadId: z.string(),
  file: uploadedFileView,
  reference: referenceView.optional(),
  message: z.string().optional(),
});

export const cancelledResponse = z.object({ uploadId: z.string(), status: z.literal('aborted') });
