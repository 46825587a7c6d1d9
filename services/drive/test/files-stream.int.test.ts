import { FileStore } from '../src/db/files.store.js';
import { READER_SCOPES, seedDrive, seedFile, seedLibrary } from './files.fixtures.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

/*
 * Live updates of the file list (drive.md §4 "File list live subscription"): GET /v1/files/stream tells the
 * tenant's signed-in readers which drive changed (event `files`, {driveId, action}) whenever a file is inserted,
 * updated or deleted by anyone (migration 003's trigger, NOTIFY on commit, one LISTEN per replica).
 */

const ALICE = '00000000-0000-4000-8000-00000000a11c';
const UPLOADER = '00000000-0000-4000-8000-0000000000e0';

let h: DriveHarness;

beforeAll(async () => {
  h = await startDriveHarness();
});

afterAll(async () => {
  await h.stop();
});

interface Stream {
  /** The next `files` event of a file's change, within the time the test allows (access changes are counted). */
  next(): Promise<{ driveId: string; action: string }>;
  /** How many `files` events of an access change ({action: 'access'}) arrived so far. */
  accessChanges(): number;
  close(): void;
}

async function openStream(token: string, query = ''): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${h.driveUrl}/v1/files/stream${query}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no stream body');
  const decoder = new TextDecoder();
  const events: { driveId: string; action: string }[] = [];
  let accessChanges = 0;
  let buffered = '';
  return {
    async next() {
      while (events.length === 0) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error('the stream ended');
        buffered += decoder.decode(chunk.value, { stream: true });
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop() ?? '';
        for (const block of blocks) {
          if (!block.startsWith('event: files\n')) continue;
          const event = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as {
            driveId: string;
            action: string;
          };
          if (event.action === 'access') {
            expect(event).toEqual({ action: 'access' });
            accessChanges += 1;
          } else events.push(event);
        }
      }
      const [event] = events.splice(0, 1);
      if (!event) throw new Error('no event');
      return event;
    },
    accessChanges: () => accessChanges,
    close() {
      controller.abort();
    },
  };
}

describe('live updates of the file list', () => {
  it('tells a reader which drive changed when another user uploads, renames and trashes a file', async () => {
    const drive = await seedDrive(h, {
      members: [
        { userId: ALICE, role: 'contributor' },
        { userId: UPLOADER, role: 'contributor' },
      ],
    });
    const library = await seedLibrary(h, drive);
    const stream = await openStream(await h.token(READER_SCOPES, 'demo', ALICE));
    try {
      const file = await seedFile(h, {
        driveId: drive,
        libraryId: library,
        name: 'New.txt',
        ownerId: UPLOADER,
      });
      expect(await stream.next()).toEqual({ driveId: drive, action: 'insert' });
      // seedFile sets the test's fields after storing: an update of the same drive.
      expect(await stream.next()).toEqual({ driveId: drive, action: 'update' });
      const admin = await h.token(DRIVE_ADMIN_SCOPES);
      expect((await h.call(admin, 'PATCH', `/files/${file.id}`, { name: 'Renamed.txt' })).status).toBe(200);
      expect(await stream.next()).toEqual({ driveId: drive, action: 'update' });
      await h.definition
        .deps()
        .inTenant('demo', (trx) =>
          new FileStore(trx).update(file.id, { status: 'trashed', binnedAt: new Date() }),
        );
      expect(await stream.next()).toEqual({ driveId: drive, action: 'update' });
      await h.definition.deps().inTenant('demo', (trx) => trx('files').where({ id: file.id }).delete());
      expect(await stream.next()).toEqual({ driveId: drive, action: 'delete' });
    } finally {
      stream.close();
    }
  });

  it("never tells a reader about drives they cannot see, nor about another tenant's files", async () => {
    const hidden = await seedDrive(h, { name: 'Board only' });
    const hiddenLibrary = await seedLibrary(h, hidden);
    const visible = await seedDrive(h, { members: [{ userId: ALICE, role: 'contributor' }] });
    const visibleLibrary = await seedLibrary(h, visible);
    const acmeDrive = await seedDrive(h, { tenantId: 'acme' });
    const acmeLibrary = await seedLibrary(h, acmeDrive, { tenantId: 'acme' });
    const stream = await openStream(await h.token(READER_SCOPES, 'demo', ALICE));
    try {
      await seedFile(h, { driveId: hidden, libraryId: hiddenLibrary, name: 'Secret.txt' });
      await seedFile(h, { tenantId: 'acme', driveId: acmeDrive, libraryId: acmeLibrary, name: 'Acme.txt' });
      await seedFile(h, { driveId: visible, libraryId: visibleLibrary, name: 'Open.txt' });
      // The first event that reaches the reader is the visible drive's.
      expect(await stream.next()).toEqual({ driveId: visible, action: 'insert' });
    } finally {
      stream.close();
    }
  });

  it('DRV-387: a member added to a drive while their list is open hears that drive’s changes from then on, and one removed stops', async () => {
    const drive = await seedDrive(h, { name: 'Joined later' });
    const library = await seedLibrary(h, drive);
    const admin = await h.token(DRIVE_ADMIN_SCOPES);
    const stream = await openStream(await h.token(READER_SCOPES, 'demo', ALICE));
    try {
      await seedFile(h, { driveId: drive, libraryId: library, name: 'Before.txt' });
      const added = await h.call(admin, 'POST', `/drives/${drive}/members`, { userIds: [ALICE] });
      expect(added.status).toBe(200);
      await seedFile(h, { driveId: drive, libraryId: library, name: 'After.txt' });
      // The first change the reader hears is the file added after they joined (Before.txt's never reached them),
      // and the membership itself reached them as an access change (the list refetches).
      expect(await stream.next()).toEqual({ driveId: drive, action: 'insert' });
      expect(stream.accessChanges()).toBeGreaterThanOrEqual(1);
      expect((await h.call(admin, 'DELETE', `/drives/${drive}/members/${ALICE}`)).status).toBe(200);
      const visible = await seedDrive(h, { members: [{ userId: ALICE, role: 'contributor' }] });
      const visibleLibrary = await seedLibrary(h, visible);
      // Drain After.txt's own update (seedFile sets the test's fields after storing).
      expect(await stream.next()).toEqual({ driveId: drive, action: 'update' });
      await seedFile(h, { driveId: drive, libraryId: library, name: 'Gone.txt' });
      await seedFile(h, { driveId: visible, libraryId: visibleLibrary, name: 'Still.txt' });
      expect(await stream.next()).toEqual({ driveId: visible, action: 'insert' });
    } finally {
      stream.close();
    }
  });

  it('refuses a caller without a drive view scope, and another tenant named in the query', async () => {
    expect((await h.call(await h.token(['cis.inv.read']), 'GET', '/files/stream')).status).toBe(403);
    expect((await h.call(await h.token(READER_SCOPES), 'GET', '/files/stream?tenantId=acme')).status).toBe(
      404,
    );
  });
});
