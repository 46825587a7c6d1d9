import { NotificationClient } from '../src/client/notification-client.js';
import { INTERNAL_TOKEN, startNotificationHarness, type NotificationHarness } from './support.js';

// The From and Reply-To the way mail providers accept them (issue 13): a tenant's own address is the From only on a
// domain set up to send; the name and the way to reply always reach the recipient.
let harness: NotificationHarness;

beforeAll(async () => {
  harness = await startNotificationHarness({
    MAIL_FROM: 'Workspace <no-reply@workspace.local>',
    MAIL_SENDING_DOMAINS: 'Builders.test, mail.example.org',
  });
});

afterAll(async () => {
  await harness.stop();
});

beforeEach(async () => {
  await harness.sinkClient.clear();
});

const client = () => new NotificationClient({ baseUrl: harness.baseUrl, internalToken: INTERNAL_TOKEN });

const send = async (
  subject: string,
  sender: { fromName?: string; fromAddress?: string; replyTo?: string },
) => {
  const result = await client().send({
    tenantId: 'demo',
    to: 'sub@acme.test',
    subject,
    text: 'x',
    ...sender,
  });
  expect(result.delivered).toBe(true);
  return harness.sinkClient.waitForMessage((message) => message.subject === subject);
};

describe('the sender of an e-mail', () => {
  it('sends from the address asked for on a sending domain, with its name, the envelope too', async () => {
    const message = await send('From a sending domain', {
      fromName: 'Acme Builders Ltd',
      fromAddress: 'accounts@builders.test',
    });
    expect(message).toMatchObject({
      from: 'accounts@builders.test',
      fromName: 'Acme Builders Ltd',
      envelope: { from: 'accounts@builders.test', to: ['sub@acme.test'] },
      replyTo: ['accounts@builders.test'],
    });
  });

  it('sends any other address from the platform, with the name asked for and the address as its Reply-To', async () => {
    const message = await send('From elsewhere', {
      fromName: 'Smith, Jones & "Sons"',
      fromAddress: 'office@gmail.example',
    });
    expect(message).toMatchObject({
      from: 'no-reply@workspace.local',
      fromName: 'Smith, Jones & "Sons"',
      envelope: { from: 'no-reply@workspace.local' },
      replyTo: ['office@gmail.example'],
    });
  });

  it('does not take a subdomain of a sending domain for one', async () => {
    const message = await send('From a subdomain', {
      fromName: 'Acme',
      fromAddress: 'x@eu.builders.test',
    });
    expect(message).toMatchObject({ from: 'no-reply@workspace.local', replyTo: ['x@eu.builders.test'] });
  });

  it('keeps a Reply-To given beside the From asked for', async () => {
    const message = await send('With its own Reply-To', {
      fromName: 'Acme',
      fromAddress: 'office@gmail.example',
      replyTo: 'queries@acme-builders.example',
    });
    expect(message).toMatchObject({
      from: 'no-reply@workspace.local',
      fromName: 'Acme',
      replyTo: ['queries@acme-builders.example'],
    });
  });

  it('sends as the platform, its own name included, when nothing is asked', async () => {
    const message = await send('As the platform', {});
    expect(message).toMatchObject({ from: 'no-reply@workspace.local', fromName: 'Workspace', replyTo: [] });
  });
});
