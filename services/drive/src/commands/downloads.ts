import { problems, type RequestContext } from '@workspace/kit';
import { FileActivityStore } from '../db/file-activity.store.js';
import { FileStore, type FileRecord } from '../db/files.store.js';
import {
  PREVIEW_NOT_AVAILABLE,
  PREVIEW_TEXT_MAX_BYTES,
  PREVIEW_TOO_LARGE,
  previewKind,
  type PreviewKind,
} from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';
import { callerOf, FILE_NOT_FOUND, readableFile } from './access.js';
import { requireView } from './file-list.js';

export const VERSION_NOT_FOUND = 'Version not found';
export const THUMBNAIL_NOT_AVAILABLE = 'Thumbnail not available';

interface FileAddress {
  fileId: string;
  /** When given, the file must be in this drive (the spec's call carries it). */
  driveId?: string | undefined;
  /** A version other than the current one. */
  version?: number | undefined;
}

/** The file the caller may open, at the drive the call names, and the object of the version asked for. */
async function openFile(
  deps: DriveDeps,
  ctx: RequestContext,
  address: FileAddress,
  audit: 'FILE_DOWNLOADED' | 'FILE_PREVIEWED',
): Promise<{ file: FileRecord; objectKey: string; size: number }> {
  const caller = callerOf(ctx);
  requireView(caller);
  return deps.inTenant(ctx.tenantId, async (trx) => {
    const { file } = await readableFile(trx, caller, address.fileId);
    if (address.driveId !== undefined && address.driveId !== file.driveId) {
      throw problems.notFound(FILE_NOT_FOUND);
    }
    let objectKey = file.storagePath;
    let size = file.size;
    if (address.version !== undefined && address.version !== file.version) {
      const version = (await new FileStore(trx).versions(file.id)).find(
        (candidate) => candidate.version === address.version,
      );
      if (!version) throw problems.notFound(VERSION_NOT_FOUND);
      objectKey = version.storagePath;
      size = version.size;
    }
    await new FileActivityStore(trx).recordView(ctx.tenantId, file.id, caller.userId, deps.clock.now());
    await deps.audit.write(trx, ctx, audit, {
      targetType: 'file',
      targetId: file.id,
      details: {
        fileName: file.name,
        driveId: file.driveId,
        version: address.version ?? file.version,
        size,
      },
    });
    return { file, objectKey, size };
  });
}

/**
 * GET /download: FILE_DOWNLOADED is recorded (and the file heads the caller's Recent), then a presigned GET of the
 * object that saves it under the file's name. The route redirects there, or answers it as JSON.
 */
export async function downloadFile(
  deps: DriveDeps,
  ctx: RequestContext,
  address: FileAddress,
): Promise<{ url: string; name: string; size: number }> {
  const { file, objectKey, size } = await openFile(deps, ctx, address, 'FILE_DOWNLOADED');
  return { url: await deps.objects.presignGet(objectKey, file.name, 'attachment'), name: file.name, size };
}

export interface Preview {
  kind: PreviewKind;
  name: string;
  mimeType: string;
  size: number;
  /** CSV, JSON and text: the file's text (UTF-8), when within PREVIEW_TEXT_MAX_BYTES. */
  text?: string;
  /** PDF, image, video and audio: a presigned URL that shows the object inline. */
  url?: string;
  /** Why there is nothing to show: not available for the type, or too large. */
  message?: string;
}

async function readText(deps: DriveDeps, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.objects.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET /preview: what the preview modal shows. CSV, text, code and JSON: their text (up to 1 MB; beyond, a message
 * and Download). PDF, image, video, audio: an inline presigned URL. Anything else: 'Preview not available for this
 * file type'. Recorded as FILE_PREVIEWED, and the file heads the caller's Recent.
 */
export async function previewFile(
  deps: DriveDeps,
  ctx: RequestContext,
  address: FileAddress,
): Promise<Preview> {
  const { file, objectKey, size } = await openFile(deps, ctx, address, 'FILE_PREVIEWED');
  const kind = previewKind(file);
  const base = { kind, name: file.name, mimeType: file.mimeType, size };
  switch (kind) {
    case 'none':
      return { ...base, message: PREVIEW_NOT_AVAILABLE };
    case 'pdf':
    case 'image':
    case 'video':
    case 'audio':
      return { ...base, url: await deps.objects.presignGet(objectKey, file.name, 'inline') };
    case 'csv':
    case 'json':
    case 'text':
      if (size > PREVIEW_TEXT_MAX_BYTES) return { ...base, message: PREVIEW_TOO_LARGE };
      return { ...base, text: await readText(deps, objectKey) };
  }
}

/** GET /files/:id/thumbnail: an inline presigned URL of the current version's thumbnail, when one was made. */
export async function thumbnailUrl(deps: DriveDeps, ctx: RequestContext, fileId: string): Promise<string> {
  const caller = callerOf(ctx);
  requireView(caller);
  const file = await deps.inTenant(
    ctx.tenantId,
    async (trx) => (await readableFile(trx, caller, fileId)).file,
  );
  if (file.thumbnailPath === null) throw problems.notFound(THUMBNAIL_NOT_AVAILABLE);
  return deps.objects.presignGet(file.thumbnailPath, `${file.name}.jpg`, 'inline');
}
