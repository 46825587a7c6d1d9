// In-app notifications (issue 15, ADR 0052) on real PostgreSQL and Kafka, with identity, cis and the drive beside
// notification: the drive's signature requests and shares and cis's portal invoices reach the people who must act,
// once per event and thing; the bell's API shows each person their own only (across users and tenants), pages newest
// first with an unread count, marks read; its stream tells the reader, and only the reader, of a change.
import { randomUUID } from 'node:crypto';
import { callService, ControlledClock, eventually } from '@workspace/kit/testing';
import {
  ALL_CIS_SCOPES,
  CIS_ADMIN_ID,
  createSubcontractor,
  portalTokenOf,
  settingsBody,
} from '@workspace/cis/testing';
import {
  DRIVE_ADMIN_SCOPES,
  insertFile,
  makePdf,
  makePlace,
  startDriveWithCis,
  type DriveHarness,
  type DriveWithCisHarness,
} from '@workspace/drive/testing';
import { INTERNAL_TOKEN as IDENTITY_TOKEN } from '@workspace/identity/testing';
import { recordEvent, withTenant } from '@workspace/kit';
import { cisEvents, driveEvents } from '@workspace/proto';
import pg from 'pg';
import { createNotifications } from '../src/commands/notifications.js';

const ADMIN = '00000000-0000-4000-8000-000000000001'; // Ada Admin (demo seed)
const MANAGER = '00000000-0000-4000-8000-000000000002'; // Mo Manager
const EDITOR = '00000000-0000-4000-8000-000000000003';
const VIEWER = '00000000-0000-4000-8000-000000000004';
const CIS_ADMIN = '00000000-0000-4000-8000-000000000005'; // cis.admin@demo.test

let h: DriveWithCisHarness;
let notificationUrl: string;

interface Item {
  id: string;
  type: string;
  subject: string;
  link: string;
  read: boolean;
  readAt: string | null;
  createdAt: string;
}
interface Page {
  items: Item[];
  unreadCount: number;
  total: number;
  nextCursor: string | null;
}

const bell = async (uid: string, tenantId = 'demo') => h.token([], tenantId, uid);
const call = async (token: string, method: string, path: string) =>
  callService(`${notificationUrl}/v1${path}`, token, method);
const list = async (uid: string, query = '', tenantId = 'demo'): Promise<Page> => {
  const answer = await call(await bell(uid, tenantId), 'GET', `/notifications${query}`);
  expect(answer.status).toBe(200);
  return answer.body as unknown as Page;
};
/** The person's notifications whose link contains `marker` (other tests' and runs' events stay out of the checks). */
const about = async (uid: string, marker: string, tenantId = 'demo') =>
  (await list(uid, '?limit=100', tenantId)).items.filter((item) => item.link.includes(marker));

/** Who identity says holds a scope (its internal route, as notification asks). */
async function holders(scope: string): Promise<string[]> {
  const answer = await fetch(
    `${h.cis.identity.baseUrl}/v1/internal/tenants/demo/scope-holders?scope=${encodeURIComponent(scope)}`,
    { headers: { 'x-internal-token': IDENTITY_TOKEN } },
  );
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { items: { uid: string }[] }).items.map((item) => item.uid).sort();
}

