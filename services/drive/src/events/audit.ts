import { recordEvent, type Knex } from '@workspace/kit';
import { driveEvents, type DriveAuditAction } from '@workspace/proto';

export interface AuditEntry {
  targetType: 'file' | 'folder' | 'drive' | 'library' | 'share' | 'signature' | 'storage' | 'permission';
  targetId?: string;
  targetIds?: string[];
  succeeded?: number;
  failed?: number;
  /** Non-personal details: ids, sizes, counts, versions, visibility, file names. */
  details?: Record<string, string | number | boolean | undefined>;
}

/** Who acts, for whom. `system` for the drive's own work, `anonymous` for a signed-out visitor of a share link. */
export interface Actor {
  tenantId: string;
  userId: string;
}

/**
 * One audit action (drive.md §7) as its event on drive.events.v1, in the caller's transaction (the outbox), so the
 * action and its record commit together. The audit service (issue 15) keeps the tenant's trail from these. File
 * names are people's own text: a ten-digit run or NINO pattern in one is masked, not refused.
 */
export class AuditWriter {
  constructor(private readonly source: string) {}

  async write(
    trx: Knex.Transaction,
    actor: Actor,
    action: DriveAuditAction,
    entry: AuditEntry,
  ): Promise<void> {
    const details = Object.fromEntries(
      Object.entries(entry.details ?? {})
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [key, String(value)]),
    );
    await recordEvent(
      trx,
      this.source,
      driveEvents[action],
      {
        tenantId: actor.tenantId,
        aggregateId: entry.targetId ?? entry.targetType,
        data: {
          action,
          actorId: actor.userId,
          targetType: entry.targetType,
          targetId: entry.targetId ?? '',
          targetIds: entry.targetIds ?? [],
          succeeded: entry.succeeded ?? 0,
          failed: entry.failed ?? 0,
          details,
        },
      },
      { sensitiveText: 'mask' },
    );
  }
}
