import { eventually } from '@workspace/kit/testing';
import { ModuleEventPublisher, startAuditHarness, testTenant, type AuditHarness } from './support.js';

interface EntryItem {
  seq: number;
  id: string;
  action: string;
  module: string;
  targetId: string;
  actorId: string;
  source: string;
  sourceEventId: string;
  payload: Record<string, string>;
  occurredAt: string;
}

let h: AuditHarness;
let publisher: ModuleEventPublisher;

beforeAll(async () => {
  h = await startAuditHarness();
  publisher = await ModuleEventPublisher.start();
});

afterAll(async () => {
  await publisher.close();
  await h.stop();
});

const USER = '00000000-0000-4000-8000-0000000000a1';

/** A client action recorded as `userId` of `tenantId` (POST /v1/client-events). */
const clientEvent = async (tenantId: string, action: string, targetId: string, userId = USER) => {
  const token = await h.token([], tenantId, userId);
  const answer = await h.call(token, 'POST', '/client-events', {
    action,
    targetId,
    payload: { format: 'csv' },
  });
  expect(answer.status).toBe(202);
  return answer.body as { accepted: true; id: string };
};

const list = async (tenantId: string, scopes: string[], query = '') => {
  const token = await h.token(scopes, tenantId);
  return h.call(token, 'GET', `/entries${query}`);
};

describe('audit_logEvent (POST /v1/client-events)', () => {
  it('records a client action as the caller of the caller’s tenant, source client, and answers 202 with its id', async () => {
    const tenantId = testTenant();
    const token = await h.token([], tenantId, USER);
    const answer = await h.call(token, 'POST', '/client-events', {
      action: 'SHARE_LINK_COPIED',
      targetId: 'share-1',
      payload: { shareId: 'share-1', linkType: 'public', email: 'someone@example.com' },
      // Ignored: tenant and actor come from the token.
      tenantId: 'another-tenant',
      actorId: 'someone-else',
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ accepted: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const page = await list(tenantId, ['audit.read']);
    expect(page.body.items).toEqual([
      expect.objectContaining({
        id: answer.body.id,
        seq: 1,
        action: 'SHARE_LINK_COPIED',
        module: 'drive',
        source: 'client',
        targetId: 'share-1',
        actorId: USER,
        payload: { shareId: 'share-1', linkType: 'public' },
      }),
    ]);
    expect((await list('another-tenant', ['audit.read'])).body.total).toBe(0);
  });

  it('stores a retried send once: the same X-Idempotency-Key from the same caller answers the first entry', async () => {
    const tenantId = testTenant();
    const token = await h.token([], tenantId, USER);
    const send = (key: string) =>
      fetch(`${h.baseUrl}/v1/client-events`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-idempotency-key': key,
        },
        body: JSON.stringify({
          action: 'cis.export.invoices',
          targetId: 'march',
          payload: { format: 'csv' },
        }),
      });
    const first = await send('export-1');
    const retried = await send('export-1');
    const another = await send('export-2');
    expect([first.status, retried.status, another.status]).toEqual([202, 202, 202]);
    const ids = ((await Promise.all([first.json(), retried.json(), another.json()])) as { id: string }[]).map(
      (body) => body.id,
    );
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    expect((await list(tenantId, ['audit.read'])).body.total).toBe(2);
    expect((await send(' ')).status).toBe(400);
  });

  it('refuses an action that is not a client action, and a caller without a token', async () => {
    const tenantId = testTenant();
    const token = await h.token(['*'], tenantId);
    const forged = await h.call(token, 'POST', '/client-events', {
      action: 'cis.invoice.approved',
      targetId: 'i1',
    });
    expect(forged.status).toBe(400);
    expect(forged.body.errors).toEqual([
      expect.objectContaining({
        field: 'body.action',
        message: expect.stringContaining('SHARE_LINK_COPIED'),
      }),
    ]);
    expect((await h.call(undefined, 'POST', '/client-events', { action: 'cis.error' })).status).toBe(401);
    expect((await list(tenantId, ['audit.read'])).body.total).toBe(0);
  });
});

