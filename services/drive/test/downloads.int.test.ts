import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { eventually } from '@workspace/kit/testing';
import sharp from 'sharp';
import { storeServerVersion } from '../src/commands/versions.js';
import { FileStore } from '../src/db/files.store.js';
import { adminRows, READER_SCOPES, seedDrive, seedFile, seedLibrary } from './files.fixtures.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

/*
 * GET /v1/download (FILE_DOWNLOADED, then the object through a presigned URL), GET /v1/preview (text of CSV, JSON,
 * text and code up to 1 MB; an inline URL for PDF, image, video and audio; otherwise 'Preview not available for
 * this file type'), and thumbnails made in the background for images and PDFs (GET /v1/files/:id/thumbnail).
 */

const ALICE = '00000000-0000-4000-8000-00000000a11c';

let h: DriveHarness;
let admin: string;
let alice: string;
let drive: string;
let library: string;

const storedFile = (id: string) => h.definition.deps().inTenant('demo', (trx) => new FileStore(trx).get(id));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function fetchBytes(url: string): Promise<{ bytes: Buffer; headers: Headers; status: number }> {
  const response = await fetch(url);
  return {
    bytes: Buffer.from(await response.arrayBuffer()),
    headers: response.headers,
    status: response.status,
  };
}

async function pdfBytes(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 400]);
  page.drawText(text, { x: 40, y: 300, size: 24, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  h = await startDriveHarness({ env: { THUMBNAIL_POLL_MS: '500' } });
  admin = await h.token(DRIVE_ADMIN_SCOPES);
  alice = await h.token(READER_SCOPES, 'demo', ALICE);
  drive = await seedDrive(h, { members: [{ userId: ALICE, role: 'contributor' }] });
  library = await seedLibrary(h, drive);
});

afterAll(async () => {
  await h.stop();
});

describe('download', () => {
  it('records FILE_DOWNLOADED, then redirects to a presigned URL that gives the same bytes under the file’s name', async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const file = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'Drawing rev B.dwg',
      bytes,
      mimeType: 'application/octet-stream',
    });
    const answer = await h.call(alice, 'GET', `/download?fileId=${file.id}&tenantId=demo&driveId=${drive}`);
    expect(answer.status).toBe(302);
    const location = answer.headers.get('location') ?? '';
    const fetched = await fetchBytes(location);
    expect(fetched.status).toBe(200);
    expect(sha256(fetched.bytes)).toBe(sha256(bytes));
    expect(sha256(fetched.bytes)).toBe(file.checksum);
    expect(fetched.headers.get('content-disposition')).toBe(
      "attachment; filename*=UTF-8''Drawing%20rev%20B.dwg",
    );
    const events = await adminRows<{ payload: Record<string, unknown> }>(
      h,
      "SELECT payload FROM outbox WHERE type = 'drive.file.downloaded' AND payload->>'targetId' = ?",
      [file.id],
    );
    expect(events.map((event) => event.payload)).toEqual([
      expect.objectContaining({
        action: 'FILE_DOWNLOADED',
        actorId: ALICE,
        details: expect.objectContaining({ fileName: 'Drawing rev B.dwg', version: '1' }) as unknown,
      }),
    ]);
  });

  it('answers {url, name, size} as JSON when asked (the web’s toast flow)', async () => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name: 'Json.txt' });
    const answer = await h.call(alice, 'GET', `/download?fileId=${file.id}`, undefined, {
      accept: 'application/json',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Json.txt', size: file.size });
    expect((await fetchBytes(answer.body.url as string)).bytes.toString()).toBe('contents of Json.txt');
  });

  it('downloads an earlier version when asked; an unknown version is not found', async () => {
    const file = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'Versions.txt',
      bytes: Buffer.from('first'),
    });
    const deps = h.definition.deps();
    await deps.inTenant('demo', (trx) =>
      storeServerVersion(deps, trx, { tenantId: 'demo', userId: DRIVE_ADMIN_ID }, file, {
        bytes: Buffer.from('second'),
        mimeType: 'text/plain',
        note: 'test',
      }),
    );
    const json = { accept: 'application/json' };
    const current = await h.call(alice, 'GET', `/download?fileId=${file.id}`, undefined, json);
    expect((await fetchBytes(current.body.url as string)).bytes.toString()).toBe('second');
    const first = await h.call(alice, 'GET', `/download?fileId=${file.id}&version=1`, undefined, json);
    expect((await fetchBytes(first.body.url as string)).bytes.toString()).toBe('first');
    const unknown = await h.call(alice, 'GET', `/download?fileId=${file.id}&version=9`, undefined, json);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('Version not found');
  });

  it("answers 'File not found' for a file the caller may not open, another drive, or another tenant", async () => {
    const restricted = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'Restricted.txt',
      visibility: 'restricted',
    });
    const plain = await seedFile(h, { driveId: drive, libraryId: library, name: 'Plain.txt' });
    const otherDrive = await seedDrive(h);
    const acmeDrive = await seedDrive(h, { tenantId: 'acme' });
    const acmeLibrary = await seedLibrary(h, acmeDrive, { tenantId: 'acme' });
    const acme = await seedFile(h, {
      tenantId: 'acme',
      driveId: acmeDrive,
      libraryId: acmeLibrary,
      name: 'A.txt',
    });
    for (const [token, query] of [
      [alice, `fileId=${restricted.id}`],
      [alice, `fileId=${plain.id}&driveId=${otherDrive}`],
      [admin, `fileId=${acme.id}`],
    ] as const) {
      for (const path of ['/download', '/preview']) {
        const answer = await h.call(token, 'GET', `${path}?${query}`);
        expect(answer.status).toBe(404);
        expect(answer.body.detail).toBe('File not found');
      }
    }
    expect((await h.call(admin, 'GET', `/download?fileId=${plain.id}&tenantId=acme`)).status).toBe(404);
    expect(
      (await h.call(await h.token(['cis.inv.read']), 'GET', `/download?fileId=${plain.id}`)).status,
    ).toBe(403);
  });
});

