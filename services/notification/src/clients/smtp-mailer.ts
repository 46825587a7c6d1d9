import { createTransport } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { NotificationConfig } from '../config.js';

export interface OutgoingAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface OutgoingEmail {
  from: string;
  to: string[];
  cc: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  messageId: string;
  attachments: OutgoingAttachment[];
}

/** Hands a message to an SMTP server. Resolves once the server has accepted it; rejects with its reply otherwise. */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
}

class AttemptTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`The SMTP server did not accept the message within ${ms} ms`);
    this.name = 'AttemptTimeout';
  }
}

/**
 * nodemailer's SMTP options from the environment. Without TLS from the first byte (SMTP_SECURE, port 465) the
 * connection must be upgraded with STARTTLS (`requireTLS`) unless SMTP_REQUIRE_TLS turns that off for a local sink:
 * STARTTLS only when the server offers it would let anyone in between strip the offer and read the mail.
 */
export function smtpTransportOptions(config: NotificationConfig): SMTPTransport.Options {
  const timeout = config.SMTP_TIMEOUT_MS;
  return {
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    requireTLS: !config.SMTP_SECURE && config.SMTP_REQUIRE_TLS,
    ...(config.SMTP_USER && config.SMTP_PASSWORD
      ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } }
      : {}),
    tls: { rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    // Content comes only from the request: never let a message pull in a local file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** nodemailer over SMTP, configured from the environment. One connection per message (no pool to go stale). */
export function smtpMailer(config: NotificationConfig): Mailer {
  const timeout = config.SMTP_TIMEOUT_MS;
  const transport = createTransport(smtpTransportOptions(config));
  return {
    async send(email) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          transport.sendMail({
            from: email.from,
            to: email.to,
            ...(email.cc.length > 0 ? { cc: email.cc } : {}),
            ...(email.replyTo ? { replyTo: email.replyTo } : {}),
            subject: email.subject,
            text: email.text,
            ...(email.html ? { html: email.html } : {}),
            messageId: email.messageId,
            attachments: email.attachments.map((attachment) => ({
              filename: attachment.filename,
              contentType: attachment.contentType,
              content: attachment.content,
            })),
          }),
          new Promise((_, reject) => {
            timer = setTimeout(() => {
              reject(new AttemptTimeout(timeout));
            }, timeout);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
