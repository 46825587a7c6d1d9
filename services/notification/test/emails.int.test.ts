import { randomUUID } from 'node:crypto';
import {
  createDatabase,
  createLogger,
  decodeEvent,
  FieldCipher,
  type ReceivedEvent,
  type Subscription,
} from '@workspace/kit';
import { eventually } from '@workspace/kit/testing';
import { notificationEvents } from '@workspace/proto';
import { NotificationClient, NotificationRequestError } from '../src/client/notification-client.js';
import { DeliveryWorker } from '../src/workers/delivery.worker.js';
import { smtpMailer } from '../src/clients/smtp-mailer.js';
import { call, INTERNAL_TOKEN, startNotificationHarness, type NotificationHarness } from './support.js';

let harness: NotificationHarness;
let subscription: Subscription;
const received: ReceivedEvent[] = [];

beforeAll(async () => {
  harness = await startNotificationHarness();
  // Read what the relay publishes to Kafka, as a consumer in another service would.
  const { bus } = harness.service.deps;
  subscription = await bus.subscribe({
    groupId: `notification-test-${randomUUID()}`,
    topics: [notificationEvents.emailSent.topic],
    fromBeginning: false,
    handle: (message) => {
      received.push({
        id: message.headers.ce_id ?? '',
        type: message.headers.ce_type ?? '',
        source: message.headers.ce_source ?? '',
        time: message.headers.ce_time ?? '',
        tenantId: message.headers.ce_tenantid ?? '',
        topic: message.topic,
        partition: message.partition,
        offset: message.offset,
        key: message.key,
        data: JSON.parse(message.value) as ReceivedEvent['data'],
      });
      return Promise.resolve();
    },
  });
});

afterAll(async () => {
  await subscription.stop();
  await harness.stop();
});

beforeEach(async () => {
  await harness.sinkClient.recover();
  await harness.sinkClient.clear();
});

const client = () => new NotificationClient({ baseUrl: harness.baseUrl, internalToken: INTERNAL_TOKEN });

const eventFor = (type: string, emailId: string) =>
  eventually(
    () => Promise.resolve(received.find((event) => event.type === type && event.key.endsWith(`:${emailId}`))),
    30_000,
    `${type} for ${emailId} on the bus`,
  );

