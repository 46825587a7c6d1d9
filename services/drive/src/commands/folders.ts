import { randomUUID } from 'node:crypto';
import { HttpProblem, problems, type Knex, type RequestContext } from '@workspace/kit';
import { FileStore } from '../db/files.store.js';
import { FolderStore, type FolderRecord, type ListedFolder } from '../db/folders.store.js';
import {
  ancestorsUnder,
  breadcrumbs,
  canWriteLibrary,
  DEFAULT_FOLDER_COLOUR,
  driveAbilities,
  folderColourHex,
  folderColourOf,
  folderName,
  isSelfOrDescendant,
  slugChain,
  uniqueSlug,
  type FolderColour,
  type FolderCrumb,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import type { Actor } from '../events/audit.js';
import { callerOf, FILE_NOT_FOUND, readableFile, visibleDrive } from './access.js';
import { once } from './idempotency.js';
import { freeName } from './server-files.js';

export const FOLDER_NOT_FOUND = 'Folder not found';
export const NO_EDIT_PERMISSION = "You don't have permission to edit folders";
export const NO_DELETE_PERMISSION = "You don't have permission to delete folders";
export const NO_CREATE_PERMISSION = "You don't have permission to create folders";
export const NO_MOVE_PERMISSION = "You don't have permission to move files";
export const MISSING_DRIVE_CONTEXT = 'Missing drive context for folder assignment';
export const FOLDER_NAME_REQUIRED = 'Folder name is required';
export const FOLDER_INTO_ITSELF = 'A folder cannot be moved into itself or one of its sub-folders';
export const UNKNOWN_COLOUR = 'Unknown folder colour';
export const FOLDER_DELETED = 'Folder deleted successfully';
export const FILE_MOVED = 'File moved successfully';

/** A folder as the routes answer it. */
export interface FolderView {
  id: string;
  driveId: string;
  libraryId: string | null;
  parentId: string | null;
  ancestors: string[];
  slug: string;
  name: string;
  color: FolderColour;
  /** The dialog's swatch of the colour (null for primary: the theme's). */
  colorHex: string | null;
  type: 'folder' | 'module';
  fileCount: number;
  totalSize: number;
  driveName: string;
  libraryName: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

const present = (
  folder: FolderRecord,
  names: { driveName: string; libraryName: string | null },
): FolderView => ({
  id: folder.id,
  driveId: folder.driveId,
  libraryId: folder.libraryId,
  parentId: folder.parentId,
  ancestors: folder.ancestors,
  slug: folder.slug,
  name: folder.name,
  color: folder.color,
  colorHex: folderColourHex(folder.color) ?? null,
  type: folder.type,
  fileCount: folder.fileCount,
  totalSize: folder.totalSize,
  driveName: names.driveName,
  libraryName: names.libraryName,
  createdBy: folder.createdBy,
  createdAt: new Date(folder.createdAt).toISOString(),
  updatedAt: new Date(folder.updatedAt).toISOString(),
});

const presentListed = (folder: ListedFolder): FolderView => present(folder, folder);

const actorOf = (ctx: RequestContext): Actor => ({ tenantId: ctx.tenantId, userId: ctx.userId });

/** A folder of this drive; 'Folder not found' (404) for any other (another drive's, another tenant's, none). */
async function folderInDrive(
  trx: Knex.Transaction,
  driveId: string,
  folderId: string,
): Promise<FolderRecord> {
  const folder = await new FolderStore(trx).getForUpdate(folderId);
  if (!folder || folder.driveId !== driveId) throw problems.notFound(FOLDER_NOT_FOUND);
  return folder;
}

function colourOf(raw: string | undefined): FolderColour | undefined {
  if (raw === undefined) return undefined;
  const colour = folderColourOf(raw);
  if (!colour) throw new HttpProblem(400, 'UNKNOWN_FOLDER_COLOUR', UNKNOWN_COLOUR);
  return colour;
}

function nameOf(raw: string): string {
  const name = folderName(raw);
  if (name === undefined) throw new HttpProblem(400, 'FOLDER_NAME_REQUIRED', FOLDER_NAME_REQUIRED);
  return name;
}

/** POST /v1/folders/create: a folder in a drive, at its root or under a parent; FOLDER_CREATED. */
export async function createFolder(
  deps: DriveDeps,
  ctx: RequestContext,
  input: { driveId: string; name: string; color?: string | undefined; parentId?: string | null | undefined },
  key: string | undefined,
): Promise<{ folderId: string; folder: FolderView }> {
  const caller = callerOf(ctx);
  if (!driveAbilities(caller).canCreateFolders) throw problems.forbidden(NO_CREATE_PERMISSION);
  const name = nameOf(input.name);
  const color = colourOf(input.color) ?? DEFAULT_FOLDER_COLOUR;
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'folder.create', async () => {
      const drive = await visibleDrive(trx, caller, input.driveId);
      const store = new FolderStore(trx);
      await store.lockDrive(drive.id);
      const parent = input.parentId ? await folderInDrive(trx, drive.id, input.parentId) : null;
      const parentId = parent?.id ?? null;
      const folder = await store.insert({
        id: randomUUID(),
        tenantId: ctx.tenantId,
        driveId: drive.id,
        libraryId: null,
        parentId,
        ancestors: ancestorsUnder(parent),
        slug: uniqueSlug(name, await store.siblingSlugs(drive.id, parentId)),
        name,
        color,
        type: 'folder',
        createdBy: ctx.userId,
      });
      await deps.audit.write(trx, actorOf(ctx), 'FOLDER_CREATED', {
        targetType: 'folder',
        targetId: folder.id,
        details: { driveId: drive.id, parentId: parentId ?? undefined, slug: folder.slug },
      });
      return { folderId: folder.id, folder: present(folder, { driveName: drive.name, libraryName: null }) };
    }),
  );
}

