// Which selected files a delete applies to (drive.md §5, §6): only those the user owns (owner or creator).

export function ownedFiles<T extends { ownerId: string; createdBy?: string }>(
  files: readonly T[],
  userId: string,
): T[] {
  return files.filter((file) => file.ownerId === userId || file.createdBy === userId);
}

export const NO_OWNED_FILES = 'No owned files selected for deletion';
