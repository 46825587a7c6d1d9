// What the notification service keeps (review M2, ADR 0030): bodies and attachments sealed while an e-mail is
// pending, gone once it is sent, still sealed once it has failed for good (a dead letter, ADR 0052), the metadata
// (and a dead letter's sealed content) kept for the retention period. Read straight
// from the tables with the database's administrative connection, as a backup, a replica or a support query would.
import { randomBytes } from 'node:crypto';
import { eventually } from '@workspace/kit/testing';
import pg from 'pg';
import { NotificationClient } from '../src/client/notification-client.js';
import { INTERNAL_TOKEN, startNotificationHarness, type NotificationHarness } from './support.js';

let harness: NotificationHarness;
let admin: pg.Client;

beforeAll(async () => {
  // A retry waits an hour unless a test makes it due (dueNow): what is pending stays pending while it is read.
  harness = await startNotificationHarness({ DELIVERY_BACKOFF_MS: '3600000' });
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

/** Every notification table, each row as PostgreSQL prints it (bytea as hex), in one text. */
async function everythingStored(): Promise<string> {
  const tables = ['emails', 'email_attachments', 'delivery_queue', 'outbox'];
  const dumps = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await admin.query<{ row: string }>(
        `SELECT t::text AS row FROM notification.${table} t`,
      );
      return rows.map((row) => row.row).join('\n');
    }),
  );
  return dumps.join('\n');
}

/** A portal invite (its magic link carries a bearer token) and a statement (its PDF carries the clear UTR). */
function invitation() {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    request: {
      tenantId: 'demo',
      to: 'sub@acme.test',
      subject: 'You are invited to the Demo Ltd portal',
      text: `Sign in: https://workspace.example.com/portal-login?token=${token}`,
      html: `<a href="https://workspace.example.com/portal-login?token=${token}">Sign in</a>`,
      category: 'portal-invite',
    },
  };
}

function statement() {
  const utr = `9${randomBytes(5).readUIntBE(0, 5).toString().padStart(9, '0').slice(0, 9)}`;
  const pdf = Buffer.from(`%PDF-1.7 payment and deduction statement, subcontractor UTR ${utr}`);
  return {
    utr,
    pdf,
    request: {
      tenantId: 'demo',
      to: 'sub@acme.test',
      subject: 'CIS statement April 2025',
      text: `Your statement is attached (UTR ${utr}).`,
      attachments: [
        { filename: 'statement.pdf', contentType: 'application/pdf', contentBase64: pdf.toString('base64') },
      ],
      category: 'cis-statement',
    },
  };
}

interface StoredEmail {
  status: string;
  attempts: number;
  to_addresses: string[];
  category: string | null;
  sent_at: Date | null;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  content_sealed: string | null;
  created_at: Date;
}

async function storedEmail(id: string): Promise<StoredEmail | undefined> {
  const { rows } = await admin.query<StoredEmail>('SELECT * FROM notification.emails WHERE email_id = $1', [
    id,
  ]);
  return rows[0];
}

async function storedAttachments(id: string): Promise<number> {
  const { rows } = await admin.query<{ count: string }>(
    'SELECT count(*) AS count FROM notification.email_attachments WHERE email_id = $1',
    [id],
  );
  return Number(rows[0]?.count);
}

/** Makes a retrying e-mail due at once, as if its wait were over. */
async function dueNow(id: string): Promise<void> {
  await admin.query('UPDATE notification.delivery_queue SET due_at = now() WHERE email_id = $1', [id]);
}

const statusOf = (id: string, wanted: string) =>
  eventually(
    async () => {
      const status = await client().status('demo', id);
      return status.status === wanted ? status : undefined;
    },
    15_000,
    `e-mail ${id} to be ${wanted}`,
  );

describe('while an e-mail is pending', () => {
  it('keeps neither the magic-link token, nor the UTR, nor the PDF in clear in any table', async () => {
    await harness.sinkClient.failFor(60_000, 451);
    const invite = invitation();
    const doc = statement();
    const sentInvite = await client().send(invite.request);
    const sentStatement = await client().send(doc.request);
    expect(sentInvite.status).toBe('retrying');
    expect(sentStatement.status).toBe('retrying');
    expect(await storedAttachments(sentStatement.id)).toBe(1);

    const stored = await everythingStored();
    expect(stored).toContain(sentInvite.id);
    expect(stored).not.toContain(invite.token);
    expect(stored).not.toContain(doc.utr);
    expect(stored).not.toContain('payment and deduction statement');
    expect(stored).not.toContain(doc.pdf.toString('hex'));
    expect(stored).not.toContain(doc.pdf.toString('base64'));
    expect(stored).not.toContain('You are invited');
    expect(stored).not.toContain('CIS statement April 2025');

    // Sent once the relay takes mail again, so the next tests start with nothing pending.
    await harness.sinkClient.recover();
    await dueNow(sentInvite.id);
    await dueNow(sentStatement.id);
    await statusOf(sentInvite.id, 'sent');
    await statusOf(sentStatement.id, 'sent');
  });
});

describe('once an e-mail is final', () => {
  it('drops the content after delivery and keeps who, when, status and attempts; what was sent arrived whole', async () => {
    const invite = invitation();
    const doc = statement();
    const first = await client().send(invite.request);
    await harness.sinkClient.failNext(1, 451);
    const second = await client().send(doc.request);
    expect(first.status).toBe('sent');
    expect(second.status).toBe('retrying');
    await dueNow(second.id);
    await statusOf(second.id, 'sent');

    for (const id of [first.id, second.id]) {
      const row = await storedEmail(id);
      expect(row).toMatchObject({
        status: 'sent',
        to_addresses: ['sub@acme.test'],
        subject: null,
        text_body: null,
        html_body: null,
        content_sealed: null,
      });
      expect(row?.sent_at).toBeInstanceOf(Date);
      expect(await storedAttachments(id)).toBe(0);
    }
    expect((await storedEmail(first.id))?.attempts).toBe(1);
    expect((await storedEmail(second.id))?.attempts).toBe(2);
    const stored = await everythingStored();
    expect(stored).not.toContain(invite.token);
    expect(stored).not.toContain(doc.utr);

    // Delivery is untouched: the invite's link and the statement's PDF reached the relay as they were sent.
    const inviteMessage = await harness.sinkClient.waitForMessage(
      (m) => m.subject === invite.request.subject,
    );
    expect(inviteMessage.text).toContain(invite.token);
    const statementMessage = await harness.sinkClient.waitForMessage(
      (m) => m.subject === doc.request.subject,
    );
    expect(await harness.sinkClient.attachment(statementMessage.id, 0)).toEqual(doc.pdf);
  });

  it('keeps an e-mail the relay refuses for good as a dead letter: its content sealed, never in clear', async () => {
    await harness.sinkClient.failNext(1, 550);
    const doc = statement();
    const result = await client().send(doc.request);
    expect(result.status).toBe('failed');
    expect(await storedEmail(result.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      category: 'cis-statement',
      to_addresses: ['sub@acme.test'],
      subject: null,
      text_body: null,
      content_sealed: expect.stringMatching(/^v1\.n1\./),
    });
    expect(await storedAttachments(result.id)).toBe(1);
    expect(await everythingStored()).not.toContain(doc.utr);
    expect(await everythingStored()).not.toContain(doc.pdf.toString('hex'));
  });
});
