import type { BackgroundWorker, Knex, Logger } from '@workspace/kit';
import type { TokenSigner } from './tokens.js';

export interface MaintenanceOptions {
  db: Knex;
  signer: TokenSigner;
  logger: Logger;
  intervalMs: number;
  /** Rotate the signing key when it is this old; 0 = never on a schedule. */
  rotateAfterMs: number;
}

export interface MaintenanceReport {
  rotated: string | undefined;
  keysPurged: number;
  refreshSessionsDeleted: number;
  portalLinksDeleted: number;
  bffSessionsDeleted: number;
  rateLimitWindowsDeleted: number;
}

/**
 * identity's housekeeping, on every replica every MAINTENANCE_INTERVAL_SECONDS (all of it is safe to run
 * concurrently): the scheduled signing-key rotation (under the keys' advisory lock, so one replica rotates), reloading
 * the keys (so every replica signs with the newest within one interval), deleting keys past their publication, and
 * deleting expired refresh sessions, portal magic links (used or not), bff sessions and rate-limit windows.
 */
export class IdentityMaintenance implements BackgroundWorker {
  readonly name = 'identity-maintenance';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly options: MaintenanceOptions) {}

  start(): void {
    const tick = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => {
          this.options.logger.warn({ err: error }, 'identity maintenance failed; retrying next interval');
        })
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.options.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.options.intervalMs);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  async runOnce(): Promise<MaintenanceReport> {
    const { db, signer, logger, rotateAfterMs } = this.options;
    const rotation = rotateAfterMs > 0 ? await signer.rotateIfDue(rotateAfterMs) : undefined;
    if (rotation)
      logger.info({ kid: rotation.kid, retired: rotation.retired }, 'signing key rotated (schedule)');
    else await signer.reload();
    const keysPurged = await signer.purge();
    const [refreshSessionsDeleted, portalLinksDeleted] = await db.transaction(async (trx) => {
      // Expired rows of every tenant: the tables' clean-up policies show them (and only them) to this transaction.
      await trx.raw("SELECT set_config('app.cleanup', 'on', true)");
      const refresh = await trx('refresh_sessions').where('expires_at', '<', trx.fn.now()).del();
      const links = await trx('portal_links').where('expires_at', '<', trx.fn.now()).del();
      return [refresh, links];
    });
    const bffSessionsDeleted = await db('bff_sessions').where('expires_at', '<', db.fn.now()).del();
    const rateLimitWindowsDeleted = await db('rate_limit_windows').where('reset_at', '<', db.fn.now()).del();
    const report = {
      rotated: rotation?.kid,
      keysPurged,
      refreshSessionsDeleted,
      portalLinksDeleted,
      bffSessionsDeleted,
      rateLimitWindowsDeleted,
    };
    if (
      keysPurged +
        refreshSessionsDeleted +
        portalLinksDeleted +
        bffSessionsDeleted +
        rateLimitWindowsDeleted >
      0
    ) {
      logger.info(report, 'identity maintenance deleted expired rows');
    }
    return report;
  }
}
