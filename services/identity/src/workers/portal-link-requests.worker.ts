import type { BackgroundWorker, ServiceClient } from '@workspace/kit';
import { handleNextPortalLinkRequest } from '../commands/portal-link-requests.js';
import type { IdentityContext } from '../context.js';

/**
 * Sends the requested portal sign-in links (commands/portal-link-requests.ts) on every replica: woken at once by a
 * request this replica queued, and polling every PORTAL_LINK_REQUEST_POLL_MS for the others' and for retries.
 */
export class PortalLinkRequestWorker implements BackgroundWorker {
  readonly name = 'identity-portal-link-requests';
  private running = false;
  private wakeUp: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly context: IdentityContext,
    private readonly cis: ServiceClient,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
  }

  /** A request was queued on this replica: handle it now rather than at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  private isRunning(): boolean {
    return this.running;
  }

  private async run(): Promise<void> {
    while (this.isRunning()) {
      let worked = false;
      try {
        worked = await handleNextPortalLinkRequest(this.context, this.cis);
      } catch (error) {
        this.context.logger.warn({ err: error }, 'portal link request worker could not reach the database');
      }
      if (!worked && this.isRunning()) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeUp = undefined;
      }
    }
  }
}
