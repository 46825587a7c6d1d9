import { randomBytes } from 'node:crypto';
import {
  provisionServiceSchema,
  startService,
  type ServiceDatabaseRoles,
  type StartedService,
} from '@workspace/kit';
import { createTestDatabase, serviceTestEnv, type TestDatabase } from '@workspace/kit/testing';
import { notificationConfigSchema, type NotificationConfig } from '../src/config.js';
import { notificationService, type NotificationService } from '../src/service.js';
import { SmtpSinkClient } from '../src/dev-sink/sink-client.js';
import { startSmtpSink, type RunningSmtpSink } from '../src/dev-sink/sink.js';

export const INTERNAL_TOKEN = randomBytes(24).toString('hex');

export interface NotificationHarness {
  database: TestDatabase;
  sink: RunningSmtpSink;
  sinkClient: SmtpSinkClient;
  service: StartedService<NotificationConfig>;
  definition: NotificationService;
  config: NotificationConfig;
  baseUrl: string;
  stop(): Promise<void>;
}

/** notification's schema and roles in a test database (the names its migrations and deployments use). */
export function provisionNotificationSchema(adminUrl: string) {
  return provisionServiceSchema(adminUrl, {
    schema: 'notification',
    role: 'svc_notification',
    password: 'notification-test',
    ownerPassword: 'notification-owner-test',
  });
}

/**
 * The settings notification needs in a test besides the database: the in-process SMTP sink (plain SMTP, so TLS is
 * not required of it) and a fresh content key.
 */
export function notificationTestEnv(sink: { host: string; smtpPort: number }): Record<string, string> {
  return {
    SMTP_HOST: sink.host,
    SMTP_PORT: String(sink.smtpPort),
    SMTP_REQUIRE_TLS: 'false',
    NOTIFICATION_ENCRYPTION_KEYS: `n1:${randomBytes(32).toString('base64')}`,
  };
}

export interface HarnessOptions {
  /** Runs on the provisioned, still empty database before the service starts (and migrates it). */
  beforeStart?(roles: ServiceDatabaseRoles, database: TestDatabase): Promise<void>;
}

/** Real PostgreSQL and Kafka, the real SMTP sink in-process, notification with a short retry schedule. */
export async function startNotificationHarness(
  env: Record<string, string> = {},
  options: HarnessOptions = {},
): Promise<NotificationHarness> {
  const database = await createTestDatabase('notification');
  const roles = await provisionNotificationSchema(database.adminUrl);
  await options.beforeStart?.(roles, database);
  const sink = await startSmtpSink();
  const config = notificationConfigSchema.parse({
    ...serviceTestEnv(roles),
    ...notificationTestEnv(sink),
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    SMTP_TIMEOUT_MS: '5000',
    DELIVERY_BACKOFF_MS: '300,600',
    DELIVERY_MAX_ATTEMPTS: '3',
    DELIVERY_POLL_INTERVAL_MS: '100',
    ...env,
  });
  const definition = notificationService(config);
  const service = await startService(definition, config, { relayPollIntervalMs: 200 });
  return {
    database,
    sink,
    sinkClient: new SmtpSinkClient(sink.httpUrl),
    service,
    definition,
    config,
    baseUrl: `http://127.0.0.1:${service.port}`,
    stop: async () => {
      await service.shutdown();
      await sink.close();
      await database.drop();
    },
  };
}

/** The fields the tests read from answers (success bodies and problem documents). */
export interface ResponseBody {
  id: string;
  status: string;
  delivered?: boolean;
  error?: string;
  code?: string;
  detail?: string;
  errors?: { field: string; message: string }[];
  [key: string]: unknown;
}

export async function call(
  harness: NotificationHarness,
  method: string,
  path: string,
  body?: unknown,
  /** null: send no token. */
  token: string | null = INTERNAL_TOKEN,
): Promise<{ status: number; body: ResponseBody }> {
  const res = await fetch(`${harness.baseUrl}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { 'x-internal-token': token }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as ResponseBody) : ({} as ResponseBody) };
}
