import { randomUUID } from 'node:crypto';
import { ControlledClock } from '@workspace/kit/testing';
import {
  addFile,
  auditEvents,
  deleteFileRow,
  deleteLibrary,
  insertShare,
  makePlace,
  setFile,
  textFile,
  type Place,
} from './shares.fixtures.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

const SHARER_ID = '00000000-0000-4000-8000-0000000000a1';
const READER_ID = '00000000-0000-4000-8000-0000000000a2';
const SHARER_SCOPES = ['drive.view', 'drive.file.read', 'drive.file.share'];
const READER_SCOPES = ['drive.view', 'drive.file.read'];

describe('shares (exports)', () => {
  let h: DriveHarness;
  let admin: string;
  let sharer: string;
  let reader: string;
  const clock = new ControlledClock(new Date('2026-11-27T09:00:00Z'));

  beforeAll(async () => {
    h = await startDriveHarness({ clock, env: { SHARE_LINK_SECRET: 'x'.repeat(40) } });
    admin = await h.token(DRIVE_ADMIN_SCOPES);
    sharer = await h.token(SHARER_SCOPES, 'demo', SHARER_ID);
    reader = await h.token(READER_SCOPES, 'demo', READER_ID);
  });
  afterAll(async () => {
    await h.stop();
  });

  const create = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    h.call(token, 'POST', '/mutations/share', body, headers);

  describe('creating a share (POST /v1/mutations/share)', () => {
    let place: Place;
    beforeAll(async () => {
      place = await makePlace(h);
    });

    it('creates a restricted share with the policy defaults and audits SHARE_CREATED and FILE_SHARED per file', async () => {
      const a = await textFile(h, place, 'a.txt');
      const b = await textFile(h, place, 'b.txt');
      const answer = await create(sharer, {
        tenantId: 'demo',
        name: 'For the QS',
        libraryId: place.libraryId,
        fileIds: [a.id, b.id],
        allowedUids: [READER_ID],
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        name: 'For the QS',
        status: 'active',
        visibility: 'restricted',
        allowedUids: [READER_ID],
        fileCount: 2,
        policy: { allowDownload: true, watermark: false, expiresAt: null },
        passcode: { required: false, locked: false },
        createdBy: SHARER_ID,
      });
      const id = answer.body.id as string;
      expect(answer.body.url).toBe(`/share/${id}?tenantId=demo`);
      expect(await auditEvents(h, 'SHARE_CREATED', id)).toHaveLength(1);
      expect(await auditEvents(h, 'SHARE_LINK_CREATED', id)).toHaveLength(0);
      const shared = await auditEvents(h, 'FILE_SHARED', id);
      expect(shared.map((event) => event.details)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ fileName: 'a.txt', sharedWith: READER_ID, visibility: 'restricted' }),
          expect.objectContaining({ fileName: 'b.txt', sharedWith: READER_ID, visibility: 'restricted' }),
        ]),
      );
      expect(shared.map((event) => event.targetId).sort()).toEqual([a.id, b.id].sort());
    });

    it('a public share also audits SHARE_LINK_CREATED', async () => {
      const file = await textFile(h, place, 'public.txt');
      const answer = await create(sharer, {
        name: 'Public drawings',
        libraryId: place.libraryId,
        fileIds: [file.id],
        visibility: 'public',
      });
      expect(answer.status).toBe(201);
      expect(await auditEvents(h, 'SHARE_LINK_CREATED', answer.body.id as string)).toHaveLength(1);
    });

    it('refuses each file with its reason and creates nothing: File not found, Source library not found, No source library, No library access', async () => {
      const other = await makePlace(h);
      const gone = await makePlace(h);
      const elsewhere = await textFile(h, other, 'elsewhere.txt');
      const orphan = await textFile(h, gone, 'orphan.txt');
      await deleteLibrary(h, 'demo', gone.libraryId);
      const secret = await textFile(h, place, 'secret.txt');
      await setFile(h, 'demo', secret.id, { visibility: 'restricted', allowedUids: [] });
      const fine = await textFile(h, place, 'fine.txt');
      const missing = randomUUID();
      const answer = await create(sharer, {
        name: 'Mixed',
        libraryId: place.libraryId,
        fileIds: [missing, orphan.id, elsewhere.id, secret.id, fine.id],
      });
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe('share_validation_failed');
      expect(answer.body.detail).toBe('4 files cannot be shared.');
      expect(answer.body.refusals).toEqual([
        { fileId: missing, reason: 'File not found' },
        { fileId: orphan.id, reason: 'Source library not found' },
        { fileId: elsewhere.id, reason: 'No source library' },
        { fileId: secret.id, reason: 'No library access' },
      ]);
      const list = await h.call(sharer, 'GET', `/shares?libraryId=${place.libraryId}&q=Mixed`);
      expect(list.body.items).toEqual([]);
    });

    it("refuses a public share from a library that forbids external sharing: 'External sharing not allowed from source library'", async () => {
      const closed = await makePlace(h, { shareSourcePolicy: { externalAllowed: false } });
      const drive = await makePlace(h, { allowExternalSharing: false });
      const a = await textFile(h, closed, 'cis.txt');
      const b = await textFile(h, drive, 'internal.txt');
      for (const [where, file] of [
        [closed, a],
        [drive, b],
      ] as const) {
        const answer = await create(admin, {
          name: 'Out',
          libraryId: where.libraryId,
          fileIds: [file.id],
          visibility: 'public',
        });
        expect(answer.status).toBe(422);
        expect(answer.body.detail).toBe(
          'This file cannot be shared: External sharing not allowed from source library.',
        );
        // Inside the tenant it may be shared.
        const tenant = await create(admin, {
          name: 'In',
          libraryId: where.libraryId,
          fileIds: [file.id],
          visibility: 'tenant',
        });
        expect(tenant.status).toBe(201);
      }
    });

    it("refuses a caller without a share scope: 'You don't have permission to share files'", async () => {
      const file = await textFile(h, place, 'read-only.txt');
      const answer = await create(reader, { name: 'Nope', libraryId: place.libraryId, fileIds: [file.id] });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({
        code: 'share_permission_missing',
        detail: "You don't have permission to share files",
      });
    });

    it('refuses a share from a library whose policy forbids sharing (shareAllowed false)', async () => {
      const closed = await makePlace(h, { policies: { shareAllowed: false } });
      const file = await textFile(h, closed, 'held.txt');
      const answer = await create(admin, { name: 'Nope', libraryId: closed.libraryId, fileIds: [file.id] });
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe("You don't have permission to share files");
    });

    it('a repeated X-Idempotency-Key answers the first share and creates no second', async () => {
      const file = await textFile(h, place, 'once.txt');
      const body = { name: 'Once only', libraryId: place.libraryId, fileIds: [file.id] };
      const key = { 'x-idempotency-key': randomUUID() };
      const first = await create(sharer, body, key);
      const again = await create(sharer, { ...body, name: 'Changed' }, key);
      expect(first.status).toBe(201);
      expect(again.body.id).toBe(first.body.id);
      expect(again.body.name).toBe('Once only');
      const list = await h.call(sharer, 'GET', `/shares?libraryId=${place.libraryId}&q=Once`);
      expect(list.body.items).toHaveLength(1);
      expect(await auditEvents(h, 'SHARE_CREATED', first.body.id as string)).toHaveLength(1);
    });

    it("answers 404 for another tenant's tenantId and for a library the caller cannot see", async () => {
      const file = await textFile(h, place, 'tenant.txt');
      const other = await create(sharer, {
        tenantId: 'elsewhere',
        name: 'X',
        libraryId: place.libraryId,
        fileIds: [file.id],
      });
      expect(other.status).toBe(404);
      const unknown = await create(sharer, { name: 'X', libraryId: randomUUID(), fileIds: [file.id] });
      expect(unknown.status).toBe(404);
    });

    it('refuses a payload without name, library or files (schema)', async () => {
      const answer = await create(sharer, { libraryId: place.libraryId, fileIds: [] });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body.errors)).toContain('body.name');
      expect(JSON.stringify(answer.body.errors)).toContain('Choose at least one file');
    });
  });

  describe('listing shares (GET /v1/shares)', () => {
    it('filters by status with counts per status; a share expires when its expiresAt passes by the clock, recorded once', async () => {
      const place = await makePlace(h);
      const file = await textFile(h, place);
      const soon = new Date(clock.now().getTime() + 3_600_000).toISOString();
      const lasting = await create(admin, {
        name: 'Lasting',
        libraryId: place.libraryId,
        fileIds: [file.id],
      });
      const brief = await create(admin, {
        name: 'Brief',
        libraryId: place.libraryId,
        fileIds: [file.id],
        visibility: 'public',
        policy: { expiresAt: soon },
      });
      const briefId = brief.body.id as string;
      const before = await h.call(admin, 'GET', `/shares?libraryId=${place.libraryId}`);
      expect(before.body.counts).toEqual({ all: 2, active: 2, expired: 0 });

      clock.advance(2 * 3_600_000);
      const all = await h.call(admin, 'GET', `/shares?libraryId=${place.libraryId}`);
      expect(all.body.counts).toEqual({ all: 2, active: 1, expired: 1 });
      const expired = await h.call(admin, 'GET', `/shares?libraryId=${place.libraryId}&status=expired`);
      expect((expired.body.items as { id: string; status: string }[]).map((s) => [s.id, s.status])).toEqual([
        [briefId, 'expired'],
      ]);
      expect(expired.body.counts).toEqual({ all: 2, active: 1, expired: 1 });
      const active = await h.call(admin, 'GET', `/shares?libraryId=${place.libraryId}&status=active`);
      expect((active.body.items as { id: string }[]).map((s) => s.id)).toEqual([lasting.body.id]);
      expect((active.body.items as Record<string, unknown>[])[0]).toMatchObject({
        name: 'Lasting',
        visibility: 'restricted',
        fileCount: 1,
      });
      expect(await auditEvents(h, 'SHARE_EXPIRED', briefId)).toHaveLength(1);
      expect(await auditEvents(h, 'SHARE_LINK_EXPIRED', briefId)).toHaveLength(1);
    });

    it('needs the drive: a caller without any drive view scope is refused (403)', async () => {
      const none = await h.call(await h.token(['cis.inv.read']), 'GET', '/shares');
      expect(none.status).toBe(403);
    });

    it('finds shares by name (q) and lists only shares of libraries the caller may read, or their own', async () => {
      const place = await makePlace(h);
      const file = await textFile(h, place);
      await create(admin, { name: 'Tender pack', libraryId: place.libraryId, fileIds: [file.id] });
      await create(admin, { name: 'Snag list', libraryId: place.libraryId, fileIds: [file.id] });
      const found = await h.call(admin, 'GET', `/shares?libraryId=${place.libraryId}&q=tender`);
      expect((found.body.items as { name: string }[]).map((s) => s.name)).toEqual(['Tender pack']);
      const stranger = await h.token(['drive.view'], 'demo', randomUUID());
      const none = await h.call(stranger, 'GET', `/shares?libraryId=${place.libraryId}`);
      expect(none.body).toEqual({ items: [], counts: { all: 0, active: 0, expired: 0 } });
    });
  });

  describe('one share, settings, rebuild, revoke, link copied', () => {
    let place: Place;
    beforeAll(async () => {
      place = await makePlace(h);
    });

    it('saves visibility, allowed users and policy; an empty expiry saves null; SHARE_SETTINGS_CHANGED', async () => {
      const file = await textFile(h, place);
      const made = await create(sharer, {
        name: 'Settings',
        libraryId: place.libraryId,
        fileIds: [file.id],
        policy: { expiresAt: '2027-01-31T23:59:59.999Z' },
      });
      const id = made.body.id as string;
      const saved = await h.call(sharer, 'POST', `/shares/${id}/settings`, {
        tenantId: 'demo',
        updates: {
          visibility: 'public',
          allowedUids: ['u1', 'u2'],
          policy: { allowDownload: false, watermark: true, expiresAt: null },
        },
        passcode: 'site-7731',
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        visibility: 'public',
        allowedUids: ['u1', 'u2'],
        policy: { allowDownload: false, watermark: true, expiresAt: null },
        passcode: { required: true, locked: false },
      });
      const read = await h.call(sharer, 'GET', `/shares/${id}?tenantId=demo`);
      expect(read.body).toMatchObject({
        policy: { allowDownload: false, watermark: true, expiresAt: null },
        files: [{ id: file.id, name: file.name, missing: false }],
      });
      expect(JSON.stringify(read.body)).not.toContain('scrypt');
      expect(await auditEvents(h, 'SHARE_SETTINGS_CHANGED', id)).toHaveLength(1);
      expect(await auditEvents(h, 'SHARE_LINK_CREATED', id)).toHaveLength(1);
    });

    it('refuses making a share public when its library forbids external sharing (422, the reason per file)', async () => {
      const closed = await makePlace(h, { shareSourcePolicy: { externalAllowed: false } });
      const file = await textFile(h, closed);
      const made = await create(admin, { name: 'Inside', libraryId: closed.libraryId, fileIds: [file.id] });
      const answer = await h.call(admin, 'POST', `/shares/${made.body.id as string}/settings`, {
        updates: { visibility: 'public' },
      });
      expect(answer.status).toBe(422);
      expect(answer.body.refusals).toEqual([
        { fileId: file.id, reason: 'External sharing not allowed from source library' },
      ]);
      const read = await h.call(admin, 'GET', `/shares/${made.body.id as string}`);
      expect(read.body.visibility).toBe('restricted');
    });

    it("refuses settings from someone who neither made the share nor manages shares: 'You don't have permission to share files'", async () => {
      const file = await textFile(h, place);
      const made = await create(admin, { name: 'Theirs', libraryId: place.libraryId, fileIds: [file.id] });
      const answer = await h.call(sharer, 'POST', `/shares/${made.body.id as string}/settings`, {
        updates: { visibility: 'tenant' },
      });
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe("You don't have permission to share files");
    });

    it("rebuild removes a purged and a trashed file: { removed: 2 } and 'Removed 2 missing file(s).', SHARE_REBUILT", async () => {
      const kept = await textFile(h, place);
      const purged = await textFile(h, place);
      const trashed = await textFile(h, place);
      const made = await create(admin, {
        name: 'Rebuild',
        libraryId: place.libraryId,
        fileIds: [kept.id, purged.id, trashed.id],
      });
      const id = made.body.id as string;
      await deleteFileRow(h, 'demo', purged.id);
      await setFile(h, 'demo', trashed.id, { status: 'trashed' });
      const before = await h.call(admin, 'GET', `/shares/${id}`);
      expect(
        (before.body.files as { id: string; missing: boolean }[]).find((f) => f.id === purged.id),
      ).toMatchObject({ missing: true });
      const rebuilt = await h.call(admin, 'POST', `/shares/${id}/rebuild`, { tenantId: 'demo' });
      expect(rebuilt.status).toBe(200);
      expect(rebuilt.body).toEqual({ removed: 2, message: 'Removed 2 missing file(s).' });
      const after = await h.call(admin, 'GET', `/shares/${id}`);
      expect(after.body.fileCount).toBe(1);
      expect((await auditEvents(h, 'SHARE_REBUILT', id))[0]?.details).toMatchObject({ removed: '2' });
      const again = await h.call(admin, 'POST', `/shares/${id}/rebuild`, {});
      expect(again.body).toEqual({ removed: 0, message: 'Removed 0 missing file(s).' });
    });

    it("revoke ends the share ('Manual revocation' by default): SHARE_REVOKED and SHARE_LINK_REVOKED, the link answers 410", async () => {
      const file = await textFile(h, place);
      const made = await create(admin, {
        name: 'Revoke me',
        libraryId: place.libraryId,
        fileIds: [file.id],
        visibility: 'public',
      });
      const id = made.body.id as string;
      expect((await h.call(undefined, 'GET', `/public/shares/${id}?tenantId=demo`)).status).toBe(200);
      const revoked = await h.call(admin, 'POST', `/shares/${id}/revoke`, {});
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ status: 'expired', revokeReason: 'Manual revocation' });
      expect(revoked.body.revokedAt).not.toBeNull();
      expect((await auditEvents(h, 'SHARE_REVOKED', id))[0]?.details).toMatchObject({
        reason: 'Manual revocation',
      });
      expect(await auditEvents(h, 'SHARE_LINK_REVOKED', id)).toHaveLength(1);
      const link = await h.call(undefined, 'GET', `/public/shares/${id}?tenantId=demo`);
      expect(link.status).toBe(410);
      expect(link.body).toMatchObject({ code: 'share_revoked', detail: 'This share link has been revoked.' });
      const settings = await h.call(admin, 'POST', `/shares/${id}/settings`, {
        updates: { watermark: true },
      });
      expect(settings.status).toBe(409);
    });

    it('a second revoke, or a repeated key, changes nothing and audits once', async () => {
      const file = await textFile(h, place);
      const made = await create(admin, { name: 'Twice', libraryId: place.libraryId, fileIds: [file.id] });
      const id = made.body.id as string;
      const key = { 'x-idempotency-key': randomUUID() };
      const first = await h.call(admin, 'POST', `/shares/${id}/revoke`, { reason: 'Job finished' }, key);
      const repeat = await h.call(admin, 'POST', `/shares/${id}/revoke`, { reason: 'Job finished' }, key);
      const again = await h.call(admin, 'POST', `/shares/${id}/revoke`, {});
      expect(first.body).toMatchObject({ revokeReason: 'Job finished' });
      expect(repeat.body).toEqual(first.body);
      expect(again.body.revokedAt).toBe(first.body.revokedAt);
      expect(await auditEvents(h, 'SHARE_REVOKED', id)).toHaveLength(1);
    });

    it('link copied is audited SHARE_LINK_COPIED', async () => {
      const file = await textFile(h, place);
      const made = await create(sharer, { name: 'Copy', libraryId: place.libraryId, fileIds: [file.id] });
      const id = made.body.id as string;
      const copied = await h.call(sharer, 'POST', `/shares/${id}/link-copied`, {});
      expect(copied.status).toBe(204);
      expect((await auditEvents(h, 'SHARE_LINK_COPIED', id))[0]).toMatchObject({ actorId: SHARER_ID });
    });

    it("answers 404 for another tenant's share on every route", async () => {
      const foreign = randomUUID();
      const elsewhere = await makePlace(h, { tenantId: 'elsewhere' });
      const file = await addFile(h, elsewhere, 'theirs.txt', 'text/plain', Buffer.from('theirs'));
      await insertShare(
        h,
        {
          id: foreign,
          tenantId: 'elsewhere',
          name: 'Theirs',
          libraryId: elsewhere.libraryId,
          visibility: 'public',
          allowedUids: [],
          allowDownload: true,
          watermark: false,
          expiresAt: null,
          passcodeHash: null,
          createdBy: DRIVE_ADMIN_ID,
        },
        [file.id],
      );
      const answers = await Promise.all([
        h.call(admin, 'GET', `/shares/${foreign}`),
        h.call(admin, 'POST', `/shares/${foreign}/settings`, { updates: { watermark: true } }),
        h.call(admin, 'POST', `/shares/${foreign}/rebuild`, {}),
        h.call(admin, 'POST', `/shares/${foreign}/revoke`, {}),
        h.call(admin, 'POST', `/shares/${foreign}/link-copied`, {}),
        h.call(undefined, 'GET', `/public/shares/${foreign}?tenantId=demo`),
        h.call(admin, 'GET', `/shares/not-a-uuid`),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
      const list = await h.call(admin, 'GET', '/shares?q=Theirs');
      expect((list.body.items as { id: string }[]).map((s) => s.id)).not.toContain(foreign);
    });
  });
});
