import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { sha256Hex } from '../src/commands/server-files.js';
import { FileStore } from '../src/db/files.store.js';
import { insertFile as insertPlaceFile, makePdf, makePlace, outbox, type Place } from './folders-fixtures.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

const REQUESTER = '00000000-0000-4000-8000-000000000002'; // Mo Manager (demo seed)
const SIGNER = '00000000-0000-4000-8000-000000000001'; // Ada Admin (demo seed)
const BYSTANDER = '00000000-0000-4000-8000-0000000000bb';
const EDITOR = '00000000-0000-4000-8000-000000000003'; // Eddie Editor (demo seed)
const ACME_ADMIN = '10000000-0000-4000-8000-000000000001'; // Acme Admin (acme, another tenant)
const REQUEST_SCOPES = ['drive.signatures.create', 'drive.signatures.view', 'drive.file.read'];
const SIGN_SCOPES = ['drive.signatures.sign', 'drive.signatures.view', 'drive.file.read'];

/** A drawn signature: a small PNG with a dark stroke, as a data URL. */
async function signatureDataUrl(): Promise<string> {
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><path d="M10 80 C 60 10, 120 90, 290 20" stroke="black" stroke-width="4" fill="none"/></svg>',
  );
  const png = await sharp(svg).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

const tools = mkdtempSync(join(tmpdir(), 'drive-signatures-'));

/** Runs Debian's qpdf --check on a PDF: its output (it exits non-zero on a damaged file). */
function qpdfCheck(pdf: Buffer): string {
  const path = join(tools, `${randomUUID()}.pdf`);
  writeFileSync(path, pdf);
  return execFileSync('qpdf', ['--check', path], { encoding: 'utf8' });
}

/** The text poppler's pdftotext reads from a PDF (layout kept). */
function pdfText(pdf: Buffer): string {
  const path = join(tools, `${randomUUID()}.pdf`);
  writeFileSync(path, pdf);
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
}

/** The PDF encrypted by qpdf (AES-256, user password 'secret'). */
function encrypted(pdf: Buffer): Buffer {
  const plain = join(tools, `${randomUUID()}.pdf`);
  const locked = join(tools, `${randomUUID()}.pdf`);
  writeFileSync(plain, pdf);
  execFileSync('qpdf', ['--encrypt', 'secret', 'owner', '256', '--', plain, locked]);
  return readFileSync(locked);
}

/** A file of `place` in `tenantId`, made by the requester. */
const insertFile = (
  h: DriveHarness,
  tenantId: string,
  place: Place,
  name: string,
  bytes: Buffer,
  mimeType = 'application/pdf',
) => insertPlaceFile(h, tenantId, place, { name, bytes, mimeType, ownerId: REQUESTER });

