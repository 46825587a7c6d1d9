import {
  FieldCipher,
  startService,
  systemClock,
  type ApiRouter,
  type Clock,
  type ConsumerDefinition,
  type ServiceDefinition,
  type ServiceDeps,
  type StartedService,
  type StartOverrides,
} from '@workspace/kit';
import { notificationEvents } from '@workspace/proto';
import { notificationMigrations } from '../migrations/index.js';
import type { NotificationConfig } from './config.js';
import { smtpMailer, type Mailer } from './clients/smtp-mailer.js';
import { notificationRoutes } from './http/emails.routes.js';
import { deadLetterRoutes } from './http/dead-letters.routes.js';
import { projectRequestRoutes } from './http/project-requests.routes.js';
import { DeliveryWorker } from './workers/delivery.worker.js';
import { RetentionWorker } from './workers/retention.worker.js';
import { IdentityClient } from './clients/identity.js';
import { inAppConsumer } from './events/inapp.consumer.js';
import { notificationsRoutes } from './http/notifications.routes.js';
import { NotificationChangeHub } from './workers/notification-changes.js';

export const NOTIFICATION_SCHEMA = 'notification';

export interface NotificationService extends ServiceDefinition<NotificationConfig> {
  /** The running service's delivery (after start): attempts and the retry worker. */
  delivery(): DeliveryWorker;
  /** The running service's retention clean-up (after start). */
  retention(): RetentionWorker;
}

export interface NotificationServiceOptions {
  /** The SMTP side; by default nodemailer over SMTP as configured. */
  mailer?: Mailer;
  /** The clock in-app notifications are stamped with (tests); the machine's by default. */
  clock?: Clock;
}

export function notificationService(
  config: NotificationConfig,
  options: NotificationServiceOptions = {},
): NotificationService {
  const cipher = FieldCipher.fromConfig(config.NOTIFICATION_ENCRYPTION_KEYS);
  let workers: { delivery: DeliveryWorker; retention: RetentionWorker; inApp: InAppParts } | undefined;
  const started = () => {
    if (!workers) throw new Error('notification has not started');
    return workers;
  };
  const current = () => started().delivery;
  return {
    name: 'notification',
    schema: NOTIFICATION_SCHEMA,
    migrations: notificationMigrations,
    publishes: Object.values(notificationEvents),
    delivery: current,
    retention: () => started().retention,
    setup(deps) {
      const delivery = new DeliveryWorker({
        db: deps.db,
        mailer: options.mailer ?? smtpMailer(config),
        cipher,
        logger: deps.logger.child({ component: 'delivery' }),
        source: deps.source,
        policy: { backoffMs: config.DELIVERY_BACKOFF_MS, maxAttempts: config.DELIVERY_MAX_ATTEMPTS },
        attemptTimeoutMs: config.SMTP_TIMEOUT_MS,
        pollIntervalMs: config.DELIVERY_POLL_INTERVAL_MS,
        concurrency: config.DELIVERY_CONCURRENCY,
        secrets: [config.SMTP_PASSWORD, config.SMTP_USER],
      });
      const retention = new RetentionWorker({
        db: deps.db,
        cipher,
        logger: deps.logger.child({ component: 'retention' }),
        retentionDays: config.EMAIL_RETENTION_DAYS,
        intervalMs: config.EMAIL_RETENTION_INTERVAL_MS,
      });
      const inApp = inAppParts(config, deps, options.clock ?? systemClock);
      workers = { delivery, retention, inApp };
      return Promise.resolve();
    },
    routes: (deps) => [
      ...notificationRoutes({ db: deps.db, cipher, config, delivery: current() }),
      ...started().inApp.routes,
      ...deadLetterRoutes({ db: deps.db, cipher, config, source: deps.source, delivery: current() }),
      ...projectRequestRoutes({ db: deps.db, cipher, config, delivery: current() }),
    ],
    // The kit starts the workers with the service and stops them first at shutdown, before the pool closes.
    workers: () => [started().delivery, started().retention, started().inApp.hub],
    consumers: () => started().inApp.consumers,
  };
}

/** `startService(notificationService(config, {mailer}), config, overrides)`, with the definition alongside. */
export async function startNotificationService(
  config: NotificationConfig,
  overrides: StartOverrides & NotificationServiceOptions = {},
): Promise<StartedService<NotificationConfig> & { definition: NotificationService }> {
  const { mailer, clock, ...kitOverrides } = overrides;
  const definition = notificationService(config, {
    ...(mailer ? { mailer } : {}),
    ...(clock ? { clock } : {}),
  });
  return { ...(await startService(definition, config, kitOverrides)), definition };
}

/** In-app notifications' share of the service (docs/notifications.md): the bell's API, its stream, the consumer. */
interface InAppParts {
  hub: NotificationChangeHub;
  routes: { basePath: string; api: ApiRouter }[];
  consumers: ConsumerDefinition[];
}

function inAppParts(
  config: NotificationConfig,
  deps: ServiceDeps<NotificationConfig>,
  clock: Clock,
): InAppParts {
  const logger = deps.logger.child({ component: 'in-app' });
  const hub = new NotificationChangeHub(config.DATABASE_URL, logger);
  const { IDENTITY_URL, IDENTITY_TOKEN } = config;
  return {
    hub,
    routes: [{ basePath: '/v1', api: notificationsRoutes({ db: deps.db, clock }, hub) }],
    // The events are read only where identity can say who approves (IDENTITY_URL with its token).
    consumers:
      IDENTITY_URL && IDENTITY_TOKEN
        ? [
            inAppConsumer({
              clock,
              logger,
              identity: new IdentityClient(IDENTITY_URL, IDENTITY_TOKEN, logger),
              groupId: config.INAPP_CONSUMER_GROUP,
              fromBeginning: config.INAPP_FROM_BEGINNING,
            }),
          ]
        : [],
  };
}
