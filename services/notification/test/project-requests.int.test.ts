// The public site's project requests (the spec's sendProjectRequest) in the notification service: stored sealed and
// e-mailed to the sales inbox through the service's own delivery (sealed content, retries), on real PostgreSQL and a
// real SMTP server (the sink), which a test takes down and brings back on the same port.
import { eventually } from '@workspace/kit/testing';
import pg from 'pg';
import { SmtpSinkClient } from '../src/dev-sink/sink-client.js';
import { startSmtpSink, type RunningSmtpSink } from '../src/dev-sink/sink.js';
import { SITE_TENANT } from '../src/commands/project-requests.js';
import { call, startNotificationHarness, type NotificationHarness } from './support.js';

const SALES = 'sales-team@workspace.test';

let harness: NotificationHarness;
let admin: pg.Client;
/** The SMTP server the service sends to: this test's own, so it can go down and come back on its port. */
let smtp: RunningSmtpSink;
let smtpClient: SmtpSinkClient;

beforeAll(async () => {
  smtp = await startSmtpSink();
  harness = await startNotificationHarness({
    SALES_INBOX: SALES,
    SMTP_PORT: String(smtp.smtpPort),
    DELIVERY_BACKOFF_MS: '300,600',
    DELIVERY_MAX_ATTEMPTS: '20',
  });
  smtpClient = new SmtpSinkClient(smtp.httpUrl);
  admin = new pg.Client({ connectionString: harness.database.adminUrl });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await harness.stop();
  await smtp.close();
});

beforeEach(() => smtpClient.clear());

const submit = (body: unknown, token?: string | null) =>
  call(harness, 'POST', '/v1/project-requests', body, token);

interface StoredRow {
  request_id: string;
  tenant_id: string;
  content_sealed: string;
  email_id: string | null;
  status: string | null;
  attempts: number | null;
}

async function stored(id: string): Promise<StoredRow | undefined> {
  const { rows } = await admin.query<StoredRow>(
    `SELECT r.request_id, r.tenant_id, r.content_sealed, r.email_id, e.status, e.attempts
       FROM notification.project_requests r LEFT JOIN notification.emails e USING (email_id)
      WHERE r.request_id = $1`,
    [id],
  );
  return rows[0];
}

describe('sendProjectRequest in the notification service', () => {
  it('stores the request sealed and e-mails the sales inbox, replies going to the visitor', async () => {
    const answer = await submit({
      name: '  Dana Builder ',
      email: 'dana@builders.test',
      company: 'Builders Ltd',
      message: 'We file CIS returns for 40 subcontractors.\nCan we start in May?',
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(['id', 'receivedAt']);
    expect(Number.isNaN(Date.parse(String(answer.body.receivedAt)))).toBe(false);

    const mail = await smtpClient.waitForMessage((message) => message.to.includes(SALES));
    expect(mail.subject).toBe('Project request from Dana Builder (Builders Ltd)');
    expect(mail.replyTo).toEqual(['dana@builders.test']);
    expect(mail.text).toContain('Name: Dana Builder');
    expect(mail.text).toContain('Email: dana@builders.test');
    expect(mail.text).toContain('Company: Builders Ltd');
    expect(mail.text).toContain('We file CIS returns for 40 subcontractors.\nCan we start in May?');
    expect(mail.text).toContain(`Request id: ${answer.body.id}`);
    expect(mail.html).toBeNull();

    // The sink has it; the record says so once the attempt is recorded.
    const row = await eventually(
      async () => {
        const found = await stored(answer.body.id);
        return found?.status === 'sent' && found;
      },
      15_000,
      'the e-mail to be recorded as sent',
    );
    expect(row).toMatchObject({ tenant_id: SITE_TENANT, status: 'sent' });
    // The visitor's details are at rest only sealed.
    expect(row.content_sealed).not.toContain('Dana');
    expect(row.content_sealed).not.toContain('dana@builders.test');
  });

  it('takes company and message as optional', async () => {
    const answer = await submit({ name: 'Sam', email: 'sam@example.com' });
    expect(answer.status).toBe(201);
    const mail = await smtpClient.waitForMessage((message) => message.text.includes(answer.body.id));
    expect(mail.subject).toBe('Project request from Sam');
    expect(mail.text).toContain('Company: (not given)');
  });

  it('refuses a missing name and a malformed email with clear messages, storing nothing', async () => {
    const before = await admin.query('SELECT count(*)::int AS n FROM notification.project_requests');
    const blank = await submit({ name: '   ', email: 'a@' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'body.name', message: 'Please enter your name' },
        { field: 'body.email', message: 'Please enter a valid email address, e.g. name@example.com' },
      ]),
    );
    const missing = await submit({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'body.name', message: 'Please enter your name' },
        { field: 'body.email', message: 'Please enter your email' },
      ]),
    );
    const injected = await submit({ name: 'Eve\r\nBcc: all@example.com', email: 'eve@example.com' });
    expect(injected.status).toBe(400);
    expect(injected.body.errors).toEqual([{ field: 'body.name', message: 'Must be a single line' }]);
    const after = await admin.query('SELECT count(*)::int AS n FROM notification.project_requests');
    expect(after.rows).toEqual(before.rows);
  });

  it("keeps the request when its e-mail's record passes its retention and is purged", async () => {
    const answer = await submit({ name: 'Kept Kim', email: 'kim@example.com' });
    expect(answer.status).toBe(201);
    const sent = await eventually(
      async () => {
        const row = await stored(answer.body.id);
        return row?.status === 'sent' && row;
      },
      15_000,
      'the e-mail to be sent',
    );
    await admin.query(
      `UPDATE notification.emails SET updated_at = now() - interval '31 days' WHERE email_id = $1`,
      [sent.email_id],
    );
    const report = await harness.definition.retention().runOnce();
    expect(report.deleted).toBeGreaterThanOrEqual(1);
    const kept = await stored(answer.body.id);
    expect(kept).toMatchObject({ request_id: answer.body.id, email_id: null, status: null });
    expect(kept?.content_sealed).not.toContain('Kim');
  });

  it('is for internal callers only', async () => {
    const answer = await submit({ name: 'Sam', email: 'sam@example.com' }, null);
    expect(answer.status).toBe(401);
  });

  it('keeps an accepted request while the mail server is down and delivers it once it is back', async () => {
    const port = smtp.smtpPort;
    await smtp.close();
    const answer = await submit({ name: 'Offline Olly', email: 'olly@example.com' });
    expect(answer.status).toBe(201);
    // Stored, and the e-mail waiting for its next attempt.
    const waiting = await eventually(
      async () => {
        const row = await stored(answer.body.id);
        return row?.status === 'retrying' && row;
      },
      15_000,
      'the e-mail to be retrying',
    );
    expect(waiting.attempts).toBeGreaterThanOrEqual(1);

    smtp = await startSmtpSink({ smtpPort: port });
    smtpClient = new SmtpSinkClient(smtp.httpUrl);
    const mail = await smtpClient.waitForMessage((message) => message.text.includes(answer.body.id), 20_000);
    expect(mail.subject).toBe('Project request from Offline Olly');
    const delivered = await eventually(
      async () => {
        const found = await stored(answer.body.id);
        return found?.status === 'sent' && found;
      },
      15_000,
      'the e-mail to be recorded as sent',
    );
    expect(delivered.attempts).toBeGreaterThanOrEqual(2);
  });
});