/** Rows of notification.notifications as the administrator sees them (no row-level security). */
async function stored(sql: string, bindings: unknown[]): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: h.cis.identity.database.adminUrl });
  await client.connect();
  try {
    return (await client.query(sql, bindings)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** A subcontractor of demo and its own portal session, from a real invitation link redeemed at identity. */
async function portalSession(name: string): Promise<{ subcontractor: string; portal: string }> {
  const cisAdmin = await h.cis.token(ALL_CIS_SCOPES, 'demo', CIS_ADMIN_ID);
  expect((await h.cis.call(cisAdmin, 'PUT', '/settings', settingsBody())).status).toBe(200);
  const subcontractor = await createSubcontractor(h.cis, cisAdmin, { name });
  const portal = await portalTokenOf(h.cis, await h.cis.signInAs('admin@demo.test'), subcontractor);
  return { subcontractor, portal };
}

beforeAll(async () => {
  h = await startDriveWithCis({ inAppNotifications: true });
  notificationUrl = h.cis.notificationUrl;
});

afterAll(async () => {
  await h.stop();
});

// The first event may wait for the consumer group to join (the topics' ends were committed for it before it started,
// so nothing is missed): a minute on a busy machine.
describe('producers', () => {
  it('a signature request tells the assignee, once: subject, link to the task, unread', async () => {
    const driveHarness = h as unknown as DriveHarness;
    const place = await makePlace(driveHarness, 'demo', MANAGER);
    const file = await insertFile(driveHarness, 'demo', place, {
      name: 'Subcontract.pdf',
      bytes: await makePdf('Subcontract'),
      mimeType: 'application/pdf',
      ownerId: MANAGER,
    });
    // Mo signs in through identity for real: the drive asks identity whether the assignee is a colleague.
    const requester = await h.cis.signInAs('manager@demo.test');
    const answer = await h.call(requester, 'POST', '/signatures', { fileId: file.id, assignedToUid: ADMIN });
    expect(answer.status).toBe(201);
    const taskId = (answer.body.task as { id: string }).id;
    const [item] = await eventually(
      async () => {
        const found = await about(ADMIN, taskId);
        return found.length > 0 ? found : undefined;
      },
      60_000,
      'the signature notification',
    );
    expect(item).toMatchObject({
      type: 'drive.signature.requested',
      subject: 'You are asked to sign “Subcontract.pdf”',
      link: `/drive/signatures?task=${taskId}`,
      fromUid: MANAGER,
      subjectType: 'signature',
      subjectId: taskId,
      subjectName: 'Subcontract.pdf',
      read: false,
      readAt: null,
    });
    // The requester is told nothing.
    expect(await about(MANAGER, taskId)).toEqual([]);
  });

  it('Share File with users tells each person added (not the one sharing), once per file', async () => {
    const driveHarness = h as unknown as DriveHarness;
    const place = await makePlace(driveHarness, 'demo', ADMIN, `Shared ${randomUUID().slice(0, 8)}`);
    const file = await insertFile(driveHarness, 'demo', place, {
      name: 'Site plan.pdf',
      bytes: await makePdf('Site plan'),
      mimeType: 'application/pdf',
      ownerId: ADMIN,
    });
    const admin = await h.token(DRIVE_ADMIN_SCOPES, 'demo', ADMIN);
    const shared = await h.call(admin, 'POST', `/files/${file.id}/share-with`, { userIds: [EDITOR, VIEWER] });
    expect(shared.status).toBe(200);
    for (const uid of [EDITOR, VIEWER]) {
      const [item] = await eventually(
        async () => {
          const found = await about(uid, file.id);
          return found.length > 0 ? found : undefined;
        },
        60_000,
        `the share notification of ${uid}`,
      );
      expect(item).toMatchObject({
        type: 'drive.file.shared',
        subject: '“Site plan.pdf” was shared with you',
        link: `/drive/all?file=${file.id}`,
        fromUid: ADMIN,
        subjectType: 'file',
        subjectId: file.id,
        subjectName: 'Site plan.pdf',
        read: false,
      });
    }
    // Sharing again with one more person tells only that person; those already told get nothing new.
    const again = await h.call(admin, 'POST', `/files/${file.id}/share-with`, {
      userIds: [EDITOR, CIS_ADMIN],
    });
    expect(again.status).toBe(200);
    await eventually(async () => (await about(CIS_ADMIN, file.id)).length === 1, 60_000, 'the second share');
    expect(await about(EDITOR, file.id)).toHaveLength(1);
    expect(await about(ADMIN, file.id)).toEqual([]);
  });

  it('a restricted share of several files tells each allowed user once, linking to the share', async () => {
    const driveHarness = h as unknown as DriveHarness;
    const place = await makePlace(driveHarness, 'demo', ADMIN, `Export ${randomUUID().slice(0, 8)}`);
    const fileIds: string[] = [];
    for (const name of ['Drawings.pdf', 'RAMS.pdf']) {
      const file = await insertFile(driveHarness, 'demo', place, {
        name,
        bytes: await makePdf(name),
        mimeType: 'application/pdf',
        ownerId: ADMIN,
      });
      fileIds.push(file.id);
    }
    const admin = await h.token(DRIVE_ADMIN_SCOPES, 'demo', ADMIN);
    const share = await h.call(admin, 'POST', '/mutations/share', {
      name: 'Site pack',
      libraryId: place.libraryId,
      fileIds,
      visibility: 'restricted',
      allowedUids: [EDITOR, VIEWER],
      policy: { allowDownload: true, watermark: false, expiresAt: null },
    });
    expect(share.status).toBeLessThan(300);
    const shareId = String(
      (share.body as { id?: string; share?: { id: string } }).share?.id ?? share.body.id,
    );
    for (const uid of [EDITOR, VIEWER]) {
      const items = await eventually(
        async () => {
          const found = await about(uid, shareId);
          return found.length > 0 ? found : undefined;
        },
        60_000,
        `the share notification of ${uid}`,
      );
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        type: 'drive.file.shared',
        link: `/share/${shareId}`,
        subjectType: 'share',
        subjectId: shareId,
        fromUid: ADMIN,
      });
      expect(items[0]?.subject).toMatch(/^Files were shared with you, starting with “(Drawings|RAMS)\.pdf”$/);
    }
    expect(await about(ADMIN, shareId)).toEqual([]);
    expect(await about(MANAGER, shareId)).toEqual([]);
  });

  it('a portal invoice tells every user who may approve invoices, and only them', async () => {
    const { portal } = await portalSession('Portal Plastering Ltd');
    const number = `PP-${randomUUID().slice(0, 6)}`;
    const submitted = await h.cis.call(portal, 'POST', '/portal/invoices', {
      invoiceNumber: number,
      invoiceDate: new Date().toISOString().slice(0, 10),
      grossP: 120_000,
      materialsP: 20_000,
      vatRate: 20,
    });
    expect(submitted.status).toBe(201);
    const invoiceId = (submitted.body.invoice as { id: string }).id;
    const approvers = await holders('cis.inv.approve');
    expect(approvers).toContain(CIS_ADMIN);
    expect(approvers).not.toContain(VIEWER);
    for (const uid of approvers) {
      const [item] = await eventually(
        async () => {
          const found = await about(uid, invoiceId);
          return found.length > 0 ? found : undefined;
        },
        60_000,
        `the portal invoice notification of ${uid}`,
      );
      expect(item).toMatchObject({
        type: 'cis.invoice.awaiting_approval',
        subject: `Portal invoice ${number} is awaiting your approval`,
        link: `/cis/invoices/${invoiceId}`,
        read: false,
      });
    }
    expect(await about(VIEWER, invoiceId)).toEqual([]);
    expect(await about(EDITOR, invoiceId)).toEqual([]);
  });

  it('the same event delivered twice, and a second event about the same thing, make one notification', async () => {
    const taskId = randomUUID();
    const data = {
      action: 'SIGNATURE_REQUESTED',
      actorId: MANAGER,
      targetType: 'signature',
      targetId: taskId,
      details: { fileId: randomUUID(), fileName: 'Twice.pdf', assignedToUid: ADMIN },
    };
    // Written to the drive's outbox as the drive does: its relay publishes them (the second one is another event
    // about the same task); then the first is published again as Kafka may redeliver it.
    const deps = h.drive.deps;
    await withTenant(deps.db, 'demo', async (trx) => {
      await recordEvent(trx, deps.source, driveEvents.SIGNATURE_REQUESTED, {
        tenantId: 'demo',
        aggregateId: taskId,
        data,
      });
      await recordEvent(trx, deps.source, driveEvents.SIGNATURE_REQUESTED, {
        tenantId: 'demo',
        aggregateId: taskId,
        data,
      });
    });
    await eventually(async () => (await about(ADMIN, taskId)).length === 1, 60_000, 'the notification');
    const [event] = await stored(
      `SELECT id FROM drive.outbox WHERE type = 'drive.signature.requested' AND payload->>'targetId' = $1 ORDER BY id LIMIT 1`,
      [taskId],
    );
    await stored(`UPDATE drive.outbox SET published_at = NULL WHERE id = $1`, [event?.id]);
    await eventually(
      async () =>
        (
          await stored(`SELECT published_at FROM drive.outbox WHERE id = $1 AND published_at IS NOT NULL`, [
            event?.id,
          ])
        ).length === 1,
      60_000,
      'the repeat to be published',
    );
    // Both events and the repeat were consumed (the inbox holds the two ids); one notification stays.
    await eventually(
      async () =>
        (
          await stored(
            `SELECT count(*)::int AS n FROM notification.inbox i JOIN drive.outbox o ON o.event_id = i.event_id
               WHERE o.payload->>'targetId' = $1`,
            [taskId],
          )
        )[0]?.n === 2,
      60_000,
      'both events in the inbox',
    );
    expect(await about(ADMIN, taskId)).toHaveLength(1);
    const rows = await stored(
      `SELECT count(*)::int AS n FROM notification.notifications WHERE source_key = $1`,
      [`drive.signature:${taskId}`],
    );
    expect(rows[0]?.n).toBe(1);
    expect(cisEvents['cis.invoice.created'].topic).toBe('cis.events.v1');
  });
});

