import { jest } from '@jest/globals';
import { removeQueuedObjects } from '../src/commands/object-removals.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import {
  MEMBER_SCOPES,
  OTHER_ID,
  OWNER_ID,
  adminQuery,
  events,
  fileRow,
  seedFile,
  seedPlace,
  usage,
  type Place,
} from './trash-fixtures.js';

describe('trash, restore and purge', () => {
  let h: DriveHarness;
  let place: Place;
  let owner: string;
  beforeAll(async () => {
    h = await startDriveHarness();
    place = await seedPlace(h);
    owner = await h.token(MEMBER_SCOPES, 'demo', OWNER_ID);
  });
  afterAll(async () => {
    await h.stop();
  });

  describe('soft delete', () => {
    it('moves the file to the trash with its bin time, audits FILE_TRASHED and releases its bytes (freeSpaceOnSoftDelete on by default)', async () => {
      const file = await seedFile(h, place, { bytes: Buffer.alloc(4_096, 1) });
      const before = await usage(h);
      const answer = await h.call(owner, 'POST', '/mutations/delete', { tenantId: 'demo', fileId: file.id });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        fileId: file.id,
        result: 'trashed',
        message: 'File moved to trash',
        releasedBytes: 4_096,
      });
      const row = await fileRow(h, file.id);
      expect(row).toMatchObject({ status: 'trashed', binned_by: OWNER_ID });
      expect(row?.binned_at).toBeInstanceOf(Date);
      expect(await usage(h)).toEqual({ used: before.used - 4_096, files: before.files - 1 });
      expect(await events(h, 'FILE_TRASHED', file.id)).toHaveLength(1);
      // The object stays until the file is purged.
      expect(await h.objects.stat(file.storagePath)).toBeDefined();
    });

    it('refuses a second soft delete of a trashed file', async () => {
      const file = await seedFile(h, place);
      await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
      const again = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'ALREADY_TRASHED', detail: 'File is already in the trash' });
    });

    it('answers a repeated idempotency key (tenant:file:delete) with the first answer, once; after a restore the same key trashes again', async () => {
      const file = await seedFile(h, place);
      const key = { 'x-idempotency-key': `demo:${file.id}:delete` };
      const first = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id }, key);
      const second = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id }, key);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(await events(h, 'FILE_TRASHED', file.id)).toHaveLength(1);

      expect((await h.call(owner, 'POST', '/mutations/restore', { fileId: file.id })).status).toBe(200);
      const third = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id }, key);
      expect(third.status).toBe(200);
      expect((await fileRow(h, file.id))?.status).toBe('trashed');
      expect(await events(h, 'FILE_TRASHED', file.id)).toHaveLength(2);
    });

    it('deletes for good with permanent (hard delete): FILE_DELETED, "File permanently deleted", object gone', async () => {
      const file = await seedFile(h, place);
      const answer = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id, permanent: true });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        result: 'deleted',
        message: 'File permanently deleted',
        binnedAt: null,
      });
      expect(await fileRow(h, file.id)).toBeUndefined();
      expect(await h.objects.stat(file.storagePath)).toBeUndefined();
      expect(await events(h, 'FILE_DELETED', file.id)).toHaveLength(1);
    });

    it('refuses a permanent delete without the hard delete permission', async () => {
      const file = await seedFile(h, place);
      const softOnly = await h.token(['drive.file.read', 'drive.file.soft_delete'], 'demo', OWNER_ID);
      const answer = await h.call(softOnly, 'POST', '/mutations/delete', {
        fileId: file.id,
        permanent: true,
      });
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe("You don't have permission to permanently delete files");
      expect((await fileRow(h, file.id))?.status).toBe('active');
    });

    it('refuses a caller without a delete scope of the library', async () => {
      const file = await seedFile(h, place);
      const reader = await h.token(['drive.file.read'], 'demo', OWNER_ID);
      const answer = await h.call(reader, 'POST', '/mutations/delete', { fileId: file.id });
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe("You don't have permission to delete files");
    });

    it('asks for fileId or fileIds', async () => {
      const answer = await h.call(owner, 'POST', '/mutations/delete', { tenantId: 'demo' });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body.errors)).toContain('Give either fileId or fileIds.');
    });
  });

  describe('restore', () => {
    it('returns a trashed file to active and takes its bytes back: FILE_RESTORED', async () => {
      const file = await seedFile(h, place, { bytes: Buffer.alloc(1_000, 2) });
      await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
      const before = await usage(h);
      const answer = await h.call(owner, 'POST', '/mutations/restore', { tenantId: 'demo', fileId: file.id });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        message: 'File restored',
        restored: [{ fileId: file.id, name: file.name, renamed: false }],
        failed: 0,
        errors: [],
      });
      expect(await fileRow(h, file.id)).toMatchObject({
        status: 'active',
        binned_at: null,
        released_bytes: null,
      });
      expect(await usage(h)).toEqual({ used: before.used + 1_000, files: before.files + 1 });
      expect(await events(h, 'FILE_RESTORED', file.id)).toHaveLength(1);
    });

    it('gives the restored file the next free name when a live file took its name meanwhile', async () => {
      const first = await seedFile(h, place, { name: 'Site plan.pdf', mimeType: 'application/pdf' });
      await h.call(owner, 'POST', '/mutations/delete', { fileId: first.id });
      // A trashed file no longer holds its name: the new upload gets it.
      const second = await seedFile(h, place, { name: 'Site plan.pdf', mimeType: 'application/pdf' });
      expect(second.name).toBe('Site plan.pdf');
      const answer = await h.call(owner, 'POST', '/mutations/restore', { fileId: first.id });
      expect(answer.body.restored).toEqual([{ fileId: first.id, name: 'Site plan (2).pdf', renamed: true }]);
      expect((await fileRow(h, first.id))?.name).toBe('Site plan (2).pdf');
    });

    it('restores several files at once, listing the ones that could not be', async () => {
      const a = await seedFile(h, place);
      const b = await seedFile(h, place);
      const live = await seedFile(h, place);
      await h.call(owner, 'POST', '/mutations/delete', { fileIds: [a.id, b.id] });
      const answer = await h.call(owner, 'POST', '/mutations/restore', { fileIds: [a.id, b.id, live.id] });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        message: '2 files restored',
        failed: 1,
        errors: [{ fileId: live.id, code: 'NOT_TRASHED', message: 'File is not in the trash' }],
      });
    });

    it('refuses a caller without the restore permission', async () => {
      const file = await seedFile(h, place);
      await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
      const noRestore = await h.token(['drive.file.read', 'drive.file.soft_delete'], 'demo', OWNER_ID);
      const answer = await h.call(noRestore, 'POST', '/mutations/restore', { fileId: file.id });
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe("You don't have permission to restore files");
    });
  });

  describe('purge', () => {
    it('removes every version’s object, the record, its versions, stars, views, share entries and references, releases the quota and audits FILE_PURGED', async () => {
      const file = await seedFile(h, place, { bytes: Buffer.alloc(2_048, 3) });
      const deps = h.definition.deps();
      const { storeServerVersion } = await import('../src/commands/versions.js');
      const versioned = await deps.inTenant('demo', (trx) =>
        storeServerVersion(deps, trx, { tenantId: 'demo', userId: OWNER_ID }, file, {
          bytes: Buffer.alloc(1_024, 4),
          mimeType: 'text/plain',
          note: 'second',
        }),
      );
      await adminQuery(
        h,
        `INSERT INTO drive.file_stars (tenant_id, file_id, user_id) VALUES ('demo', $1, $2);
         INSERT INTO drive.file_views (tenant_id, file_id, user_id) VALUES ('demo', $1, $2) ON CONFLICT DO NOTHING;
         INSERT INTO drive.file_refs (id, tenant_id, file_id, module_id, entity_id) VALUES (gen_random_uuid(), 'demo', $1, 'schedule', 'event-1');`
          .replace(/\$2/g, `'${OTHER_ID}'`)
          .replace(/\$1/g, `'${file.id}'`),
      );
      const [share] = await adminQuery(
        h,
        `INSERT INTO drive.shares (id, tenant_id, name, library_id, created_by) VALUES (gen_random_uuid(), 'demo', 'Pack', $1, $2) RETURNING id`,
        [place.libraryId, OWNER_ID],
      );
      await adminQuery(
        h,
        `INSERT INTO drive.share_files (tenant_id, share_id, file_id) VALUES ('demo', $1, $2)`,
        [share?.id, file.id],
      );
      await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
      const before = await usage(h);

      const answer = await h.call(owner, 'POST', '/mutations/purge', { tenantId: 'demo', fileId: file.id });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        fileId: file.id,
        result: 'purged',
        message: 'File permanently deleted',
        // Its bytes left the quota when it was trashed.
        releasedBytes: 0,
      });
      expect(await fileRow(h, file.id)).toBeUndefined();
      for (const table of ['file_versions', 'file_stars', 'file_views', 'file_refs', 'share_files']) {
        expect(await adminQuery(h, `SELECT 1 FROM drive.${table} WHERE file_id = $1`, [file.id])).toEqual([]);
      }
      expect(await h.objects.stat(file.storagePath)).toBeUndefined();
      expect(await h.objects.stat(versioned.storagePath)).toBeUndefined();
      expect(
        await adminQuery(h, 'SELECT 1 FROM drive.object_removals WHERE file_id = $1', [file.id]),
      ).toEqual([]);
      expect(await usage(h)).toEqual(before);
      expect(await events(h, 'FILE_PURGED', file.id)).toHaveLength(1);
    });

    it('releases the quota of a live file purged directly (versions summed)', async () => {
      const file = await seedFile(h, place, { bytes: Buffer.alloc(3_000, 5) });
      const before = await usage(h);
      const answer = await h.call(owner, 'POST', '/mutations/purge', { fileId: file.id });
      expect(answer.body).toMatchObject({ releasedBytes: 3_000 });
      expect(await usage(h)).toEqual({ used: before.used - 3_000, files: before.files - 1 });
    });

    it('keeps track of the objects when the object store fails: the record is gone, the keys stay queued and the removal worker removes them later', async () => {
      const file = await seedFile(h, place);
      const remove = jest.spyOn(h.objects, 'remove').mockRejectedValueOnce(new Error('object store down'));
      const answer = await h.call(owner, 'POST', '/mutations/purge', { fileId: file.id });
      remove.mockRestore();
      expect(answer.status).toBe(200);
      expect(await fileRow(h, file.id)).toBeUndefined();
      expect(await h.objects.stat(file.storagePath)).toBeDefined();
      const [queued] = await adminQuery(
        h,
        'SELECT attempts, last_error FROM drive.object_removals WHERE file_id = $1',
        [file.id],
      );
      expect(queued).toEqual({ attempts: 1, last_error: 'object store down' });

      // Not due yet; a minute later it is.
      expect(await removeQueuedObjects(h.definition.deps())).toEqual({ removed: 0, failed: 0 });
      h.clock.advance(61_000);
      expect(await removeQueuedObjects(h.definition.deps())).toEqual({ removed: 1, failed: 0 });
      expect(await h.objects.stat(file.storagePath)).toBeUndefined();
      expect(
        await adminQuery(h, 'SELECT 1 FROM drive.object_removals WHERE file_id = $1', [file.id]),
      ).toEqual([]);
    });

    it('refuses a caller without the hard delete permission', async () => {
      const file = await seedFile(h, place);
      const softOnly = await h.token(['drive.file.read', 'drive.file.soft_delete'], 'demo', OWNER_ID);
      const answer = await h.call(softOnly, 'POST', '/mutations/purge', { fileId: file.id });
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe("You don't have permission to permanently delete files");
    });
  });

  describe('Empty Trash', () => {
    it('purges every trashed file the caller may purge and leaves the rest', async () => {
      const own = await seedPlace(h);
      const held = await seedPlace(h, { policies: { legalHold: true } });
      const a = await seedFile(h, own);
      const b = await seedFile(h, own);
      const kept = await seedFile(h, held);
      await h.call(owner, 'POST', '/mutations/delete', { fileIds: [a.id, b.id] });
      await adminQuery(h, `UPDATE drive.files SET status = 'trashed', binned_at = now() WHERE id = $1`, [
        kept.id,
      ]);

      const answer = await h.call(owner, 'POST', '/mutations/empty-trash', { tenantId: 'demo' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ skipped: 1 });
      expect(Number(answer.body.purged)).toBeGreaterThanOrEqual(2);
      expect(await fileRow(h, a.id)).toBeUndefined();
      expect(await fileRow(h, b.id)).toBeUndefined();
      expect(await h.objects.stat(a.storagePath)).toBeUndefined();
      expect((await fileRow(h, kept.id))?.status).toBe('trashed');
      expect(await events(h, 'BULK_DRIVE_DELETED')).not.toHaveLength(0);

      const again = await h.call(owner, 'POST', '/mutations/empty-trash', { driveId: own.driveId });
      expect(again.body).toMatchObject({ message: 'Trash is already empty', purged: 0, skipped: 0 });
    });

    it('refuses a caller without the hard delete permission', async () => {
      const softOnly = await h.token(['drive.file.read', 'drive.file.soft_delete'], 'demo', OWNER_ID);
      const answer = await h.call(softOnly, 'POST', '/mutations/empty-trash', {});
      expect(answer.status).toBe(403);
    });
  });

  describe('bulk delete', () => {
    it('deletes only the caller’s own files (owner or creator); the others stay; BULK_DRIVE_TRASHED', async () => {
      const mine = await seedFile(h, place, { ownerId: OWNER_ID });
      const alsoMine = await seedFile(h, place, { ownerId: OWNER_ID });
      const theirs = await seedFile(h, place, { ownerId: OTHER_ID });
      const answer = await h.call(owner, 'POST', '/mutations/delete', {
        fileIds: [mine.id, alsoMine.id, theirs.id],
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        result: 'trashed',
        message: '2 files moved to trash',
        deleted: 2,
        failed: 0,
        totalSize: mine.size + alsoMine.size,
        errors: [],
        skippedIds: [theirs.id],
      });
      expect((await fileRow(h, theirs.id))?.status).toBe('active');
      const [bulk] = await events(h, 'BULK_DRIVE_TRASHED', mine.id);
      expect(JSON.stringify(bulk)).toContain(alsoMine.id);
    });

    it('refuses when none of the selected files is the caller’s: "No owned files selected for deletion"', async () => {
      const theirs = await seedFile(h, place, { ownerId: OTHER_ID });
      const answer = await h.call(owner, 'POST', '/mutations/delete', { fileIds: [theirs.id] });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({
        code: 'NO_OWNED_FILES',
        detail: 'No owned files selected for deletion',
      });
      expect((await fileRow(h, theirs.id))?.status).toBe('active');
    });

    it('answers partial failures with deleted, failed, totalSize and errors', async () => {
      const held = await seedPlace(h, { policies: { legalHold: true } });
      const ok = await seedFile(h, place);
      const blocked = await seedFile(h, held);
      const answer = await h.call(owner, 'POST', '/mutations/delete', { fileIds: [ok.id, blocked.id] });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        deleted: 1,
        failed: 1,
        totalSize: ok.size,
        deletedIds: [ok.id],
        errors: [
          {
            fileId: blocked.id,
            code: 'E_POLICY_BLOCKED',
            message: 'This file is under legal hold and cannot be deleted.',
          },
        ],
      });
      expect((await fileRow(h, blocked.id))?.status).toBe('active');
    });

    it('answers "Failed to delete all files" when every file fails, and changes nothing', async () => {
      const held = await seedPlace(h, { policies: { legalHold: true } });
      const a = await seedFile(h, held);
      const b = await seedFile(h, held);
      const answer = await h.call(owner, 'POST', '/mutations/delete', {
        fileIds: [a.id, b.id],
        permanent: true,
      });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({
        code: 'DELETE_FAILED',
        detail: 'Failed to delete all files',
        deleted: 0,
        failed: 2,
        totalSize: 0,
      });
      expect((await fileRow(h, a.id))?.status).toBe('active');
    });

    it('deletes several files for good: BULK_DRIVE_DELETED', async () => {
      const a = await seedFile(h, place);
      const b = await seedFile(h, place);
      const answer = await h.call(owner, 'POST', '/mutations/delete', {
        fileIds: [a.id, b.id],
        permanent: true,
      });
      expect(answer.body).toMatchObject({
        result: 'deleted',
        message: '2 files permanently deleted',
        deleted: 2,
      });
      expect(await h.objects.stat(a.storagePath)).toBeUndefined();
      expect(await events(h, 'BULK_DRIVE_DELETED', a.id)).toHaveLength(1);
    });
  });

  describe('library delete rules', () => {
    const MANAGER_SCOPES = [...MEMBER_SCOPES, 'drive.manage_all'];

    it('deletePolicy none: a holder of a delete scope deletes any file', async () => {
      const none = await seedPlace(h, { policies: { deletePolicy: 'none' } });
      const file = await seedFile(h, none, { ownerId: OTHER_ID });
      const answer = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
      expect(answer.status).toBe(200);
    });

    it('deletePolicy ownerOnly: only the file’s owner may delete it', async () => {
      const ownerOnly = await seedPlace(h, { policies: { deletePolicy: 'ownerOnly' } });
      const file = await seedFile(h, ownerOnly, { ownerId: OTHER_ID });
      const refused = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: 'E_POLICY_BLOCKED',
        detail: "Only the file's owner can delete files in this library.",
      });
      const theOwner = await h.token(MEMBER_SCOPES, 'demo', OTHER_ID);
      expect((await h.call(theOwner, 'POST', '/mutations/delete', { fileId: file.id })).status).toBe(200);
    });

    it('deletePolicy managerOnly: only holders of manage-all may delete, the owner included', async () => {
      const managerOnly = await seedPlace(h, { policies: { deletePolicy: 'managerOnly' } });
      const file = await seedFile(h, managerOnly, { ownerId: OWNER_ID });
      const refused = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe('Only managers can delete files in this library.');
      const manager = await h.token(MANAGER_SCOPES, 'demo', OTHER_ID);
      expect((await h.call(manager, 'POST', '/mutations/delete', { fileId: file.id })).status).toBe(200);
    });

    it('deletePolicy twoPerson: deletion is never allowed, even with manage-all', async () => {
      const twoPerson = await seedPlace(h, { policies: { deletePolicy: 'twoPerson' } });
      const file = await seedFile(h, twoPerson, { ownerId: OWNER_ID });
      const manager = await h.token(MANAGER_SCOPES, 'demo', OWNER_ID);
      for (const path of ['/mutations/delete', '/mutations/purge']) {
        const refused = await h.call(manager, 'POST', path, { fileId: file.id });
        expect(refused.status).toBe(403);
        expect(refused.body.detail).toBe(
          'Files in this library need two people to delete and cannot be deleted here.',
        );
      }
    });

    it('legalHold blocks trash, permanent delete and purge, even for manage-all', async () => {
      const held = await seedPlace(h, { policies: { legalHold: true } });
      const file = await seedFile(h, held, { ownerId: OWNER_ID });
      const manager = await h.token(MANAGER_SCOPES, 'demo', OWNER_ID);
      for (const [path, body] of [
        ['/mutations/delete', { fileId: file.id }],
        ['/mutations/delete', { fileId: file.id, permanent: true }],
        ['/mutations/purge', { fileId: file.id }],
      ] as const) {
        const refused = await h.call(manager, 'POST', path, body);
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({
          code: 'E_POLICY_BLOCKED',
          detail: 'This file is under legal hold and cannot be deleted.',
        });
      }
      expect((await fileRow(h, file.id))?.status).toBe('active');
      expect(await h.objects.stat(file.storagePath)).toBeDefined();
    });

    it('a manage-all holder purges without the library’s delete scopes (DRV-304)', async () => {
      const custom = await seedPlace(h, { acl: { deleteScopes: ['schedule.files.delete'] } });
      const file = await seedFile(h, custom);
      const admin = await h.token(DRIVE_ADMIN_SCOPES);
      expect((await h.call(admin, 'POST', '/mutations/purge', { fileId: file.id })).status).toBe(200);
    });
  });

  describe('another tenant', () => {
    it('answers 404 for another tenant’s file ids on delete, restore and purge, and for another tenantId', async () => {
      const acme = await seedPlace(h, { tenantId: 'acme' });
      const foreign = await seedFile(h, acme);
      const admin = await h.token(DRIVE_ADMIN_SCOPES);
      for (const [path, body] of [
        ['/mutations/delete', { fileId: foreign.id }],
        ['/mutations/delete', { fileIds: [foreign.id] }],
        ['/mutations/restore', { fileId: foreign.id }],
        ['/mutations/purge', { fileId: foreign.id }],
      ] as const) {
        const answer = await h.call(admin, 'POST', path, body);
        expect(answer.status).toBe(404);
        expect(answer.body.detail).toBe('File not found');
      }
      const own = await seedFile(h, place);
      for (const path of [
        '/mutations/delete',
        '/mutations/restore',
        '/mutations/purge',
        '/mutations/empty-trash',
      ]) {
        const answer = await h.call(admin, 'POST', path, { tenantId: 'acme', fileId: own.id });
        expect(answer.status).toBe(404);
      }
      expect((await fileRow(h, foreign.id))?.status).toBe('active');
    });
  });
});
