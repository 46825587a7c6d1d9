import {
  startService,
  type ServiceDefinition,
  type StartedService,
  type StartOverrides,
} from '@workspace/kit';
import { notificationEvents } from '@workspace/proto';
import { notificationMigrations } from '../migrations/index.js';
import type { NotificationConfig } from './config.js';
import { smtpMailer, type Mailer } from './clients/smtp-mailer.js';
import { notificationRoutes } from './http/emails.routes.js';
import { DeliveryWorker } from './workers/delivery.worker.js';

export const NOTIFICATION_SCHEMA = 'notification';

export interface NotificationService extends ServiceDefinition<NotificationConfig> {
  /** The running service's delivery (after start): attempts and the retry worker. */
  delivery(): DeliveryWorker;
}

export interface NotificationServiceOptions {
  /** The SMTP side; by default nodemailer over SMTP as configured. */
  mailer?: Mailer;
}

export function notificationService(
  config: NotificationConfig,
  options: NotificationServiceOptions = {},
): NotificationService {
  let delivery: DeliveryWorker | undefined;
  const current = () => {
    if (!delivery) throw new Error('notification has not started');
    return delivery;
  };
  return {
    name: 'notification',
    schema: NOTIFICATION_SCHEMA,
    migrations: notificationMigrations,
    publishes: Object.values(notificationEvents),
    delivery: current,
    setup(deps) {
      delivery = new DeliveryWorker({
        db: deps.db,
        mailer: options.mailer ?? smtpMailer(config),
        logger: deps.logger.child({ component: 'delivery' }),
        source: deps.source,
        policy: { backoffMs: config.DELIVERY_BACKOFF_MS, maxAttempts: config.DELIVERY_MAX_ATTEMPTS },
        attemptTimeoutMs: config.SMTP_TIMEOUT_MS,
        pollIntervalMs: config.DELIVERY_POLL_INTERVAL_MS,
        concurrency: config.DELIVERY_CONCURRENCY,
        secrets: [config.SMTP_PASSWORD, config.SMTP_USER],
      });
      return Promise.resolve();
    },
    routes: (deps) => notificationRoutes({ db: deps.db, config, delivery: current() }),
    // The kit starts the retry worker with the service and stops it first at shutdown, before the pool closes.
    workers: () => [current()],
  };
}

/** `startService(notificationService(config, {mailer}), config, overrides)`, with the definition alongside. */
export async function startNotificationService(
  config: NotificationConfig,
  overrides: StartOverrides & NotificationServiceOptions = {},
): Promise<StartedService<NotificationConfig> & { definition: NotificationService }> {
  const { mailer, ...kitOverrides } = overrides;
  const definition = notificationService(config, mailer ? { mailer } : {});
  return { ...(await startService(definition, config, kitOverrides)), definition };
}
