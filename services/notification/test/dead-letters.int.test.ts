// Dead letters (issue 15, ADR 0052) against the real SMTP sink refusing: an e-mail that cannot be delivered after its
// retries is kept with its content still sealed, listed to the service that sent it by its category and its own
// reference (never the content or the addresses), until a later e-mail about the same reference replaces it or the
// retention clean-up deletes it with everything else final for EMAIL_RETENTION_DAYS.
import { randomUUID } from 'node:crypto';
import { callService, eventually } from '@workspace/kit/testing';
import { notificationEvents } from '@workspace/proto';
import pg from 'pg';
import { NotificationClient, type DeadLetter } from '../src/client/notification-client.js';
import { call, INTERNAL_TOKEN, startNotificationHarness, type NotificationHarness } from './support.js';

let harness: NotificationHarness;
let admin: pg.Client;

beforeAll(async () => {
  // Three attempts, 300 and 600 ms apart.
  harness = await startNotificationHarness({ EMAIL_RETENTION_DAYS: '30' });
  admin = new pg.Client({ connectionString: harness.database.adminUrl });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await harness.stop();
});

beforeEach(async () => {
  await harness.sinkClient.recover();
  await harness.sinkClient.clear();
});

const client = () => new NotificationClient({ baseUrl: harness.baseUrl, internalToken: INTERNAL_TOKEN });

const statementMail = (reference: string, tenantId = 'demo') => ({
  tenantId,
  to: 'sub@acme.test',
  subject: `Payment and deduction statement ${reference}`,
  text: 'Your statement is attached (UTR 1234567890).',
  attachments: [
    {
      filename: 'statement.pdf',
      contentType: 'application/pdf',
      contentBase64: Buffer.from('%PDF-1.7 UTR 1234567890').toString('base64'),
    },
  ],
  category: 'cis-statement',
  reference,
});

/** Sends while the sink refuses every attempt (451, a temporary refusal) and waits until it failed for good. */
async function undeliverable(reference: string, tenantId = 'demo'): Promise<string> {
  await harness.sinkClient.failFor(60_000, 451);
  const first = await client().send(statementMail(reference, tenantId));
  expect(first.status).toBe('retrying');
  await eventually(
    async () => (await client().status(tenantId, first.id)).status === 'failed',
    15_000,
    'the e-mail to fail after its retries',
  );
  await harness.sinkClient.recover();
  return first.id;
}

async function stored(id: string) {
  const { rows } = await admin.query<{
    content_sealed: string | null;
    subject: string | null;
    attachments: number;
  }>(
    `SELECT e.content_sealed, e.subject,
            (SELECT count(*)::int FROM notification.email_attachments a WHERE a.email_id = e.email_id) AS attachments
       FROM notification.emails e WHERE e.email_id = $1`,
    [id],
  );
  return rows[0];
}

describe('dead letters', () => {
  it('keeps an e-mail that failed after its retries, sealed, and lists it to its sender by category and reference', async () => {
    const reference = randomUUID();
    const id = await undeliverable(reference);
    expect(await client().status('demo', id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      reference,
      deadLetteredAt: expect.any(String),
    });
    // The content stays, sealed: nothing readable in the row, the attachment kept too.
    const row = await stored(id);
    expect(row?.subject).toBeNull();
    expect(row?.content_sealed).toMatch(/^v1\.n1\./);
    expect(row?.content_sealed).not.toContain('1234567890');
    expect(row?.attachments).toBe(1);

    const letters = await client().deadLetters('demo', 'cis-statement', [reference]);
    expect(letters).toEqual([
      {
        id,
        category: 'cis-statement',
        reference,
        idempotencyKey: null,
        attempts: 3,
        lastError: expect.stringMatching(/451/),
        failedAt: expect.any(String),
        createdAt: expect.any(String),
        state: 'failed',
        resentAt: null,
        resentBy: null,
        resendCount: 0,
        deliveredAt: null,
      },
    ]);
    // Its content and addresses are never part of the answer.
    const raw = await callService(
      `${harness.baseUrl}/v1/dead-letters?tenantId=demo&category=cis-statement&references=${reference}`,
      undefined,
      'GET',
      undefined,
      { 'x-internal-token': INTERNAL_TOKEN },
    );
    expect(raw.status).toBe(200);
    expect(raw.text).not.toContain('sub@acme.test');
    expect(raw.text).not.toContain('Payment and deduction statement');
    // Another category, another tenant: none.
    expect(await client().deadLetters('demo', 'portal-invite', [reference])).toEqual([]);
    expect(await client().deadLetters('acme', 'cis-statement', [reference])).toEqual([]);
    // Without the internal token: refused.
    const refused = await callService(
      `${harness.baseUrl}/v1/dead-letters?tenantId=demo&category=cis-statement`,
      undefined,
      'GET',
    );
    expect(refused.status).toBe(401);
  });

  it('is no longer listed once a later e-mail about the same reference is delivered', async () => {
    const reference = randomUUID();
    await undeliverable(reference);
    expect(await client().deadLetters('demo', 'cis-statement', [reference])).toHaveLength(1);
    const again = await client().send(statementMail(reference));
    expect(again.status).toBe('sent');
    expect(await client().deadLetters('demo', 'cis-statement', [reference])).toEqual([]);
  });

  it('is deleted, content and all, by the retention clean-up once it has been final for EMAIL_RETENTION_DAYS', async () => {
    const old = await undeliverable(randomUUID());
    const recent = await undeliverable(randomUUID());
    for (const [id, days] of [
      [old, 31],
      [recent, 29],
    ] as const) {
      await admin.query(
        `UPDATE notification.emails SET updated_at = now() - make_interval(days => $2) WHERE email_id = $1`,
        [id, days],
      );
    }
    await harness.definition.retention().runOnce();
    expect(await stored(old)).toBeUndefined();
    const { rows } = await admin.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM notification.email_attachments WHERE email_id = $1',
      [old],
    );
    expect(rows[0]?.count).toBe(0);
    expect(await stored(recent)).toMatchObject({ content_sealed: expect.stringMatching(/^v1\./) });
  });
});

