import { recordEvent, type Knex } from '@workspace/kit';
import { cisEvents, type CisAuditAction } from '@workspace/proto';
import { ActivityStore } from '../db/activity.store.js';

export interface AuditEntry {
  targetType: string;
  targetId?: string;
  /** One line a person reads in Recent Activity, without personal data (no UTR, NINO, email). */
  summary: string;
  targetIds?: string[];
  succeeded?: number;
  failed?: number;
  taxMonth?: string;
  details?: Record<string, string | number | boolean>;
}

/** Who acts, for whom: the actor of an audit entry and its tenant. */
export interface Actor {
  tenantId: string;
  userId: string;
}

/**
 * One audit action (cis.md section 7): a row in the tenant's activity log (Recent Activity) and the event on
 * cis.events.v1, in the caller's transaction. A bulk action is one entry carrying every target.
 */
export class AuditWriter {
  constructor(private readonly source: string) {}

  async write(trx: Knex.Transaction, actor: Actor, action: CisAuditAction, entry: AuditEntry): Promise<void> {
    const details = Object.fromEntries(
      Object.entries(entry.details ?? {}).map(([key, value]) => [key, String(value)]),
    );
    await new ActivityStore(trx).insert({
      tenantId: actor.tenantId,
      action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? '',
      summary: entry.summary,
      details: {
        ...details,
        ...(entry.taxMonth ? { taxMonth: entry.taxMonth } : {}),
        ...(entry.targetIds ? { count: String(entry.targetIds.length) } : {}),
      },
      performedBy: actor.userId,
    });
    await recordEvent(trx, this.source, cisEvents[action], {
      tenantId: actor.tenantId,
      aggregateId: entry.targetId ?? entry.targetType,
      data: {
        actorId: actor.userId,
        targetType: entry.targetType,
        targetId: entry.targetId ?? '',
        targetIds: entry.targetIds ?? [],
        succeeded: entry.succeeded ?? 0,
        failed: entry.failed ?? 0,
        taxMonth: entry.taxMonth ?? '',
        details,
      },
    });
  }
}