/**
 * POST /v1/folders/update: rename, recolour or move a folder (folder management or manage-all). A new name or
 * parent gives a new slug, unique among the new siblings; a move takes the whole subtree (ancestors rewritten).
 * Nothing to change: no write, no audit. FOLDER_UPDATED.
 */
export async function updateFolder(
  deps: DriveDeps,
  ctx: RequestContext,
  input: {
    driveId: string;
    folderId: string;
    updates: { name?: string | undefined; color?: string | undefined; parentId?: string | null | undefined };
  },
  key: string | undefined,
): Promise<{ folder: FolderView }> {
  const caller = callerOf(ctx);
  if (!driveAbilities(caller).canManageFolders) throw problems.forbidden(NO_EDIT_PERMISSION);
  const name = input.updates.name === undefined ? undefined : nameOf(input.updates.name);
  const color = colourOf(input.updates.color);
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'folder.update', async () => {
      const drive = await visibleDrive(trx, caller, input.driveId);
      const store = new FolderStore(trx);
      await store.lockDrive(drive.id);
      const folder = await folderInDrive(trx, drive.id, input.folderId);
      const moving = input.updates.parentId !== undefined && input.updates.parentId !== folder.parentId;
      const parent =
        moving && input.updates.parentId ? await folderInDrive(trx, drive.id, input.updates.parentId) : null;
      if (moving && isSelfOrDescendant(folder, parent)) {
        throw new HttpProblem(400, 'FOLDER_INTO_ITSELF', FOLDER_INTO_ITSELF);
      }
      const renamed = name !== undefined && name !== folder.name;
      const recoloured = color !== undefined && color !== folder.color;
      if (renamed || recoloured || moving) {
        const parentId = moving ? (parent?.id ?? null) : folder.parentId;
        const changes: Parameters<FolderStore['update']>[1] = {};
        if (renamed) changes.name = name;
        if (recoloured) changes.color = color;
        if (renamed || moving) {
          changes.slug = uniqueSlug(
            name ?? folder.name,
            await store.siblingSlugs(drive.id, parentId, folder.id),
          );
        }
        if (moving) {
          changes.parentId = parentId;
          changes.ancestors = ancestorsUnder(parent);
        }
        await store.update(folder.id, changes);
        if (moving) await store.reparentSubtree(folder.id, changes.ancestors ?? []);
        await deps.audit.write(trx, actorOf(ctx), 'FOLDER_UPDATED', {
          targetType: 'folder',
          targetId: folder.id,
          details: { driveId: drive.id, renamed, recoloured, moved: moving, parentId: parentId ?? undefined },
        });
      }
      const [listed] = await store.list(drive.id, folder.id);
      if (!listed) throw new Error(`folder ${folder.id} vanished while updating`);
      return { folder: presentListed(listed) };
    }),
  );
}