describe('resending a dead letter', () => {
  const resend = (id: string, body: Record<string, unknown> = {}, token: string | null = INTERNAL_TOKEN) =>
    call(
      harness,
      'POST',
      `/v1/dead-letters/${id}/resend`,
      { tenantId: 'demo', category: 'cis-statement', resentBy: 'user-1', ...body },
      token,
    );
  const letterOf = async (reference: string): Promise<DeadLetter | undefined> =>
    (await client().deadLetters('demo', 'cis-statement', [reference]))[0];
  const sinkCopies = async (reference: string) =>
    (await harness.sinkClient.messages()).filter(
      (message) => message.subject === `Payment and deduction statement ${reference}`,
    );

  it('delivers the stored message to the SMTP sink, records who resent it and when, and publishes EmailResent', async () => {
    const reference = randomUUID();
    const id = await undeliverable(reference);

    const resent = await resend(id);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ id, state: 'resending', resentBy: 'user-1', resendCount: 1 });
    expect(Number.isNaN(Date.parse(String(resent.body.resentAt)))).toBe(false);

    // The stored message, as it was: subject, body, recipient, attachment and its Message-ID.
    const message = await harness.sinkClient.waitForMessage(
      (candidate) => candidate.subject === `Payment and deduction statement ${reference}`,
    );
    expect(message.to).toEqual(['sub@acme.test']);
    expect(message.text).toContain('Your statement is attached (UTR 1234567890).');
    expect(message.messageId).toBe(`<${id}@workspace.local>`);
    expect((await harness.sinkClient.attachment(message.id, 0)).toString()).toBe('%PDF-1.7 UTR 1234567890');

    const delivered = await eventually(
      async () => ((await letterOf(reference))?.state === 'delivered' ? letterOf(reference) : undefined),
      15_000,
      'the resent dead letter to be delivered',
    );
    expect(delivered).toMatchObject({
      id,
      state: 'delivered',
      resentBy: 'user-1',
      resendCount: 1,
      deliveredAt: expect.any(String),
    });
    expect(await client().status('demo', id)).toMatchObject({ status: 'sent', attempts: 1 });
    // Delivered: its content is dropped as every sent e-mail's.
    expect(await stored(id)).toMatchObject({ content_sealed: null, attachments: 0 });

    const { db } = harness.service.deps;
    const event = await eventually(
      async () =>
        (await db('outbox')
          .where({ type: notificationEvents.emailResent.type, subject: id })
          .whereNotNull('published_at')
          .first()) as { payload: Record<string, unknown>; tenant_id: string } | undefined,
      10_000,
      'EmailResent published',
    );
    expect(event.tenant_id).toBe('demo');
    expect(event.payload).toMatchObject({
      emailId: id,
      category: 'cis-statement',
      attempts: 3,
      recipientDomains: ['acme.test'],
      resentBy: 'user-1',
      resendCount: 1,
    });
    expect(JSON.stringify(event.payload)).not.toContain('sub@acme.test');
    expect(
      await db('outbox').where({ type: notificationEvents.emailSent.type, subject: id }).first(),
    ).toBeDefined();
  });

  it("answers 404 to another tenant's or another category's id, 401 without the internal token, and sends nothing", async () => {
    const reference = randomUUID();
    const id = await undeliverable(reference);
    expect((await resend(id, { tenantId: 'acme' })).status).toBe(404);
    expect((await resend(id, { category: 'portal-invite' })).status).toBe(404);
    expect((await resend(randomUUID())).status).toBe(404);
    expect((await resend(id, {}, null)).status).toBe(401);
    expect((await resend(id, {}, 'wrong-token')).status).toBe(401);
    expect((await resend(id, { resentBy: 'bad id with spaces' })).status).toBe(400);
    expect(await letterOf(reference)).toMatchObject({ id, state: 'failed', resendCount: 0 });
    expect(await client().status('demo', id)).toMatchObject({ status: 'failed', attempts: 3 });
    expect(await sinkCopies(reference)).toEqual([]);
  });

  it('sends once however often it is resent while the first resend is on its way', async () => {
    const reference = randomUUID();
    const id = await undeliverable(reference);
    const answers = await Promise.all([resend(id), resend(id), resend(id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 202]);
    const first = answers.find((answer) => answer.status === 202)?.body;
    for (const answer of answers) {
      expect(answer.body).toMatchObject({ id, resendCount: 1, resentAt: first?.resentAt });
      expect(['resending', 'delivered']).toContain(answer.body.state);
    }
    await eventually(
      async () => (await client().status('demo', id)).status === 'sent',
      15_000,
      'the resend to be delivered',
    );
    // Once delivered, another resend sends nothing and answers that state.
    const after = await resend(id);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ state: 'delivered', resendCount: 1 });
    expect(await sinkCopies(reference)).toHaveLength(1);
  });

  it('answers the pending state while the resend is retried, and is a dead letter again when it fails after its retries', async () => {
    const reference = randomUUID();
    const id = await undeliverable(reference);
    const before = await letterOf(reference);
    if (!before) throw new Error('no dead letter');

    await harness.sinkClient.failFor(60_000, 451);
    const resent = await resend(id);
    expect(resent.status).toBe(202);
    const again = await resend(id, { resentBy: 'user-2' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ state: 'resending', resentBy: 'user-1', resendCount: 1 });

    const failedAgain = await eventually(
      async () => {
        const letter = await letterOf(reference);
        return letter?.state === 'failed' ? letter : undefined;
      },
      15_000,
      'the resend to fail after its retries',
    );
    expect(failedAgain).toMatchObject({
      id,
      attempts: 3,
      resentBy: 'user-1',
      resendCount: 1,
      lastError: expect.stringMatching(/451/),
    });
    expect(Date.parse(failedAgain.failedAt)).toBeGreaterThan(Date.parse(before.failedAt));
    expect(await stored(id)).toMatchObject({
      content_sealed: expect.stringMatching(/^v1\./),
      attachments: 1,
    });

    // Visible again, and resendable again once the relay takes mail.
    await harness.sinkClient.recover();
    const third = await resend(id, { resentBy: 'user-2' });
    expect(third.status).toBe(202);
    expect(third.body).toMatchObject({ resentBy: 'user-2', resendCount: 2 });
    await harness.sinkClient.waitForMessage(
      (message) => message.subject === `Payment and deduction statement ${reference}`,
    );
  });

  it('refuses with 410 once its content has passed the retention period or is gone, 409 for an e-mail that did not fail', async () => {
    const expired = await undeliverable(randomUUID());
    await admin.query(
      `UPDATE notification.emails SET updated_at = now() - interval '31 days',
              dead_lettered_at = now() - interval '31 days' WHERE email_id = $1`,
      [expired],
    );
    const gone = await resend(expired);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({
      code: 'dead_letter_expired',
      detail:
        'This e-mail can no longer be resent: its content is no longer kept (it passed the retention period). Send a new one instead.',
    });

    // A failure from before dead letters kept their content (migration 004): nothing to resend.
    const emptied = await undeliverable(randomUUID());
    await admin.query(`UPDATE notification.emails SET content_sealed = NULL WHERE email_id = $1`, [emptied]);
    expect((await resend(emptied)).status).toBe(410);

    // Purged by the retention clean-up: no such dead letter any more.
    await harness.definition.retention().runOnce();
    expect((await resend(expired)).status).toBe(404);

    const sent = await client().send(statementMail(randomUUID()));
    expect(sent.status).toBe('sent');
    const refused = await resend(sent.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('not_dead_letter');
  });
});
