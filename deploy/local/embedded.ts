// The embedded default (`make up`): the dev OIDC provider and every service that exists, in this one process, on one
// in-process event bus, against the PostgreSQL and MinIO that up.sh started. Each service gets its own schema and
// roles, as in full mode. The demo tenant is seeded on first start; data lives under .data/ and survives restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  identityConfigSchema,
  identityService,
  seededSubject,
  seedTenant,
  type TenantSeed,
} from '@workspace/identity';
import { bffConfigSchema, startBff } from '@workspace/bff';
import { cisConfigSchema, cisService } from '@workspace/cis';
import {
  NotificationClient,
  notificationConfigSchema,
  startNotificationService,
  startSmtpSink,
} from '@workspace/notification';
import { createLogger, MemoryBus, provisionServiceSchema, startService } from '@workspace/kit';
import { fileURLToPath } from 'node:url';
import { startDevIdp } from './dev-idp.js';

const PORTS = { bff: 8080, identity: 8081, cis: 8082, notification: 8083, idp: 8090, smtp: 1025, mail: 8025 };
const PUBLIC_URL = `http://localhost:${PORTS.bff}`;
const stateDir = process.env.WORKSPACE_STATE ?? '.data';

const logger = createLogger({ name: 'embedded', level: process.env.LOG_LEVEL ?? 'info' });
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:15432/postgres';

/** Secrets of this local installation: made once, kept under .data/ (never in the repo), reused on restart. */
interface LocalSecrets {
  encryptionKeys: string;
  internalToken: string;
  oidcClientSecret: string;
  sessionSecret: string;
  dbPassword: string;
  cisEncryptionKeys: string;
  notificationToken: string;
}