/**
 * POST /v1/folders/delete (folder management or manage-all): the folder and every sub-folder are removed; the files
 * in any of them (whatever their state) move to the deleted folder's parent, the drive's root when it had none,
 * keeping their library, a clashing name taking ' (2)'. No file is deleted (that is the trash's job, with its own
 * rules and legal hold). FOLDER_DELETED.
 */
export async function deleteFolder(
  deps: DriveDeps,
  ctx: RequestContext,
  input: { driveId: string; folderId: string },
  key: string | undefined,
): Promise<{ message: string; removedFolders: number; movedFiles: number; movedTo: string | null }> {
  const caller = callerOf(ctx);
  if (!driveAbilities(caller).canManageFolders) throw problems.forbidden(NO_DELETE_PERMISSION);
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'folder.delete', async () => {
      const drive = await visibleDrive(trx, caller, input.driveId);
      const store = new FolderStore(trx);
      await store.lockDrive(drive.id);
      const folder = await folderInDrive(trx, drive.id, input.folderId);
      const subtree = [folder.id, ...(await store.descendantIds(folder.id))];
      const files = new FileStore(trx);
      const inside = await files.inFolders(subtree);
      for (const file of inside) {
        const place = { driveId: file.driveId, libraryId: file.libraryId, folderId: folder.parentId };
        await files.update(file.id, {
          folderId: folder.parentId,
          name: await freeName(trx, place, file.name),
          updatedBy: ctx.userId,
        });
      }
      await store.remove(subtree);
      await store.recount(drive.id);
      await deps.audit.write(trx, actorOf(ctx), 'FOLDER_DELETED', {
        targetType: 'folder',
        targetId: folder.id,
        targetIds: inside.map((file) => file.id),
        details: {
          driveId: drive.id,
          name: folder.name,
          removedFolders: subtree.length,
          movedFiles: inside.length,
          movedTo: folder.parentId ?? 'root',
        },
      });
      return {
        message: FOLDER_DELETED,
        removedFolders: subtree.length,
        movedFiles: inside.length,
        movedTo: folder.parentId,
      };
    }),
  );
}

/** GET /v1/drives/:driveId/folders: the drive's folders, oldest first, with counts and names. */
export async function listFolders(
  deps: DriveDeps,
  ctx: RequestContext,
  driveId: string,
): Promise<{ items: FolderView[] }> {
  return deps.inTenant(ctx.tenantId, async (trx) => {
    await visibleDrive(trx, callerOf(ctx), driveId);
    return { items: (await new FolderStore(trx).list(driveId)).map(presentListed) };
  });
}

/**
 * GET /v1/drives/:driveId/folders/by-path?slugs=a/b: the folder a slug chain names (/drive/folders/a/b), followed
 * from the drive's root, with its breadcrumbs; 'Folder not found' when a step is missing.
 */
export async function folderByPath(
  deps: DriveDeps,
  ctx: RequestContext,
  driveId: string,
  path: string,
): Promise<{ drive: { id: string; name: string }; folder: FolderView; breadcrumbs: FolderCrumb[] }> {
  const slugs = slugChain(path);
  if (slugs.length === 0) throw problems.notFound(FOLDER_NOT_FOUND);
  return deps.inTenant(ctx.tenantId, async (trx) => {
    const drive = await visibleDrive(trx, callerOf(ctx), driveId);
    const store = new FolderStore(trx);
    const chain: FolderRecord[] = [];
    for (const slug of slugs) {
      const next = await store.childBySlug(drive.id, chain.at(-1)?.id ?? null, slug);
      if (!next) throw problems.notFound(FOLDER_NOT_FOUND);
      chain.push(next);
    }
    const folder = chain[chain.length - 1];
    if (!folder) throw problems.notFound(FOLDER_NOT_FOUND);
    const [listed] = await store.list(drive.id, folder.id);
    return {
      drive: { id: drive.id, name: drive.name },
      folder: listed ? presentListed(listed) : present(folder, { driveName: drive.name, libraryName: null }),
      breadcrumbs: breadcrumbs(chain),
    };
  });
}

