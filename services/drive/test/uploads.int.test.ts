import { randomBytes } from 'node:crypto';
import { cleanExpiredUploads } from '../src/commands/uploads.js';
import { FileStore } from '../src/db/files.store.js';
import { UploadStore } from '../src/db/uploads.store.js';
import { MIB, UPLOAD_PART_SIZE } from '../src/domain/index.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import {
  adminQuery,
  outboxRows,
  putParts,
  seedPlace,
  sha256,
  type Grant,
  type Place,
} from './uploads-support.js';

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
    expect(row).toMatchObject({
      name: 'Site plan.bin',
      nameLower: 'site plan.bin',
      ext: 'bin',
      mimeType: 'application/octet-stream',
      size: bytes.length,
      checksum: sha256(bytes),
      version: 1,
      versionsCount: 1,
      storagePath: g.objectPath,
      ownerId: DRIVE_ADMIN_ID,
      createdBy: DRIVE_ADMIN_ID,
      status: 'active',
      scanStatus: 'pending',
      visibility: 'private',
    });
    expect((await grantRow(g.uploadId))?.status).toBe('registered');

    const url = await h.objects.presignGet(g.objectPath, 'Site plan.bin');
    const downloaded = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(sha256(downloaded)).toBe(sha256(bytes));

    const uploaded = await outboxRows(h, 'drive.file.uploaded');
    expect(uploaded.some((event) => JSON.stringify(event.payload).includes(g.fileId))).toBe(true);
  });
  it("refuses a grant without a file: 'No file'", async () => {
    for (const body of [{ size: 10 }, { name: '   ', size: 10 }, { name: 'a.txt' }]) {
      const answer = await grant(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'NO_FILE', detail: 'No file' });
    }
  });

  it('refuses a caller without upload permission (file:upload), and one outside the library’s write scopes', async () => {
    const reader = await h.token(['drive.view', 'drive.file.read']);
    const denied = await grant({ name: 'a.txt', size: 3 }, reader);
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe("You don't have permission to upload files (requires file:upload).");

    const closed = await seedPlace(h, { acl: { writeScopes: ['drive.manage_all'] } });
    const uploader = await h.token(['drive.view', 'drive.file.read', 'drive.file.upload']);
    const refused = await h.call(uploader, 'POST', '/uploads', { ...closed, name: 'a.txt', size: 3 });
    expect(refused.status).toBe(403);
  });

  it('refuses new files in a readOnly library to uploaders, and takes them from holders of replace-version', async () => {
    const readOnly = await seedPlace(h, { policies: { readOnly: true } });
    const uploader = await h.token(['drive.view', 'drive.file.read', 'drive.file.upload']);
    const refused = await h.call(uploader, 'POST', '/uploads', { ...readOnly, name: 'a.txt', size: 3 });
    expect(refused.status).toBe(403);
    const replacer = await h.token(['drive.file.read', 'drive.file.upload', 'drive.file.replace_version']);
    const allowed = await h.call(replacer, 'POST', '/uploads', { ...readOnly, name: 'a.txt', size: 3 });
    expect(allowed.status).toBe(201);
  });

  it('answers 404 for another tenant’s drive, library or file, and for a payload naming another tenant', async () => {
    const theirs = await seedPlace(h, { tenantId: 'acme' });
    const answer = await h.call(admin, 'POST', '/uploads', { ...theirs, name: 'a.txt', size: 3 });
    expect(answer.status).toBe(404);
    const named = await grant({ tenantId: 'acme', name: 'a.txt', size: 3 });
    expect(named.status).toBe(404);
    const mixed = await h.call(admin, 'POST', '/uploads', {
      driveId: place.driveId,
      libraryId: theirs.libraryId,
      name: 'a.txt',
      size: 3,
    });
    expect(mixed.status).toBe(404);
  });

  it("refuses by the library's policy with E_POLICY_BLOCKED and the spec's texts", async () => {
    const strict = await seedPlace(h, {
      policies: { allowedExtensions: ['pdf', 'docx'], maxFileSizeMB: 10 },
    });
    const type = await h.call(admin, 'POST', '/uploads', { ...strict, name: 'setup.exe', size: 100 });
    expect(type.status).toBe(422);
    expect(type.body).toMatchObject({
      code: 'E_POLICY_BLOCKED',
      detail: 'File type ".exe" not allowed. Allowed types: pdf, docx',
    });
    const size = await h.call(admin, 'POST', '/uploads', {
      ...strict,
      name: 'Drawings.pdf',
      size: 12.5 * MIB,
    });
    expect(size.status).toBe(422);
    expect(size.body).toMatchObject({
      code: 'E_POLICY_BLOCKED',
      detail: 'File too large (12.50MB). Maximum allowed: 10MB',
    });
  });

  it("refuses a file over the configured maximum (5 GiB): 'File exceeds maximum allowed size'", async () => {
    const answer = await grant({ name: 'huge.bin', size: 5 * 1024 ** 3 + 1 });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      code: 'FILE_TOO_LARGE',
      detail: 'File exceeds maximum allowed size',
    });
  });

  it("names duplicates ' (2)', ' (3)' in the same drive, library and folder", async () => {
    const names: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const done = await upload('Method statement.txt', Buffer.from(`version ${String(i)}\n`));
      expect(done.status).toBe(200);
      names.push((done.body.file as { name: string }).name);
    }
    expect(names).toEqual(['Method statement.txt', 'Method statement (2).txt', 'Method statement (3).txt']);

    // Only within the same drive, library and folder: the same name elsewhere keeps its name.
    const folderId = '5f0c1d2e-0000-4000-8000-00000000f001';
    await h.definition.deps().inTenant('demo', (trx) =>
      trx('folders').insert({
        id: folderId,
        tenant_id: 'demo',
        drive_id: place.driveId,
        slug: 'handover',
        name: 'Handover',
        created_by: DRIVE_ADMIN_ID,
      }),
    );
    const inFolder = await upload('Method statement.txt', Buffer.from('in a folder\n'), { folderId });
    expect(inFolder.body.file).toMatchObject({ name: 'Method statement.txt', folderId });
    const elsewhere = await seedPlace(h);
    const otherLibrary = await h.call(admin, 'POST', '/uploads', {
      ...elsewhere,
      name: 'Method statement.txt',
      size: 3,
    });
    expect(otherLibrary.status).toBe(201);
    const g = otherLibrary.body as unknown as Grant;
    await putParts(g, Buffer.from('abc'));
    const done = await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, {
      checksum: sha256(Buffer.from('abc')),
    });
    expect(done.body.file).toMatchObject({ name: 'Method statement.txt' });
    // A folder of another drive is not found.
    const foreignFolder = await h.call(admin, 'POST', '/uploads', {
      ...elsewhere,
      folderId,
      name: 'x.txt',
      size: 1,
    });
    expect(foreignFolder.status).toBe(404);
  });

  it('cuts a long name to 255 characters keeping its extension, and its duplicate stays within 255', async () => {
    const long = `${'Ground floor slab pour record '.repeat(12)}.pdf`;
    const first = await upload(long, Buffer.from('%PDF-1.4\n%%EOF\n'));
    const second = await upload(long, Buffer.from('%PDF-1.4\n%%EOF\n'));
    const [a, b] = [first.body.file, second.body.file] as { name: string }[];
    expect(Array.from(a?.name ?? '')).toHaveLength(255);
    expect(a?.name.endsWith('.pdf')).toBe(true);
    expect(Array.from(b?.name ?? '')).toHaveLength(255);
    expect(b?.name.endsWith(' (2).pdf')).toBe(true);
  });

  it('refuses a checksum mismatch and leaves nothing: no file, no object, the grant ended', async () => {
    const bytes = randomBytes(1000);
    const g = (await grant({ name: 'Survey.bin', size: bytes.length })).body as unknown as Grant;
    await putParts(g, bytes);
    const done = await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, {
      checksum: sha256(Buffer.from('other')),
    });
    expect(done.status).toBe(422);
    expect(done.body.code).toBe('CHECKSUM_MISMATCH');
    expect(done.body.detail).toContain('Nothing was saved');
    expect(await fileRow(g.fileId)).toBeUndefined();
    expect(await h.objects.stat(g.objectPath)).toBeUndefined();
    expect((await grantRow(g.uploadId))?.status).toBe('aborted');
  });

  it('refuses a size mismatch (fewer bytes stored than announced) and leaves no parts', async () => {
    const bytes = randomBytes(2000);
    const g = (await grant({ name: 'Survey.bin', size: bytes.length })).body as unknown as Grant;
    await putParts(g, bytes.subarray(0, 1500));
    const done = await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(bytes) });
    expect(done.status).toBe(422);
    expect(done.body).toMatchObject({
      code: 'SIZE_MISMATCH',
      detail: 'The stored file has 1500 bytes but 2000 were announced. Nothing was saved; upload it again.',
    });
    expect(await fileRow(g.fileId)).toBeUndefined();
    await expect(
      h.objects.parts(g.objectPath, (await grantRow(g.uploadId))?.multipartId ?? ''),
    ).rejects.toMatchObject({
      code: 'NoSuchUpload',
    });
    expect(await h.objects.stat(g.objectPath)).toBeUndefined();
  });

  it('refuses a file whose bytes are a program but whose name says PDF, and removes its object', async () => {
    const program = Buffer.concat([
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01]),
      randomBytes(500),
    ]);
    const granted = (await grant({ name: 'Contract.pdf', size: program.length, mimeType: 'application/pdf' }))
      .body as unknown as Grant;
    await putParts(granted, program);
    const done = await h.call(admin, 'POST', `/uploads/${granted.uploadId}/complete`, {
      checksum: sha256(program),
    });
    expect(done.status).toBe(422);
    expect(done.body.code).toBe('CONTENT_MISMATCH');
    expect(done.body.detail).toBe(
      'The file\'s content does not match its name: "Contract.pdf" contains ELF data (application/x-elf), not what .pdf promises. Rename it or upload the right file.',
    );
    expect(await fileRow(granted.fileId)).toBeUndefined();
    expect(await h.objects.stat(granted.objectPath)).toBeUndefined();
  });

  it('accepts text that cannot be sniffed, and keeps an image of another format flagged with what it is', async () => {
    const csv = await upload('Valuation.csv', Buffer.from('item,amount\nconcrete,1200\n'));
    expect(csv.status).toBe(200);
    expect(csv.body.file).toMatchObject({ contentFlag: null });
    // A real 1×1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const photo = await upload('Site photo.jpg', png);
    expect(photo.status).toBe(200);
    expect(photo.body.file).toMatchObject({ name: 'Site photo.jpg', contentFlag: 'png (image/png)' });
    expect(
      (await outboxRows(h, 'drive.file.content_flagged')).some((row) =>
        JSON.stringify(row.payload).includes((photo.body.file as { id: string }).id),
      ),
    ).toBe(true);
  });

  it('registers through the spec’s files/register call: ok and code, and a missing upload gives its message', async () => {
    const bytes = Buffer.from('%PDF-1.7\nregistered\n%%EOF\n');
    const g = (
      await grant({ name: 'Insurance certificate.pdf', size: bytes.length, mimeType: 'application/pdf' })
    ).body as unknown as Grant;
    await putParts(g, bytes);
    const body = {
      tenantId: 'demo',
      fileId: g.fileId,
      driveId: place.driveId,
      canonicalFile: { name: 'Insurance certificate.pdf' },
      version: { objectPath: g.objectPath, checksum: sha256(bytes), size: bytes.length },
    };
    const done = await h.call(admin, 'POST', '/files/register', body);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      ok: true,
      code: 'REGISTERED',
      file: { id: g.fileId, typeClass: 'pdf' },
    });
    const again = await h.call(admin, 'POST', '/files/register', body);
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe('Upload completed but file metadata not found');
    const repeat = await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, {
      checksum: sha256(bytes),
    });
    expect(repeat.body).toMatchObject({ ok: true, code: 'ALREADY_REGISTERED' });
  });

  it("keeps 'Require signatures' on a PDF: the file awaits signature (a text file cannot be signed, so never)", async () => {
    const pdf = Buffer.from('%PDF-1.7\nsubcontract\n%%EOF\n');
    const signedPdf = await upload('Subcontract.pdf', pdf, {
      mimeType: 'application/pdf',
      requireSignatures: true,
    });
    expect(signedPdf.body).toMatchObject({ file: { signatureRequired: true, awaitingSignature: true } });
    const plainPdf = await upload('Drawing register.pdf', Buffer.from('%PDF-1.7\nregister\n%%EOF\n'), {
      mimeType: 'application/pdf',
    });
    expect(plainPdf.body).toMatchObject({ file: { signatureRequired: false, awaitingSignature: false } });
    const text = await upload('Notes.txt', Buffer.from('site notes\n'), {
      mimeType: 'text/plain',
      requireSignatures: true,
    });
    expect(text.body).toMatchObject({ file: { signatureRequired: false, awaitingSignature: false } });

    const id = (signedPdf.body.file as { id: string }).id;
    const detail = await h.call(admin, 'GET', `/files/${id}`);
    expect(detail.body.file).toMatchObject({
      signatureRequired: true,
      awaitingSignature: true,
      signed: false,
    });
    const uploaded = await outboxRows(h, 'drive.file.uploaded');
    const event = uploaded.find((row) => JSON.stringify(row.payload).includes(id));
    expect(JSON.stringify(event?.payload)).toContain('"requireSignatures":"true"');
  });

  describe('the module reference at registration (drive.md §4, §8 FILE_REF_WRITE_FAILED)', () => {
    const registerBody = async (name: string, bytes: Buffer, reference?: Record<string, unknown>) => {
      const g = (await grant({ name, size: bytes.length, mimeType: 'text/plain' })).body as unknown as Grant;
      await putParts(g, bytes);
      return {
        tenantId: 'demo',
        fileId: g.fileId,
        driveId: place.driveId,
        version: { objectPath: g.objectPath, checksum: sha256(bytes), size: bytes.length },
        ...(reference ? { reference } : {}),
      };
    };

    it('writes the module reference asked for when the file is registered', async () => {
      const body = await registerBody('Minutes.txt', Buffer.from('minutes of the site meeting\n'), {
        moduleId: 'schedule',
        entityId: 'event-41',
      });
      const done = await h.call(admin, 'POST', '/files/register', body);
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        ok: true,
        code: 'REGISTERED',
        reference: {
          fileId: body.fileId,
          moduleId: 'schedule',
          entityId: 'event-41',
          referenceType: 'attachment',
        },
        file: { id: body.fileId, orphanedRef: false },
      });
      const references = await h.call(admin, 'GET', `/files/${body.fileId}/references`);
      expect(references.body).toMatchObject({ refs: { schedule: 1, total: 1 }, orphanedRef: false });
    });

    it('a failed reference write answers FILE_REF_WRITE_FAILED with the file kept and flagged; repair-refs then recreates the reference', async () => {
      const bytes = Buffer.from('risk assessment, revision C\n');
      const body = await registerBody('RAMS rev C.txt', bytes, { moduleId: 'chat', entityId: 'channel-7' });
      // The reference table refuses every write (a real failure of the database, for this test only).
      await adminQuery(
        h,
        `CREATE FUNCTION drive.test_refuse_refs() RETURNS trigger LANGUAGE plpgsql AS
           $$ BEGIN RAISE EXCEPTION 'file_refs is unavailable'; END $$`,
      );
      await adminQuery(
        h,
        'CREATE TRIGGER test_refuse_refs BEFORE INSERT ON drive.file_refs FOR EACH ROW EXECUTE FUNCTION drive.test_refuse_refs()',
      );
      let done: Awaited<ReturnType<DriveHarness['call']>>;
      try {
        done = await h.call(admin, 'POST', '/files/register', body);
      } finally {
        await adminQuery(h, 'DROP TRIGGER test_refuse_refs ON drive.file_refs');
        await adminQuery(h, 'DROP FUNCTION drive.test_refuse_refs()');
      }
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        ok: true,
        code: 'FILE_REF_WRITE_FAILED',
        message: 'Reference creation failed',
        file: { id: body.fileId, name: 'RAMS rev C.txt', orphanedRef: true },
      });
      expect(done.body.reference).toBeUndefined();
      const kept = await fileRow(body.fileId);
      expect(kept).toMatchObject({ status: 'active', orphanedRef: true, checksum: sha256(bytes) });
      expect(
        await adminQuery(h, 'SELECT module_id, entity_id FROM drive.file_ref_intents WHERE file_id = $1', [
          body.fileId,
        ]),
      ).toEqual([{ module_id: 'chat', entity_id: 'channel-7' }]);

      // The web's Retry: repair-refs recreates the reference ('Reference repaired').
      const repaired = await h.call(admin, 'POST', '/mutations/repair-refs', {
        tenantId: 'demo',
        fileId: body.fileId,
      });
      expect(repaired.body).toMatchObject({ fixed: [body.fileId], pending: [] });
      const references = await h.call(admin, 'GET', `/files/${body.fileId}/references`);
      expect(references.body).toMatchObject({
        references: [{ moduleId: 'chat', entityId: 'channel-7' }],
        orphanedRef: false,
      });
    });

    it('refuses a reference without drive.attachment.add and leaves the upload open', async () => {
      const body = await registerBody('Drawing.txt', Buffer.from('drawing 12\n'), {
        moduleId: 'notes',
        entityId: 'note-1',
      });
      const uploader = await h.token(['drive.view', 'drive.file.upload', 'drive.file.read']);
      const refused = await h.call(uploader, 'POST', '/files/register', body);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe('This requires the drive.attachment.add permission.');
      expect(await fileRow(body.fileId)).toBeUndefined();
      const done = await h.call(admin, 'POST', '/files/register', body);
      expect(done.body).toMatchObject({ ok: true, code: 'REGISTERED' });
    });
  });

  it('honours an idempotency key: a repeated grant answers the first', async () => {
    const headers = { 'x-idempotency-key': `grant-${randomBytes(4).toString('hex')}` };
    const first = await grant({ name: 'once.txt', size: 5 }, admin, headers);
    const second = await grant({ name: 'once.txt', size: 5 }, admin, headers);
    expect(second.status).toBe(201);
    expect(second.body.uploadId).toBe(first.body.uploadId);
  });

  it('cancels an upload: the multipart upload aborted, no parts left, and it cannot be completed after', async () => {
    const bytes = randomBytes(UPLOAD_PART_SIZE + 10);
    const g = (await grant({ name: 'Cancelled.bin', size: bytes.length })).body as unknown as Grant;
    await putParts(g, bytes);
    const multipartId = (await grantRow(g.uploadId))?.multipartId ?? '';
    expect(await h.objects.parts(g.objectPath, multipartId)).toHaveLength(2);
    const other = await h.token(DRIVE_ADMIN_SCOPES, 'demo', '00000000-0000-4000-8000-0000000000ee');
    expect((await h.call(other, 'DELETE', `/uploads/${g.uploadId}`)).status).toBe(404);

    const cancelled = await h.call(admin, 'DELETE', `/uploads/${g.uploadId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ uploadId: g.uploadId, status: 'aborted' });
    await expect(h.objects.parts(g.objectPath, multipartId)).rejects.toMatchObject({ code: 'NoSuchUpload' });
    const late = await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(bytes) });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('UPLOAD_ENDED');
    expect(await fileRow(g.fileId)).toBeUndefined();
  });

  it('answers 404 to another user completing someone’s upload', async () => {
    const g = (await grant({ name: 'mine.txt', size: 4 })).body as unknown as Grant;
    const other = await h.token(DRIVE_ADMIN_SCOPES, 'demo', '00000000-0000-4000-8000-0000000000ee');
    const answer = await h.call(other, 'POST', `/uploads/${g.uploadId}/complete`, {
      checksum: sha256(Buffer.from('mine')),
    });
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toBe('Upload not found');
  });

  // Last: it moves the clock past every grant's expiry.
  it('cleans up abandoned uploads once their grant expires: parts and completed objects removed, nothing registered', async () => {
    const parted = randomBytes(UPLOAD_PART_SIZE + 5);
    const a = (await grant({ name: 'Abandoned.bin', size: parted.length })).body as unknown as Grant;
    await putParts(a, parted);
    const small = Buffer.from('completed but never registered');
    const b = (await grant({ name: 'Orphan.txt', size: small.length })).body as unknown as Grant;
    await putParts(b, small);
    const bRow = await grantRow(b.uploadId);
    await h.objects.completeMultipart(
      b.objectPath,
      bRow?.multipartId ?? '',
      await h.objects.parts(b.objectPath, bRow?.multipartId ?? ''),
    );
    expect(await h.objects.stat(b.objectPath)).toBeDefined();

    h.clock.advance(h.config.UPLOAD_GRANT_TTL_MS + 1_000);
    const deps = h.definition.deps();
    // The service's own worker runs too (every 200 ms here): pass until both grants have ended.
    for (let pass = 0; pass < 50; pass += 1) {
      await cleanExpiredUploads(deps);
      const [ga, gb] = await Promise.all([grantRow(a.uploadId), grantRow(b.uploadId)]);
      if (ga?.status === 'aborted' && gb?.status === 'aborted') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await grantRow(a.uploadId))?.status).toBe('aborted');
    expect((await grantRow(b.uploadId))?.status).toBe('aborted');
    const aRow = await grantRow(a.uploadId);
    await expect(h.objects.parts(a.objectPath, aRow?.multipartId ?? '')).rejects.toMatchObject({
      code: 'NoSuchUpload',
    });
    expect(await h.objects.stat(b.objectPath)).toBeUndefined();
    const left: string[] = [];
    for await (const item of h.objects.list(`tenants/demo/files/${a.fileId}/`)) left.push(item.name ?? '');
    for await (const item of h.objects.list(`tenants/demo/files/${b.fileId}/`)) left.push(item.name ?? '');
    expect(left).toEqual([]);
    expect(await fileRow(a.fileId)).toBeUndefined();
    expect(await fileRow(b.fileId)).toBeUndefined();
  });
});
