import type { Knex, Logger } from '@workspace/kit';
import { BffSessionStore } from '../db/bff-sessions.store.js';
import { deleteExpiredTenantRows } from '../db/cleanup.js';
import { RateLimitStore } from '../db/rate-limits.store.js';
import type { TokenSigner } from './token-signer.js';

export interface MaintenanceDeps {
  db: Knex;
  signer: TokenSigner;
  logger: Logger;
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
 * One round of identity's housekeeping (safe to run concurrently on every replica): the scheduled signing-key
 * rotation (under the keys' advisory lock, so one replica rotates), reloading the keys (so every replica signs with
 * the newest), deleting keys past their publication, and deleting expired refresh sessions, portal magic links (used
 * or not), bff sessions and rate-limit windows.
 */
export async function runMaintenance(deps: MaintenanceDeps): Promise<MaintenanceReport> {
  const { db, signer, logger, rotateAfterMs } = deps;
  const rotation = rotateAfterMs > 0 ? await signer.rotateIfDue(rotateAfterMs) : undefined;
  if (rotation)
    logger.info({ kid: rotation.kid, retired: rotation.retired }, 'signing key rotated (schedule)');
  else await signer.reload();
  const keysPurged = await signer.purge();
  const expired = await deleteExpiredTenantRows(db);
  const bffSessionsDeleted = await new BffSessionStore(db).deleteExpired();
  const rateLimitWindowsDeleted = await new RateLimitStore(db).deleteExpired();
  const report = {
    rotated: rotation?.kid,
    keysPurged,
    refreshSessionsDeleted: expired.refreshSessions,
    portalLinksDeleted: expired.portalLinks,
    bffSessionsDeleted,
    rateLimitWindowsDeleted,
  };
  const deleted =
    keysPurged + expired.refreshSessions + expired.portalLinks + bffSessionsDeleted + rateLimitWindowsDeleted;
  if (deleted > 0) logger.info(report, 'identity maintenance deleted expired rows');
  return report;
}
