import { NotificationRequestError, type NotificationClient } from '@workspace/notification';
import type { SettingsRecord } from '../db/settings.store.js';

/**
 * What the cis service needs of the notification service: its client's send, its dead letters (ADR 0052), and their
 * resend (docs/notifications.md "Resending a dead letter").
 */
export type Mailer = Pick<NotificationClient, 'send' | 'deadLetters' | 'resendDeadLetter'>;

/** True when the notification service refused an e-mail (4xx); anything else thrown means it was not reachable. */
export function mailRefused(error: unknown): boolean {
  return error instanceof NotificationRequestError;
}

/**
 * The sender of a contractor's e-mails to its subcontractors, from the CIS settings: the company name as the name
 * people see, 'Statement email from' as the address to send from and 'Reply-to email' where replies go. The
 * notification service sends from that address only on a domain set up to send; otherwise from the platform's
 * address with this name, the address as its Reply-To (ADR 0038).
 */
export function contractorSender(
  settings: Pick<SettingsRecord, 'companyName' | 'emailFrom' | 'emailReplyTo'>,
  tenantName: string,
): { fromName: string; fromAddress?: string; replyTo?: string } {
  return {
    fromName: settings.companyName.trim() || tenantName,
    ...(settings.emailFrom.trim() ? { fromAddress: settings.emailFrom.trim() } : {}),
    ...(settings.emailReplyTo.trim() ? { replyTo: settings.emailReplyTo.trim() } : {}),
  };
}
