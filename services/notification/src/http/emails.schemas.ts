import { z } from 'zod';
import { isEmailAddress } from '../domain/addresses.js';
import { base64DecodedSize, EMAIL_STATUSES, MAX_ATTACHMENT_BYTES } from '../domain/delivery.js';

/** The spec's tenant id pattern (as identity's). */
export const tenantId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,62}$/,
    'Tenant id must be lowercase letters, digits, _ or -, starting with a letter or digit',
  );

const emailAddress = z
  .string()
  .trim()
  .max(320)
  .refine(isEmailAddress, { message: 'Must be an e-mail address such as name@example.com' });

export const addressList = (max: number) =>
  z
    .union([emailAddress, z.array(emailAddress).min(1).max(max)])
    .transform((value) => (Array.isArray(value) ? value : [value]));

/** A header value: one line, so nothing can be smuggled into the message's headers. */
const headerText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !/[\r\n]/.test(value), { message: 'Must be a single line' });

const attachment = z.object({
  filename: headerText(255).refine((value) => !/[/\\]/.test(value), {
    message: 'Must be a file name without a path',
  }),
  contentType: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i,
      'Must be a media type such as application/pdf',
    ),
  contentBase64: z
    .string()
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Must be base64')
    .refine((value) => value.length % 4 === 0, { message: 'Must be base64' }),
});

export const sendEmailBody = z
  .object({
    tenantId,
    to: addressList(50),
    cc: addressList(50).optional(),
    replyTo: emailAddress.optional(),
    /** The sender's name as the recipient sees it (e.g. the contractor's); MAIL_FROM's name when absent. */
    fromName: headerText(200).optional(),
    /**
     * The address the caller would send from: the From only on a domain in MAIL_SENDING_DOMAINS; otherwise the
     * e-mail goes from MAIL_FROM's address with `fromName`, and this address is its Reply-To (unless `replyTo` is given).
     */
    fromAddress: emailAddress.optional(),
    subject: headerText(998),
    text: z.string().max(1_000_000),
    html: z.string().max(2_000_000).optional(),
    attachments: z.array(attachment).max(20).optional(),
    /** A repeat with the same key (per tenant) answers the first e-mail instead of sending another. */
    idempotencyKey: z.string().min(1).max(200).optional(),
    /** What kind of e-mail it is, for events and logs, e.g. portal-invite or cis-statement. */
    category: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'Category must be lowercase letters, digits, ., _ or -')
      .optional(),
    /**
     * The sender's own id of what the e-mail is about (e.g. the statement or the subcontractor): its dead letter, if
     * it cannot be delivered, is found by it (GET /v1/dead-letters).
     */
    reference: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9:._-]{0,199}$/, 'Reference must be letters, digits, :, ., _ or -')
      .optional(),
    /** Default true: try once before answering (up to SMTP_TIMEOUT_MS); false queues it for the worker. */
    waitForFirstAttempt: z.boolean().default(true),
  })
  .superRefine((body, ctx) => {
    const total = (body.attachments ?? []).reduce(
      (sum, item) => sum + base64DecodedSize(item.contentBase64),
      0,
    );
    if (total > MAX_ATTACHMENT_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['attachments'],
        message: `Attachments may add up to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB`,
      });
    }
  });

export type SendEmailBody = z.infer<typeof sendEmailBody>;

export const sendEmailResult = z.object({
  id: z.uuid(),
  status: z.enum(EMAIL_STATUSES),
  delivered: z.boolean(),
  /** Why the last attempt failed (no credentials), when it did. */
  error: z.string().optional(),
});

export const emailView = z.object({
  id: z.uuid(),
  tenantId: z.string(),
  status: z.enum(EMAIL_STATUSES),
  delivered: z.boolean(),
  attempts: z.number().int(),
  category: z.string().nullable(),
  reference: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  messageId: z.string(),
  sentAt: z.string().nullable(),
  /** When it failed for good (a dead letter), else null. */
  deadLetteredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
