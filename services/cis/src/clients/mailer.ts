import type { NotificationClient } from '@workspace/notification';

/** What the cis service needs of the notification service: its client's send. */
export type Mailer = Pick<NotificationClient, 'send'>;
