import type { ApiRouter, Clock, ConsumerDefinition, ServiceDeps } from '@workspace/kit';
import { IdentityClient } from './clients/identity.js';
import type { NotificationConfig } from './config.js';
import { inAppConsumer } from './events/inapp.consumer.js';
import { notificationsRoutes } from './http/notifications.routes.js';
import { NotificationChangeHub } from './workers/notification-changes.js';

/** In-app notifications' share of the service (docs/notifications.md): the bell's API, its stream, the consumer. */
export interface InAppParts {
  hub: NotificationChangeHub;
  routes: { basePath: string; api: ApiRouter }[];
  consumers: ConsumerDefinition[];
}

export function inAppParts(
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
