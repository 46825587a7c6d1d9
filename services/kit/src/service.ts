import type { Express } from 'express';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import { Counter, Gauge } from 'prom-client';
import type { EventDefinition } from '@workspace/proto';
import type { z } from 'zod';
import { loadConfig, type BaseConfig } from './config.js';
import { createDatabase, pingDatabase } from './db/database.js';
import { migrateLatest, type Migration } from './db/migrations.js';
import type { EventBus, Subscription } from './events/bus.js';
import { eventSource } from './events/cloudevents.js';
import { startConsumer, type EventHandler } from './events/consumer.js';
import { KafkaBus } from './events/kafka-bus.js';
import { kafkaSecurity } from './events/kafka-security.js';
import { MemoryBus } from './events/memory-bus.js';
import { OutboxRelay } from './events/outbox.js';
import type { ApiRouter } from './http/api.js';
import { createServiceApp, type LifecycleState } from './http/app.js';
import { remoteJwks, type AuthOptions } from './http/auth.js';
import { createMetricsRegistry } from './http/metrics.js';
import { exitOnSignals, runService, type RunningService } from './lifecycle.js';
import { createLogger, type Logger } from './logger.js';
import { startTelemetry } from './telemetry.js';

export interface ServiceDeps<C extends BaseConfig = BaseConfig> {
  config: C;
  logger: Logger;
  metrics: Registry;
  db: Knex;
  bus: EventBus;
  /** CloudEvents `source` of this service's events. */
  source: string;
}

export interface ConsumerDefinition {
  groupId: string;
  /** Each topic the group reads, with the service that writes it: `{ 'cis.events.v1': 'cis' }` (ADR 0034). */
  topics: Record<string, string>;
  /** Default true: a new group reads what the topics retain. */
  fromBeginning?: boolean;
  handlers: Record<string, EventHandler>;
}

/** Background work of a service (job workers, retry loops): started with it and stopped first on shutdown. */
export interface BackgroundWorker {
  name: string;
  start(): void;
  /** Finishes or abandons the current item (it stays claimable) and resolves when the worker is idle. */
  stop(): Promise<void>;
}

export interface ServiceDefinition<C extends BaseConfig> {
  name: string;
  /** PostgreSQL schema (and role) the service owns. */
  schema: string;
  migrations: Migration[];
  /** The event types it records in its outbox; their topics are created (if missing) at start. */
  publishes: EventDefinition[];
  /** Runs once the database is migrated and the bus exists, before routes and consumers are built. */
  setup?(deps: ServiceDeps<C>): Promise<void>;
  /** Keys to verify access tokens with, when the service has its own (identity); otherwise JWKS_URL. */
  authKeys?(): AuthOptions['keys'];
  routes(deps: ServiceDeps<C>): { basePath: string; api: ApiRouter }[];
  consumers?(deps: ServiceDeps<C>): ConsumerDefinition[];
  workers?(deps: ServiceDeps<C>): BackgroundWorker[];
  /** Largest JSON body accepted (express syntax, e.g. '16mb'); default 1mb. */
  bodyLimit?: string;
}

export interface StartOverrides {
  /** The shared in-process bus when several services run in one process. */
  bus?: EventBus;
  /** Token keys (tests use a local JWKS); otherwise JWKS_URL. */
  keys?: AuthOptions['keys'];
  logger?: Logger;
  relayPollIntervalMs?: number;
}

export interface StartedService<C extends BaseConfig> extends RunningService {
  app: Express;
  deps: ServiceDeps<C>;
  relay: OutboxRelay;
}

export function createBus(
  clientId: string,
  config: BaseConfig,
  logger: Logger,
  metrics?: Registry,
): EventBus {
  if (config.BUS === 'memory') return new MemoryBus(logger);
  return new KafkaBus({
    clientId,
    brokers: config.KAFKA_BROKERS.split(',').map((broker) => broker.trim()),
    logger,
    partitions: config.KAFKA_TOPIC_PARTITIONS,
    replicationFactor: config.KAFKA_REPLICATION_FACTOR,
    security: kafkaSecurity(config),
    ...(metrics
      ? {
          consumerLag: new Gauge({
            name: 'kafka_consumer_lag',
            help: 'Messages behind the partition high watermark',
            labelNames: ['group', 'topic', 'partition'] as const,
            registers: [metrics],
          }),
        }
      : {}),
  });
}