describe('GET /v1/entries', () => {
  it('pages newest first (pageSize 25 by default, at most 100) and filters by action, actor, target and date', async () => {
    const tenantId = testTenant();
    for (let i = 1; i <= 30; i++)
      await clientEvent(
        tenantId,
        i % 3 === 0 ? 'cis.export.invoices' : 'SHARE_LINK_COPIED',
        `t-${i}`,
        i % 2 ? USER : 'u-2',
      );
    const first = await list(tenantId, ['audit.read']);
    expect(first.body).toMatchObject({ total: 30, page: 1, pageSize: 25 });
    const items = first.body.items as EntryItem[];
    expect(items.map((item) => item.seq)).toEqual(Array.from({ length: 25 }, (_, i) => 30 - i));
    const second = await list(tenantId, ['audit.read'], '?page=2&pageSize=10');
    expect((second.body.items as EntryItem[]).map((item) => item.seq)).toEqual([
      20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
    ]);
    expect((await list(tenantId, ['audit.read'], '?pageSize=101')).status).toBe(400);
    expect((await list(tenantId, ['audit.read'], '?page=0')).status).toBe(400);

    const exports = await list(tenantId, ['audit.read'], '?action=cis.export.invoices&pageSize=100');
    expect(exports.body.total).toBe(10);
    expect((exports.body.items as EntryItem[]).every((item) => item.action === 'cis.export.invoices')).toBe(
      true,
    );
    const byActor = await list(tenantId, ['audit.read'], '?actorId=u-2&pageSize=100');
    expect(byActor.body.total).toBe(15);
    const byTarget = await list(tenantId, ['audit.read'], '?targetId=t-7');
    expect((byTarget.body.items as EntryItem[]).map((item) => item.seq)).toEqual([7]);

    const today = new Date().toISOString().slice(0, 10);
    expect((await list(tenantId, ['audit.read'], `?from=${today}&to=${today}`)).body.total).toBe(30);
    expect((await list(tenantId, ['audit.read'], '?to=2020-01-01')).body.total).toBe(0);
    const bad = await list(tenantId, ['audit.read'], '?from=yesterday');
    expect(bad.status).toBe(400);
  });

  it('filters by the occurredAt range of the events', async () => {
    const tenantId = testTenant();
    const times = ['2026-03-01T09:00:00.000Z', '2026-03-02T09:00:00.000Z', '2026-03-03T23:59:59.000Z'];
    for (const [i, time] of times.entries())
      await publisher.publish(
        'cis',
        'cis.invoice.paid',
        tenantId,
        { actorId: 'u1', targetId: `inv-${i}` },
        { time: new Date(time) },
      );
    await eventually(
      async () => (await list(tenantId, ['audit.read'])).body.total === 3,
      60_000,
      'the entries',
    );
    const answer = await list(tenantId, ['audit.read'], '?from=2026-03-02&to=2026-03-03');
    // Newest first is the order the log recorded them (the events came on different partitions): compare as sets.
    expect((answer.body.items as EntryItem[]).map((item) => item.targetId).sort()).toEqual([
      'inv-1',
      'inv-2',
    ]);
    const instant = await list(
      tenantId,
      ['audit.read'],
      '?from=2026-03-01T10:00:00Z&to=2026-03-03T00:00:00Z',
    );
    expect((instant.body.items as EntryItem[]).map((item) => item.targetId)).toEqual(['inv-1']);
  });

  it('shows a tenant’s reader their own tenant’s entries only, and a module auditor their module’s only', async () => {
    const [a, b] = [testTenant(), testTenant()];
    await clientEvent(a, 'cis.export.subcontractors', 'x-a');
    await clientEvent(a, 'SHARE_LINK_COPIED', 'share-a');
    await clientEvent(b, 'cis.export.subcontractors', 'x-b');
    const ofA = await list(a, ['audit.read'], '?pageSize=100');
    expect((ofA.body.items as EntryItem[]).map((item) => item.targetId).sort()).toEqual(['share-a', 'x-a']);
    // Filters name another tenant's target: still nothing of theirs.
    expect((await list(a, ['audit.read'], '?targetId=x-b')).body.total).toBe(0);
    const cisOnly = await list(a, ['cis.audit.read']);
    expect((cisOnly.body.items as EntryItem[]).map((item) => item.targetId)).toEqual(['x-a']);
    const driveOnly = await list(a, ['drive.audit.read']);
    expect((driveOnly.body.items as EntryItem[]).map((item) => item.targetId)).toEqual(['share-a']);
    const none = await list(a, ['cis.inv.read']);
    expect(none.status).toBe(403);
    expect(none.body.detail).toBe('This requires the audit.read permission (or a module audit permission).');
  });
});

describe('GET /v1/entries.csv', () => {
  it('answers the filtered entries as a CSV attachment, newest first, every formula cell neutralised', async () => {
    const tenantId = testTenant();
    await clientEvent(tenantId, 'cis.export.return', '=HYPERLINK("http://evil.example","x")');
    await clientEvent(tenantId, 'cis.export.return', '@SUM(1+1)');
    await clientEvent(tenantId, 'DRIVE_EXPORTED', 'drive-1');
    const token = await h.token(['audit.read'], tenantId);
    const answer = await h.call(token, 'GET', '/entries.csv?action=cis.export.return');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = answer.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Seq,Occurred at,Recorded at,Action,Module,Target,Actor,Source,Source event,Payload,Hash,Previous hash',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(",'@SUM(1+1),");
    expect(lines[2]).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",`);
    const denied = await h.call(await h.token([], tenantId), 'GET', '/entries.csv');
    expect(denied.status).toBe(403);
  });
});

describe('GET /v1/entries/stream', () => {
  it('sends each new entry the reader may see, and none of another module or tenant', async () => {
    const tenantId = testTenant();
    const token = await h.token(['drive.audit.read'], tenantId);
    const controller = new AbortController();
    const response = await fetch(`${h.baseUrl}/v1/entries/stream`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return text;
    };
    await readUntil(/retry: 5000/);
    await clientEvent(tenantId, 'cis.export.invoices', 'not-for-drive');
    await clientEvent(testTenant(), 'SHARE_LINK_COPIED', 'other-tenant');
    const { id } = await clientEvent(tenantId, 'SHARE_LINK_COPIED', 'share-9');
    await readUntil(/share-9/);
    controller.abort();
    const events = text.split('\n\n').filter((block) => block.startsWith('event:'));
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.split('\n')[0]).toBe('event: entry');
    const data = JSON.parse(event?.split('\n')[1]?.replace(/^data: /, '') ?? '{}') as EntryItem;
    expect(data).toMatchObject({
      id,
      seq: 2,
      action: 'SHARE_LINK_COPIED',
      module: 'drive',
      targetId: 'share-9',
    });
  });
});
