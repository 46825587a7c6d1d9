import { randomBytes } from 'node:crypto';
import { recordEvent } from '@workspace/kit';
import { eventually, startGroupAtTopicEnd } from '@workspace/kit/testing';
import { cisEvents } from '@workspace/proto';
import { INTERNAL_TOKEN, startIdentityHarness, type IdentityHarness } from './support.js';

/*
 * The review's M7 case against real PostgreSQL and Kafka: an event on cis.events.v1 that cis did not write (another
 * source) ends no portal session, even though it names a real tenant and subcontractor (ADR 0034).
 */
let harness: IdentityHarness;

beforeAll(async () => {
  // A group of this run's own, reading cis's events from here on: the test publishes once and waits for this
  // identity to handle them.
  const group = `identity-portal-access-trust-${randomBytes(4).toString('hex')}`;
  await startGroupAtTopicEnd(group, cisEvents['cis.subcontractor.archived'].topic);
  harness = await startIdentityHarness({ config: { PORTAL_ACCESS_CONSUMER_GROUP: group } });
});

afterAll(async () => {
  await harness.stop();
});

const putPortalSession = async (tenantId: string, subcontractorId: string) => {
  const key = `portal-${randomBytes(16).toString('base64url')}`;
  const res = await fetch(`${harness.baseUrl}/v1/internal/sessions/${key}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
    body: JSON.stringify({
      kind: 'portal',
      tenantId,
      subject: subcontractorId,
      value: 'sealed',
      expiresAt: Date.now() + 3_600_000,
    }),
  });
  expect(res.status).toBe(204);
  return key;
};

const sessionExists = async (key: string) =>
  (
    await fetch(`${harness.baseUrl}/v1/internal/sessions/${key}`, {
      headers: { 'x-internal-token': INTERNAL_TOKEN },
    })
  ).status === 200;

const archived = (source: string, subcontractorId: string, aggregateId: string) =>
  harness.service.deps.db.transaction((trx) =>
    recordEvent(trx, source, cisEvents['cis.subcontractor.archived'], {
      tenantId: 'demo',
      aggregateId,
      data: {
        actorId: 'cis-admin',
        targetType: 'subcontractor',
        targetId: subcontractorId,
        targetIds: [subcontractorId],
        succeeded: 1,
      },
    }),
  );

describe('portal access and forged cis events', () => {
  it("ignores an archive on cis.events.v1 whose source is not cis, and applies cis's own after it", async () => {
    const forgedTarget = `sub-${randomBytes(4).toString('hex')}`;
    const genuineTarget = `sub-${randomBytes(4).toString('hex')}`;
    const forgedSession = await putPortalSession('demo', forgedTarget);
    const genuineSession = await putPortalSession('demo', genuineTarget);
    // One aggregate id, so one key and one partition: when cis's event has been handled, so has the forged one
    // recorded before it. Recorded in identity's outbox, whose relay publishes to cis.events.v1 as cis's would.
    const aggregateId = `trust-${randomBytes(4).toString('hex')}`;
    await archived('/workspace/notification', forgedTarget, aggregateId);
    await archived('/workspace/cis', genuineTarget, aggregateId);
    await eventually(
      async () => !(await sessionExists(genuineSession)),
      60_000,
      "cis's archive to end the genuine session",
    );
    expect(await sessionExists(forgedSession)).toBe(true);
  });
});
