import type { BackgroundWorker, Logger } from '@workspace/kit';
import { AVATAR, type AvatarCache } from '../commands/avatars.js';

/** Runs the avatar cache's clean-up every hour. */
export class AvatarCleanupWorker implements BackgroundWorker {
  readonly name = 'avatar-cache-cleanup';
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly avatars: AvatarCache,
    private readonly logger: Logger,
    private readonly intervalMs: number = AVATAR.cleanupIntervalMs,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const dropped = this.avatars.cleanUp();
      if (dropped > 0) this.logger.debug({ dropped }, 'expired avatars dropped');
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    return Promise.resolve();
  }
}
