import { createTransport } from 'nodemailer';
import { NotificationClient, NotificationUnavailableError } from '../src/client/notification-client.js';
import { SmtpSinkClient } from '../src/dev-sink/sink-client.js';
import { startSmtpSink, type RunningSmtpSink } from '../src/dev-sink/sink.js';

let sink: RunningSmtpSink;
let client: SmtpSinkClient;

beforeAll(async () => {
  sink = await startSmtpSink();
  client = new SmtpSinkClient(sink.httpUrl);
});

afterAll(async () => {
  await sink.close();
});

beforeEach(async () => {
  await client.clear();
  await client.recover();
});

const transport = () =>
  createTransport({ host: sink.host, port: sink.smtpPort, secure: false, connectionTimeout: 5_000 });

describe('the SMTP sink', () => {
  it('keeps what it receives, parsed, with attachments to download', async () => {
    const pdf = Buffer.from('%PDF-1.7 statement');
    await transport().sendMail({
      from: 'Workspace <no-reply@workspace.local>',
      to: ['sub@acme.test', 'other@acme.test'],
      cc: 'office@acme.test',
      subject: 'Your CIS statement',
      text: 'Attached.',
      html: '<p>Attached.</p>',
      attachments: [{ filename: 'statement.pdf', contentType: 'application/pdf', content: pdf }],
    });
    const message = await client.waitForMessage((candidate) => candidate.subject === 'Your CIS statement');
    expect(message).toMatchObject({
      from: 'no-reply@workspace.local',
      to: ['sub@acme.test', 'other@acme.test'],
      cc: ['office@acme.test'],
      envelope: { from: 'no-reply@workspace.local' },
      attachments: [{ filename: 'statement.pdf', contentType: 'application/pdf', size: pdf.length }],
    });
    expect(message.text.trim()).toBe('Attached.');
    expect(message.html).toContain('<p>Attached.</p>');
    expect(message.envelope.to.sort()).toEqual(['office@acme.test', 'other@acme.test', 'sub@acme.test']);
    expect(await client.attachment(message.id, 0)).toEqual(pdf);
  });

  it('refuses the next messages with the reply code asked for, then accepts again', async () => {
    await client.failNext(2, 451);
    const mail = { from: 'a@workspace.local', to: 'b@acme.test', subject: 'x', text: 'y' };
    await expect(transport().sendMail(mail)).rejects.toMatchObject({ responseCode: 451 });
    await client.failNext(1, 550);
    await expect(transport().sendMail(mail)).rejects.toMatchObject({ responseCode: 550 });
    await transport().sendMail(mail);
    expect(await client.messages()).toHaveLength(1);
  });

  it('refuses for a time, and recovers on request', async () => {
    await client.failFor(60_000);
    const mail = { from: 'a@workspace.local', to: 'b@acme.test', subject: 'x', text: 'y' };
    await expect(transport().sendMail(mail)).rejects.toMatchObject({ responseCode: 451 });
    await expect(transport().sendMail(mail)).rejects.toMatchObject({ responseCode: 451 });
    await client.recover();
    await transport().sendMail(mail);
    expect(await client.messages()).toHaveLength(1);
  });

  it('keeps only the latest messages', async () => {
    const small = await startSmtpSink({ maxMessages: 2 });
    try {
      const t = createTransport({ host: small.host, port: small.smtpPort, secure: false });
      for (const subject of ['one', 'two', 'three'])
        await t.sendMail({ from: 'a@x.test', to: 'b@y.test', subject, text: subject });
      expect(small.messages().map((message) => message.subject)).toEqual(['two', 'three']);
    } finally {
      await small.close();
    }
  });

  it('answers 404 for an unknown message or attachment', async () => {
    expect((await fetch(`${sink.httpUrl}/messages/nope`)).status).toBe(404);
    expect((await fetch(`${sink.httpUrl}/messages/nope/attachments/0`)).status).toBe(404);
    expect((await fetch(`${sink.httpUrl}/control/fail`, { method: 'POST', body: '{}' })).status).toBe(400);
  });
});

describe('the notification client', () => {
  it('says clearly when the service cannot be reached', async () => {
    const unreachable = new NotificationClient({
      baseUrl: 'http://127.0.0.1:1',
      internalToken: 'x',
      timeoutMs: 2_000,
    });
    const attempt = unreachable.send({ tenantId: 'demo', to: 'a@demo.test', subject: 's', text: 't' });
    await expect(attempt).rejects.toBeInstanceOf(NotificationUnavailableError);
    await expect(attempt).rejects.toThrow('The notification service at http://127.0.0.1:1 is not reachable');
  });
});
