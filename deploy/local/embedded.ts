// The embedded default: every service that exists, in this one process, on one in-process event bus, against the
// PostgreSQL and MinIO that up.sh started. Each service gets its own schema and role, as in full mode.
import {
  baseConfigSchema,
  createLogger,
  MemoryBus,
  provisionServiceSchema,
  startService,
  type BaseConfig,
  type ServiceDefinition,
  type StartedService,
} from '@workspace/kit';

interface EmbeddedService {
  definition: ServiceDefinition<BaseConfig>;
  port: number;
}

/** The services `make up` runs. Each issue that adds a service adds it here (identity and the bff come next). */
const services: EmbeddedService[] = [];

const logger = createLogger({ name: 'embedded', level: process.env.LOG_LEVEL ?? 'info' });
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:15432/postgres';
// Local-only credentials for the per-service roles of the embedded database (loopback, trust auth).
const localPassword = (name: string) => `${name}-local`;

const bus = new MemoryBus(logger.child({ component: 'bus' }));
const started: StartedService<BaseConfig>[] = [];
for (const { definition, port } of services) {
  const roles = await provisionServiceSchema(adminUrl, {
    schema: definition.schema,
    role: `svc_${definition.schema}`,
    password: localPassword(definition.name),
    ownerPassword: localPassword(`${definition.name}-owner`),
  });
  const config = baseConfigSchema.parse({
    ...process.env,
    PORT: String(port),
    BUS: 'memory',
    DATABASE_URL: roles.databaseUrl,
    DATABASE_MIGRATION_URL: roles.migrationUrl,
  });
  started.push(
    await startService(definition, config, { bus, logger: logger.child({ service: definition.name }) }),
  );
}

const lines = [
  'Workspace is running on its embedded default.',
  `  PostgreSQL  ${adminUrl}`,
  `  MinIO       ${process.env.MINIO_ENDPOINT ?? ''}`,
  ...started.map((service, i) => `  ${services[i]?.definition.name ?? ''}  http://localhost:${service.port}`),
  ...(started.length === 0
    ? [
        '  No services exist yet: identity, the bff and the staff app on http://localhost:8080 come with issue 4.',
      ]
    : []),
  'Data is kept under .data/. Press Ctrl-C to stop.',
];
process.stdout.write(`${lines.join('\n')}\n`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  for (const service of started.reverse()) await service.shutdown(signal);
  await bus.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
// Keep the process alive (and the infrastructure with it) until a signal arrives.
setInterval(() => undefined, 1 << 30);
