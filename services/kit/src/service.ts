import type { Express } from 'express';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import { Counter, Gauge } from 'prom-client';
import type { EventDefinition } from '@workspace/proto';
import { z } from 'zod';
import { baseConfigSchema, checkServingDatabaseConfig, loadConfig, type BaseConfig } from './config.js';
import { createDatabase, pingDatabase } from './db/database.js';
import { migrateLatest, pendingMigrations, type Migration } from './db/migrations.js';
import type { EventBus, Subscription } from './events/bus.js';
import { eventSource } from './events/cloudevents.js';
import { startConsumer, type BatchEventHandler, type EventHandler } from './events/consumer.js';
import { KafkaBus } from './events/kafka-bus.js';
import { kafkaSecurity } from './events/kafka-security.js';
import { MemoryBus } from './events/memory-bus.js';
import { OutboxRelay } from './events/outbox.js';
import type { ApiRouter } from './http/api.js';
import {
  createManagementApp,
  createServiceApp,
  type LifecycleState,
  type ManagementAppOptions,
  type ServiceAppOptions,
} from './http/app.js';
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
  /** Batch mode (optional): runs of a partition's events in one transaction (see `ConsumerOptions`). */
  batchHandler?: BatchEventHandler;
  maxBatchSize?: number;
  /** Partitions handled at once (default 1; see `ConsumerOptions`). */
  partitionsConsumedConcurrently?: number;
}

/** Background work of a service (job workers, retry loops): started with it and stopped first on shutdown. */
export interface BackgroundWorker {
  name: string;
  start(): void;
  /** Finishes or abandons the current item (it stays claimable) and resolves when the worker is idle. */
  stop(): Promise<void>;
}

/** A service's database schema and its migrations: all the migrate step needs (not the service's configuration). */
export interface ServiceSchema {
  /** PostgreSQL schema (and role) the service owns. */
  schema: string;
  migrations: Migration[];
}

