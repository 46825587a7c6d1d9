import { randomBytes } from 'node:crypto';
import { infraCommand } from '@workspace/kit/testing';
import { FileStore } from '../src/db/files.store.js';
import { UploadStore } from '../src/db/uploads.store.js';
import { UsageStore } from '../src/db/usage.store.js';
import { UPLOAD_PART_SIZE } from '../src/domain/index.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import { outboxRows, putParts, seedPlace, sha256, type Grant } from './uploads-support.js';

// The one test that stops the shared MinIO (BRIEF: the uploads helper alone, once), restarting it right after.
describe('the object store stopped mid-upload', () => {
  let h: DriveHarness;

  beforeAll(async () => {
    h = await startDriveHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers 503 with a plain message, registers nothing, and completes once the store is back', async () => {
    const admin = await h.token(DRIVE_ADMIN_SCOPES);
    const place = await seedPlace(h);
    const bytes = randomBytes(UPLOAD_PART_SIZE + 1234);
    const granted = await h.call(admin, 'POST', '/uploads', {
      ...place,
      name: 'Interrupted.bin',
      size: bytes.length,
    });
    expect(granted.status).toBe(201);
    const g = granted.body as unknown as Grant;
    await putParts(g, bytes);
    const deps = h.definition.deps();
    const usage = () => deps.inTenant('demo', (trx) => new UsageStore(trx).get('demo'));
    const before = await usage();

    let down: { status: number; body: Record<string, unknown> } | undefined;
    let grantWhileDown: { status: number; body: Record<string, unknown> } | undefined;
    await infraCommand('minio', 'stop');
    try {
      down = await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(bytes) });
      grantWhileDown = await h.call(admin, 'POST', '/uploads', { ...place, name: 'Later.bin', size: 10 });
    } finally {
      await infraCommand('minio', 'start');
    }

    const unavailable = {
      code: 'unavailable',
      detail: 'The file store is not reachable right now, so nothing was saved. Try again in a few minutes.',
    };
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject(unavailable);
    expect(grantWhileDown.status).toBe(503);
    expect(grantWhileDown.body).toMatchObject(unavailable);
    // Nothing half-registered: no file, no usage, no FILE_UPLOADED; the grant still open for a retry.
    expect(await deps.inTenant('demo', (trx) => new FileStore(trx).get(g.fileId))).toBeUndefined();
    expect(await usage()).toMatchObject({ used: before.used, fileCount: before.fileCount });
    expect(
      (await outboxRows(h, 'drive.file.uploaded')).some((row) =>
        JSON.stringify(row.payload).includes(g.fileId),
      ),
    ).toBe(false);
    expect((await deps.inTenant('demo', (trx) => new UploadStore(trx).get(g.uploadId)))?.status).toBe(
      'granted',
    );

    // The store is back: the same upload completes with its checks.
    const retried = await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, {
      checksum: sha256(bytes),
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ ok: true, file: { id: g.fileId, size: bytes.length } });
  });
});
