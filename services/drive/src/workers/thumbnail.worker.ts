import type { BackgroundWorker } from '@workspace/kit';
import { PDFParse } from 'pdf-parse';
import sharp from 'sharp';
import { FileStore, type FileRecord } from '../db/files.store.js';
import { THUMBNAIL_SIZE, thumbnailPath } from '../domain/index.js';
import type { DriveDeps } from '../drive-deps.js';

/** Sources larger than this are not read for a thumbnail (the attempt is recorded as failed and logged). */
export const THUMBNAIL_MAX_SOURCE_BYTES = 64 * 1024 * 1024;
const TENANTS_PER_ROUND = 100;
const FILES_PER_TENANT_ROUND = 20;

/** A JPEG of at most THUMBNAIL_SIZE on its longer side: an image (sharp) or a PDF's first page (pdf-parse). */
export async function makeThumbnail(bytes: Buffer, typeClass: 'image' | 'pdf'): Promise<Buffer> {
  let source = bytes;
  if (typeClass === 'pdf') {
    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    try {
      const shot = await parser.getScreenshot({
        first: 1,
        desiredWidth: THUMBNAIL_SIZE * 2,
        imageBuffer: true,
        imageDataUrl: false,
      });
      const page = shot.pages[0];
      if (!page) throw new Error('the PDF has no page');
      source = Buffer.from(page.data);
    } finally {
      await parser.destroy();
    }
  }
  return sharp(source, { failOn: 'error' })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/**
 * Makes thumbnails in the background: JPEGs of images and of PDFs' first pages, stored at
 * tenants/{t}/thumbs/{id}/v/{version}/{name}.jpg and recorded on the file. Woken by the file-change hub and every
 * THUMBNAIL_POLL_MS; the tenants with work come from `thumbnails_pending()` (migration 003: ids only). A thumbnail
 * that cannot be made is logged and skipped (recorded as tried for that version), never blocking the file.
 * Replicas may both make one thumbnail: the same key, written twice, harmlessly.
 */
export class ThumbnailWorker implements BackgroundWorker {
  readonly name = 'drive-thumbnails';
  private running = false;
  private pending = false;
  private wakeUp: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly deps: DriveDeps) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** Something changed: look again now. */
  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }

  private isRunning(): boolean {
    return this.running;
  }

  private wasWoken(): boolean {
    return this.pending;
  }

  private async run(): Promise<void> {
    while (this.isRunning()) {
      this.pending = false;
      try {
        await this.round();
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'thumbnail worker could not reach the database; retrying');
      }
      if (!this.isRunning() || this.wasWoken()) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.config.THUMBNAIL_POLL_MS);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /** One pass over the tenants with images or PDFs without a thumbnail attempt; how many files were handled. */
  async round(): Promise<number> {
    const { rows } = await this.deps.db.raw<{ rows: { tenant_id: string }[] }>(
      'SELECT thumbnails_pending AS tenant_id FROM thumbnails_pending(?)',
      [TENANTS_PER_ROUND],
    );
    let handled = 0;
    for (const { tenant_id: tenantId } of rows) {
      if (!this.isRunning()) break;
      const files = await this.deps.inTenant(tenantId, (trx) =>
        new FileStore(trx).thumbnailsPending(FILES_PER_TENANT_ROUND),
      );
      for (const file of files) {
        if (!this.isRunning()) break;
        await this.thumbnail(file);
        handled += 1;
      }
    }
    return handled;
  }

  private async thumbnail(file: FileRecord): Promise<void> {
    let path: string | null = null;
    try {
      if (file.size > THUMBNAIL_MAX_SOURCE_BYTES) throw new Error('the file is too large for a thumbnail');
      const chunks: Buffer[] = [];
      for await (const chunk of await this.deps.objects.read(file.storagePath)) chunks.push(chunk as Buffer);
      const jpeg = await makeThumbnail(Buffer.concat(chunks), file.typeClass === 'pdf' ? 'pdf' : 'image');
      const key = thumbnailPath(file.tenantId, file.id, file.version, file.name);
      await this.deps.objects.put(key, jpeg, 'image/jpeg');
      path = key;
    } catch (error) {
      this.deps.logger.warn(
        { err: error, fileId: file.id, version: file.version, typeClass: file.typeClass },
        'thumbnail could not be made; skipped',
      );
    }
    await this.deps.inTenant(file.tenantId, (trx) =>
      new FileStore(trx).setThumbnail(file.id, file.version, path),
    );
    // One thumbnail per file: the previous version's goes once the new one is recorded.
    if (path !== null && file.thumbnailPath !== null && file.thumbnailPath !== path) {
      await this.deps.objects.remove([file.thumbnailPath]).catch((error: unknown) => {
        this.deps.logger.warn({ err: error, fileId: file.id }, 'previous thumbnail could not be removed');
      });
    }
  }
}
