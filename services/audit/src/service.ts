import { SseHub, systemClock, type Clock, type ServiceDefinition } from '@workspace/kit';
import { auditEvents } from '@workspace/proto';
import { auditMigrations } from '../migrations/index.js';
import { createAuditDeps, type AuditDeps } from './audit-deps.js';
import { ENTRIES_CHANNEL } from './commands/append-entry.js';
import type { AuditConfig } from './config.js';
import { moduleEventsConsumer } from './events/module-events.consumer.js';
import { entryRoutes } from './http/entries.routes.js';
import { chainCheckMetrics, chainCheckWorker, checkpointWorker } from './workers/chain.workers.js';

export const AUDIT_SCHEMA = 'audit';

export interface AuditService extends ServiceDefinition<AuditConfig> {
  /** What the routes, commands, workers and the consumer work with (once started). */
  deps(): AuditDeps;
}

/** What a test may swap: the clock (the machine's by default). */
export interface AuditSeams {
  clock?: Clock;
}

/**
 * The audit trail (docs/audit.md, ADR 0051): every module's events as each tenant's append-only hash chain, published
 * on audit.v1, verified on a schedule, its head signed at intervals, and the query API for the staff screen.
 */
export function auditService(config: AuditConfig, seams: AuditSeams = {}): AuditService {
  let deps: AuditDeps | undefined;
  let hub: SseHub | undefined;
  const started = () => {
    if (!deps) throw new Error('audit has not started');
    return deps;
  };
  return {
    name: 'audit',
    schema: AUDIT_SCHEMA,
    migrations: auditMigrations,
    publishes: Object.values(auditEvents),
    deps: started,
    setup(service) {
      deps = createAuditDeps({
        db: service.db,
        config,
        logger: service.logger,
        source: service.source,
        clock: seams.clock ?? systemClock,
      });
      hub = new SseHub({
        name: 'audit-entries-stream',
        databaseUrl: config.DATABASE_URL,
        channel: ENTRIES_CHANNEL,
        logger: service.logger,
        parse: (payload) => {
          try {
            const { tenantId, event, entry } = JSON.parse(payload) as {
              tenantId: string;
              event: string;
              entry: unknown;
            };
            return { tenantId, event, data: JSON.stringify(entry) };
          } catch {
            return undefined;
          }
        },
      });
      return Promise.resolve();
    },
    routes: () => {
      if (!hub) throw new Error('audit has not started');
      return [{ basePath: '/v1', api: entryRoutes(started(), hub) }];
    },
    workers: (service) => {
      const ready = started();
      return [
        ...(hub ? [hub] : []),
        chainCheckWorker(ready, chainCheckMetrics(service.metrics)),
        checkpointWorker(ready),
      ];
    },
    consumers: () => [moduleEventsConsumer(started())],
  };
}
