import {
  maskSensitiveIdentifiers,
  setTransactionTenant,
  type BatchEventHandler,
  type ConsumerDefinition,
  type EventHandler,
  type ReceivedEvent,
} from '@workspace/kit';
import type { AuditDeps } from '../audit-deps.js';
import { appendEntries } from '../commands/append-entry.js';
import { draftFromEvent, type EntryDraft } from '../domain/entries.js';
import { domainTopics } from './domain-topics.js';

/** The most events of one partition appended in one transaction. */
export const INGEST_BATCH_SIZE = 500;

/**
 * The audit trail's ingest: one consumer group reading every module's `<service>.events.v1` and appending each event,
 * whatever its type, as an entry of its tenant's chain. It runs in the kit's batch mode: a run of a partition's
 * events (up to INGEST_BATCH_SIZE) is appended in one transaction, each tenant's events in their order under one
 * take of its head, with all their inbox rows and audit.v1 outbox records, and the offsets move only after the
 * commit. The inbox makes a repeated delivery change nothing; a failing append throws, so the kit retries the whole
 * run (with backoff) and the partition waits: nothing is dropped or skipped.
 *
 * AUDIT_INGEST_CONCURRENCY partitions are handled at once. One tenant's events reach several partitions (the key is
 * tenant and aggregate), so two runs may carry the same tenant: each takes the tenant's head row lock first
 * (`EntriesStore.lockHead`), so the second waits for the first to commit and then chains from its last entry (each
 * statement of a READ COMMITTED transaction sees what committed before it). Runs of different tenants lock
 * different heads and append side by side; a run of several tenants takes their heads in tenant order, so two runs
 * never wait on each other in a cycle.
 */
export function moduleEventsConsumer(deps: AuditDeps): ConsumerDefinition {
  const topics = domainTopics();
  const draft = (event: ReceivedEvent): EntryDraft =>
    draftFromEvent(
      {
        id: event.id,
        type: event.type,
        source: event.source,
        time: event.time,
        ...(event.subject === undefined ? {} : { subject: event.subject }),
        module: topics[event.topic] ?? event.topic.split('.')[0] ?? event.topic,
        data: event.data,
      },
      maskSensitiveIdentifiers,
    );
  const appendByTenant = async (events: ReceivedEvent[], trx: Parameters<BatchEventHandler>[1]) => {
    const byTenant = new Map<string, EntryDraft[]>();
    for (const event of events) {
      const drafts = byTenant.get(event.tenantId) ?? [];
      drafts.push(draft(event));
      byTenant.set(event.tenantId, drafts);
    }
    // Heads taken in tenant order, so two transactions holding several tenants' heads never wait on each other.
    for (const tenantId of [...byTenant.keys()].sort()) {
      await setTransactionTenant(trx, tenantId);
      await appendEntries(deps, trx, tenantId, byTenant.get(tenantId) ?? []);
    }
  };
  const handle: EventHandler = (event, trx) => appendByTenant([event], trx);
  // Every type, today's and those a module adds later: the kit looks the handler up by the event's type.
  const handlers = new Proxy({} as Record<string, EventHandler>, {
    get: (_target, type) => (typeof type === 'string' ? handle : undefined),
  });
  return {
    groupId: deps.config.AUDIT_CONSUMER_GROUP,
    topics,
    fromBeginning: deps.config.AUDIT_FROM_BEGINNING,
    handlers,
    batchHandler: appendByTenant,
    maxBatchSize: INGEST_BATCH_SIZE,
    partitionsConsumedConcurrently: deps.config.AUDIT_INGEST_CONCURRENCY,
  };
}
