import { smtpTransportOptions } from '../src/clients/smtp-mailer.js';
import { notificationConfigSchema } from '../src/config.js';
import { isEmailAddress, parseMailbox, recipientDomains } from '../src/domain/addresses.js';
import {
  base64DecodedSize,
  describeSmtpError,
  failureOutcome,
  isPermanentFailure,
  retryDelayMs,
} from '../src/domain/delivery.js';
import { sendEmailBody } from '../src/http/emails.schemas.js';

const policy = { backoffMs: [30_000, 120_000, 600_000], maxAttempts: 5 };
const noJitter = () => 0.5;

describe('retry delays', () => {
  it.each([
    [1, 30_000],
    [2, 120_000],
    [3, 600_000],
    [4, 600_000],
    [9, 600_000],
  ])('after attempt %i waits %i ms (the last step repeats)', (attempts, expected) => {
    expect(retryDelayMs(policy, attempts, noJitter)).toBe(expected);
  });

  it('jitters by at most 10 % either way', () => {
    expect(retryDelayMs(policy, 1, () => 0)).toBe(27_000);
    expect(retryDelayMs(policy, 1, () => 1)).toBe(33_000);
  });
});

describe('what a failed attempt leads to', () => {
  const now = new Date('2025-04-06T10:00:00Z');

  it('retries a temporary failure (4xx or no reply) after the scheduled wait', () => {
    expect(failureOutcome(policy, 1, 451, now, noJitter)).toEqual({
      status: 'retrying',
      nextAttemptAt: new Date('2025-04-06T10:00:30Z'),
    });
    expect(failureOutcome(policy, 2, undefined, now, noJitter)).toEqual({
      status: 'retrying',
      nextAttemptAt: new Date('2025-04-06T10:02:00Z'),
    });
  });

  it('gives up at once on a permanent (5xx) refusal', () => {
    expect(failureOutcome(policy, 1, 550, now, noJitter)).toEqual({ status: 'failed' });
    expect(isPermanentFailure(554)).toBe(true);
    expect(isPermanentFailure(421)).toBe(false);
    expect(isPermanentFailure(undefined)).toBe(false);
  });

  it('gives up when the attempts run out', () => {
    expect(failureOutcome(policy, 4, 451, now, noJitter).status).toBe('retrying');
    expect(failureOutcome(policy, 5, 451, now, noJitter)).toEqual({ status: 'failed' });
  });
});

describe('stored error descriptions', () => {
  it('keeps the code, reply code and first line', () => {
    const error = Object.assign(new Error('Message failed: 451 try again later\nsecond line'), {
      code: 'EMESSAGE',
      responseCode: 451,
    });
    expect(describeSmtpError(error)).toBe('EMESSAGE 451: Message failed: 451 try again later');
  });

  it('blanks the SMTP credentials and bounds the length', () => {
    const error = Object.assign(new Error(`Invalid login for mailer with s3cret-pass ${'x'.repeat(400)}`), {
      code: 'EAUTH',
    });
    const described = describeSmtpError(error, ['s3cret-pass', undefined]);
    expect(described).not.toContain('s3cret-pass');
    expect(described).toContain('[redacted]');
    expect(described.length).toBeLessThanOrEqual(300);
  });

  it('describes something that is not an Error', () => {
    expect(describeSmtpError('boom')).toBe('ERROR: the message could not be sent');
  });
});

describe('addresses', () => {
  it('parses a sender with or without a display name', () => {
    expect(parseMailbox('Workspace <no-reply@workspace.local>')).toEqual({
      name: 'Workspace',
      address: 'no-reply@workspace.local',
    });
    expect(parseMailbox('"Acme, Ltd" <a@acme.test>')).toEqual({ name: 'Acme, Ltd', address: 'a@acme.test' });
    expect(parseMailbox('a@acme.test')).toEqual({ address: 'a@acme.test' });
    expect(parseMailbox('not an address')).toBeUndefined();
  });

  it.each(['a@b.co', 'first.last+tag@sub.example.org'])('accepts %s', (value) => {
    expect(isEmailAddress(value)).toBe(true);
  });

  it.each(['a@b', 'a b@c.com', 'a@b.com,c@d.com', '<a@b.com>', 'a@@b.com', 'a@b.com\nBcc: x@y.com'])(
    'refuses %j',
    (value) => {
      expect(isEmailAddress(value)).toBe(false);
    },
  );

  it('lists the distinct recipient domains, lower case and sorted', () => {
    expect(recipientDomains(['x@B.test', 'y@a.test', 'z@b.test'])).toEqual(['a.test', 'b.test']);
  });
});

describe('base64 sizes', () => {
  it.each(['', 'a', 'ab', 'abc', 'hello world!'])('measures %j without decoding', (text) => {
    expect(base64DecodedSize(Buffer.from(text).toString('base64'))).toBe(Buffer.byteLength(text));
  });
});

