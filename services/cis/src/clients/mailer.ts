/** What the cis service needs of the notification service (its NotificationClient satisfies it). */
export interface Mailer {
  send(input: {
    tenantId: string;
    to: string | string[];
    replyTo?: string;
    subject: string;
    text: string;
    html?: string;
    attachments?: { filename: string; contentType: string; contentBase64: string }[];
    idempotencyKey?: string;
    category?: string;
  }): Promise<{ id: string; status: string; delivered: boolean; error?: string }>;
}
