import { NotificationRequestError, type NotificationClient } from '@workspace/notification';

/** What the cis service needs of the notification service: its client's send. */
export type Mailer = Pick<NotificationClient, 'send'>;

/** True when the notification service refused an e-mail (4xx); anything else thrown means it was not reachable. */
export function mailRefused(error: unknown): boolean {
  return error instanceof NotificationRequestError;
}
