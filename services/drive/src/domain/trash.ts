// Trash, restore and purge (drive.md §4, §6, §8): who a bulk delete applies to, what a refused delete says, and the
// texts of the answers. Browser-safe: the web shows the same texts.
import type { DeleteRefusal } from './access.js';

export const TRASH_TEXTS = {
  trashed: 'File moved to trash',
  deleted: 'File permanently deleted',
  restored: 'File restored',
  failed: 'Failed to delete file',
  noOwned: 'No owned files selected for deletion',
  allFailed: 'Failed to delete all files',
  alreadyTrashed: 'File is already in the trash',
  notTrashed: 'File is not in the trash',
  noHardDelete: "You don't have permission to permanently delete files",
  noRestore: "You don't have permission to restore files",
  trashEmpty: 'Trash is already empty',
  allRestoresFailed: 'Failed to restore files',
} as const;

/** What the service answers when the library's rules refuse a delete or purge (deleteRefusal). */
export const DELETE_REFUSAL_TEXTS: Readonly<Record<DeleteRefusal, string>> = {
  legal_hold: 'This file is under legal hold and cannot be deleted.',
  two_person: 'Files in this library need two people to delete and cannot be deleted here.',
  owner_only: "Only the file's owner can delete files in this library.",
  manager_only: 'Only managers can delete files in this library.',
  no_scope: "You don't have permission to delete files",
};

/** A file as the bulk rule sees it. */
export interface OwnedFile {
  id: string;
  ownerId: string;
  createdBy: string;
}

/**
 * Bulk delete applies only to the files the caller owns: their owner or their creator (drive.md §6). The others are
 * left as they are.
 */
export function ownedSelection<F extends OwnedFile>(
  files: readonly F[],
  userId: string,
): { owned: F[]; others: F[] } {
  const owned = files.filter((file) => file.ownerId === userId || file.createdBy === userId);
  return { owned, others: files.filter((file) => !owned.includes(file)) };
}

/** The answer line of a delete of `count` files ('File moved to trash', '3 files moved to trash'). */
export function deleteText(permanent: boolean, count: number): string {
  if (count === 1) return permanent ? TRASH_TEXTS.deleted : TRASH_TEXTS.trashed;
  return `${String(count)} files ${permanent ? 'permanently deleted' : 'moved to trash'}`;
}

/** The answer line of a restore of `count` files. */
export function restoreText(count: number): string {
  return count === 1 ? TRASH_TEXTS.restored : `${String(count)} files restored`;
}