describe('preview', () => {
  const preview = async (name: string, bytes: Buffer, mimeType: string) => {
    const file = await seedFile(h, { driveId: drive, libraryId: library, name, bytes, mimeType });
    const answer = await h.call(alice, 'GET', `/preview?fileId=${file.id}&tenantId=demo&driveId=${drive}`);
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('gives the text of a CSV (the web shows a table)', async () => {
    expect(await preview('Costs.csv', Buffer.from('item,cost\nscaffold,1200\n'), 'text/csv')).toMatchObject({
      kind: 'csv',
      text: 'item,cost\nscaffold,1200\n',
    });
  });

  it('gives the text of JSON (the web pretty-prints it), of text and of code', async () => {
    expect(await preview('Data.json', Buffer.from('{"a":1}'), 'application/json')).toMatchObject({
      kind: 'json',
      text: '{"a":1}',
    });
    expect(await preview('Notes.txt', Buffer.from('Site notes £'), 'text/plain')).toMatchObject({
      kind: 'text',
      text: 'Site notes £',
    });
    expect(await preview('script.sh', Buffer.from('echo hi'), 'text/x-sh')).toMatchObject({
      kind: 'text',
      text: 'echo hi',
    });
  });

  it('says a text file over 1 MB is too large to preview', async () => {
    const body = await preview('Big.log', Buffer.alloc(1024 * 1024 + 1, 97), 'text/plain');
    expect(body).toMatchObject({
      kind: 'text',
      message: 'This file is too large to preview (over 1 MB). Download it to open it.',
    });
    expect(body.text).toBeUndefined();
  });

  it('gives an inline URL for a PDF that serves its bytes', async () => {
    const bytes = await pdfBytes('Preview me');
    const body = await preview('Contract.pdf', bytes, 'application/pdf');
    expect(body).toMatchObject({ kind: 'pdf' });
    const fetched = await fetchBytes(body.url as string);
    expect(sha256(fetched.bytes)).toBe(sha256(bytes));
    expect(fetched.headers.get('content-disposition')).toMatch(/^inline;/);
  });

  it("answers 'Preview not available for this file type' for anything else", async () => {
    expect(await preview('Archive.zip', Buffer.from('PK'), 'application/zip')).toMatchObject({
      kind: 'none',
      message: 'Preview not available for this file type',
    });
  });
});

describe('thumbnails', () => {
  it('makes a JPEG thumbnail for a PNG and for a PDF in the background, served by /files/:id/thumbnail', async () => {
    const png = await sharp({
      create: { width: 800, height: 400, channels: 3, background: '#3b82f6' },
    })
      .png()
      .toBuffer();
    const image = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'Photo.png',
      bytes: png,
      mimeType: 'image/png',
    });
    const pdf = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'Plan.pdf',
      bytes: await pdfBytes('Thumb'),
      mimeType: 'application/pdf',
    });
    for (const file of [image, pdf]) {
      await eventually(
        async () =>
          ((await h.call(alice, 'GET', `/files/${file.id}`)).body.file as { hasThumbnail: boolean })
            .hasThumbnail,
        60_000,
        `the thumbnail of ${file.name}`,
      );
      const answer = await h.call(alice, 'GET', `/files/${file.id}/thumbnail`);
      expect(answer.status).toBe(302);
      const fetched = await fetchBytes(answer.headers.get('location') ?? '');
      const meta = await sharp(fetched.bytes).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(320);
      const stored = await storedFile(file.id);
      expect(stored?.thumbnailPath).toBe(
        `tenants/demo/thumbs/${file.id}/v/1/${file.name === 'Photo.png' ? 'photo' : 'plan'}.jpg`,
      );
    }
    const thumb = await h.call(alice, 'GET', `/files/${image.id}/thumbnail`);
    const bytes = (await fetchBytes(thumb.headers.get('location') ?? '')).bytes;
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 320, height: 160 });
  });

  it("a new version gets its own thumbnail, and the previous version's goes", async () => {
    const png = (colour: string) =>
      sharp({ create: { width: 64, height: 64, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const file = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'Logo.png',
      bytes: await png('#ff0000'),
      mimeType: 'image/png',
    });
    const first = await eventually(
      async () => (await storedFile(file.id))?.thumbnailPath ?? undefined,
      60_000,
      'the first thumbnail',
    );
    const deps = h.definition.deps();
    const current = await storedFile(file.id);
    if (!current) throw new Error('file vanished');
    await deps.inTenant('demo', async (trx) =>
      storeServerVersion(deps, trx, { tenantId: 'demo', userId: DRIVE_ADMIN_ID }, current, {
        bytes: await png('#00ff00'),
        mimeType: 'image/png',
        note: 'recoloured',
      }),
    );
    const second = await eventually(
      async () => {
        const path = (await storedFile(file.id))?.thumbnailPath;
        return path !== first ? path : undefined;
      },
      60_000,
      'the second thumbnail',
    );
    expect(second).toBe(`tenants/demo/thumbs/${file.id}/v/2/logo.jpg`);
    await eventually(
      async () => (await h.objects.stat(first)) === undefined,
      30_000,
      'the old thumbnail removed',
    );
  });

  it('skips a file whose thumbnail cannot be made, which stays listed and downloadable', async () => {
    const broken = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'Broken.png',
      bytes: Buffer.from('not a png at all'),
      mimeType: 'image/png',
    });
    const later = await seedFile(h, {
      driveId: drive,
      libraryId: library,
      name: 'After.png',
      bytes: await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
      mimeType: 'image/png',
    });
    await eventually(
      async () =>
        ((await h.call(alice, 'GET', `/files/${later.id}`)).body.file as { hasThumbnail: boolean })
          .hasThumbnail,
      60_000,
      'the thumbnail after the broken one',
    );
    const answer = await h.call(alice, 'GET', `/files/${broken.id}/thumbnail`);
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toBe('Thumbnail not available');
    expect(await storedFile(broken.id)).toMatchObject({ thumbnailPath: null, thumbnailVersion: 1 });
    expect((await h.call(alice, 'GET', `/download?fileId=${broken.id}`)).status).toBe(302);
  });
});
