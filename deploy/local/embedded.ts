// The embedded default (`make up`): the dev OIDC provider and every service that exists, in this one process, on one
// in-process event bus, against the PostgreSQL and MinIO that up.sh started. Each service gets its own schema and
// roles, as in full mode. The demo tenant is seeded on first start; data lives under .data/ and survives restarts.
// The services are the workspace packages exporting an `./embedded` entry (its `embedded` descriptor says how the
// service starts here; @workspace/kit/embedding): a new service joins by existing; none is started by name here (the
// dev OIDC provider's accounts take identity's subject rule).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededSubject } from '@workspace/identity';
import { createLogger, MemoryBus, provisionServiceSchema } from '@workspace/kit';
import {
  embeddedServiceEnv,
  type EmbeddedContext,
  type EmbeddedRunning,
  type EmbeddedService,
} from '@workspace/kit/embedding';
import { startDevIdp } from './dev-idp.js';
import { workspacePackages } from './workspaces.mjs';

const IDP_PORT = 8090;
const stateDir = process.env.WORKSPACE_STATE ?? '.data';

const logger = createLogger({ name: 'embedded', level: process.env.LOG_LEVEL ?? 'info' });
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:15432/postgres';

/** Every embedded descriptor, in an order where each comes after the services it names in `after`. */
async function embeddedServices(): Promise<EmbeddedService[]> {
  const found: EmbeddedService[] = [];
  for (const { manifest } of workspacePackages()) {
    if (!manifest.exports?.['./embedded']) continue;
    const entry = (await import(`${manifest.name}/embedded`)) as { embedded?: EmbeddedService };
    if (!entry.embedded) throw new Error(`${manifest.name}/embedded exports no \`embedded\` descriptor`);
    found.push(entry.embedded);
  }
  const ports = new Map<number, string>();
  for (const service of found) {
    const taken = ports.get(service.port);
    if (taken) throw new Error(`${service.name} and ${taken} both want port ${String(service.port)}`);
    ports.set(service.port, service.name);
  }
  const ordered: EmbeddedService[] = [];
  const visit = (service: EmbeddedService, path: string[]) => {
    if (ordered.includes(service)) return;
    if (path.includes(service.name))
      throw new Error(`embedded services wait for each other: ${path.join(' -> ')}`);
    for (const name of service.after ?? []) {
      const before = found.find((candidate) => candidate.name === name);
      if (!before) throw new Error(`${service.name} starts after ${name}, which is not an embedded service`);
      visit(before, [...path, service.name]);
    }
    ordered.push(service);
  };
  for (const service of found) visit(service, []);
  return ordered;
}

/** Secrets of this local installation: made once, kept under .data/ (never in the repo), reused on restart. */
function localSecrets() {
  const file = join(stateDir, 'local-secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const make = {
    token: () => randomBytes(32).toString('hex'),
    key: () => `local1:${randomBytes(32).toString('base64')}`,
  };
  // Secrets added by a later version are made once and written back; existing ones never change.
  return (name: string, kind: 'token' | 'key' = 'token', made: () => string = make[kind]): string => {
    kept[name] ??= made();
    writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
    return kept[name];
  };
}

const secret = localSecrets();
const services = await embeddedServices();
const publicService = services.find((service) => service.public);
if (!publicService) throw new Error('no embedded service is public (the bff says `public: true`)');
const urlOf = (name: string) => {
  const service = services.find((candidate) => candidate.name === name);
  if (!service) throw new Error(`no embedded service is called ${name}`);
  return `http://localhost:${String(service.port)}`;
};
const publicUrl = urlOf(publicService.name);
const seed = JSON.parse(readFileSync(new URL('./seed/demo.json', import.meta.url), 'utf8')) as {
  tenant: { id: string };
  users: { email: string; firstName: string; lastName: string }[];
  password: string;
};

const oidcClientSecret = secret('oidcClientSecret', 'token', () => randomBytes(24).toString('hex'));
const dbPassword = secret('dbPassword', 'token', () => randomBytes(16).toString('hex'));
const idp = await startDevIdp({
  port: IDP_PORT,
  clients: [
    {
      clientId: 'workspace',
      clientSecret: oidcClientSecret,
      redirectUris: [`${publicUrl}/api/auth/callback`],
      postLogoutRedirectUris: [`${publicUrl}/login`],
    },
  ],
  accounts: seed.users.map((user) => ({
    subject: seededSubject(seed.tenant.id, user.email),
    email: user.email,
    name: `${user.firstName} ${user.lastName}`,
    password: seed.password,
  })),
});

const bus = new MemoryBus(logger.child({ component: 'bus' }));
// Loopback only, unless the developer says otherwise (review L19): the local database trusts every connection.
const localEnv = { LISTEN_HOST: '127.0.0.1', ...process.env };
const context = (service: EmbeddedService): EmbeddedContext => ({
  env: localEnv,
  bus,
  logger: logger.child({ service: service.name }),
  publicUrl,
  urlOf,
  secret: (name, kind) => secret(name, kind),
  serviceEnv: async (options) =>
    embeddedServiceEnv({
      env: localEnv,
      port: service.port,
      roles: await provisionServiceSchema(adminUrl, {
        ...options,
        password: dbPassword,
        ownerPassword: dbPassword,
      }),
      identityUrl: urlOf('identity'),
    }),

  oidc: { issuer: idp.issuer, clientId: 'workspace', clientSecret: oidcClientSecret },
  demoTenant: seed,
  demoTenantId: seed.tenant.id,
  webDist: fileURLToPath(new URL('../../web/dist', import.meta.url)),
});

const started: { name: string; running: EmbeddedRunning }[] = [];
for (const service of services)
  started.push({ name: service.name, running: await service.start(context(service)) });

const column = (text: string) => text.padEnd(17);
const lines = [
  `Workspace is running on its embedded default: open ${publicUrl}`,
  ...services
    .filter((service) => !service.public)
    .map(
      (service) =>
        `  ${column(service.name)} ${urlOf(service.name)}${service.note ? `   (${service.note})` : ''}`,
    ),
  ...started.flatMap(({ running }) => (running.banner ?? []).map((line) => `  ${line}`)),
  `  ${column('dev OIDC provider')} ${idp.issuer}`,
  `  ${column('PostgreSQL')} ${adminUrl}`,
  `  ${column('MinIO')} ${process.env.MINIO_ENDPOINT ?? ''}`,
  `  Demo tenant '${seed.tenant.id}': sign in as ${seed.users.map((user) => user.email).join(', ')}`,
  `  with the password '${seed.password}'.`,
  'Data is kept under .data/. Press Ctrl-C to stop.',
];
process.stdout.write(`${lines.join('\n')}\n`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  for (const { running } of started.reverse()) await running.shutdown(signal);
  await bus.close();
  await idp.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
