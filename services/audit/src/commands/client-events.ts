import { maskSensitiveIdentifiers } from '@workspace/kit';
import { randomUUID } from 'node:crypto';
import type { AuditDeps } from '../audit-deps.js';
import { CLIENT_ACTIONS, entryPayload, type ClientAction } from '../domain/entries.js';
import { appendEntry } from './append-entry.js';

/** The source of entries a browser recorded (audit_logEvent). */
export const CLIENT_SOURCE = 'client';

/**
 * audit_logEvent (workspace.md): a client-side action (an export the browser built, a link it copied) appended to the
 * caller's tenant's chain, the actor and tenant from the caller's token, never from the body. The payload keeps
 * identifiers only (the same rule as every entry). Answers the entry's id. A retry carrying the first send's
 * idempotency key (the web's logAuditEvent retries a send whose answer was lost) is stored once: the key, scoped to the
 * caller, is the entry's source event id, and the answer is the first entry's id.
 */
export async function recordClientEvent(
  deps: AuditDeps,
  caller: { tenantId: string; userId: string },
  event: { action: ClientAction; targetId: string; payload: Record<string, unknown> },
  idempotencyKey?: string,
): Promise<{ id: string; seq: number }> {
  const { entry } = await deps.inTenant(caller.tenantId, (trx) =>
    appendEntry(deps, trx, caller.tenantId, {
      action: event.action,
      module: CLIENT_ACTIONS[event.action],
      source: CLIENT_SOURCE,
      targetId: event.targetId,
      actorId: caller.userId,
      occurredAt: deps.clock.now(),
      sourceEventId: idempotencyKey ? `client:${caller.userId}:${idempotencyKey}` : randomUUID(),
      payload: entryPayload(event.payload, maskSensitiveIdentifiers),
    }),
  );
  return { id: entry.id, seq: entry.seq };
}
