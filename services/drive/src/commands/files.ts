import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { FileActivityStore } from '../db/file-activity.store.js';
import { FileStore, type FileListEntry } from '../db/files.store.js';
import {
  canShareFromLibrary,
  canWriteLibrary,
  holds,
  RECENT_FILES_LIMIT,
  recentSince,
  sanitiseName,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import { callerOf, FILE_NOT_FOUND, readableFile } from './access.js';
import { fileReader, requireView } from './file-list.js';
import { once } from './idempotency.js';
import { freeName } from './server-files.js';

export const SHARE_PERMISSION_MISSING = "You don't have permission to share files";
export const SHARING_UPDATED = 'File sharing settings updated';
export const RENAME_PERMISSION_MISSING = "You don't have permission to rename files";
export const CHOOSE_AT_LEAST_ONE_USER = 'Choose at least one user to share with';
export const CANNOT_SHARE_WITH_YOURSELF = 'You cannot share a file with yourself';

/** A file as the list shows it, read for the caller (who must be able to open it). */
export async function fileEntry(
  deps: DriveDeps,
  trx: Knex.Transaction,
  ctx: RequestContext,
  fileId: string,
): Promise<FileListEntry> {
  const caller = callerOf(ctx);
  const { file } = await readableFile(trx, caller, fileId);
  const [entry] = await new FileStore(trx).listPage(
    await fileReader(trx, caller),
    {
      view: file.status === 'trashed' ? 'trash' : 'all',
      visibility: 'all',
      ids: [file.id],
      recentSince: recentSince(deps.clock.now()),
      recentLimit: RECENT_FILES_LIMIT,
    },
    { sort: undefined, direction: 'desc', offset: 0, limit: 1 },
  );
  if (!entry) throw problems.notFound(FILE_NOT_FOUND);
  return entry;
}

/** GET /files/:id: one file the caller may open. */
export function readFileDetail(deps: DriveDeps, ctx: RequestContext, fileId: string): Promise<FileListEntry> {
  requireView(callerOf(ctx));
  return deps.inTenant(ctx.tenantId, (trx) => fileEntry(deps, trx, ctx, fileId));
}

/**
 * Rename: the rename scope and write access to the file's library; the new name sanitised and, when another file
 * of the same drive, library and folder has it, suffixed ' (2)', ' (3)'... (a change of case alone is kept as is).
 */
export function renameFile(
  deps: DriveDeps,
  ctx: RequestContext,
  fileId: string,
  name: string,
  key: string | undefined,
): Promise<FileListEntry> {
  const caller = callerOf(ctx);
  // The key keeps the rename once; a repeat answers the file as it is now.
  return deps.inTenant(ctx.tenantId, async (trx) => {
    await once(trx, ctx.tenantId, key, `files.rename:${fileId}`, async () => {
      const { file, library } = await readableFile(trx, caller, fileId);
      if (!holds(caller, 'drive.file.rename') || !canWriteLibrary(caller, library)) {
        throw new HttpProblem(403, 'forbidden', RENAME_PERMISSION_MISSING);
      }
      const clean = sanitiseName(name);
      const next = clean.toLowerCase() === file.nameLower ? clean : await freeName(trx, file, clean);
      if (next !== file.name) {
        await new FileStore(trx).update(file.id, { name: next, updatedBy: caller.userId });
        await deps.audit.write(trx, ctx, 'FILE_RENAMED', {
          targetType: 'file',
          targetId: file.id,
          details: { fileName: next, previousName: file.name },
        });
      }
      return { fileId: file.id };
    });
    return fileEntry(deps, trx, ctx, fileId);
  });
}

/**
 * Share File with users (drive.md §2 "Share dialog", §5): the library must allow sharing and the caller hold its
 * share scope (or manage-all); at least one user, never the caller. The users join the file's sharedWith (those
 * already there stay) and the file becomes shared (a trashed file answers 'File not found'); FILE_SHARED records the file's name, how many people it is
 * shared with and its visibility.
 */
export function shareFileWithUsers(
  deps: DriveDeps,
  ctx: RequestContext,
  fileId: string,
  userIds: readonly string[],
  key: string | undefined,
): Promise<{ file: FileListEntry; message: string }> {
  const caller = callerOf(ctx);
  const chosen = [...new Set(userIds.map((id) => id.trim()).filter((id) => id !== ''))];
  // The key keeps the share once; a repeat answers the file as it is now.
  return deps.inTenant(ctx.tenantId, async (trx) => {
    const { message } = await once(trx, ctx.tenantId, key, `files.share-with:${fileId}`, async () => {
      const { file, library } = await readableFile(trx, caller, fileId);
      // A file in the trash is shared with nobody new: it answers as a missing one (restore it first).
      if (file.status !== 'active') throw problems.notFound(FILE_NOT_FOUND);
      if (!canShareFromLibrary(caller, library)) {
        throw new HttpProblem(403, 'forbidden', SHARE_PERMISSION_MISSING);
      }
      if (chosen.length === 0) throw problems.badRequest(CHOOSE_AT_LEAST_ONE_USER);
      if (chosen.includes(caller.userId)) throw problems.badRequest(CANNOT_SHARE_WITH_YOURSELF);
      const sharedWith = [...new Set([...file.sharedWith, ...chosen])];
      await new FileStore(trx).update(file.id, {
        sharedWith,
        visibility: 'shared',
        updatedBy: caller.userId,
      });
      await deps.audit.write(trx, ctx, 'FILE_SHARED', {
        targetType: 'file',
        targetId: file.id,
        details: {
          fileName: file.name,
          sharedWith: sharedWith.length,
          visibility: 'shared',
          // Who was added now (the notification service tells each of them: ADR 0052).
          addedUids: chosen.filter((id) => !file.sharedWith.includes(id)).join(','),
        },
      });
      return { fileId: file.id, message: SHARING_UPDATED };
    });
    return { file: await fileEntry(deps, trx, ctx, fileId), message };
  });
}

/** Star or unstar a file the caller may open (stars are the caller's own). */
export function setStar(
  deps: DriveDeps,
  ctx: RequestContext,
  fileId: string,
  starred: boolean,
): Promise<void> {
  const caller = callerOf(ctx);
  requireView(caller);
  return deps.inTenant(ctx.tenantId, async (trx) => {
    await readableFile(trx, caller, fileId);
    const activity = new FileActivityStore(trx);
    if (starred) await activity.star(ctx.tenantId, fileId, caller.userId);
    else await activity.unstar(fileId, caller.userId);
  });
}

/** Clear Stars: the caller's stars, all of them. */
export function clearStars(deps: DriveDeps, ctx: RequestContext): Promise<{ cleared: number }> {
  return deps.inTenant(ctx.tenantId, async (trx) => ({
    cleared: await new FileActivityStore(trx).clearStars(ctx.userId),
  }));
}

/** Clear Recent: what the caller opened and uploaded leaves their Recent (the files stay). */
export function clearRecent(deps: DriveDeps, ctx: RequestContext): Promise<{ cleared: number }> {
  return deps.inTenant(ctx.tenantId, async (trx) => ({
    cleared: await new FileActivityStore(trx).clearRecent(ctx.userId),
  }));
}
