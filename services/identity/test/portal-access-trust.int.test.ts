import { randomBytes } from 'node:crypto';
import { eventually, startGroupAtTopicEnd } from '@workspace/kit/testing';
import { cisEvents } from '@workspace/proto';
import {
  putPortalSession as putPortalSessionOf,
  recordCisSubcontractorEvent,
  sessionExists as sessionExistsOf,
  startIdentityHarness,
  type IdentityHarness,
} from './support.js';

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

const putPortalSession = (tenantId: string, subcontractorId: string) =>
  putPortalSessionOf(harness, tenantId, subcontractorId);
const sessionExists = (key: string) => sessionExistsOf(harness, key);

const archived = (source: string, subcontractorId: string, aggregateId: string) =>
  recordCisSubcontractorEvent(harness, 'cis.subcontractor.archived', subcontractorId, {
    source,
    aggregateId,
  });

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
