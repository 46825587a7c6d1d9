import { baseConfigSchema, FieldCipher } from '@workspace/kit';
import { z } from 'zod';
import { isDomainName, isEmailAddress, parseMailbox } from './domain/addresses.js';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const millisecondsList = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'Must be a comma-separated list of milliseconds, e.g. 30000,120000,600000')
  .transform((value) => value.split(',').map(Number));

export const notificationConfigSchema = baseConfigSchema
  .extend({
    /** Callers are other services (cis, identity, the bff): they send this token in `x-internal-token`. */
    INTERNAL_API_TOKEN: z.string().min(32),
    SMTP_HOST: z.string().min(1).default('127.0.0.1'),
    SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
    /** TLS from the first byte (port 465); otherwise the connection is upgraded with STARTTLS. */
    SMTP_SECURE: booleanFromEnv.default(false),
    /**
     * Without SMTP_SECURE: refuse to send unless the server upgrades the connection with STARTTLS, so a relay (or
     * someone in between) that does not offer it never gets a message in clear. Off only for a local sink.
     */
    SMTP_REQUIRE_TLS: booleanFromEnv.default(true),
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASSWORD: z.string().min(1).optional(),
    /** Refuse a server whose certificate does not verify. Off only for a local relay with a self-signed one. */
    SMTP_TLS_REJECT_UNAUTHORIZED: booleanFromEnv.default(true),
    /** Connection, greeting and each command's socket timeout, and the limit of one whole attempt. */
    SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    MAIL_FROM: z
      .string()
      .default('Workspace <no-reply@workspace.local>')
      .refine((value) => parseMailbox(value) !== undefined, 'Must be an address or "Name <address>"'),
    /**
     * Comma-separated domains set up to send through the relay (SPF and DKIM in place): an e-mail asking for a From
     * address on one of them is sent from it; any other is sent from MAIL_FROM's address with the name asked for,
     * the address asked for as its Reply-To. Empty: every e-mail is sent from MAIL_FROM's address.
     */
    MAIL_SENDING_DOMAINS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim().toLowerCase())
          .filter((entry) => entry !== ''),
      )
      .refine((domains) => domains.every(isDomainName), {
        message: 'Must be a comma-separated list of domain names, e.g. example.com,mail.example.org',
      }),
    /** Where the public site's project requests are e-mailed (docs/site.md): the sales team's inbox. */
    SALES_INBOX: z
      .string()
      .trim()
      .default('sales@workspace.local')
      .refine(isEmailAddress, 'Must be an e-mail address such as sales@example.com'),
    /** Waits before each retry: the n-th retry waits the n-th value (the last one repeats). */
    DELIVERY_BACKOFF_MS: millisecondsList.default([30_000, 120_000, 600_000, 3_600_000, 21_600_000]),
    /** Attempts in all (the first included) before an e-mail is marked failed. */
    DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
    /** How often the retry worker looks for due e-mails (it is also woken when one is queued here). */
    DELIVERY_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(5_000),
    /** E-mails one replica's worker sends at the same time. */
    DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(4),
    /**
     * `kid:base64key[,kid:base64key...]`: the FieldCipher keys that seal an e-mail's subject, bodies and attachments
     * while it waits to be sent. The first seals; every listed key opens.
     */
    NOTIFICATION_ENCRYPTION_KEYS: z
      .string()
      .min(10)
      .superRefine((spec, ctx) => {
        try {
          FieldCipher.fromConfig(spec);
        } catch (error) {
          // FieldCipher's messages name the key id, never the key.
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
        }
      }),
    /** Days an e-mail's record (recipients, status, attempts, times; never its content) is kept after it is final. */
    EMAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** How often the retention clean-up runs (every replica; each round deletes what has expired). */
    EMAIL_RETENTION_INTERVAL_MS: z.coerce.number().int().min(1_000).default(3_600_000),
    /**
     * identity's base URL: who holds a scope (the users told of a portal invoice to approve). In-app notifications
     * from the domain events (docs/notifications.md) are made only when it is set, with IDENTITY_TOKEN.
     */
    IDENTITY_URL: z.url().optional(),
    /** identity's INTERNAL_API_TOKEN (its internal routes), sent as x-internal-token. */
    IDENTITY_TOKEN: z.string().min(32).optional(),
    /** The consumer group making in-app notifications, one for every replica (must start with notification-: the ACL). */
    INAPP_CONSUMER_GROUP: z.string().min(1).default('notification-inapp'),
    /** A new group first reads what the topics still retain (true), or only what comes after it joins (false). */
    INAPP_FROM_BEGINNING: booleanFromEnv.default(false),
  })
  .refine((config) => (config.SMTP_USER === undefined) === (config.SMTP_PASSWORD === undefined), {
    message: 'SMTP_USER and SMTP_PASSWORD are set together or not at all',
    path: ['SMTP_PASSWORD'],
  })
  .refine((config) => (config.IDENTITY_URL === undefined) === (config.IDENTITY_TOKEN === undefined), {
    message: 'IDENTITY_URL and IDENTITY_TOKEN are set together or not at all',
    path: ['IDENTITY_TOKEN'],
  })
  .refine((config) => config.SMTP_SECURE || config.SMTP_REQUIRE_TLS || config.SMTP_USER === undefined, {
    message: 'SMTP_REQUIRE_TLS=false with SMTP_USER would send the SMTP password in clear: use TLS',
    path: ['SMTP_REQUIRE_TLS'],
  });

export type NotificationConfig = z.infer<typeof notificationConfigSchema>;
