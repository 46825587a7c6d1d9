import { attachOnRegister } from '../src/commands/references.js';
import { FileStore } from '../src/db/files.store.js';
import { ReferenceStore } from '../src/db/references.store.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import {
  MEMBER_SCOPES,
  OWNER_ID,
  adminQuery,
  events,
  fileRow,
  seedFile,
  seedPlace,
  type Place,
} from './trash-fixtures.js';

const ATTACH_SCOPES = [...MEMBER_SCOPES, 'drive.attachment.add', 'drive.attachment.remove'];

describe('file references', () => {
  let h: DriveHarness;
  let place: Place;
  let member: string;
  beforeAll(async () => {
    h = await startDriveHarness();
    place = await seedPlace(h);
    member = await h.token(ATTACH_SCOPES, 'demo', OWNER_ID);
  });
  afterAll(async () => {
    await h.stop();
  });

  /** A file as a register step whose reference write failed leaves it: flagged, the reference kept to recreate. */
  async function orphanedFile(reference: { moduleId: string; entityId: string }, where: Place = place) {
    const file = await seedFile(h, where);
    const deps = h.definition.deps();
    await deps.inTenant('demo', async (trx) => {
      await new FileStore(trx).update(file.id, { orphanedRef: true });
      await new ReferenceStore(trx).recordIntent({
        tenantId: 'demo',
        fileId: file.id,
        ...reference,
        referenceType: 'attachment',
        metadata: { from: 'upload' },
        lastError: 'connection reset',
      });
    });
    return file;
  }

  describe('attach and detach', () => {
    it('adds a reference with fileId, moduleId, entityId, referenceType (default attachment), metadata and createdAt', async () => {
      const file = await seedFile(h, place);
      const answer = await h.call(member, 'POST', `/files/${file.id}/references`, {
        tenantId: 'demo',
        moduleId: 'schedule',
        entityId: 'event-42',
        metadata: { title: 'Site visit' },
      });
      expect(answer.status).toBe(201);
      expect(answer.body.reference).toMatchObject({
        fileId: file.id,
        moduleId: 'schedule',
        entityId: 'event-42',
        referenceType: 'attachment',
        metadata: { title: 'Site visit' },
      });
      expect(answer.body.refs).toEqual({ schedule: 1, notes: 0, chat: 0, tasks: 0, other: 0, total: 1 });
      const [row] = await adminQuery(h, 'SELECT * FROM drive.file_refs WHERE file_id = $1', [file.id]);
      expect(row).toMatchObject({
        module_id: 'schedule',
        entity_id: 'event-42',
        reference_type: 'attachment',
      });
      expect(row?.created_at).toBeInstanceOf(Date);
      expect(await events(h, 'FILE_REFERENCE_ADDED', file.id)).toHaveLength(1);

      // The same reference again answers the one there.
      const again = await h.call(member, 'POST', `/files/${file.id}/references`, {
        moduleId: 'schedule',
        entityId: 'event-42',
      });
      expect((again.body.reference as { id: string }).id).toBe((answer.body.reference as { id: string }).id);
      const chat = await h.call(member, 'POST', `/files/${file.id}/references`, {
        moduleId: 'chat',
        entityId: 'channel-1',
      });
      expect(chat.body.refs).toEqual({ schedule: 1, notes: 0, chat: 1, tasks: 0, other: 0, total: 2 });
    });

    it('lists and removes a reference; the file stays', async () => {
      const file = await seedFile(h, place);
      const added = await h.call(member, 'POST', `/files/${file.id}/references`, {
        moduleId: 'notes',
        entityId: 'note-1',
      });
      const referenceId = (added.body.reference as { id: string }).id;
      const listed = await h.call(member, 'GET', `/files/${file.id}/references`);
      expect(listed.body).toMatchObject({ refs: { notes: 1, total: 1 }, orphanedRef: false });
      const removed = await h.call(member, 'DELETE', `/files/${file.id}/references/${referenceId}`);
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ references: [], refs: { total: 0 } });
      expect((await fileRow(h, file.id))?.status).toBe('active');
      expect(await events(h, 'FILE_REFERENCE_REMOVED', file.id)).toHaveLength(1);
      const gone = await h.call(member, 'DELETE', `/files/${file.id}/references/${referenceId}`);
      expect(gone.status).toBe(404);
      expect(gone.body.detail).toBe('Reference not found');
    });

    it('refuses a caller without the attachment scopes', async () => {
      const file = await seedFile(h, place);
      const reader = await h.token(['drive.file.read'], 'demo', OWNER_ID);
      const add = await h.call(reader, 'POST', `/files/${file.id}/references`, {
        moduleId: 'chat',
        entityId: 'c',
      });
      expect(add.status).toBe(403);
      const remove = await h.call(
        reader,
        'DELETE',
        `/files/${file.id}/references/00000000-0000-4000-8000-000000000001`,
      );
      expect(remove.status).toBe(403);
    });

    it('asks for moduleId and entityId', async () => {
      const file = await seedFile(h, place);
      const answer = await h.call(member, 'POST', `/files/${file.id}/references`, { moduleId: ' ' });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body.errors)).toContain('moduleId is required');
    });

    it('answers 404 for another tenant’s file and for another tenantId', async () => {
      const foreign = await seedFile(h, await seedPlace(h, { tenantId: 'acme' }));
      const admin = await h.token(DRIVE_ADMIN_SCOPES);
      for (const [method, path] of [
        ['GET', `/files/${foreign.id}/references`],
        ['POST', `/files/${foreign.id}/references`],
        ['DELETE', `/files/${foreign.id}/references/00000000-0000-4000-8000-000000000001`],
      ] as const) {
        const answer = await h.call(
          admin,
          method,
          path,
          method === 'POST' ? { moduleId: 'chat', entityId: 'c' } : undefined,
        );
        expect(answer.status).toBe(404);
        expect(answer.body.detail).toBe('File not found');
      }
      const own = await seedFile(h, place);
      const other = await h.call(admin, 'POST', `/files/${own.id}/references`, {
        tenantId: 'acme',
        moduleId: 'chat',
        entityId: 'c',
      });
      expect(other.status).toBe(404);
      const repair = await h.call(admin, 'POST', '/mutations/repair-refs', {
        tenantId: 'acme',
        fileId: own.id,
      });
      expect(repair.status).toBe(404);
      const foreignRepair = await h.call(admin, 'POST', '/mutations/repair-refs', { fileId: foreign.id });
      expect(foreignRepair.status).toBe(404);
    });
  });

  describe('orphaned references', () => {
    it('a failed reference write at registration answers FILE_REF_WRITE_FAILED, flags the file (Needs repair) and keeps the reference to recreate', async () => {
      const file = await seedFile(h, place);
      const deps = h.definition.deps();
      const result = await deps.inTenant('demo', (trx) =>
        attachOnRegister(deps, trx, { tenantId: 'demo', userId: OWNER_ID }, file.id, {
          moduleId: '',
          entityId: 'event-1',
        }),
      );
      expect(result).toEqual({ ok: false, code: 'FILE_REF_WRITE_FAILED' });
      expect((await fileRow(h, file.id))?.orphaned_ref).toBe(true);
      const intents = await adminQuery(h, 'SELECT * FROM drive.file_ref_intents WHERE file_id = $1', [
        file.id,
      ]);
      expect(intents).toHaveLength(1);
      expect(String(intents[0]?.last_error)).toContain('file_refs_module_id');
    });

    it('a successful write at registration adds the reference and leaves the file unflagged', async () => {
      const file = await seedFile(h, place);
      const deps = h.definition.deps();
      const result = await deps.inTenant('demo', (trx) =>
        attachOnRegister(deps, trx, { tenantId: 'demo', userId: OWNER_ID }, file.id, {
          moduleId: 'schedule',
          entityId: 'event-9',
        }),
      );
      expect(result).toMatchObject({
        ok: true,
        reference: { moduleId: 'schedule', referenceType: 'attachment' },
      });
      expect((await fileRow(h, file.id))?.orphaned_ref).toBe(false);
    });

    it('attaching an orphaned file again clears its flag', async () => {
      const file = await orphanedFile({ moduleId: 'chat', entityId: 'channel-9' });
      const answer = await h.call(member, 'POST', `/files/${file.id}/references`, {
        moduleId: 'chat',
        entityId: 'channel-9',
      });
      expect(answer.body.orphanedRef).toBe(false);
      expect(
        await adminQuery(h, 'SELECT 1 FROM drive.file_ref_intents WHERE file_id = $1', [file.id]),
      ).toEqual([]);
    });
  });

  describe('repair-refs', () => {
    it('repairs one file: the recorded reference is recreated and the flag cleared (Reference repaired)', async () => {
      const file = await orphanedFile({ moduleId: 'schedule', entityId: 'event-7' });
      const answer = await h.call(member, 'POST', '/mutations/repair-refs', {
        tenantId: 'demo',
        fileId: file.id,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        fixed: [file.id],
        skipped: [],
        pending: [],
        summary: 'Repaired 1 • Skipped 0 • Pending 0',
      });
      expect((await fileRow(h, file.id))?.orphaned_ref).toBe(false);
      const [reference] = await adminQuery(h, 'SELECT * FROM drive.file_refs WHERE file_id = $1', [file.id]);
      expect(reference).toMatchObject({
        module_id: 'schedule',
        entity_id: 'event-7',
        metadata: { from: 'upload' },
      });
      expect(await events(h, 'FILE_REFERENCES_REPAIRED', file.id)).toHaveLength(1);
    });

    it('repairs every orphaned file of the drives in batches of 10: fixed, skipped and pending lists and the summary line', async () => {
      const drive = await seedPlace(h);
      const fixable = await Promise.all(
        Array.from({ length: 22 }, (_, n) =>
          orphanedFile({ moduleId: 'chat', entityId: `channel-${String(n)}` }, drive),
        ),
      );
      // Still failing: the recorded reference is not a valid one (repair leaves it pending).
      const failing = await orphanedFile({ moduleId: '', entityId: 'event-x' }, drive);
      // Trashed: pending until restored.
      const trashed = await orphanedFile({ moduleId: 'notes', entityId: 'note-3' }, drive);
      await adminQuery(h, `UPDATE drive.files SET status = 'trashed' WHERE id = $1`, [trashed.id]);
      // Attached anywhere again since: its flag is cleared.
      const reattached = await orphanedFile({ moduleId: 'notes', entityId: 'note-4' }, drive);
      await adminQuery(
        h,
        `INSERT INTO drive.file_refs (id, tenant_id, file_id, module_id, entity_id) VALUES (gen_random_uuid(), 'demo', $1, 'tasks', 'task-1')`,
        [reattached.id],
      );

      const answer = await h.call(member, 'POST', '/mutations/repair-refs', { driveIds: [drive.driveId] });
      expect(answer.status).toBe(200);
      const body = answer.body as { fixed: string[]; skipped: string[]; pending: string[]; summary: string };
      expect(new Set(body.fixed)).toEqual(new Set([...fixable.map((file) => file.id), reattached.id]));
      expect(new Set(body.pending)).toEqual(new Set([failing.id, trashed.id]));
      expect(body.skipped).toEqual([]);
      expect(body.summary).toBe('Repaired 23 • Skipped 0 • Pending 2');
      expect((await fileRow(h, failing.id))?.orphaned_ref).toBe(true);
      const [intent] = await adminQuery(h, 'SELECT attempts FROM drive.file_ref_intents WHERE file_id = $1', [
        failing.id,
      ]);
      expect(intent?.attempts).toBe(2);

      // Repairing a file that needs nothing skips it.
      const again = await h.call(member, 'POST', '/mutations/repair-refs', { fileId: reattached.id });
      expect(again.body).toMatchObject({
        skipped: [reattached.id],
        summary: 'Repaired 0 • Skipped 1 • Pending 0',
      });
    });

    it('refuses a caller without drive.attachment.add', async () => {
      const reader = await h.token(['drive.file.read'], 'demo', OWNER_ID);
      const answer = await h.call(reader, 'POST', '/mutations/repair-refs', {});
      expect(answer.status).toBe(403);
    });
  });
});
