import { notifyAll, recordEvents, type Knex } from '@workspace/kit';
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
 * Appends one entry to the tenant's chain in `trx` (whose tenant is set): see `appendEntries`. An entry for a source
 * event already stored is not stored again (the answer is the stored one, `stored` false).
 */
export async function appendEntry(
  deps: AuditDeps,
  trx: Knex.Transaction,
  tenantId: string,
  draft: EntryDraft,
): Promise<{ entry: AuditEntry; stored: boolean }> {
  const [result] = await appendEntries(deps, trx, tenantId, [draft]);
  if (!result) throw new Error(`audit entry of ${draft.sourceEventId} neither stored nor found`);
  return result;
}

/**
 * Appends entries, in the given order, to the tenant's chain in `trx` (whose tenant is set): takes the tenant's head
 * once (FOR UPDATE), so appends of one tenant follow each other and seq and prevHash never fork; leaves out the
 * drafts whose source event the tenant already has (or that repeat one earlier in `drafts`), chains the others from
 * the head, stores them with their hashes in one statement, moves the head, and records each on audit.v1 through the
 * outbox (one statement, in seq order), all in the one transaction. A failure throws and rolls everything back:
 * the consumer then retries the events, so nothing is dropped or skipped. Answers one result per draft (a repeat
 * gets the entry stored for its source event, `stored` false).
 */
export async function appendEntries(
  deps: AuditDeps,
  trx: Knex.Transaction,
  tenantId: string,
  drafts: EntryDraft[],
): Promise<{ entry: AuditEntry; stored: boolean }[]> {
  if (drafts.length === 0) return [];
  const store = new EntriesStore(trx);
  const head = await store.lockHead(tenantId, GENESIS_HASH);
  const existing = await store.bySourceEvents(tenantId, [
    ...new Set(drafts.map((draft) => draft.sourceEventId)),
  ]);
  const recordedAt = new Date(deps.clock.now().getTime());
  const appended: AuditEntry[] = [];
  let previous = head;
  const results = drafts.map((draft) => {
    const stored = existing.get(draft.sourceEventId);
    if (stored) return { entry: stored, stored: false };
    const unhashed = {
      ...draft,
      tenantId,
      seq: previous.seq + 1,
      id: randomUUID(),
      // Milliseconds, as the canonical form writes them (the column keeps what was hashed).
      occurredAt: new Date(draft.occurredAt.getTime()),
      recordedAt,
      prevHash: previous.hash,
    };
    const entry: AuditEntry = { ...unhashed, hash: entryHash(unhashed) };
    existing.set(draft.sourceEventId, entry);
    appended.push(entry);
    previous = entry;
    return { entry, stored: true };
  });
  await store.appendAll(appended);
  await recordEvents(
    trx,
    deps.source,
    auditEvents.entryRecorded,
    appended.map((entry) => ({
      tenantId,
      aggregateId: AUDIT_LOG_KEY,
      subject: String(entry.seq),
      data: entryRecord(entry),
      occurredAt: entry.recordedAt,
    })),
    { sensitiveText: 'mask' },
  );
  await notifyAll(
    trx,
    ENTRIES_CHANNEL,
    appended.map((entry) => liveMessage(tenantId, entry)),
  );
  return results;
}
