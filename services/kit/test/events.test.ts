import {
  backoffDelay,
  cloudEventHeaders,
  createLogger,
  MemoryBus,
  parseCloudEventHeaders,
  type DeliveredMessage,
} from '../src/index.js';
import { eventually } from '../src/testing/index.js';

const logger = createLogger({ name: 'test', level: 'silent' });

const message = (key: string, value: string) => ({
  topic: 'cis.events.v1',
  key,
  value,
  headers: cloudEventHeaders({
    id: value,
    type: 'cis.invoice.approved',
    source: '/workspace/cis',
    time: new Date().toISOString(),
    tenantId: 'acme',
  }),
});

describe('CloudEvents headers', () => {
  it('round-trips the binary-mode attributes', () => {
    const attributes = {
      id: 'e1',
      type: 'cis.invoice.approved',
      source: '/workspace/cis',
      time: '2026-01-05T10:00:00.000Z',
      subject: 'inv-1',
      tenantId: 'acme',
    };
    const headers = cloudEventHeaders(attributes);
    expect(headers).toMatchObject({
      ce_specversion: '1.0',
      ce_id: 'e1',
      ce_type: 'cis.invoice.approved',
      ce_tenantid: 'acme',
      ce_subject: 'inv-1',
    });
    expect(parseCloudEventHeaders(headers)).toEqual(attributes);
  });

  it('rejects a record without a tenant', () => {
    const headers: Record<string, string> = cloudEventHeaders({
      id: 'e1',
      type: 'a.b',
      source: 's',
      time: 't',
      tenantId: 'x',
    });
    delete headers.ce_tenantid;
    expect(() => parseCloudEventHeaders(headers)).toThrow('missing header ce_tenantid');
  });
});

describe('in-process bus', () => {
  it('delivers in publish order to each group, from the beginning', async () => {
    const bus = new MemoryBus(logger);
    await bus.ensureTopics(['cis.events.v1']);
    await bus.publish([message('k', '1'), message('k', '2')]);
    const seenA: string[] = [];
    const seenB: string[] = [];
    const a = await bus.subscribe({
      groupId: 'a',
      topics: ['cis.events.v1'],
      handle: (m: DeliveredMessage) => Promise.resolve(void seenA.push(m.value)),
    });
    const b = await bus.subscribe({
      groupId: 'b',
      topics: ['cis.events.v1'],
      handle: (m: DeliveredMessage) => Promise.resolve(void seenB.push(m.value)),
    });
    await bus.publish([message('k', '3')]);
    await eventually(() => Promise.resolve(seenA.length === 3 && seenB.length === 3), 2_000);
    expect(seenA).toEqual(['1', '2', '3']);
    expect(seenB).toEqual(['1', '2', '3']);
    await a.stop();
    await b.stop();
    await bus.close();
  });

  it('retries a failing handler without skipping or reordering', async () => {
    const bus = new MemoryBus(logger);
    await bus.ensureTopics(['cis.events.v1']);
    const seen: string[] = [];
    let failures = 2;
    const sub = await bus.subscribe({
      groupId: 'g',
      topics: ['cis.events.v1'],
      handle: (m: DeliveredMessage) => {
        if (m.value === '1' && failures-- > 0) return Promise.reject(new Error('database away'));
        seen.push(m.value);
        return Promise.resolve();
      },
    });
    await bus.publish([message('k', '1'), message('k', '2')]);
    await eventually(() => Promise.resolve(seen.length === 2), 5_000);
    expect(seen).toEqual(['1', '2']);
    await sub.stop();
    await bus.close();
  });

  it('resolves a publish only once every subscribed group has applied it, and fails after the timeout', async () => {
    const bus = new MemoryBus(logger, { deliveryTimeoutMs: 300 });
    await bus.ensureTopics(['cis.events.v1']);
    const applied: string[] = [];
    let healthy = true;
    const sub = await bus.subscribe({
      groupId: 'g',
      topics: ['cis.events.v1'],
      handle: async (m: DeliveredMessage) => {
        if (!healthy) throw new Error('database away');
        // Applied a turn of the event loop later: the publish must wait for it, not just hand it over.
        await new Promise((resolve) => setImmediate(resolve));
        applied.push(m.value);
      },
    });
    await bus.publish([message('k', '1')]);
    expect(applied).toEqual(['1']);
    healthy = false;
    await expect(bus.publish([message('k', '2')])).rejects.toThrow(
      'did not apply the messages within 300 ms',
    );
    healthy = true;
    await eventually(() => Promise.resolve(applied.length === 2), 15_000);
    await sub.stop();
    await bus.close();
  });

  it('refuses a topic that was never created', async () => {
    const bus = new MemoryBus(logger);
    await expect(bus.publish([message('k', '1')])).rejects.toThrow('Unknown topic cis.events.v1');
  });
});

describe('backoff', () => {
  it('grows exponentially with jitter and stays under the cap', () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      const delay = backoffDelay(attempt, 100, 30_000);
      const ceiling = Math.min(30_000, 100 * 2 ** attempt);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  });
});