describe('sending', () => {
  it('delivers at once: the sink has the subject, body and attachment; EmailSent reaches Kafka', async () => {
    const pdf = Buffer.from('%PDF-1.7 payment and deduction statement');
    const result = await client().send({
      tenantId: 'demo',
      to: 'sub@acme.test',
      cc: ['office@acme.test'],
      replyTo: 'accounts@demo.test',
      subject: 'CIS statement April 2025',
      text: 'Your statement is attached.',
      html: '<p>Your statement is attached.</p>',
      attachments: [
        { filename: 'statement.pdf', contentType: 'application/pdf', contentBase64: pdf.toString('base64') },
      ],
      category: 'cis-statement',
      idempotencyKey: `statement-${randomUUID()}`,
    });
    expect(result).toEqual({ id: expect.any(String), status: 'sent', delivered: true });

    const message = await harness.sinkClient.waitForMessage((m) => m.subject === 'CIS statement April 2025');
    expect(message).toMatchObject({
      from: 'no-reply@workspace.local',
      to: ['sub@acme.test'],
      cc: ['office@acme.test'],
      replyTo: ['accounts@demo.test'],
      messageId: `<${result.id}@workspace.local>`,
      attachments: [{ filename: 'statement.pdf', contentType: 'application/pdf', size: pdf.length }],
    });
    expect(message.text.trim()).toBe('Your statement is attached.');
    expect(await harness.sinkClient.attachment(message.id, 0)).toEqual(pdf);

    const event = await eventFor(notificationEvents.emailSent.type, result.id);
    expect(event.tenantId).toBe('demo');
    const data = decodeEvent(notificationEvents.emailSent, event);
    expect(data).toMatchObject({
      emailId: result.id,
      category: 'cis-statement',
      recipientDomains: ['acme.test'],
      attempts: 1,
    });
    // Events never carry the content or the addresses.
    expect(JSON.stringify(event.data)).not.toMatch(/statement is attached|sub@acme|JVBERi/);

    const status = await client().status('demo', result.id);
    expect(status).toMatchObject({
      status: 'sent',
      delivered: true,
      attempts: 1,
      lastError: null,
      category: 'cis-statement',
    });
  });

  it('queues without waiting when asked, and the worker sends it', async () => {
    const res = await call(harness, 'POST', '/v1/emails', {
      tenantId: 'demo',
      to: ['a@acme.test'],
      subject: 'Queued only',
      text: 'later',
      waitForFirstAttempt: false,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', delivered: false });
    await harness.sinkClient.waitForMessage((m) => m.subject === 'Queued only');
    await eventually(
      async () => (await client().status('demo', res.body.id)).status === 'sent',
      10_000,
      'sent',
    );
  });
});

describe('retries', () => {
  it('answers delivered:false while the server refuses, then the worker delivers once it recovers', async () => {
    await harness.sinkClient.failNext(1, 451);
    const res = await call(harness, 'POST', '/v1/emails', {
      tenantId: 'demo',
      to: 'sub@acme.test',
      subject: 'Portal invitation',
      text: 'Join the portal',
      category: 'portal-invite',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'retrying', delivered: false });
    expect(res.body.error).toMatch(/451/);
    const pending = await client().status('demo', res.body.id);
    expect(pending).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(pending.nextAttemptAt).not.toBeNull();

    await harness.sinkClient.waitForMessage((m) => m.subject === 'Portal invitation');
    const sent = await eventually(
      async () => {
        const status = await client().status('demo', res.body.id);
        return status.status === 'sent' ? status : undefined;
      },
      10_000,
      'the retry to be recorded',
    );
    expect(sent).toMatchObject({ attempts: 2, delivered: true, lastError: null, nextAttemptAt: null });
    const event = await eventFor(notificationEvents.emailSent.type, res.body.id);
    expect(decodeEvent(notificationEvents.emailSent, event)).toMatchObject({
      attempts: 2,
      category: 'portal-invite',
    });
    expect(await harness.sinkClient.messages()).toHaveLength(1);
  });

  it('fails for good on a permanent refusal and records EmailFailed', async () => {
    await harness.sinkClient.failNext(1, 550);
    const result = await client().send({
      tenantId: 'demo',
      to: 'gone@acme.test',
      subject: 'Bounce',
      text: 'x',
    });
    expect(result).toMatchObject({ status: 'failed', delivered: false, error: expect.stringMatching(/550/) });
    const { db } = harness.service.deps;
    const row = await eventually(
      async () =>
        (await db('outbox')
          .where({ type: notificationEvents.emailFailed.type, subject: result.id })
          .whereNotNull('published_at')
          .first()) as { payload: Record<string, unknown>; tenant_id: string } | undefined,
      10_000,
      'EmailFailed published',
    );
    expect(row.tenant_id).toBe('demo');
    expect(row.payload).toMatchObject({ emailId: result.id, attempts: 1, recipientDomains: ['acme.test'] });
    expect(String(row.payload.reason)).toMatch(/550/);
  });

  it('gives up after the last attempt', async () => {
    await harness.sinkClient.failFor(60_000, 451);
    const result = await client().send({ tenantId: 'demo', to: 'x@acme.test', subject: 'Never', text: 'x' });
    expect(result.status).toBe('retrying');
    const failed = await eventually(
      async () => {
        const status = await client().status('demo', result.id);
        return status.status === 'failed' ? status : undefined;
      },
      15_000,
      'the e-mail to fail after 3 attempts',
    );
    expect(failed.attempts).toBe(3);
    expect(failed.lastError).toMatch(/451/);
    expect(await harness.sinkClient.messages()).toHaveLength(0);
  });
});

describe('several replicas', () => {
  it('sends each queued e-mail once when two workers share the queue', async () => {
    const { config } = harness;
    const db = createDatabase({ url: config.DATABASE_URL, schema: 'notification', poolMax: 4 });
    const second = new DeliveryWorker({
      db,
      mailer: smtpMailer(config),
      cipher: FieldCipher.fromConfig(config.NOTIFICATION_ENCRYPTION_KEYS),
      logger: createLogger({ name: 'second-replica', level: 'silent' }),
      source: '/workspace/notification',
      policy: { backoffMs: config.DELIVERY_BACKOFF_MS, maxAttempts: config.DELIVERY_MAX_ATTEMPTS },
      attemptTimeoutMs: config.SMTP_TIMEOUT_MS,
      pollIntervalMs: 50,
      concurrency: 2,
      secrets: [],
    });
    second.start();
    try {
      const batch = `batch-${randomUUID()}`;
      const ids = await Promise.all(
        Array.from({ length: 12 }, async (_, index) => {
          const res = await call(harness, 'POST', '/v1/emails', {
            tenantId: index % 2 ? 'demo' : 'acme',
            to: `sub${index}@acme.test`,
            subject: `${batch} ${index}`,
            text: 'x',
            waitForFirstAttempt: false,
          });
          expect(res.status).toBe(202);
          return { id: res.body.id, tenantId: index % 2 ? 'demo' : 'acme' };
        }),
      );
      await eventually(
        async () => {
          const statuses = await Promise.all(ids.map(({ id, tenantId }) => client().status(tenantId, id)));
          return statuses.every((status) => status.status === 'sent') ? statuses : undefined;
        },
        20_000,
        'every queued e-mail sent',
      );
      const subjects = (await harness.sinkClient.messages())
        .map((message) => message.subject)
        .filter((subject) => subject.startsWith(batch));
      expect(subjects).toHaveLength(12);
      expect(new Set(subjects).size).toBe(12);
    } finally {
      await second.stop();
      await db.destroy();
    }
  });
});

describe('idempotency', () => {
  it('answers the first e-mail for a repeated key instead of sending again', async () => {
    const body = {
      tenantId: 'demo',
      to: 'sub@acme.test',
      subject: 'Once only',
      text: 'x',
      idempotencyKey: `invite-${randomUUID()}`,
    };
    const first = await call(harness, 'POST', '/v1/emails', body);
    expect(first.status).toBe(201);
    const again = await call(harness, 'POST', '/v1/emails', body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await harness.sinkClient.messages()).filter((m) => m.subject === 'Once only')).toHaveLength(1);

    const other = await call(harness, 'POST', '/v1/emails', { ...body, subject: 'Something else' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');

    // Keys are per tenant.
    const acme = await call(harness, 'POST', '/v1/emails', { ...body, tenantId: 'acme' });
    expect(acme.status).toBe(201);
    expect(acme.body.id).not.toBe(first.body.id);
  });
});

describe('transport security', () => {
  const message = {
    from: 'Workspace <no-reply@workspace.local>',
    to: ['sub@acme.test'],
    cc: [],
    subject: 'Over plain SMTP?',
    text: 'x',
    messageId: `<${randomUUID()}@workspace.local>`,
    attachments: [],
  };

  it('hands nothing to a relay that does not offer STARTTLS, unless SMTP_REQUIRE_TLS is turned off', async () => {
    // The sink speaks plain SMTP, as a relay would once someone in between strips its STARTTLS offer.
    const { config } = harness;
    await expect(smtpMailer({ ...config, SMTP_REQUIRE_TLS: true }).send(message)).rejects.toThrow(/STARTTLS/);
    expect(await harness.sinkClient.messages()).toHaveLength(0);

    await smtpMailer({ ...config, SMTP_REQUIRE_TLS: false }).send(message);
    await harness.sinkClient.waitForMessage((m) => m.subject === 'Over plain SMTP?');
  });
});

describe('access and validation', () => {
  const body = { tenantId: 'demo', to: 'a@acme.test', subject: 's', text: 't' };

  it('answers 401 without the internal token or with a wrong one', async () => {
    expect((await call(harness, 'POST', '/v1/emails', body, null)).status).toBe(401);
    const wrong = await call(harness, 'POST', '/v1/emails', body, 'x'.repeat(48));
    expect(wrong.status).toBe(401);
    expect(wrong.body.detail).toBe('This endpoint is for internal services only.');
    expect(
      (await call(harness, 'GET', `/v1/emails/${randomUUID()}?tenantId=demo`, undefined, null)).status,
    ).toBe(401);
    expect(await harness.sinkClient.messages()).toHaveLength(0);
  });

  it('answers a validation problem for a bad address', async () => {
    const res = await call(harness, 'POST', '/v1/emails', {
      ...body,
      to: ['ok@acme.test', 'not-an-address'],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(res.body.errors).toContainEqual({
      field: 'body.to.1',
      message: 'Must be an e-mail address such as name@example.com',
    });
    await expect(client().send({ ...body, to: 'nope' })).rejects.toBeInstanceOf(NotificationRequestError);
  });

  it("never shows another tenant's e-mail", async () => {
    const sent = await client().send(body);
    expect((await call(harness, 'GET', `/v1/emails/${sent.id}?tenantId=demo`)).status).toBe(200);
    const other = await call(harness, 'GET', `/v1/emails/${sent.id}?tenantId=acme`);
    expect(other.status).toBe(404);
  });

  it('publishes its API in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${harness.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/emails', '/v1/emails/{id}']));
  });
});
