import { randomUUID } from 'node:crypto';
import { driveEventType } from '@workspace/proto';
import { insertFile, makePlace, outbox, type Place } from './folders-fixtures.js';
import { startDriveHarness, type DriveHarness } from './support.js';

const OWNER = '00000000-0000-4000-8000-0000000000aa';
const FOLDER_SCOPES = ['drive.view', 'drive.file.read', 'drive.folders.create', 'drive.folders.manage'];
const MOVE_SCOPES = ['drive.view', 'drive.file.read', 'drive.file.upload', 'drive.file.move'];

interface Folder {
  id: string;
  name: string;
  slug: string;
  color: string;
  colorHex: string | null;
  parentId: string | null;
  ancestors: string[];
  fileCount: number;
  totalSize: number;
  driveName: string;
  libraryName: string | null;
}

describe('folders of a drive', () => {
  let h: DriveHarness;
  let place: Place;
  let manager: string;
  let creator: string;
  let reader: string;
  let mover: string;

  beforeAll(async () => {
    h = await startDriveHarness();
    place = await makePlace(h, 'demo', OWNER, 'Site files');
    manager = await h.token(FOLDER_SCOPES, 'demo', OWNER);
    creator = await h.token(['drive.view', 'drive.folders.create'], 'demo', OWNER);
    reader = await h.token(['drive.view', 'drive.file.read'], 'demo', OWNER);
    mover = await h.token(MOVE_SCOPES, 'demo', OWNER);
  });
  afterAll(async () => {
    await h.stop();
  });

  const create = async (body: Record<string, unknown>, token = manager) =>
    h.call(token, 'POST', '/folders/create', { driveId: place.driveId, ...body });
  const created = async (name: string, parentId: string | null = null, inPlace = place): Promise<Folder> => {
    const answer = await h.call(manager, 'POST', '/folders/create', {
      driveId: inPlace.driveId,
      name,
      parentId,
    });
    expect(answer.status).toBe(201);
    return answer.body.folder as Folder;
  };
  const update = (folderId: string, updates: Record<string, unknown>, token = manager) =>
    h.call(token, 'POST', '/folders/update', { driveId: place.driveId, folderId, updates });
  const listed = async (inPlace = place): Promise<Folder[]> =>
    (await h.call(reader, 'GET', `/drives/${inPlace.driveId}/folders`)).body.items as Folder[];
  const file = (name: string, folderId: string | null, bytes = 10) =>
    insertFile(h, 'demo', { ...place, folderId }, { name, bytes: Buffer.alloc(bytes, 1), ownerId: OWNER });

  describe('create', () => {
    it('creates a folder: folderId, the trimmed name, its slug, colour primary by default, FOLDER_CREATED', async () => {
      const answer = await create({ name: '  Site photos  ', parentId: null });
      expect(answer.status).toBe(201);
      expect(answer.body.folderId).toEqual((answer.body.folder as Folder).id);
      expect(answer.body.folder).toMatchObject({
        name: 'Site photos',
        slug: 'site-photos',
        color: 'primary',
        colorHex: null,
        parentId: null,
        ancestors: [],
        fileCount: 0,
        totalSize: 0,
        driveName: 'Site files',
      });
      const events = await outbox(h, driveEventType('FOLDER_CREATED'));
      expect(events.some((event) => event.targetId === answer.body.folderId)).toBe(true);
    });

    it('keeps a named colour, and takes a dialog swatch as its named colour', async () => {
      expect((await create({ name: 'Teal one', color: 'teal' })).body.folder).toMatchObject({
        color: 'teal',
        colorHex: '#6366F1',
      });
      expect((await create({ name: 'Pink one', color: '#ec4899' })).body.folder).toMatchObject({
        color: 'pink',
        colorHex: '#EC4899',
      });
      const unknown = await create({ name: 'Odd one', color: 'chartreuse' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.detail).toBe('Unknown folder colour');
    });

    it('refuses a blank name, and a payload without driveId or name', async () => {
      const blank = await create({ name: '   ' });
      expect(blank.status).toBe(400);
      expect(blank.body).toMatchObject({ code: 'FOLDER_NAME_REQUIRED', detail: 'Folder name is required' });
      const noDrive = await h.call(manager, 'POST', '/folders/create', { name: 'A' });
      expect(noDrive.status).toBe(400);
      expect(JSON.stringify(noDrive.body.errors)).toContain('body.driveId');
      const noName = await create({});
      expect(noName.status).toBe(400);
      expect(JSON.stringify(noName.body.errors)).toContain('body.name');
    });

    it('gives a clashing sibling slug -2, -3; the same name under another parent keeps its slug', async () => {
      const first = await created('Reports');
      const second = await created('reports!');
      const third = await created('REPORTS');
      expect([first.slug, second.slug, third.slug]).toEqual(['reports', 'reports-2', 'reports-3']);
      const nested = await created('Reports', first.id);
      expect(nested).toMatchObject({ slug: 'reports', parentId: first.id, ancestors: [first.id] });
      const deeper = await created('2026', nested.id);
      expect(deeper.ancestors).toEqual([first.id, nested.id]);
    });

    it('needs drive.folders.create or manage-all', async () => {
      const refused = await create({ name: 'Nope' }, reader);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe("You don't have permission to create folders");
      expect((await create({ name: 'By creator' }, creator)).status).toBe(201);
      const all = await h.token(['drive.manage_all'], 'demo', OWNER);
      expect((await create({ name: 'By manage-all' }, all)).status).toBe(201);
    });
  });

  describe('update', () => {
    it('renames (new slug) and recolours a folder: FOLDER_UPDATED', async () => {
      const folder = await created('Drawings');
      const answer = await update(folder.id, { name: ' Drawings rev B ', color: '#10B981' });
      expect(answer.status).toBe(200);
      expect(answer.body.folder).toMatchObject({
        name: 'Drawings rev B',
        slug: 'drawings-rev-b',
        color: 'green',
      });
      const events = await outbox(h, driveEventType('FOLDER_UPDATED'));
      expect(events.filter((event) => event.targetId === folder.id)).toHaveLength(1);
      // Unchanged name and colour: nothing is written, nothing audited.
      expect((await update(folder.id, { name: 'Drawings rev B', color: 'green' })).status).toBe(200);
      const after = await outbox(h, driveEventType('FOLDER_UPDATED'));
      expect(after.filter((event) => event.targetId === folder.id)).toHaveLength(1);
    });

    it('moves a folder with its subtree (ancestors rewritten), and back to the root', async () => {
      const a = await created('Move A');
      const b = await created('Move B');
      const child = await created('Child', b.id);
      const grandchild = await created('Grandchild', child.id);
      const moved = await update(b.id, { parentId: a.id });
      expect(moved.body.folder).toMatchObject({ parentId: a.id, ancestors: [a.id] });
      const byId = new Map((await listed()).map((folder) => [folder.id, folder]));
      expect(byId.get(child.id)?.ancestors).toEqual([a.id, b.id]);
      expect(byId.get(grandchild.id)?.ancestors).toEqual([a.id, b.id, child.id]);
      const root = await update(b.id, { parentId: null });
      expect(root.body.folder).toMatchObject({ parentId: null, ancestors: [] });
      expect((await listed()).find((folder) => folder.id === grandchild.id)?.ancestors).toEqual([
        b.id,
        child.id,
      ]);
    });

    it('refuses to move a folder under itself or one of its descendants', async () => {
      const top = await created('Loop top');
      const below = await created('Loop below', top.id);
      for (const parentId of [top.id, below.id]) {
        const answer = await update(top.id, { parentId });
        expect(answer.status).toBe(400);
        expect(answer.body.detail).toBe('A folder cannot be moved into itself or one of its sub-folders');
      }
    });

    it("refuses a blank name; without folder management or manage-all: 'You don't have permission to edit folders'", async () => {
      const folder = await created('Guarded');
      expect((await update(folder.id, { name: '  ' })).body.detail).toBe('Folder name is required');
      const refused = await update(folder.id, { name: 'Taken over' }, creator);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe("You don't have permission to edit folders");
      // Manage-all implies folder management.
      const all = await h.token(['drive.manage_all'], 'demo', OWNER);
      expect((await update(folder.id, { name: 'Managed' }, all)).body.folder).toMatchObject({
        name: 'Managed',
      });
      const noFolderId = await h.call(manager, 'POST', '/folders/update', {
        driveId: place.driveId,
        updates: {},
      });
      expect(noFolderId.status).toBe(400);
      expect(JSON.stringify(noFolderId.body.errors)).toContain('body.folderId');
    });
  });

  describe('delete', () => {
    it('removes the folder and its sub-folders; their files move to its parent, a clash taking (2)', async () => {
      const parent = await created('Delete parent');
      const doomed = await created('Doomed', parent.id);
      const inner = await created('Inner', doomed.id);
      await file('plan.pdf', parent.id);
      const a = await file('plan.pdf', doomed.id);
      const b = await file('notes.txt', inner.id);
      const answer = await h.call(manager, 'POST', '/folders/delete', {
        driveId: place.driveId,
        folderId: doomed.id,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        message: 'Folder deleted successfully',
        removedFolders: 2,
        movedFiles: 2,
        movedTo: parent.id,
      });
      const ids = (await listed()).map((folder) => folder.id);
      expect(ids).not.toContain(doomed.id);
      expect(ids).not.toContain(inner.id);
      const rows = await h.definition
        .deps()
        .inTenant('demo', (trx) =>
          trx('files').whereIn('id', [a.id, b.id]).select('id', 'name', 'folder_id'),
        );
      const byId = new Map(rows.map((row: { id: string }) => [row.id, row]));
      expect(byId.get(a.id)).toMatchObject({ name: 'plan (2).pdf', folder_id: parent.id });
      expect(byId.get(b.id)).toMatchObject({ name: 'notes.txt', folder_id: parent.id });
      expect((await listed()).find((folder) => folder.id === parent.id)?.fileCount).toBe(3);
      const events = await outbox(h, driveEventType('FOLDER_DELETED'));
      expect(events.some((event) => event.targetId === doomed.id)).toBe(true);
    });

    it("needs folder management: 'You don't have permission to delete folders'", async () => {
      const folder = await created('Keep me');
      const refused = await h.call(creator, 'POST', '/folders/delete', {
        driveId: place.driveId,
        folderId: folder.id,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe("You don't have permission to delete folders");
      const missing = await h.call(manager, 'POST', '/folders/delete', { driveId: place.driveId });
      expect(missing.status).toBe(400);
    });
  });

  describe('lists, slug chains and counts', () => {
    it('lists folders oldest first with counts, drive and library names', async () => {
      const own = await makePlace(h, 'demo', OWNER, 'Ordered drive');
      const first = await created('First', null, own);
      const second = await created('Second', null, own);
      const third = await created('Third', first.id, own);
      const items = await listed(own);
      expect(items.map((folder) => folder.id)).toEqual([first.id, second.id, third.id]);
      expect(items[0]).toMatchObject({
        driveName: 'Ordered drive',
        libraryName: null,
        fileCount: 0,
        totalSize: 0,
      });
    });

    it('resolves a slug chain to its folder with breadcrumbs; a missing step is Folder not found', async () => {
      const own = await makePlace(h, 'demo', OWNER, 'Chain drive');
      const a = await created('Project Alpha', null, own);
      const b = await created('Phase 2: Groundworks', a.id, own);
      const answer = await h.call(
        reader,
        'GET',
        `/drives/${own.driveId}/folders/by-path?slugs=project-alpha/phase-2-groundworks`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.drive).toEqual({ id: own.driveId, name: 'Chain drive' });
      expect((answer.body.folder as Folder).id).toBe(b.id);
      expect(answer.body.breadcrumbs).toEqual([
        { id: a.id, name: 'Project Alpha', slug: 'project-alpha', path: 'project-alpha' },
        {
          id: b.id,
          name: 'Phase 2: Groundworks',
          slug: 'phase-2-groundworks',
          path: 'project-alpha/phase-2-groundworks',
        },
      ]);
      const missing = await h.call(
        reader,
        'GET',
        `/drives/${own.driveId}/folders/by-path?slugs=project-alpha/nope`,
      );
      expect(missing.status).toBe(404);
      expect(missing.body.detail).toBe('Folder not found');
      // A folder's slug only opens it under its own parent.
      const skipped = await h.call(
        reader,
        'GET',
        `/drives/${own.driveId}/folders/by-path?slugs=phase-2-groundworks`,
      );
      expect(skipped.status).toBe(404);
    });

    it('update-counts recounts fileCount and totalSize of active files directly in each folder', async () => {
      const own = await makePlace(h, 'demo', OWNER, 'Count drive');
      const folder = await created('Counted', null, own);
      const child = await created('Counted child', folder.id, own);
      const put = (name: string, folderId: string, bytes: number) =>
        insertFile(h, 'demo', { ...own, folderId }, { name, bytes: Buffer.alloc(bytes, 1), ownerId: OWNER });
      await put('a.bin', folder.id, 100);
      await put('b.bin', folder.id, 50);
      const trashed = await put('c.bin', folder.id, 7);
      await put('d.bin', child.id, 5);
      await h.definition
        .deps()
        .inTenant('demo', (trx) => trx('files').where({ id: trashed.id }).update({ status: 'trashed' }));
      expect((await listed(own)).find((entry) => entry.id === folder.id)?.fileCount).toBe(0);
      const answer = await h.call(reader, 'POST', '/folders/update-counts', { driveId: own.driveId });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ driveId: own.driveId, recounted: 2 });
      const counts = new Map(
        (await listed(own)).map((entry) => [entry.id, [entry.fileCount, entry.totalSize]]),
      );
      expect(counts.get(folder.id)).toEqual([2, 150]);
      expect(counts.get(child.id)).toEqual([1, 5]);
    });
  });

  describe('folder-assign (moving files)', () => {
    it('moves files into a folder: FILE_MOVED each, BULK_DRIVE_MOVED, counts refreshed; null moves to the root', async () => {
      const target = await created('Inbox');
      const one = await file('one.pdf', null, 30);
      const two = await file('two.pdf', null, 12);
      const answer = await h.call(mover, 'POST', '/mutations/folder-assign', {
        driveId: place.driveId,
        fileIds: [one.id, two.id],
        toFolderId: target.id,
      });
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('File moved successfully');
      expect(answer.body.moved).toEqual([
        { id: one.id, name: 'one.pdf', folderId: target.id },
        { id: two.id, name: 'two.pdf', folderId: target.id },
      ]);
      expect((await listed()).find((folder) => folder.id === target.id)).toMatchObject({
        fileCount: 2,
        totalSize: 42,
      });
      const moves = await outbox(h, driveEventType('FILE_MOVED'));
      expect(moves.filter((event) => [one.id, two.id].includes(event.targetId as string))).toHaveLength(2);
      const bulk = await outbox(h, driveEventType('BULK_DRIVE_MOVED'));
      expect(bulk.some((event) => (event.targetIds as string[]).includes(one.id))).toBe(true);

      const back = await h.call(mover, 'POST', '/mutations/folder-assign', {
        driveId: place.driveId,
        fileIds: [one.id],
        toFolderId: null,
      });
      expect(back.body.moved).toEqual([{ id: one.id, name: 'one.pdf', folderId: null }]);
      expect((await listed()).find((folder) => folder.id === target.id)).toMatchObject({
        fileCount: 1,
        totalSize: 12,
      });
      const bulkAfter = await outbox(h, driveEventType('BULK_DRIVE_MOVED'));
      expect(bulkAfter).toHaveLength(bulk.length);
    });

    it('gives a name that clashes in the target folder the free-name suffix', async () => {
      const target = await created('Clash target');
      await file('invoice.pdf', target.id);
      const incoming = await file('Invoice.pdf', null);
      const answer = await h.call(mover, 'POST', '/mutations/folder-assign', {
        driveId: place.driveId,
        fileIds: [incoming.id],
        toFolderId: target.id,
      });
      expect(answer.body.moved).toEqual([{ id: incoming.id, name: 'Invoice (2).pdf', folderId: target.id }]);
    });

    it("refuses without driveId: 'Missing drive context for folder assignment'", async () => {
      const loose = await file('loose.pdf', null);
      const answer = await h.call(mover, 'POST', '/mutations/folder-assign', {
        fileIds: [loose.id],
        toFolderId: null,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'MISSING_DRIVE_CONTEXT',
        detail: 'Missing drive context for folder assignment',
      });
    });

    it('refuses a target folder or a file of another drive, and a caller without drive.file.move', async () => {
      const other = await makePlace(h, 'demo', OWNER, 'Other drive');
      const elsewhere = await created('Elsewhere', null, other);
      const loose = await file('stay.pdf', null);
      const wrong = await h.call(mover, 'POST', '/mutations/folder-assign', {
        driveId: place.driveId,
        fileIds: [loose.id],
        toFolderId: elsewhere.id,
      });
      expect(wrong.status).toBe(404);
      expect(wrong.body.detail).toBe('Folder not found');
      // A file of another drive cannot be moved into this drive's folders.
      const foreign = await insertFile(h, 'demo', other, {
        name: 'foreign.pdf',
        bytes: Buffer.from('x'),
        ownerId: OWNER,
      });
      const target = await created('Not for foreign files');
      const crossing = await h.call(mover, 'POST', '/mutations/folder-assign', {
        driveId: place.driveId,
        fileIds: [foreign.id],
        toFolderId: target.id,
      });
      expect(crossing.status).toBe(404);
      expect(crossing.body.detail).toBe('File not found');
      const refused = await h.call(reader, 'POST', '/mutations/folder-assign', {
        driveId: place.driveId,
        fileIds: [loose.id],
        toFolderId: null,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe("You don't have permission to move files");
    });
  });

  describe("another tenant's ids", () => {
    it('answer 404 on every folder route', async () => {
      const theirs = await makePlace(h, 'northwind', OWNER, 'Their drive');
      const theirFolder = randomUUID();
      await h.definition.deps().inTenant('northwind', (trx) =>
        trx('folders').insert({
          id: theirFolder,
          tenant_id: 'northwind',
          drive_id: theirs.driveId,
          slug: 'theirs',
          name: 'Theirs',
          created_by: OWNER,
        }),
      );
      const theirFile = await insertFile(h, 'northwind', theirs, {
        name: 'theirs.pdf',
        bytes: Buffer.from('x'),
        ownerId: OWNER,
      });
      const mine = await created('Mine');
      const answers = [
        await h.call(manager, 'POST', '/folders/create', { driveId: theirs.driveId, name: 'Intrude' }),
        await h.call(manager, 'POST', '/folders/create', {
          driveId: place.driveId,
          name: 'Under theirs',
          parentId: theirFolder,
        }),
        await h.call(manager, 'POST', '/folders/update', {
          driveId: theirs.driveId,
          folderId: theirFolder,
          updates: { name: 'X' },
        }),
        await h.call(manager, 'POST', '/folders/update', {
          driveId: place.driveId,
          folderId: theirFolder,
          updates: { name: 'X' },
        }),
        await h.call(manager, 'POST', '/folders/update', {
          driveId: place.driveId,
          folderId: mine.id,
          updates: { parentId: theirFolder },
        }),
        await h.call(manager, 'POST', '/folders/delete', { driveId: theirs.driveId, folderId: theirFolder }),
        await h.call(reader, 'GET', `/drives/${theirs.driveId}/folders`),
        await h.call(reader, 'GET', `/drives/${theirs.driveId}/folders/by-path?slugs=theirs`),
        await h.call(reader, 'POST', '/folders/update-counts', { driveId: theirs.driveId }),
        await h.call(mover, 'POST', '/mutations/folder-assign', {
          driveId: theirs.driveId,
          fileIds: [theirFile.id],
          toFolderId: null,
        }),
        await h.call(mover, 'POST', '/mutations/folder-assign', {
          driveId: place.driveId,
          fileIds: [theirFile.id],
          toFolderId: null,
        }),
        await h.call(manager, 'POST', '/folders/create', {
          tenantId: 'acme',
          driveId: place.driveId,
          name: 'Named tenant',
        }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 404));
      const stillTheirs = await h.definition
        .deps()
        .inTenant('northwind', (trx) => trx('folders').where({ id: theirFolder }).first());
      expect(stillTheirs).toMatchObject({ name: 'Theirs' });
    });
  });
});
