import { randomUUID } from 'node:crypto';
import { adminRows, READER_SCOPES, seedDrive, seedFile, seedLibrary } from './files.fixtures.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import { FileStore } from '../src/db/files.store.js';
import { ControlledClock } from '@workspace/kit/testing';

/*
 * One file (GET /v1/files/:id), rename (PATCH), Share File with users (POST /v1/files/:id/share-with), stars and
 * Clear Stars, Recent (opened or uploaded in the last 30 days, at most 50) and Clear Recent.
 */

const ALICE = '00000000-0000-4000-8000-00000000a11c';
const BOB = '00000000-0000-4000-8000-0000000000b0';

let h: DriveHarness;
let admin: string;
let alice: string;
let drive: string;
let library: string;

interface Entry {
  id: string;
  name: string;
  visibility: string;
  sharedWithCount: number;
  sharedWith: string[];
}

const fileOf = (body: Record<string, unknown>) => body.file as Entry;

async function audited(type: string, fileId: string): Promise<Record<string, unknown>[]> {
  const rows = await adminRows<{ payload: Record<string, unknown> }>(
    h,
    'SELECT payload FROM outbox WHERE type = ? AND payload::text LIKE ? ORDER BY id',
    [type, `%${fileId}%`],
  );
  return rows.map((row) => row.payload);
}

beforeAll(async () => {
  h = await startDriveHarness({ clock: new ControlledClock(new Date()) });
  admin = await h.token(DRIVE_ADMIN_SCOPES);
  alice = await h.token(READER_SCOPES, 'demo', ALICE);
  drive = await seedDrive(h, { members: [{ userId: ALICE, role: 'contributor' }] });
  library = await seedLibrary(h, drive, { name: 'General' });
});

afterAll(async () => {
  await h.stop();
});