export interface ServiceDefinition<C extends BaseConfig> extends ServiceSchema {
  name: string;
  /** The event types it records in its outbox; their topics are created (if missing) at start. */
  publishes: EventDefinition[];
  /** Runs once the database is migrated and the bus exists, before routes and consumers are built. */
  setup?(deps: ServiceDeps<C>): Promise<void>;
  /** Keys to verify access tokens with, when the service has its own (identity); otherwise JWKS_URL. */
  authKeys?(): AuthOptions['keys'];
  routes(deps: ServiceDeps<C>): { basePath: string; api: ApiRouter }[];
  consumers?(deps: ServiceDeps<C>): ConsumerDefinition[];
  workers?(deps: ServiceDeps<C>): BackgroundWorker[];
  /** The JSON body limit of routes that declare none (express syntax); default the kit's 256 kB. */
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
 * Applies the kit's and the service's pending migrations as `url`'s role (the schema owner) on a one-connection
 * pool, closed afterwards; returns the names applied.
 */
export async function migrateServiceSchema(
  target: ServiceSchema,
  url: string,
  logger: Logger,
): Promise<string[]> {
  const migrator = createDatabase({ url, schema: target.schema, poolMax: 1, logger });
  try {
    const applied = await migrateLatest(migrator, target.schema, target.migrations);
    if (applied.length > 0) logger.info({ schema: target.schema, applied }, 'migrations applied');
    return applied;
  } finally {
    await migrator.destroy();
  }
}

/**
 * Assembles and starts a service: logger, metrics, database, bus (topics ensured), outbox relay, consumers, the
 * app, and a graceful shutdown that drains requests, flushes the relay and closes everything. The process runs
 * as the runtime role (DATABASE_URL); it migrates first only with MIGRATE_AT_START (`make up`, tests). Otherwise
 * a schema behind this release's migrations starts nothing but a not-ready app (see `serveSchemaBehind`).
 */
export async function startService<C extends BaseConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  overrides: StartOverrides = {},
): Promise<StartedService<C>> {
  checkServingDatabaseConfig(config);
  const logger = overrides.logger ?? createLogger({ name: definition.name, level: config.LOG_LEVEL });
  const metrics = createMetricsRegistry(definition.name);
  if (config.MIGRATE_AT_START) {
    await migrateServiceSchema(definition, config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL, logger);
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
  const pending = await pendingMigrations(db, definition.schema, definition.migrations);
  if (pending.length > 0) return serveSchemaBehind(definition, deps, pending, ownsBus);

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
  const { app, running } = await serve(
    config,
    {
      name: definition.name,
      logger,
      metrics,
      readiness: { database: () => pingDatabase(db), bus: () => bus.isReady() },
      apis: definition.routes(deps),
    },
    {
      ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
      ...(keys ? { auth: { keys, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE } } : {}),
    },
    [
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
  );
  return { ...running, app, deps, relay };
}

/**
 * The service's app (its routes, or none) on PORT, and the operational endpoints on MANAGEMENT_PORT when it is set,
 * with the kit's graceful shutdown running `onShutdown` in order.
 */
async function serve(
  config: BaseConfig,
  operational: Omit<ManagementAppOptions, 'lifecycle'>,
  options: Pick<ServiceAppOptions, 'auth' | 'bodyLimit'>,
  onShutdown: (() => Promise<void>)[],
): Promise<{ app: Express; running: RunningService }> {
  const lifecycle: LifecycleState = { draining: false };
  const managed = { ...operational, lifecycle };
  const app = createServiceApp({
    ...managed,
    ...options,
    trustProxy: config.TRUST_PROXY,
    separateManagement: config.MANAGEMENT_PORT !== undefined,
  });
  const running = await runService({
    app,
    port: config.PORT,
    host: config.LISTEN_HOST,
    ...(config.MANAGEMENT_PORT === undefined
      ? {}
      : { management: { app: createManagementApp(managed), port: config.MANAGEMENT_PORT } }),
    logger: operational.logger,
    lifecycle,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    onShutdown,
  });
  return { app, running };
}

/**
 * The database is behind this release (the migrate step did not run): nothing that reads or writes tables starts
 * (no setup, relay, consumers, workers or API routes), so nothing half-works. The process answers `/healthz`, and
 * `/readyz` 503 with `schema: down`, and says what to do; it stays so until restarted after the migrate step.
 */
async function serveSchemaBehind<C extends BaseConfig>(
  definition: ServiceDefinition<C>,
  deps: ServiceDeps<C>,
  pending: string[],
  ownsBus: boolean,
): Promise<StartedService<C>> {
  const { config, logger, metrics, db, bus } = deps;
  logger.error(
    { schema: definition.schema, pending },
    `schema ${definition.schema} is behind this release (${pending.length} migration(s) not applied): run the ` +
      "migrate step as the schema owner (`node dist/main.js migrate`; the chart's migrate Job runs it before " +
      'install and upgrade), then restart. Not ready until then.',
  );
  // The probes ask the management port when there is one: it answers there too (healthy, not ready).
  const { app, running } = await serve(
    config,
    {
      name: definition.name,
      logger,
      metrics,
      readiness: { database: () => pingDatabase(db), schema: () => Promise.resolve(false) },
      apis: [],
    },
    {},
    [
      async () => {
        if (ownsBus) await bus.close();
      },
      () => db.destroy(),
    ],
  );
  const relay = new OutboxRelay({
    db,
    databaseUrl: config.DATABASE_URL,
    schema: definition.schema,
    bus,
    logger,
  });
  return { ...running, app, deps, relay };
}

const migrateConfigSchema = z.object({
  DATABASE_MIGRATION_URL: z.url({ error: "the migrate step needs the schema owner's URL" }),
  LOG_LEVEL: baseConfigSchema.shape.LOG_LEVEL,
});

/**
 * The migrate step (`node dist/main.js migrate`, the chart's migrate Job): applies the service's pending
 * migrations as the schema owner (DATABASE_MIGRATION_URL, the only setting it reads besides LOG_LEVEL) and returns
 * their names. Serving processes then run with the runtime role only.
 */
export async function runMigrateCommand(
  options: { name: string; schema: ServiceSchema },
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const config = loadConfig(migrateConfigSchema, env);
  const logger = createLogger({ name: options.name, level: config.LOG_LEVEL });
  const applied = await migrateServiceSchema(options.schema, config.DATABASE_MIGRATION_URL, logger);
  if (applied.length === 0) logger.info({ schema: options.schema.schema }, 'schema is current');
  return applied;
}

/**
 * A service's `main`: reads its configuration from the environment, starts tracing before the service's modules
 * load (so their libraries are instrumented), starts the service and stops it on SIGTERM/SIGINT.
 * `load` imports the service's modules (dynamically, after tracing) and builds its definition.
 * With the argument `migrate` it runs the migrate step instead (`schema` gives what to migrate) and exits.
 */
export async function runServiceMain<C extends BaseConfig>(
  options: {
    name: string;
    configSchema: z.ZodType<C>;
    schema: () => Promise<ServiceSchema>;
    load: (config: C, logger: Logger) => Promise<ServiceDefinition<C>>;
  },
  args: string[] = process.argv.slice(2),
): Promise<void> {
  const [command] = args;
  if (command === 'migrate') {
    await runMigrateCommand({ name: options.name, schema: await options.schema() });
    return;
  }
  if (command !== undefined) {
    throw new Error(
      `Unknown command "${command}": ${options.name} serves with no argument, or runs "migrate"`,
    );
  }
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
