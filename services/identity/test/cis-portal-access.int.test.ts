// identity's consumer of cis subcontractor events (security review M3), on real PostgreSQL and Kafka: when cis turns
// a subcontractor's portal access off (cis.subcontractor.portal_access_ended), their portal sessions at every bff
// replica end and their unused magic links expire, exactly as for an archive or a delete; others' are untouched.
import { randomBytes } from 'node:crypto';
import { eventually } from '@workspace/kit/testing';
import {
  accessToken,
  createPortalLink,
  internalPost,
  putPortalSession as putPortalSessionOf,
  recordCisSubcontractorEvent,
  sessionExists as sessionExistsOf,
  startIdentityHarness,
  type IdentityHarness,
} from './support.js';

let harness: IdentityHarness;

beforeAll(async () => {
  harness = await startIdentityHarness({
    // A group of this run's own: the test publishes cis events and waits for this identity to handle them.
    config: { PORTAL_ACCESS_CONSUMER_GROUP: `identity-portal-ended-test-${randomBytes(4).toString('hex')}` },
  });
});

afterAll(async () => {
  await harness.stop();
});

const putPortalSession = (tenantId: string, subcontractorId: string) =>
  putPortalSessionOf(harness, tenantId, subcontractorId);
const sessionExists = (key: string) => sessionExistsOf(harness, key);

describe('cis.subcontractor.portal_access_ended', () => {
  it('ends the subcontractor’s portal sessions and expires their unused links, in that tenant only', async () => {
    const ended = `sub-${randomBytes(4).toString('hex')}`;
    const other = `sub-${randomBytes(4).toString('hex')}`;
    const endedSession = await putPortalSession('demo', ended);
    const otherSession = await putPortalSession('demo', other);
    const acmeSession = await putPortalSession('acme', ended);
    const admin = await accessToken(harness, 'demo', 'admin@demo.test');
    const link = await createPortalLink(harness, admin, ended);
    expect(link.status).toBe(201);

    // cis records the event in its outbox when an edit turns portal access off; here it is recorded in identity's,
    // whose relay publishes it the same way to cis.events.v1. Recorded again at each poll until this identity's new
    // consumer group (which reads new events only) has joined and handled one; a repeat ends nothing more.
    await eventually(
      async () => {
        await recordCisSubcontractorEvent(harness, 'cis.subcontractor.portal_access_ended', ended, {
          details: { reason: 'portal access turned off' },
        });
        return !(await sessionExists(endedSession));
      },
      60_000,
      'the portal session to end',
    );
    expect(await sessionExists(otherSession)).toBe(true);
    expect(await sessionExists(acmeSession)).toBe(true);
    const redeem = await internalPost(harness, '/v1/portal/links/redeem', {
      tenantId: 'demo',
      token: link.token,
    });
    expect(redeem.status).toBe(410);
    expect(((await redeem.json()) as { detail: string }).detail).toBe(
      'This link has expired. Ask your contractor for a new one.',
    );
  });
});