/** Notifications made for `uid` at the given times (as a consumer makes them), answering their source keys. */
async function seed(uid: string, times: string[], tenantId = 'demo'): Promise<string[]> {
  const keys: string[] = [];
  for (const [index, at] of times.entries()) {
    const key = `test:${randomUUID()}`;
    keys.push(key);
    await withTenant(h.cis.notification.deps.db, tenantId, (trx) =>
      createNotifications(trx, new ControlledClock(new Date(at)), [
        {
          tenantId,
          targetUid: uid,
          type: 'drive.file.shared',
          subject: `Item ${index + 1}`,
          link: `/drive/all?file=${key}`,
          sourceKey: key,
        },
      ]),
    );
  }
  return keys;
}

describe("the bell's API", () => {
  it('lists the caller’s own notifications newest first, a page at a time, with the unread count', async () => {
    const person = randomUUID();
    await seed(person, [
      '2026-11-01T09:00:00Z',
      '2026-11-03T09:00:00Z',
      '2026-11-02T09:00:00Z',
      '2026-11-04T09:00:00Z',
      '2026-11-05T09:00:00Z',
    ]);
    const first = await list(person, '?limit=2');
    expect(first.items.map((item) => item.subject)).toEqual(['Item 5', 'Item 4']);
    expect(first).toMatchObject({ unreadCount: 5, total: 5 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list(person, `?limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(second.items.map((item) => item.subject)).toEqual(['Item 2', 'Item 3']);
    const third = await list(person, `?limit=2&cursor=${second.nextCursor ?? ''}`);
    expect(third.items.map((item) => item.subject)).toEqual(['Item 1']);
    expect(third.nextCursor).toBeNull();
    expect(first.items[0]).toMatchObject({
      createdAt: '2026-11-05T09:00:00.000Z',
      read: false,
      readAt: null,
    });
  });

  it('refuses a bad page size or cursor with a clear error', async () => {
    const token = await bell(randomUUID());
    for (const [query, detail] of [
      ['?limit=0', 'Limit must be at least 1'],
      ['?limit=101', 'Limit must be at most 100'],
      ['?cursor=not-a-cursor', 'The cursor is not valid.'],
    ] as const) {
      const answer = await call(token, 'GET', `/notifications${query}`);
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(detail);
    }
    expect((await callService(`${notificationUrl}/v1/notifications`, undefined, 'GET')).status).toBe(401);
  });

  it('marks one read, then all; another person’s, or another tenant’s, is not found and stays unread', async () => {
    const person = randomUUID();
    const colleague = randomUUID();
    await seed(person, ['2026-11-01T09:00:00Z', '2026-11-02T09:00:00Z', '2026-11-03T09:00:00Z']);
    await seed(colleague, ['2026-11-01T09:00:00Z']);
    // The same user id in another tenant is another person.
    await seed(person, ['2026-11-01T09:00:00Z'], 'acme');
    const mine = await list(person);
    const theirs = await list(colleague);
    const acme = await list(person, '', 'acme');
    expect(mine.total).toBe(3);
    expect(theirs.total).toBe(1);
    expect(acme.total).toBe(1);
    const token = await bell(person);
    const [newest, middle] = mine.items;
    const read = await call(token, 'POST', `/notifications/${newest?.id ?? ''}/read`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ notification: { id: newest?.id, read: true }, unreadCount: 2 });
    // Reading it again changes nothing (its first read time stays).
    const again = await call(token, 'POST', `/notifications/${newest?.id ?? ''}/read`);
    expect((again.body.notification as Item).readAt).toBe((read.body.notification as Item).readAt);
    // Another person's and another tenant's: not found, and untouched.
    for (const id of [theirs.items[0]?.id, acme.items[0]?.id, randomUUID()]) {
      const refused = await call(token, 'POST', `/notifications/${id ?? ''}/read`);
      expect(refused.status).toBe(404);
      expect(refused.body.detail).toBe('Notification not found');
    }
    expect((await list(colleague)).unreadCount).toBe(1);
    expect((await list(person, '', 'acme')).unreadCount).toBe(1);
    expect((await call(token, 'POST', '/notifications/not-an-id/read')).status).toBe(400);
    const all = await call(token, 'POST', '/notifications/read-all');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ marked: 2, unreadCount: 0 });
    const after = await list(person);
    expect(after.items.every((item) => item.read)).toBe(true);
    expect(after.items.find((item) => item.id === middle?.id)?.readAt).toEqual(expect.any(String));
    // Everyone else's stay unread.
    expect((await list(colleague)).unreadCount).toBe(1);
    expect((await list(person, '', 'acme')).unreadCount).toBe(1);
  });

  it('refuses a portal session: notifications are for staff', async () => {
    const { portal } = await portalSession('Stream Scaffolding Ltd');
    expect((await call(portal, 'GET', '/notifications')).status).toBe(403);
  });
});

/** An open stream of the bell: its events as they come. */
async function openStream(token: string) {
  const controller = new AbortController();
  const response = await fetch(`${notificationUrl}/v1/notifications/stream`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no stream body');
  const decoder = new TextDecoder();
  const events: { event: string; data: Record<string, unknown> }[] = [];
  let buffered = '';
  return {
    events,
    async next(): Promise<{ event: string; data: Record<string, unknown> }> {
      while (events.length === 0) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error('the stream ended');
        buffered += decoder.decode(chunk.value, { stream: true });
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop() ?? '';
        for (const block of blocks) {
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
      const [first] = events.splice(0, 1);
      if (!first) throw new Error('no event');
      return first;
    },
    close() {
      controller.abort();
    },
  };
}

describe("the bell's stream", () => {
  it('opens with the unread count and tells the reader of a new notification and of a read, only theirs', async () => {
    const person = randomUUID();
    const colleague = randomUUID();
    await seed(person, ['2026-11-01T09:00:00Z', '2026-11-02T09:00:00Z']);
    const stream = await openStream(await bell(person));
    try {
      expect(await stream.next()).toEqual({ event: 'unread', data: { unreadCount: 2 } });
      // A colleague's notification, then the reader's own: only the reader's comes through.
      await seed(colleague, ['2026-11-03T09:00:00Z']);
      await seed(person, ['2026-11-04T09:00:00Z']);
      expect(await stream.next()).toEqual({
        event: 'notifications',
        data: { targetUid: person, action: 'insert' },
      });
      const [newest] = (await list(person)).items;
      await call(await bell(person), 'POST', `/notifications/${newest?.id ?? ''}/read`);
      expect(await stream.next()).toEqual({
        event: 'notifications',
        data: { targetUid: person, action: 'update' },
      });
      expect(stream.events).toEqual([]);
    } finally {
      stream.close();
    }
  });
});
