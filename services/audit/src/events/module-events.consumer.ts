import { maskSensitiveIdentifiers, type ConsumerDefinition, type EventHandler } from '@workspace/kit';
import type { AuditDeps } from '../audit-deps.js';
import { appendEntry } from '../commands/append-entry.js';
import { draftFromEvent } from '../domain/entries.js';
import { domainTopics } from './domain-topics.js';

/**
 * The audit trail's ingest: one consumer group reading every module's `<service>.events.v1` and appending each event,
 * whatever its type, as an entry of its tenant's chain. The kit's inbox makes a repeated delivery change nothing; a
 * failing append throws, so the kit retries the event (with backoff) and the partition waits: nothing is dropped or
 * skipped.
 */
export function moduleEventsConsumer(deps: AuditDeps): ConsumerDefinition {
  const topics = domainTopics();
  const handle: EventHandler = async (event, trx) => {
    const module = topics[event.topic] ?? event.topic.split('.')[0] ?? event.topic;
    await appendEntry(
      deps,
      trx,
      event.tenantId,
      draftFromEvent(
        {
          id: event.id,
          type: event.type,
          source: event.source,
          time: event.time,
          ...(event.subject === undefined ? {} : { subject: event.subject }),
          module,
          data: event.data,
        },
        maskSensitiveIdentifiers,
      ),
    );
  };
  // Every type, today's and those a module adds later: the kit looks the handler up by the event's type.
  const handlers = new Proxy({} as Record<string, EventHandler>, {
    get: (_target, type) => (typeof type === 'string' ? handle : undefined),
  });
  return {
    groupId: deps.config.AUDIT_CONSUMER_GROUP,
    topics,
    fromBeginning: deps.config.AUDIT_FROM_BEGINNING,
    handlers,
  };
}