describe('one file', () => {
  it('answers a file the caller may open with its list fields', async () => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'Detail.txt' });
    const answer = await h.call(alice, 'GET', `/files/${file.id}`);
    expect(answer.status).toBe(200);
    expect(fileOf(answer.body)).toMatchObject({
      id: file.id,
      name: 'Detail.txt',
      ext: 'txt',
      typeClass: 'document',
      libraryName: 'General',
      ownerId: DRIVE_ADMIN_ID,
      status: 'active',
      version: 1,
      versionsCount: 1,
      hasThumbnail: false,
      orphanedRef: false,
    });
  });

  it("answers 'File not found' for a restricted file, an unknown id and another tenant's file", async () => {
    const hidden = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'Hidden.txt',
      visibility: 'restricted',
    });
    for (const id of [hidden.id, '00000000-0000-4000-8000-000000000000']) {
      const answer = await h.call(alice, 'GET', `/files/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toBe('File not found');
    }
    const acmeDrive = await seedDrive(h, { tenantId: 'acme' });
    const acmeLibrary = await seedLibrary(h, acmeDrive, { tenantId: 'acme' });
    const acme = await seedFile(h, {
      tenantId: 'acme',
      driveId: acmeDrive,
      libraryId: acmeLibrary,
      name: 'Acme.txt',
    });
    for (const [method, path, body] of [
      ['GET', `/files/${acme.id}`, undefined],
      ['PATCH', `/files/${acme.id}`, { name: 'Mine now.txt' }],
      ['POST', `/files/${acme.id}/share-with`, { userIds: [ALICE] }],
      ['PUT', `/files/${acme.id}/star`, undefined],
    ] as const) {
      expect((await h.call(admin, method, path, body)).status).toBe(404);
    }
  });
});

describe('rename', () => {
  it('renames with drive.file.rename and write access, audited as FILE_RENAMED', async () => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'Draft.txt' });
    const answer = await h.call(admin, 'PATCH', `/files/${file.id}`, { name: '  Final.txt ' });
    expect(answer.status).toBe(200);
    expect(fileOf(answer.body).name).toBe('Final.txt');
    expect(await audited('drive.file.renamed', file.id)).toHaveLength(1);
  });

  it("gives a name taken in the same folder ' (2)', and keeps a change of case as it is", async () => {
    await seedFile(h, { driveId: drive, libraryId: library, name: 'Taken.txt' });
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'Other.txt' });
    const renamed = await h.call(admin, 'PATCH', `/files/${file.id}`, { name: 'taken.txt' });
    expect(fileOf(renamed.body).name).toBe('taken (2).txt');
    const recased = await h.call(admin, 'PATCH', `/files/${file.id}`, { name: 'TAKEN (2).txt' });
    expect(fileOf(recased.body).name).toBe('TAKEN (2).txt');
  });

  it('refuses a reader without the rename scope, and a blank name', async () => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'Keep.txt' });
    const refused = await h.call(alice, 'PATCH', `/files/${file.id}`, { name: 'Changed.txt' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("You don't have permission to rename files");
    const blank = await h.call(admin, 'PATCH', `/files/${file.id}`, { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual([{ field: 'body.name', message: 'Name is required' }]);
  });

  it('refuses a rename in a read-only library to one without the replace-version scope', async () => {
    const readOnly = await seedLibrary(h, drive, { policies: { readOnly: true } });
    const file = await seedFile(h, { driveId: drive, libraryId: readOnly, name: 'Locked.txt' });
    const token = await h.token([...READER_SCOPES, 'drive.file.rename', 'drive.file.upload']);
    expect((await h.call(token, 'PATCH', `/files/${file.id}`, { name: 'Unlocked.txt' })).status).toBe(403);
  });
});

describe('Share File with users', () => {
  it("shares with the chosen users: sharedWith, visibility shared, FILE_SHARED and 'File sharing settings updated'", async () => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'Share me.pdf' });
    const answer = await h.call(
      admin,
      'POST',
      `/files/${file.id}/share-with`,
      { userIds: [ALICE, BOB] },
      { 'x-idempotency-key': `share-${file.id}` },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('File sharing settings updated');
    expect(fileOf(answer.body)).toMatchObject({ visibility: 'shared', sharedWithCount: 2 });
    const [event] = await audited('drive.file.shared', file.id);
    expect(event).toMatchObject({
      action: 'FILE_SHARED',
      targetId: file.id,
      details: { fileName: 'Share me.pdf', sharedWith: '2', visibility: 'shared' },
    });
    // The same key answers the first result without sharing again.
    const again = await h.call(
      admin,
      'POST',
      `/files/${file.id}/share-with`,
      { userIds: [ALICE, BOB] },
      { 'x-idempotency-key': `share-${file.id}` },
    );
    expect(again.body).toEqual(answer.body);
    expect(await audited('drive.file.shared', file.id)).toHaveLength(1);
  });

  it("answers 'File not found' for a file in the trash, and shares it with nobody", async () => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'Binned.pdf' });
    expect((await h.call(admin, 'POST', '/mutations/delete', { fileId: file.id })).body).toMatchObject({
      result: 'trashed',
    });
    const refused = await h.call(admin, 'POST', `/files/${file.id}/share-with`, { userIds: [BOB] });
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toBe('File not found');
    expect(await audited('drive.file.shared', file.id)).toHaveLength(0);
    const row = await h.definition
      .deps()
      .inTenant('demo', (trx) => trx('files').where({ id: file.id }).first());
    expect(row).toMatchObject({ status: 'trashed', shared_with: [], visibility: 'private' });
  });

  it('refuses no users, and the current user', async () => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'Nobody.pdf' });
    const none = await h.call(admin, 'POST', `/files/${file.id}/share-with`, { userIds: [] });
    expect(none.status).toBe(400);
    expect(none.body.detail).toBe('Choose at least one user to share with');
    const self = await h.call(admin, 'POST', `/files/${file.id}/share-with`, { userIds: [DRIVE_ADMIN_ID] });
    expect(self.status).toBe(400);
    expect(self.body.detail).toBe('You cannot share a file with yourself');
  });

  it("refuses without a share scope, or from a library that forbids sharing: 'You don't have permission to share files'", async () => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'No share.pdf' });
    const reader = await h.call(alice, 'POST', `/files/${file.id}/share-with`, { userIds: [BOB] });
    expect(reader.status).toBe(403);
    expect(reader.body.detail).toBe("You don't have permission to share files");
    const closed = await seedLibrary(h, drive, { policies: { shareAllowed: false } });
    const closedFile = await seedFile(h, { driveId: drive, libraryId: closed, name: 'Closed.pdf' });
    expect(
      (await h.call(admin, 'POST', `/files/${closedFile.id}/share-with`, { userIds: [BOB] })).status,
    ).toBe(403);
  });
});

describe('stars', () => {
  it('stars and unstars for the caller only; Clear Stars removes all of the caller’s', async () => {
    const one = await seedFile(h, { driveId: drive, libraryId: library, name: 'Star one.txt' });
    const two = await seedFile(h, { driveId: drive, libraryId: library, name: 'Star two.txt' });
    const starred = async (token: string) =>
      ((await h.call(token, 'GET', '/files?view=starred')).body.items as Entry[]).map((item) => item.name);
    await h.call(alice, 'PUT', `/files/${one.id}/star`);
    await h.call(alice, 'PUT', `/files/${one.id}/star`);
    await h.call(alice, 'PUT', `/files/${two.id}/star`);
    await h.call(admin, 'PUT', `/files/${two.id}/star`);
    expect(await starred(alice)).toEqual(['Star two.txt', 'Star one.txt']);
    expect((await h.call(alice, 'DELETE', `/files/${two.id}/star`)).status).toBe(204);
    expect(await starred(alice)).toEqual(['Star one.txt']);
    const cleared = await h.call(alice, 'DELETE', '/files/stars');
    expect(cleared.body).toEqual({ cleared: 1 });
    expect(await starred(alice)).toEqual([]);
    expect(await starred(admin)).toEqual(['Star two.txt']);
  });
});

describe('Recent', () => {
  const recent = async (token: string, query = '') =>
    (await h.call(token, 'GET', `/files?view=recent${query}`)).body as { items: Entry[]; total: number };

  it('lists files the caller uploaded or opened in the last 30 days, last opened first; Clear Recent empties it', async () => {
    const reader = await h.token(READER_SCOPES, 'demo', BOB);
    const ownDrive = await seedDrive(h, { ownerId: BOB, members: [] });
    const ownLibrary = await seedLibrary(h, ownDrive);
    const uploaded = await seedFile(h, {
      driveId: ownDrive,
      libraryId: ownLibrary,
      name: 'Mine.txt',
      ownerId: BOB,
    });
    const opened = await seedFile(h, { driveId: ownDrive, libraryId: ownLibrary, name: 'Opened.txt' });
    expect((await recent(reader)).items.map((item) => item.name)).toEqual(['Mine.txt']);
    expect((await h.call(reader, 'GET', `/preview?fileId=${opened.id}`)).status).toBe(200);
    expect((await recent(reader)).items.map((item) => item.name)).toEqual(['Opened.txt', 'Mine.txt']);
    // 31 days on, neither is recent any more.
    h.clock.advance(31 * 86_400_000);
    try {
      expect((await recent(reader)).items).toEqual([]);
      await h.call(reader, 'GET', `/download?fileId=${uploaded.id}`, undefined, {
        accept: 'application/json',
      });
      expect((await recent(reader)).items.map((item) => item.name)).toEqual(['Mine.txt']);
    } finally {
      h.clock.advance(-31 * 86_400_000);
    }
    expect((await h.call(reader, 'DELETE', '/files/recent')).body).toEqual({ cleared: 2 });
    expect((await recent(reader)).items).toEqual([]);
  });

  it('holds at most 50 files, paged within them', async () => {
    const user = '00000000-0000-4000-8000-0000000000c0';
    const token = await h.token(READER_SCOPES, 'demo', user);
    const ownDrive = await seedDrive(h, { ownerId: user });
    const ownLibrary = await seedLibrary(h, ownDrive);
    await h.definition.deps().inTenant('demo', async (trx) => {
      const store = new FileStore(trx);
      for (let i = 0; i < 55; i += 1) {
        const id = randomUUID();
        await store.insert({
          id,
          tenantId: 'demo',
          driveId: ownDrive,
          libraryId: ownLibrary,
          folderId: null,
          name: `Recent ${String(i).padStart(2, '0')}.txt`,
          ext: 'txt',
          mimeType: 'text/plain',
          typeClass: 'document',
          size: 1,
          checksum: 'x',
          storagePath: `tenants/demo/files/${id}/v/1`,
          contentFlag: null,
          ownerId: user,
          ownerName: 'C',
          visibility: 'private',
          createdBy: user,
          updatedBy: user,
        });
      }
    });
    const first = await recent(token, '&pageSize=40');
    expect(first.total).toBe(50);
    expect(first.items).toHaveLength(40);
    const second = await recent(token, '&pageSize=40&page=2');
    expect(second.items).toHaveLength(10);
    expect((await recent(token, '&pageSize=40&page=3')).items).toHaveLength(0);
    // The dashboard's ten.
    expect((await recent(token, '&pageSize=10')).items).toHaveLength(10);
  });
});