/**
 * Assembles and starts a service: logger, metrics, database (migrated), bus (topics ensured), outbox relay,
 * consumers, the app, and a graceful shutdown that drains requests, flushes the relay and closes everything.
 */
export async function startService<C extends BaseConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  overrides: StartOverrides = {},
): Promise<StartedService<C>> {
  const logger = overrides.logger ?? createLogger({ name: definition.name, level: config.LOG_LEVEL });
  const metrics = createMetricsRegistry(definition.name);
  const migrator = createDatabase({
    url: config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL,
    schema: definition.schema,
    poolMax: 1,
    logger,
  });
  try {
    const applied = await migrateLatest(migrator, definition.schema, definition.migrations);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  } finally {
    await migrator.destroy();
  }
  const db = createDatabase({
    url: config.DATABASE_URL,
    schema: definition.schema,
    poolMax: config.DATABASE_POOL_MAX,
    logger,
  });
  const ownsBus = !overrides.bus;
  const bus = overrides.bus ?? createBus(definition.name, config, logger, metrics);
  const deps: ServiceDeps<C> = { config, logger, metrics, db, bus, source: eventSource(definition.name) };

  await definition.setup?.(deps);
  const consumers = definition.consumers?.(deps) ?? [];
  await bus.ensureTopics([
    ...new Set([
      ...definition.publishes.map((event) => event.topic),
      ...consumers.flatMap((consumer) => Object.keys(consumer.topics)),
    ]),
  ]);
  const relay = new OutboxRelay({
    db,
    databaseUrl: config.DATABASE_URL,
    schema: definition.schema,
    bus,
    logger: logger.child({ component: 'outbox-relay' }),
    metrics,
    ...(overrides.relayPollIntervalMs ? { pollIntervalMs: overrides.relayPollIntervalMs } : {}),
  });
  relay.start();
  const subscriptions: Subscription[] = [];
  const refused = new Counter({
    name: 'kafka_events_refused_total',
    help: 'Events skipped unapplied: malformed, or not from their topic producer (ADR 0034)',
    labelNames: ['group', 'topic', 'reason'] as const,
    registers: [metrics],
  });
  for (const consumer of consumers) {
    subscriptions.push(await startConsumer({ db, bus, logger, refused, ...consumer }));
  }

  const workers = definition.workers?.(deps) ?? [];
  for (const worker of workers) worker.start();

  const keys =
    overrides.keys ?? definition.authKeys?.() ?? (config.JWKS_URL ? remoteJwks(config.JWKS_URL) : undefined);
  const lifecycle: LifecycleState = { draining: false };
  const app = createServiceApp({
    name: definition.name,
    logger,
    metrics,
    lifecycle,
    trustProxy: config.TRUST_PROXY,
    ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
    ...(keys ? { auth: { keys, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE } } : {}),
    readiness: { database: () => pingDatabase(db), bus: () => bus.isReady() },
    apis: definition.routes(deps),
  });
  const running = await runService({
    app,
    port: config.PORT,
    logger,
    lifecycle,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    onShutdown: [
      async () => {
        await Promise.all(workers.map((worker) => worker.stop()));
      },
      // Flush the outbox first, while the consumers (and the bus) are still there to take it.
      () => relay.stop(),
      async () => {
        await Promise.all(subscriptions.map((subscription) => subscription.stop()));
      },
      async () => {
        if (ownsBus) await bus.close();
      },
      () => db.destroy(),
    ],
  });
  return { ...running, app, deps, relay };
}

/**
 * A service's `main`: reads its configuration from the environment, starts tracing before the service's modules
 * load (so their libraries are instrumented), starts the service and stops it on SIGTERM/SIGINT.
 * `load` imports the service's modules (dynamically, after tracing) and builds its definition.
 */
export async function runServiceMain<C extends BaseConfig>(options: {
  name: string;
  configSchema: z.ZodType<C>;
  load: (config: C, logger: Logger) => Promise<ServiceDefinition<C>>;
}): Promise<void> {
  const config = loadConfig(options.configSchema);
  const telemetry = await startTelemetry({
    serviceName: options.name,
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const logger = createLogger({ name: options.name, level: config.LOG_LEVEL });
  const service = await startService(await options.load(config, logger), config, { logger });
  exitOnSignals(
    {
      ...service,
      shutdown: async (reason) => {
        await service.shutdown(reason);
        await telemetry.shutdown();
      },
    },
    logger,
  );
}
