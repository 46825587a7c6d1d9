import type { BackgroundWorker } from '@workspace/kit';
import { cleanExpiredUploads } from '../commands/uploads.js';
import type { DriveDeps } from '../drive-deps.js';

/**
 * Cleans up abandoned uploads every UPLOAD_CLEANUP_INTERVAL_MS: grants past UPLOAD_GRANT_TTL_MS that were never
 * registered have their multipart uploads aborted and any completed object removed, so an upload abandoned part-way
 * leaves no registered file and no parts. Claims with FOR UPDATE SKIP LOCKED, so replicas share the work.
 */
export class UploadCleanupWorker implements BackgroundWorker {
  readonly name = 'drive-upload-cleanup';
  private running = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly deps: DriveDeps) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private isRunning(): boolean {
    return this.running;
  }

  private async run(): Promise<void> {
    while (this.isRunning()) {
      try {
        const cleaned = await cleanExpiredUploads(this.deps);
        if (cleaned > 0) this.deps.logger.info({ cleaned }, 'abandoned uploads cleaned up');
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'upload cleanup failed; retrying on the next pass');
      }
      if (!this.isRunning()) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.config.UPLOAD_CLEANUP_INTERVAL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