describe('the send request', () => {
  const valid = { tenantId: 'demo', to: 'a@demo.test', subject: 'Hello', text: 'Hi' };

  it('takes one address or a list, and defaults to waiting for the first attempt', () => {
    const parsed = sendEmailBody.parse(valid);
    expect(parsed.to).toEqual(['a@demo.test']);
    expect(parsed.waitForFirstAttempt).toBe(true);
    expect(sendEmailBody.parse({ ...valid, to: ['a@demo.test', 'b@demo.test'] }).to).toHaveLength(2);
  });

  it('refuses a subject with a line break (header injection)', () => {
    const result = sendEmailBody.safeParse({ ...valid, subject: 'Hi\r\nBcc: x@evil.test' });
    expect(result.success).toBe(false);
  });

  it('refuses attachments above 10 MB in all', () => {
    const big = Buffer.alloc(6 * 1024 * 1024).toString('base64');
    const attachment = { filename: 'a.bin', contentType: 'application/octet-stream', contentBase64: big };
    const result = sendEmailBody.safeParse({ ...valid, attachments: [attachment, attachment] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['attachments']);
  });

  it('refuses an attachment name with a path', () => {
    const attachment = { filename: '../etc/passwd', contentType: 'text/plain', contentBase64: 'YQ==' };
    expect(sendEmailBody.safeParse({ ...valid, attachments: [attachment] }).success).toBe(false);
  });
});

describe('configuration', () => {
  const base = {
    DATABASE_URL: 'postgres://u:p@localhost/db',
    INTERNAL_API_TOKEN: 'x'.repeat(32),
    NOTIFICATION_ENCRYPTION_KEYS: `n1:${Buffer.alloc(32, 7).toString('base64')}`,
  };

  it("has defaults: the local sink's address, TLS required, records kept 30 days", () => {
    const config = notificationConfigSchema.parse(base);
    expect(config).toMatchObject({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: 1025,
      SMTP_SECURE: false,
      SMTP_REQUIRE_TLS: true,
      MAIL_FROM: 'Workspace <no-reply@workspace.local>',
      DELIVERY_BACKOFF_MS: [30_000, 120_000, 600_000, 3_600_000, 21_600_000],
      DELIVERY_MAX_ATTEMPTS: 6,
      EMAIL_RETENTION_DAYS: 30,
      EMAIL_RETENTION_INTERVAL_MS: 3_600_000,
    });
  });

  it('reads a backoff list and requires user and password together', () => {
    expect(
      notificationConfigSchema.parse({ ...base, DELIVERY_BACKOFF_MS: '100,200' }).DELIVERY_BACKOFF_MS,
    ).toEqual([100, 200]);
    expect(notificationConfigSchema.safeParse({ ...base, SMTP_USER: 'mailer' }).success).toBe(false);
    expect(notificationConfigSchema.safeParse({ ...base, MAIL_FROM: 'nobody' }).success).toBe(false);
  });

  it('requires the content keys, well formed, and names a bad key by its id only', () => {
    expect(
      notificationConfigSchema.safeParse({ ...base, NOTIFICATION_ENCRYPTION_KEYS: undefined }).success,
    ).toBe(false);
    const short = notificationConfigSchema.safeParse({
      ...base,
      NOTIFICATION_ENCRYPTION_KEYS: 'n2:c2hvcnRrZXk=',
    });
    expect(short.success).toBe(false);
    expect(JSON.stringify(short.error?.issues)).toContain('Encryption key n2 must be 32 bytes');
    expect(JSON.stringify(short.error?.issues)).not.toContain('c2hvcnRrZXk=');
  });

  it('keeps records 1 to 3650 days', () => {
    expect(notificationConfigSchema.parse({ ...base, EMAIL_RETENTION_DAYS: '7' }).EMAIL_RETENTION_DAYS).toBe(
      7,
    );
    expect(notificationConfigSchema.safeParse({ ...base, EMAIL_RETENTION_DAYS: '0' }).success).toBe(false);
    expect(notificationConfigSchema.safeParse({ ...base, EMAIL_RETENTION_DAYS: '3651' }).success).toBe(false);
  });

  it('refuses to send the SMTP password over a connection that may stay in clear', () => {
    const clear = { ...base, SMTP_USER: 'mailer', SMTP_PASSWORD: 'secret', SMTP_REQUIRE_TLS: 'false' };
    expect(notificationConfigSchema.safeParse(clear).success).toBe(false);
    expect(notificationConfigSchema.safeParse({ ...clear, SMTP_SECURE: 'true' }).success).toBe(true);
    expect(notificationConfigSchema.safeParse({ ...clear, SMTP_REQUIRE_TLS: 'true' }).success).toBe(true);
  });
});

describe('the SMTP transport', () => {
  const config = (env: Record<string, string>) =>
    notificationConfigSchema.parse({
      DATABASE_URL: 'postgres://u:p@localhost/db',
      INTERNAL_API_TOKEN: 'x'.repeat(32),
      NOTIFICATION_ENCRYPTION_KEYS: `n1:${Buffer.alloc(32, 7).toString('base64')}`,
      ...env,
    });

  it('requires STARTTLS on the submission port: no message goes out in clear when a relay does not offer it', () => {
    expect(smtpTransportOptions(config({ SMTP_HOST: 'smtp.example.com', SMTP_PORT: '587' }))).toMatchObject({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: true },
    });
  });

  it('speaks TLS from the first byte on port 465 (SMTP_SECURE), where STARTTLS does not apply', () => {
    expect(smtpTransportOptions(config({ SMTP_PORT: '465', SMTP_SECURE: 'true' }))).toMatchObject({
      port: 465,
      secure: true,
      requireTLS: false,
    });
  });

  it('sends in clear only when SMTP_REQUIRE_TLS is turned off (the local sink)', () => {
    expect(smtpTransportOptions(config({ SMTP_REQUIRE_TLS: 'false' }))).toMatchObject({
      secure: false,
      requireTLS: false,
    });
  });

  it('authenticates with the configured user and never reads files or URLs into a message', () => {
    const options = smtpTransportOptions(config({ SMTP_USER: 'mailer', SMTP_PASSWORD: 'secret' }));
    expect(options).toMatchObject({
      auth: { user: 'mailer', pass: 'secret' },
      requireTLS: true,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  });
});
