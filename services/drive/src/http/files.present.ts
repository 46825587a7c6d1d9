import type { z } from 'zod';
import type { FileListEntry } from '../db/files.store.js';
import type { fileEntry } from './files.schemas.js';

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** A file as the web reads it: the fields of fileEntry, dates as ISO strings, no storage paths. */
export function presentFile(entry: FileListEntry): z.input<typeof fileEntry> {
  return {
    id: entry.id,
    name: entry.name,
    ext: entry.ext,
    mimeType: entry.mimeType,
    typeClass: entry.typeClass,
    size: entry.size,
    checksum: entry.checksum,
    version: entry.version,
    versionsCount: entry.versionsCount,
    status: entry.status,
    binnedAt: iso(entry.binnedAt),
    driveId: entry.driveId,
    driveName: entry.driveName,
    libraryId: entry.libraryId,
    libraryName: entry.libraryName,
    folderId: entry.folderId,
    folderName: entry.folderName,
    ownerId: entry.ownerId,
    ownerName: entry.ownerName,
    visibility: entry.visibility,
    sharedWithCount: entry.sharedWithCount,
    sharedWith: entry.sharedWith,
    starred: entry.starred,
    orphanedRef: entry.orphanedRef,
    signatureRequired: entry.signatureRequired,
    awaitingSignature: entry.signatureRequired && !entry.signed,
    signed: entry.signed,
    hasThumbnail: entry.thumbnailPath !== null,
    openedAt: iso(entry.openedAt),
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}
