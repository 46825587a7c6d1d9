import type { z } from 'zod';
import type { FileRecord } from '../db/files.store.js';
import type { uploadedFileView } from './uploads.schemas.js';

/** A timestamp as the API answers it (a record read now holds a Date; an idempotent repeat, its JSON string). */
export const isoTime = (value: Date | string): string => new Date(value).toISOString();

export const presentUploadedFile = (file: FileRecord): z.input<typeof uploadedFileView> => ({
  id: file.id,
  name: file.name,
  ext: file.ext,
  mimeType: file.mimeType,
  typeClass: file.typeClass,
  size: file.size,
  checksum: file.checksum,
  version: file.version,
  versionsCount: file.versionsCount,
  driveId: file.driveId,
  libraryId: file.libraryId,
  folderId: file.folderId,
  storagePath: file.storagePath,
  contentFlag: file.contentFlag,
  ownerId: file.ownerId,
  ownerName: file.ownerName,
  orphanedRef: file.orphanedRef,
  signatureRequired: file.signatureRequired,
  awaitingSignature: file.signatureRequired && !file.signed,
  createdAt: isoTime(file.createdAt),
  updatedAt: isoTime(file.updatedAt),
});