function localSecrets(): LocalSecrets {
  const file = join(stateDir, 'local-secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  // Secrets added by a later version are made once and written back; existing ones never change.
  const secrets: LocalSecrets = {
    encryptionKeys: kept.encryptionKeys ?? `local1:${randomBytes(32).toString('base64')}`,
    internalToken: kept.internalToken ?? randomBytes(32).toString('hex'),
    oidcClientSecret: kept.oidcClientSecret ?? randomBytes(24).toString('hex'),
    sessionSecret: kept.sessionSecret ?? randomBytes(32).toString('hex'),
    dbPassword: kept.dbPassword ?? randomBytes(16).toString('hex'),
    cisEncryptionKeys: kept.cisEncryptionKeys ?? `local1:${randomBytes(32).toString('base64')}`,
    notificationToken: kept.notificationToken ?? randomBytes(32).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

const secrets = localSecrets();
const seed = JSON.parse(readFileSync(new URL('./seed/demo.json', import.meta.url), 'utf8')) as TenantSeed & {
  password: string;
};

const idp = await startDevIdp({
  port: PORTS.idp,
  clients: [
    {
      clientId: 'workspace',
      clientSecret: secrets.oidcClientSecret,
      redirectUris: [`${PUBLIC_URL}/api/auth/callback`],
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
const started: { name: string; shutdown: (reason: string) => Promise<void> }[] = [];

const identityRoles = await provisionServiceSchema(adminUrl, {
  schema: 'identity',
  role: 'svc_identity',
  password: secrets.dbPassword,
  ownerPassword: secrets.dbPassword,
});
const identityConfig = identityConfigSchema.parse({
  ...process.env,
  PORT: String(PORTS.identity),
  BUS: 'memory',
  DATABASE_URL: identityRoles.databaseUrl,
  DATABASE_MIGRATION_URL: identityRoles.migrationUrl,
  IDENTITY_ENCRYPTION_KEYS: secrets.encryptionKeys,
  INTERNAL_API_TOKEN: secrets.internalToken,
  OIDC_ISSUER_URL: idp.issuer,
  OIDC_CLIENT_ID: 'workspace',
  OIDC_CLIENT_SECRET: secrets.oidcClientSecret,
  OIDC_ALLOW_HTTP: 'true',
  PORTAL_LOGIN_URL: `${PUBLIC_URL}/portal-login`,
});
const identity = identityService(identityConfig);
started.push({
  name: 'identity',
  ...(await startService(identity, identityConfig, { bus, logger: logger.child({ service: 'identity' }) })),
});
const seeded = await seedTenant(identity.context(), seed);
if (seeded.created) logger.info({ tenant: seed.tenant.id }, 'seeded the demo tenant');

// Email: a real local SMTP server that keeps what it receives (read it at http://localhost:8025/messages).
const sink = await startSmtpSink({ smtpPort: PORTS.smtp, httpPort: PORTS.mail });
started.push({ name: 'smtp-sink', shutdown: () => sink.close() });
const notificationRoles = await provisionServiceSchema(adminUrl, {
  schema: 'notification',
  role: 'svc_notification',
  password: secrets.dbPassword,
  ownerPassword: secrets.dbPassword,
});
const notificationConfig = notificationConfigSchema.parse({
  ...process.env,
  PORT: String(PORTS.notification),
  BUS: 'memory',
  DATABASE_URL: notificationRoles.databaseUrl,
  DATABASE_MIGRATION_URL: notificationRoles.migrationUrl,
  INTERNAL_API_TOKEN: secrets.notificationToken,
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(PORTS.smtp),
  MAIL_FROM: 'Workspace <no-reply@workspace.local>',
});
started.push({
  name: 'notification',
  ...(await startNotificationService(notificationConfig, {
    bus,
    logger: logger.child({ service: 'notification' }),
  })),
});

const cisRoles = await provisionServiceSchema(adminUrl, {
  schema: 'cis',
  extensions: ['pg_trgm'],
  role: 'svc_cis',
  password: secrets.dbPassword,
  ownerPassword: secrets.dbPassword,
});
const cisConfig = cisConfigSchema.parse({
  ...process.env,
  PORT: String(PORTS.cis),
  BUS: 'memory',
  DATABASE_URL: cisRoles.databaseUrl,
  DATABASE_MIGRATION_URL: cisRoles.migrationUrl,
  JWKS_URL: `http://localhost:${PORTS.identity}/.well-known/jwks.json`,
  CIS_ENCRYPTION_KEYS: secrets.cisEncryptionKeys,
  IDENTITY_URL: `http://localhost:${PORTS.identity}`,
  NOTIFICATION_URL: `http://localhost:${PORTS.notification}`,
  NOTIFICATION_TOKEN: secrets.notificationToken,
  // A local installation: 'Unlock (Testing)' on submitted returns is available.
  CIS_TESTING_TOOLS: process.env.CIS_TESTING_TOOLS ?? 'true',
});
const cisMailer = new NotificationClient({
  baseUrl: cisConfig.NOTIFICATION_URL,
  internalToken: secrets.notificationToken,
});
started.push({
  name: 'cis',
  ...(await startService(cisService(cisConfig, cisMailer), cisConfig, {
    bus,
    logger: logger.child({ service: 'cis' }),
  })),
});

const bffConfig = bffConfigSchema.parse({
  ...process.env,
  PORT: String(PORTS.bff),
  IDENTITY_URL: `http://localhost:${PORTS.identity}`,
  INTERNAL_API_TOKEN: secrets.internalToken,
  PUBLIC_URL,
  SESSION_SECRET: secrets.sessionSecret,
  STATIC_DIR: fileURLToPath(new URL('../../web/dist', import.meta.url)),
  DEFAULT_TENANT: seed.tenant.id,
  CIS_URL: `http://localhost:${PORTS.cis}`,
});
started.push({ name: 'bff', ...(await startBff(bffConfig, { logger: logger.child({ service: 'bff' }) })) });

const lines = [
  `Workspace is running on its embedded default: open ${PUBLIC_URL}`,
  `  identity          http://localhost:${PORTS.identity}   (internal; OpenAPI at /openapi.json)`,
  `  cis               http://localhost:${PORTS.cis}   (internal; OpenAPI at /openapi.json)`,
  `  notification      http://localhost:${PORTS.notification}   (internal)`,
  `  email (SMTP sink) smtp://localhost:${PORTS.smtp}, messages at ${sink.httpUrl}/messages`,
  `  dev OIDC provider ${idp.issuer}`,
  `  PostgreSQL        ${adminUrl}`,
  `  MinIO             ${process.env.MINIO_ENDPOINT ?? ''}`,
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
  for (const service of started.reverse()) await service.shutdown(signal);
  await bus.close();
  await idp.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
