import { notify, recordEvent, type Knex } from '@workspace/kit';
import { auditEvents } from '@workspace/proto';
import { randomUUID } from 'node:crypto';
import type { AuditDeps } from '../audit-deps.js';
import { entryHash } from '../chain/hash.js';
import { EntriesStore } from '../db/entries.store.js';
import { GENESIS_HASH, liveMessage, type AuditEntry, type EntryDraft } from '../domain/entries.js';

/** The NOTIFY channel of new entries (the live stream, GET /v1/entries/stream). */
export const ENTRIES_CHANNEL = 'audit_entries';

/** The Kafka key of a tenant's audit.v1 records: one key per tenant, so its records keep their order. */
export const AUDIT_LOG_KEY = 'log';

/** proto3 JSON of an entry as audit.v1 carries it (int64 seq as a decimal string). */
export function entryRecord(entry: AuditEntry) {
  return {
    tenantId: entry.tenantId,
    seq: BigInt(entry.seq),
    id: entry.id,
    action: entry.action,
    module: entry.module,
    source: entry.source,
    targetId: entry.targetId,
    actorId: entry.actorId,
    occurredAt: entry.occurredAt.toISOString(),
    recordedAt: entry.recordedAt.toISOString(),
    sourceEventId: entry.sourceEventId,
    payload: entry.payload,
    prevHash: entry.prevHash,
    hash: entry.hash,
  };
}

/**
 * Appends one entry to the tenant's chain in `trx` (whose tenant is set): waits for the tenant's head (FOR UPDATE),
 * so appends of one tenant follow each other and seq and prevHash never fork; stores the entry with its hash, moves
 * the head, and records the entry on audit.v1 through the outbox, all in the one transaction. An entry for a source
 * event already stored is not stored again (the answer is the stored one, `stored` false). A failure throws and
 * rolls everything back: the consumer then retries the event, so nothing is dropped or skipped.
 */
export async function appendEntry(
  deps: AuditDeps,
  trx: Knex.Transaction,
  tenantId: string,
  draft: EntryDraft,
): Promise<{ entry: AuditEntry; stored: boolean }> {
  const store = new EntriesStore(trx);
  const head = await store.lockHead(tenantId, GENESIS_HASH);
  const unhashed = {
    ...draft,
    tenantId,
    seq: head.seq + 1,
    id: randomUUID(),
    // Milliseconds, as the canonical form writes them (the column keeps what was hashed).
    occurredAt: new Date(draft.occurredAt.getTime()),
    recordedAt: new Date(deps.clock.now().getTime()),
    prevHash: head.hash,
  };
  const entry: AuditEntry = { ...unhashed, hash: entryHash(unhashed) };
  if (!(await store.append(entry))) {
    const existing = await store.bySourceEvent(tenantId, draft.sourceEventId);
    if (!existing) throw new Error(`audit entry of ${draft.sourceEventId} neither stored nor found`);
    return { entry: existing, stored: false };
  }
  await recordEvent(
    trx,
    deps.source,
    auditEvents.entryRecorded,
    {
      tenantId,
      aggregateId: AUDIT_LOG_KEY,
      subject: String(entry.seq),
      data: entryRecord(entry),
      occurredAt: entry.recordedAt,
    },
    { sensitiveText: 'mask' },
  );
  await notify(trx, ENTRIES_CHANNEL, liveMessage(tenantId, entry));
  return { entry, stored: true };
}