/** POST /v1/folders/update-counts: every folder of the drive recounted (its active files, directly in it). */
export async function updateCounts(
  deps: DriveDeps,
  ctx: RequestContext,
  driveId: string,
): Promise<{ driveId: string; recounted: number }> {
  return deps.inTenant(ctx.tenantId, async (trx) => {
    await visibleDrive(trx, callerOf(ctx), driveId);
    return { driveId, recounted: await new FolderStore(trx).recount(driveId) };
  });
}

/**
 * POST /v1/mutations/folder-assign: files of one drive into one of its folders, or to its root (null). Needs
 * drive.file.move and write access to each file's library; a clashing name in the target takes ' (2)'. FILE_MOVED
 * per file, BULK_DRIVE_MOVED when more than one moved; the drive's folder counts are refreshed after.
 */
export async function assignFolder(
  deps: DriveDeps,
  ctx: RequestContext,
  input: { driveId?: string | undefined; fileIds: string[]; toFolderId: string | null },
  key: string | undefined,
): Promise<{
  message: string;
  moved: { id: string; name: string; folderId: string | null }[];
  unchanged: string[];
}> {
  const { driveId } = input;
  if (driveId === undefined) throw new HttpProblem(400, 'MISSING_DRIVE_CONTEXT', MISSING_DRIVE_CONTEXT);
  const caller = callerOf(ctx);
  if (!driveAbilities(caller).canMoveFiles) throw problems.forbidden(NO_MOVE_PERMISSION);
  return deps.inTenant(ctx.tenantId, (trx) =>
    once(trx, ctx.tenantId, key, 'folder.assign', async () => {
      const drive = await visibleDrive(trx, caller, driveId);
      const store = new FolderStore(trx);
      await store.lockDrive(drive.id);
      const target = input.toFolderId === null ? null : await folderInDrive(trx, drive.id, input.toFolderId);
      const targetId = target?.id ?? null;
      const files = new FileStore(trx);
      const moved: { id: string; name: string; folderId: string | null }[] = [];
      const unchanged: string[] = [];
      for (const fileId of [...new Set(input.fileIds)]) {
        const { file, library } = await readableFile(trx, caller, fileId);
        if (file.driveId !== drive.id) throw problems.notFound(FILE_NOT_FOUND);
        if (!canWriteLibrary(caller, library)) throw problems.forbidden(NO_MOVE_PERMISSION);
        if (file.folderId === targetId) {
          unchanged.push(file.id);
          continue;
        }
        const name = await freeName(
          trx,
          { driveId: drive.id, libraryId: file.libraryId, folderId: targetId },
          file.name,
        );
        await files.update(file.id, { folderId: targetId, name, updatedBy: ctx.userId });
        await deps.audit.write(trx, actorOf(ctx), 'FILE_MOVED', {
          targetType: 'file',
          targetId: file.id,
          details: {
            driveId: drive.id,
            fromFolderId: file.folderId ?? 'root',
            toFolderId: targetId ?? 'root',
            renamed: name !== file.name,
          },
        });
        moved.push({ id: file.id, name, folderId: targetId });
      }
      if (moved.length > 1) {
        await deps.audit.write(trx, actorOf(ctx), 'BULK_DRIVE_MOVED', {
          targetType: 'drive',
          targetId: drive.id,
          targetIds: moved.map((file) => file.id),
          succeeded: moved.length,
          details: { toFolderId: targetId ?? 'root' },
        });
      }
      await store.recount(drive.id);
      return { message: FILE_MOVED, moved, unchanged };
    }),
  );
}