describe('signature requests on PDFs', () => {
  let h: DriveHarness;
  let place: Place;
  let requester: string;
  let signer: string;
  let bystander: string;

  beforeAll(async () => {
    h = await startDriveHarness({ clock: undefined });
    place = await makePlace(h, 'demo', REQUESTER);
    // Mo signs in through identity for real: the drive asks identity (with the caller's token) whether the
    // assignee is a user of the tenant.
    requester = await h.signInAs('manager@demo.test');
    signer = await h.token(SIGN_SCOPES, 'demo', SIGNER);
    bystander = await h.token([...SIGN_SCOPES, ...REQUEST_SCOPES], 'demo', BYSTANDER);
  });
  afterAll(async () => {
    await h.stop();
  });

  const request = (token: string, fileId: string, assignedToUid = SIGNER, headers?: Record<string, string>) =>
    h.call(token, 'POST', '/signatures', { fileId, assignedToUid }, headers);

  describe('requesting a signature', () => {
    it("sends a request on a PDF: 'Signature request sent', a pending task, SIGNATURE_REQUESTED", async () => {
      const file = await insertFile(h, 'demo', place, 'Subcontract.pdf', await makePdf('Subcontract'));
      const answer = await request(requester, file.id);
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        message: 'Signature request sent',
        task: {
          fileId: file.id,
          fileName: 'Subcontract.pdf',
          assignedToUid: SIGNER,
          createdByUid: REQUESTER,
          status: 'pending',
          signedAt: null,
          signaturePath: null,
        },
      });
      const task = answer.body.task as { id: string };
      const events = await outbox(h, 'drive.signature.requested');
      expect(events.some((event) => event.targetId === task.id)).toBe(true);
    });

    it('refuses anything but a PDF: Only PDFs can be signed', async () => {
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
      const file = await insertFile(h, 'demo', place, 'photo.png', png, 'image/png');
      const answer = await request(requester, file.id);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'NOT_A_PDF', detail: 'Only PDFs can be signed' });
    });

    it("allows one pending request per file and assignee: 'A pending request already exists'", async () => {
      const file = await insertFile(h, 'demo', place, 'RAMS.pdf', await makePdf('RAMS'));
      expect((await request(requester, file.id)).status).toBe(201);
      const again = await request(requester, file.id);
      expect(again.status).toBe(409);
      expect(again.body.detail).toBe('A pending request already exists');
      // Another assignee on the same file is a request of its own.
      expect((await request(requester, file.id, EDITOR)).status).toBe(201);
    });

    it('refuses an assignee who is no user of the tenant: an unknown id, or a user of another tenant', async () => {
      const file = await insertFile(h, 'demo', place, 'Purchase order.pdf', await makePdf('Purchase order'));
      for (const assignee of [BYSTANDER, ACME_ADMIN]) {
        const refused = await request(requester, file.id, assignee);
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({
          code: 'UNKNOWN_ASSIGNEE',
          detail: 'The person asked to sign is not a user of this organisation.',
        });
      }
      const tasks = await h.definition
        .deps()
        .inTenant('demo', (trx) => trx('sign_tasks').where({ file_id: file.id }).select('id'));
      expect(tasks).toEqual([]);
    });

    it('answers a repeated idempotency key with the first request, not a duplicate refusal', async () => {
      const file = await insertFile(h, 'demo', place, 'Variation.pdf', await makePdf('Variation'));
      const key = { 'x-idempotency-key': `sig-${file.id}` };
      const first = await request(requester, file.id, SIGNER, key);
      const second = await request(requester, file.id, SIGNER, key);
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
    });

    it('refuses a caller without drive.signatures.create', async () => {
      const file = await insertFile(h, 'demo', place, 'NoScope.pdf', await makePdf('x'));
      const answer = await request(signer, file.id);
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe("You don't have permission to request signatures");
    });

    it("answers 'File not found' for a file the caller may not open", async () => {
      const file = await insertFile(h, 'demo', place, 'Closed.pdf', await makePdf('x'));
      const noRead = await h.token(['drive.signatures.create'], 'demo', REQUESTER);
      const answer = await request(noRead, file.id);
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toBe('File not found');
    });
  });

  describe('signing', () => {
    it('stamps the signature into a new version that qpdf checks and pdftotext reads, with the completion page', async () => {
      const original = await makePdf('Main contract between the parties');
      const file = await insertFile(h, 'demo', place, 'Main contract.pdf', original);
      const asked = await request(requester, file.id);
      const taskId = (asked.body.task as { id: string }).id;
      // Ada signs in through identity for real, so the completion page carries her name.
      const ada = await h.signInAs('admin@demo.test');

      const answer = await h.call(ada, 'POST', `/signatures/${taskId}/sign`, {
        signature: await signatureDataUrl(),
      });
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('PDF signed successfully');
      const task = answer.body.task as Record<string, unknown>;
      expect(task).toMatchObject({
        status: 'signed',
        signedVersion: 2,
        signaturePath: `tenants/demo/signatures/${taskId}.png`,
        signedFilePath: `tenants/demo/files/${file.id}/v/2`,
        hashBefore: sha256Hex(original),
        assignedToName: 'Ada Admin',
        createdByName: 'Mo Manager',
      });

      // The signature image is stored, a real PNG.
      const image = Buffer.concat(
        await (await h.objects.read(`tenants/demo/signatures/${taskId}.png`)).toArray(),
      );
      expect((await sharp(image).metadata()).format).toBe('png');

      // The signed version is what the task's after-hash names, and a real PDF tool reads it.
      const stamped = Buffer.concat(
        await (await h.objects.read(`tenants/demo/files/${file.id}/v/2`)).toArray(),
      );
      expect(sha256Hex(stamped)).toBe(task.hashAfter);
      expect(task.hashAfter).not.toBe(task.hashBefore);
      expect(qpdfCheck(stamped)).toMatch(/No syntax or stream encoding errors found/);
      const text = pdfText(stamped);
      expect(text).toContain('Main contract between the parties');
      expect(text).toContain('Signature completion page');
      expect(text).toContain('Signed by: Ada Admin');
      expect(text).toContain(`Signer's user id: ${SIGNER}`);
      expect(text).toMatch(/Signed on: \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} (GMT|BST) \(Europe\/London\)/);
      expect(text).toContain(sha256Hex(original));
      expect(text).toContain(taskId);
      expect((await PDFDocument.load(stamped)).getPageCount()).toBe(2);

      // The file moved to the signed version; the original stays as version 1.
      const stored = await h.definition.deps().inTenant('demo', async (trx) => {
        const row = (await trx('files').where({ id: file.id }).first()) as Record<string, unknown>;
        const versions = (await trx('file_versions').where({ file_id: file.id }).orderBy('version')) as {
          version: number;
          checksum: string;
        }[];
        return { row, versions };
      });
      expect(stored.row).toMatchObject({ signed: true, version: 2, checksum: task.hashAfter });
      expect(stored.versions.map((version) => [version.version, version.checksum])).toEqual([
        [1, sha256Hex(original)],
        [2, task.hashAfter],
      ]);
      const events = await outbox(h, 'drive.signature.completed');
      expect(events.some((event) => event.targetId === taskId)).toBe(true);
    });

    it('signs a PDF in a library under legal hold: a version is added, none is lost', async () => {
      const held = await makePlace(h, 'demo', REQUESTER, 'Held', { legalHold: true });
      const original = await makePdf('Held contract');
      const file = await insertFile(h, 'demo', held, 'Held contract.pdf', original);
      const taskId = ((await request(requester, file.id)).body.task as { id: string }).id;
      const answer = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, {
        signature: await signatureDataUrl(),
      });
      expect(answer.status).toBe(200);
      const versions = await h.definition
        .deps()
        .inTenant('demo', (trx) =>
          trx('file_versions').where({ file_id: file.id }).orderBy('version').select('version', 'checksum'),
        );
      expect(versions).toEqual([
        { version: 1, checksum: sha256Hex(original) },
        { version: 2, checksum: (answer.body.task as { hashAfter: string }).hashAfter },
      ]);
      expect(await h.objects.stat(`tenants/demo/files/${file.id}/v/1`)).toBeDefined();
    });

    it('a file awaiting signature is signed; purging it removes its signature image with its versions (the bucket listed)', async () => {
      const file = await insertFile(h, 'demo', place, 'Warranty.pdf', await makePdf('Warranty'));
      // Uploaded with 'Require signatures': awaiting signature until signed.
      await h.definition
        .deps()
        .inTenant('demo', (trx) => new FileStore(trx).update(file.id, { signatureRequired: true }));
      expect((await h.call(signer, 'GET', `/files/${file.id}`)).body.file).toMatchObject({
        awaitingSignature: true,
      });
      const taskId = ((await request(requester, file.id)).body.task as { id: string }).id;
      const signed = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, {
        signature: await signatureDataUrl(),
      });
      expect(signed.status).toBe(200);
      expect((await h.call(signer, 'GET', `/files/${file.id}`)).body.file).toMatchObject({
        signed: true,
        signatureRequired: true,
        awaitingSignature: false,
      });
      const listed = async (prefix: string) => {
        const keys: string[] = [];
        for await (const item of h.objects.list(prefix)) if (item.name) keys.push(item.name);
        return keys;
      };
      expect(await listed(`tenants/demo/signatures/${taskId}`)).toEqual([
        `tenants/demo/signatures/${taskId}.png`,
      ]);
      expect(await listed(`tenants/demo/files/${file.id}/`)).toHaveLength(2);

      const admin = await h.token(DRIVE_ADMIN_SCOPES);
      const purged = await h.call(admin, 'POST', '/mutations/purge', { tenantId: 'demo', fileId: file.id });
      expect(purged.status).toBe(200);
      expect(await listed(`tenants/demo/signatures/${taskId}`)).toEqual([]);
      expect(await listed(`tenants/demo/files/${file.id}/`)).toEqual([]);
    });

    it('lists pending requests assigned to me, then the signed document, with names', async () => {
      const file = await insertFile(
        h,
        'demo',
        place,
        'Insurance.pdf',
        await makePdf('Insurance certificate'),
      );
      const asked = await request(requester, file.id);
      const taskId = (asked.body.task as { id: string }).id;
      const pending = await h.call(signer, 'GET', '/signatures?status=pending&scope=assigned');
      expect(pending.status).toBe(200);
      expect((pending.body.items as { id: string }[]).map((item) => item.id)).toContain(taskId);
      const mine = await h.call(requester, 'GET', '/signatures?status=pending&scope=created');
      expect((mine.body.items as { id: string }[]).map((item) => item.id)).toContain(taskId);
      // A request on a file in the trash is not listed as waiting.
      const binned = await insertFile(h, 'demo', place, 'Binned.pdf', await makePdf('Binned'));
      const binnedTask = ((await request(requester, binned.id)).body.task as { id: string }).id;
      await h.definition
        .deps()
        .inTenant('demo', (trx) => trx('files').where({ id: binned.id }).update({ status: 'trashed' }));
      const waiting = await h.call(signer, 'GET', '/signatures?status=pending&scope=assigned');
      expect((waiting.body.items as { id: string }[]).map((item) => item.id)).not.toContain(binnedTask);
      // Nothing is assigned to the requester.
      const none = await h.call(requester, 'GET', '/signatures');
      expect(none.body.items).toEqual([]);

      await h.call(signer, 'POST', `/signatures/${taskId}/sign`, { signature: await signatureDataUrl() });
      const after = await h.call(signer, 'GET', '/signatures?status=pending');
      expect((after.body.items as { id: string }[]).map((item) => item.id)).not.toContain(taskId);
      const signed = await h.call(signer, 'GET', '/signatures?status=signed&scope=assigned');
      const item = (signed.body.items as Record<string, unknown>[]).find((entry) => entry.id === taskId);
      expect(item).toMatchObject({ fileName: 'Insurance.pdf', status: 'signed', signedVersion: 2 });
      expect(item?.hashAfter).toMatch(/^[0-9a-f]{64}$/);
      // Names come from identity with the reader's token; a real session reads them.
      const ada = await h.signInAs('admin@demo.test');
      const named = await h.call(ada, 'GET', '/signatures?status=signed');
      expect((named.body.items as Record<string, unknown>[])[0]).toMatchObject({
        assignedToName: 'Ada Admin',
        createdByName: 'Mo Manager',
      });
    });

    it('refuses anyone but the assignee, and a request already signed', async () => {
      const file = await insertFile(h, 'demo', place, 'Drawing.pdf', await makePdf('Drawing'));
      const taskId = ((await request(requester, file.id)).body.task as { id: string }).id;
      const signature = await signatureDataUrl();
      const other = await h.call(bystander, 'POST', `/signatures/${taskId}/sign`, { signature });
      expect(other.status).toBe(403);
      expect((await h.call(signer, 'POST', `/signatures/${taskId}/sign`, { signature })).status).toBe(200);
      const twice = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, { signature });
      expect(twice.status).toBe(409);
    });

    it("answers 'Task not found' for an unknown task", async () => {
      const answer = await h.call(signer, 'POST', `/signatures/${randomUUID()}/sign`, {
        signature: await signatureDataUrl(),
      });
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toBe('Task not found');
    });

    it('refuses a signature that is not a real PNG, and one too large', async () => {
      const file = await insertFile(h, 'demo', place, 'Png check.pdf', await makePdf('x'));
      const taskId = ((await request(requester, file.id)).body.task as { id: string }).id;
      const fake = `data:image/png;base64,${Buffer.from('GIF89a not a png at all').toString('base64')}`;
      const notPng = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, { signature: fake });
      expect(notPng.status).toBe(400);
      expect(notPng.body).toMatchObject({
        code: 'BAD_SIGNATURE_IMAGE',
        detail: 'The signature is not a PNG image.',
      });
      const truncated = Buffer.from((await signatureDataUrl()).split(',')[1] ?? '', 'base64').subarray(0, 40);
      const broken = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, {
        signature: `data:image/png;base64,${truncated.toString('base64')}`,
      });
      expect(broken.status).toBe(400);
      const jpeg = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, {
        signature: 'data:image/jpeg;base64,AAAA',
      });
      expect(jpeg.status).toBe(400);
      const huge = await sharp({ create: { width: 3000, height: 200, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
      const tooBig = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, {
        signature: `data:image/png;base64,${huge.toString('base64')}`,
      });
      expect(tooBig.status).toBe(400);
      expect(tooBig.body.detail).toBe('The signature image is too large (at most 2000 × 1000 pixels).');
      const still = await h.call(signer, 'GET', '/signatures?status=pending');
      expect((still.body.items as { id: string }[]).map((item) => item.id)).toContain(taskId);
    });

    it.each([
      [
        'a broken PDF',
        () => Promise.resolve(Buffer.from('%PDF-1.7\nthis is not really a PDF\n%%EOF')),
        'unreadable',
      ],
      ['an encrypted PDF', async () => encrypted(await makePdf('Locked')), 'encrypted'],
    ])(
      "answers 'Failed to stamp PDF' for %s; the request stays pending and nothing is stored",
      async (_, bytes, reason) => {
        const file = await insertFile(h, 'demo', place, `Stamp ${reason}.pdf`, await bytes());
        const taskId = ((await request(requester, file.id)).body.task as { id: string }).id;
        const answer = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, {
          signature: await signatureDataUrl(),
        });
        expect(answer.status).toBe(422);
        expect(answer.body).toMatchObject({ code: 'STAMP_FAILED', detail: 'Failed to stamp PDF', reason });
        const pending = await h.call(signer, 'GET', '/signatures?status=pending');
        expect((pending.body.items as { id: string }[]).map((item) => item.id)).toContain(taskId);
        expect(await h.objects.stat(`tenants/demo/signatures/${taskId}.png`)).toBeUndefined();
        expect(await h.objects.stat(`tenants/demo/files/${file.id}/v/2`)).toBeUndefined();
      },
    );

    it('refuses a caller without drive.signatures.sign', async () => {
      const noSign = await h.token(REQUEST_SCOPES, 'demo', REQUESTER);
      const answer = await h.call(noSign, 'POST', `/signatures/${randomUUID()}/sign`, {
        signature: await signatureDataUrl(),
      });
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe("You don't have permission to sign documents");
    });

    it('refuses to list without drive.signatures.view', async () => {
      const answer = await h.call(await h.token(['drive.file.read']), 'GET', '/signatures');
      expect(answer.status).toBe(403);
    });
  });

  describe('declining', () => {
    it('lets the assignee decline with a reason: SIGNATURE_DECLINED, no longer pending', async () => {
      const file = await insertFile(h, 'demo', place, 'Decline me.pdf', await makePdf('x'));
      const taskId = ((await request(requester, file.id)).body.task as { id: string }).id;
      const other = await h.call(bystander, 'POST', `/signatures/${taskId}/decline`, { reason: 'Not mine' });
      expect(other.status).toBe(403);
      const answer = await h.call(signer, 'POST', `/signatures/${taskId}/decline`, {
        reason: 'Wrong rates on page 2',
      });
      expect(answer.status).toBe(200);
      expect(answer.body.task).toMatchObject({ status: 'declined', declineReason: 'Wrong rates on page 2' });
      const pending = await h.call(signer, 'GET', '/signatures?status=pending');
      expect((pending.body.items as { id: string }[]).map((item) => item.id)).not.toContain(taskId);
      const declined = await h.call(requester, 'GET', '/signatures?status=declined&scope=created');
      expect((declined.body.items as { id: string }[]).map((item) => item.id)).toContain(taskId);
      const events = await outbox(h, 'drive.signature.declined');
      expect(events.some((event) => event.targetId === taskId)).toBe(true);
      // Declined, it can be asked again.
      expect((await request(requester, file.id)).status).toBe(201);
    });
  });

  describe("another tenant's ids", () => {
    it('answer 404 on every signature route', async () => {
      const theirs = await makePlace(h, 'northwind', REQUESTER);
      const file = await insertFile(h, 'northwind', theirs, 'Their contract.pdf', await makePdf('x'));
      const taskId = randomUUID();
      await h.definition.deps().inTenant('northwind', (trx) =>
        trx('sign_tasks').insert({
          id: taskId,
          tenant_id: 'northwind',
          file_id: file.id,
          assigned_to_uid: SIGNER,
          created_by_uid: REQUESTER,
        }),
      );
      const asked = await request(requester, file.id);
      expect(asked.status).toBe(404);
      expect(asked.body.detail).toBe('File not found');
      const signature = await signatureDataUrl();
      const sign = await h.call(signer, 'POST', `/signatures/${taskId}/sign`, { signature });
      expect(sign.status).toBe(404);
      expect(sign.body.detail).toBe('Task not found');
      const decline = await h.call(signer, 'POST', `/signatures/${taskId}/decline`, { reason: '' });
      expect(decline.status).toBe(404);
      const list = await h.call(signer, 'GET', '/signatures?status=pending');
      expect((list.body.items as { id: string }[]).map((item) => item.id)).not.toContain(taskId);
      // A payload naming another tenant answers 404 too.
      const named = await h.call(requester, 'POST', '/signatures', {
        tenantId: 'acme',
        fileId: file.id,
        assignedToUid: SIGNER,
      });
      expect(named.status).toBe(404);
    });
  });
});
