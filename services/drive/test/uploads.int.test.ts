import { randomBytes } from 'node:crypto';
import { FileStore } from '../src/db/files.store.js';
import { UploadStore } from '../src/db/uploads.store.js';
import { MIB, UPLOAD_PART_SIZE } from '../src/domain/index.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import { outboxRows, putParts, seedPlace, sha256, type Grant, type Place } from './uploads-support.js';

describe('uploads straight to the object store', () => {
  let h: DriveHarness;
  let admin: string;
  let place: Place;

  beforeAll(async () => {
    h = await startDriveHarness();
    admin = await h.token(DRIVE_ADMIN_SCOPES);
    place = await seedPlace(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  const grant = async (body: Record<string, unknown>, token = admin, headers: Record<string, string> = {}) =>
    h.call(token, 'POST', '/uploads', { ...place, ...body }, headers);

  /** The browser's whole upload: grant, parts PUT, complete with the SHA-256 it computed. */
  const upload = async (name: string, bytes: Buffer, extra: Record<string, unknown> = {}, token = admin) => {
    const granted = await grant(
      { name, size: bytes.length, mimeType: 'application/octet-stream', ...extra },
      token,
    );
    expect(granted.status).toBe(201);
    const g = granted.body as unknown as Grant;
    await putParts(g, bytes);
    return h.call(token, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(bytes) });
  };

  const fileRow = (id: string) => h.definition.deps().inTenant('demo', (trx) => new FileStore(trx).get(id));
  const grantRow = (id: string) =>
    h.definition.deps().inTenant('demo', (trx) => new UploadStore(trx).get(id));

  it('uploads a file of several 5 MiB parts through presigned URLs, registers it, and downloads the same bytes', async () => {
    const bytes = randomBytes(2 * UPLOAD_PART_SIZE + 3 * MIB + 17);
    const granted = await grant({
      name: 'Site plan.bin',
      size: bytes.length,
      mimeType: 'application/octet-stream',
    });
    expect(granted.status).toBe(201);
    const g = granted.body as unknown as Grant;
    expect(g.partSize).toBe(5 * MIB);
    expect(g.parts.map((part) => part.partNumber)).toEqual([1, 2, 3]);
    expect(g.objectPath).toBe(`tenants/demo/files/${g.fileId}/v/1`);

    await putParts(g, bytes);
    const done = await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(bytes) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      ok: true,
      code: 'REGISTERED',
      file: { id: g.fileId, name: 'Site plan.bin', size: bytes.length, checksum: sha256(bytes), version: 1 },
    });

    const row = await fileRow(g.fileId);
    expect(row).toMatchObject({ storagePath: g.objectPath, ownerId: DRIVE_ADMIN_ID, size: bytes.length });
    expect((await grantRow(g.uploadId))?.status).toBe('registered');

    const url = await h.objects.presignGet(g.objectPath, 'Site plan.bin');
    const downloaded = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(sha256(downloaded)).toBe(sha256(bytes));

    const uploaded = await outboxRows(h, 'drive.file.uploaded');
    expect(uploaded.some((event) => JSON.stringify(event.payload).includes(g.fileId))).toBe(true);
  });
});
