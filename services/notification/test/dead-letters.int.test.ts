// Dead letters (issue 15, ADR 0052) against the real SMTP sink refusing: an e-mail that cannot be delivered after its
// retries is kept with its content still sealed, listed to the service that sent it by its category and its own
// reference (never the content or the addresses), until a later e-mail about the same reference replaces it or the
// retention clean-up deletes it with everything else final for EMAIL_RETENTION_DAYS.
import { randomUUID } from 'node:crypto';
import { callService, eventually } from '@workspace/kit/testing';
import pg from 'pg';
import { NotificationClient } from '../src/client/notification-client.js';
import { INTERNAL_TOKEN, startNotificationHarness, type NotificationHarness } from './support.js';

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
