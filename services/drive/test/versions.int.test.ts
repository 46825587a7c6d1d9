import { UsageStore } from '../src/db/usage.store.js';
import { GIB } from '../src/domain/index.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import {
  outboxRows,
  putParts,
  seedPlace,
  setTier,
  sha256,
  useStorage,
  type Grant,
  type Place,
} from './uploads-support.js';

// Versions need a tier with the versioning feature: the tier is identity's (demo is professional), read with the
// caller's token, so these tests sign in through identity.
describe('file versions: upload over a file, keep at most maxVersions, list and restore', () => {
  let h: DriveHarness;
  let admin: string;

  beforeAll(async () => {
    h = await startDriveHarness();
    admin = await h.signInAs('admin@demo.test');
  });
  afterAll(async () => {
    await h.stop();
  });

  const upload = async (place: Place, name: string, bytes: Buffer, fileId?: string, token = admin) => {
    const granted = await h.call(token, 'POST', '/uploads', {
      ...place,
      name,
      size: bytes.length,
      mimeType: 'text/plain',
      ...(fileId ? { fileId } : {}),
    });
    if (granted.status !== 201) return granted;
    const g = granted.body as unknown as Grant;
    await putParts(g, bytes);
    return h.call(token, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(bytes) });
  };
  const fileIdOf = (answer: { body: Record<string, unknown> }) => (answer.body.file as { id: string }).id;
  const used = () =>
    h.definition.deps().inTenant('demo', async (trx) => (await new UsageStore(trx).get('demo')).used);

  it('adds a version when a file is uploaded over, lists versions newest first and serves the new bytes', async () => {
    const place = await seedPlace(h);
    const first = await upload(place, 'Programme.txt', Buffer.from('week 1'));
    const id = fileIdOf(first);
    const second = await upload(place, 'Programme.txt', Buffer.from('week 1 and 2'), id);
    expect(second.status).toBe(200);
    expect(second.body.file).toMatchObject({ id, name: 'Programme.txt', version: 2, versionsCount: 2 });
    // The uploader owns the file, named as identity names them.
    expect(first.body.file).toMatchObject({ ownerId: '00000000-0000-4000-8000-000000000001' });
    expect((first.body.file as { ownerName: string }).ownerName).not.toBe('');
    const versions = await h.call(admin, 'GET', `/files/${id}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body).toMatchObject({ fileId: id, current: 2 });
    expect(
      (versions.body.versions as { version: number; current: boolean; checksum: string }[]).map((v) => [
        v.version,
        v.current,
      ]),
    ).toEqual([
      [2, true],
      [1, false],
    ]);
    const file = second.body.file as { storagePath: string };
    expect(file.storagePath).toBe(`tenants/demo/files/${id}/v/2`);
    const bytes = Buffer.from(
      await (await fetch(await h.objects.presignGet(file.storagePath, 'Programme.txt'))).arrayBuffer(),
    );
    expect(bytes.toString()).toBe('week 1 and 2');
    expect((await outboxRows(h, 'drive.file.version_added')).length).toBeGreaterThan(0);
  });

  it('keeps at most the drive’s maxVersions: the oldest version’s record and object go, and its bytes leave the quota', async () => {
    const place = await seedPlace(h, { drive: { maxVersions: 2 } });
    const id = fileIdOf(await upload(place, 'Drawing.txt', Buffer.from('rev A')));
    await upload(place, 'Drawing.txt', Buffer.from('rev B'), id);
    const before = await used();
    const third = await upload(place, 'Drawing.txt', Buffer.from('rev C!'), id);
    expect(third.body.file).toMatchObject({ version: 3, versionsCount: 2 });
    const versions = (await h.call(admin, 'GET', `/files/${id}/versions`)).body.versions as {
      version: number;
    }[];
    expect(versions.map((v) => v.version)).toEqual([3, 2]);
    expect(await h.objects.stat(`tenants/demo/files/${id}/v/1`)).toBeUndefined();
    expect(await used()).toBe(before + 'rev C!'.length - 'rev A'.length);
  });

  it('restores an old version as a new current version with its bytes (FILE_VERSION_RESTORED)', async () => {
    const place = await seedPlace(h);
    const id = fileIdOf(await upload(place, 'RAMS.txt', Buffer.from('original method')));
    await upload(place, 'RAMS.txt', Buffer.from('edited method'), id);
    const restored = await h.call(admin, 'POST', `/files/${id}/versions/1/restore`, {});
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      restoredFrom: 1,
      file: { id, version: 3, versionsCount: 3, checksum: sha256(Buffer.from('original method')) },
    });
    const bytes = await fetch(await h.objects.presignGet(`tenants/demo/files/${id}/v/3`, 'RAMS.txt'));
    expect(await bytes.text()).toBe('original method');
    const notes = (await h.call(admin, 'GET', `/files/${id}/versions`)).body.versions as { note: string }[];
    expect(notes[0]?.note).toBe('Restored from version 1');
    expect(
      (await outboxRows(h, 'drive.file.version_restored')).some((row) =>
        JSON.stringify(row.payload).includes(id),
      ),
    ).toBe(true);
    expect((await h.call(admin, 'POST', `/files/${id}/versions/9/restore`, {})).status).toBe(404);
  });

  it('refuses a restore whose bytes do not fit the quota, with STORAGE_LIMIT_EXCEEDED', async () => {
    const place = await seedPlace(h);
    const id = fileIdOf(await upload(place, 'Budget.txt', Buffer.from('a'.repeat(4096))));
    await upload(place, 'Budget.txt', Buffer.from('b'), id);
    const usage = await used();
    await useStorage(h, 200 * GIB - usage - 100);
    try {
      const refused = await h.call(admin, 'POST', `/files/${id}/versions/1/restore`, {});
      expect(refused.status).toBe(413);
      expect(refused.body).toMatchObject({ code: 'STORAGE_LIMIT_EXCEEDED', remainingGB: 0 });
      const versions = (await h.call(admin, 'GET', `/files/${id}/versions`)).body.versions as unknown[];
      expect(versions).toHaveLength(2);
    } finally {
      await useStorage(h, -(200 * GIB - usage - 100));
    }
  });

  it('refuses a version that would remove an old one under legal hold', async () => {
    const place = await seedPlace(h, { drive: { maxVersions: 2 }, policies: { legalHold: true } });
    const id = fileIdOf(await upload(place, 'Contract.txt', Buffer.from('v1')));
    expect((await upload(place, 'Contract.txt', Buffer.from('v2'), id)).status).toBe(200);
    const refused = await upload(place, 'Contract.txt', Buffer.from('v3'), id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('LEGAL_HOLD');
    expect((await h.call(admin, 'POST', `/files/${id}/versions/1/restore`, {})).body.code).toBe('LEGAL_HOLD');
  });

  it('refuses versions when the drive turned versioning off, and on the free tier', async () => {
    const off = await seedPlace(h, { drive: { versioningEnabled: false } });
    const id = fileIdOf(await upload(off, 'Spec.txt', Buffer.from('one')));
    const refused = await upload(off, 'Spec.txt', Buffer.from('two'), id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'VERSIONING_DISABLED',
      detail: 'Versioning is turned off for this drive.',
    });

    const place = await seedPlace(h);
    const fileId = fileIdOf(await upload(place, 'Spec.txt', Buffer.from('one')));
    await setTier(h, 'free');
    try {
      const free = await upload(place, 'Spec.txt', Buffer.from('two'), fileId);
      expect(free.status).toBe(409);
      expect(free.body.code).toBe('VERSIONING_NOT_AVAILABLE');
    } finally {
      await setTier(h, 'professional');
    }
  });

  it('takes a new version in a readOnly library only from holders of replace-version', async () => {
    const place = await seedPlace(h);
    const id = fileIdOf(await upload(place, 'Certificate.txt', Buffer.from('2025')));
    await h.definition
      .deps()
      .inTenant('demo', (trx) => trx('libraries').where({ id: place.libraryId }).update({ read_only: true }));
    const uploader = await h.token(['drive.view', 'drive.file.read', 'drive.file.upload']);
    const refused = await upload(place, 'Certificate.txt', Buffer.from('2026'), id, uploader);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(
      "You don't have permission to replace this file's versions (requires drive.file.replace_version).",
    );
    // The admin holds drive.file.replace_version.
    expect((await upload(place, 'Certificate.txt', Buffer.from('2026'), id)).status).toBe(200);
    const restore = await h.call(uploader, 'POST', `/files/${id}/versions/1/restore`, {});
    expect(restore.status).toBe(403);
  });

  it('answers 404 for another tenant’s file, and for a payload naming another tenant', async () => {
    const theirs = await seedPlace(h, { tenantId: 'acme' });
    const place = await seedPlace(h);
    const id = fileIdOf(await upload(place, 'Ours.txt', Buffer.from('ours')));
    const stranger = await h.token(DRIVE_ADMIN_SCOPES, 'demo');
    expect((await h.call(stranger, 'GET', `/files/${id}/versions?tenantId=acme`)).status).toBe(404);
    expect(
      (await h.call(stranger, 'POST', `/files/${id}/versions/1/restore`, { tenantId: 'acme' })).status,
    ).toBe(404);
    // A file id of the acme tenant is not found from demo (row-level security).
    const other = await h.definition.deps().inTenant('acme', async (trx) => {
      const fileId = '7b0e6a0c-0000-4000-8000-000000000001';
      await trx('files').insert({
        id: fileId,
        tenant_id: 'acme',
        drive_id: theirs.driveId,
        library_id: theirs.libraryId,
        name: 'Theirs.txt',
        name_lower: 'theirs.txt',
        mime_type: 'text/plain',
        type_class: 'document',
        size: 1,
        checksum: 'x',
        storage_path: 'tenants/acme/files/x/v/1',
        owner_id: 'u',
        created_by: 'u',
        updated_by: 'u',
      });
      return fileId;
    });
    expect((await h.call(admin, 'GET', `/files/${other}/versions`)).status).toBe(404);
    expect((await h.call(admin, 'POST', `/files/${other}/versions/1/restore`, {})).status).toBe(404);
    expect(
      (await h.call(admin, 'POST', '/uploads', { ...place, name: 'x.txt', size: 1, fileId: other })).status,
    ).toBe(404);
  });
});
