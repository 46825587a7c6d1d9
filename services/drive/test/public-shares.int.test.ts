import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ControlledClock } from '@workspace/kit/testing';
import sharp from 'sharp';
import {
  addFile,
  auditEvents,
  insertShare,
  makePlace,
  samplePdf,
  samplePng,
  textFile,
  type Place,
} from './shares.fixtures.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

const run = promisify(execFile);
const MAX_ATTEMPTS = 3;
const VIEWER_ID = '00000000-0000-4000-8000-0000000000b1';
const OUTSIDER_ID = '00000000-0000-4000-8000-0000000000b2';

/** The text of a PDF, as Debian's pdftotext reads it. */
async function pdfText(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'share-pdf-'));
  const path = join(dir, 'file.pdf');
  await writeFile(path, bytes);
  const { stdout } = await run('pdftotext', [path, '-']);
  return stdout;
}

describe('the public share link (/v1/public/shares)', () => {
  let h: DriveHarness;
  let admin: string;
  let place: Place;
  const clock = new ControlledClock(new Date('2026-11-27T09:30:00Z'));

  beforeAll(async () => {
    h = await startDriveHarness({
      clock,
      env: { SHARE_LINK_SECRET: 'y'.repeat(40), SHARE_PASSCODE_MAX_ATTEMPTS: String(MAX_ATTEMPTS) },
    });
    admin = await h.token(DRIVE_ADMIN_SCOPES);
    place = await makePlace(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  async function share(body: Record<string, unknown>, fileIds: string[]): Promise<string> {
    const answer = await h.call(admin, 'POST', '/mutations/share', {
      name: 'Site pack',
      libraryId: place.libraryId,
      fileIds,
      ...body,
    });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  }
  const view = (id: string, token?: string, headers: Record<string, string> = {}, tenantId = 'demo') =>
    h.call(token, 'GET', `/public/shares/${id}?tenantId=${tenantId}`, undefined, headers);
  const file = (id: string, fileId: string, mode: 'preview' | 'download', token?: string, query = '') =>
    h.call(token, 'GET', `/public/shares/${id}/files/${fileId}/${mode}?tenantId=demo${query}`);
  const unlock = (id: string, passcode: string, token?: string) =>
    h.call(token, 'POST', `/public/shares/${id}/unlock?tenantId=demo`, { passcode });

  describe('visibility', () => {
    it('a public share opens signed out: name, files with name, size and type, policy; SHARE_VIEWED and SHARE_LINK_ACCESSED', async () => {
      const pdf = await addFile(h, place, 'Drawing A1.pdf', 'application/pdf', await samplePdf('Drawing A1'));
      const id = await share({ visibility: 'public', name: 'Public pack' }, [pdf.id]);
      const answer = await view(id);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        id,
        name: 'Public pack',
        visibility: 'public',
        policy: { allowDownload: true, watermark: false, expiresAt: null },
        files: [
          {
            id: pdf.id,
            name: 'Drawing A1.pdf',
            size: pdf.size,
            mimeType: 'application/pdf',
            typeClass: 'pdf',
          },
        ],
        viewer: { signedIn: false, name: 'Anonymous viewer' },
      });
      expect((await auditEvents(h, 'SHARE_VIEWED', id))[0]).toMatchObject({ actorId: 'anonymous' });
      expect(await auditEvents(h, 'SHARE_LINK_ACCESSED', id)).toHaveLength(1);
    });

    it('a public file downloads through a presigned URL of the object store that gives the same bytes; SHARE_FILE_DOWNLOADED and SHARE_DOWNLOADED', async () => {
      const bytes = Buffer.from('the plain text of the spec\n');
      const txt = await addFile(h, place, 'spec.txt', 'text/plain', bytes);
      const id = await share({ visibility: 'public' }, [txt.id]);
      const answer = await file(id, txt.id, 'download');
      expect(answer.status).toBe(302);
      const location = answer.headers.get('location') ?? '';
      expect(location).toContain(h.config.OBJECT_STORE_BUCKET ?? '');
      const fetched = await fetch(location);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
      expect((await auditEvents(h, 'SHARE_FILE_DOWNLOADED', txt.id))[0]?.details).toMatchObject({
        shareId: id,
      });
      expect(await auditEvents(h, 'SHARE_DOWNLOADED', id)).toHaveLength(1);
      const preview = await file(id, txt.id, 'preview');
      expect(preview.status).toBe(302);
      expect(await auditEvents(h, 'SHARE_ACCESSED', id)).toHaveLength(1);
    });

    it('a tenant share needs a signed-in member of the tenant: signed out 401, another tenant 404 (SHARE_UNAUTHORIZED_ACCESS), a member 200', async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'tenant' }, [txt.id]);
      const signedOut = await view(id);
      expect(signedOut.status).toBe(401);
      expect(signedOut.body).toMatchObject({
        code: 'sign_in_required',
        detail: 'Sign in to open this share.',
      });
      const foreign = await view(id, await h.token(['drive.view'], 'elsewhere', OUTSIDER_ID));
      expect(foreign.status).toBe(404);
      const member = await view(id, await h.token([], 'demo', VIEWER_ID));
      expect(member.status).toBe(200);
      expect(member.body.viewer).toMatchObject({ signedIn: true });
      const refused = await auditEvents(h, 'SHARE_UNAUTHORIZED_ACCESS', id);
      expect(refused.map((event) => [event.actorId, event.details.signedIn])).toEqual([
        ['anonymous', 'false'],
        [OUTSIDER_ID, 'true'],
      ]);
    });

    it('a restricted share opens only for its allowed users signed in: others 403 and SHARE_UNAUTHORIZED_ACCESS', async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'restricted', allowedUids: [VIEWER_ID] }, [txt.id]);
      expect((await view(id)).status).toBe(401);
      const outsider = await view(id, await h.token([], 'demo', OUTSIDER_ID));
      expect(outsider.status).toBe(403);
      expect(outsider.body).toMatchObject({ code: 'not_shared_with_you' });
      expect((await view(id, await h.token([], 'demo', VIEWER_ID))).status).toBe(200);
      const refused = await auditEvents(h, 'SHARE_UNAUTHORIZED_ACCESS', id);
      expect(refused.map((event) => event.actorId)).toEqual(['anonymous', OUTSIDER_ID]);
    });
  });

  describe('expiry', () => {
    it('answers 410 once expiresAt passes by the clock, recording SHARE_EXPIRED and SHARE_LINK_EXPIRED once', async () => {
      const txt = await textFile(h, place);
      const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
      const id = await share({ visibility: 'public', policy: { expiresAt } }, [txt.id]);
      expect((await view(id)).status).toBe(200);
      clock.advance(120_000);
      const first = await view(id);
      expect(first.status).toBe(410);
      expect(first.body).toMatchObject({ code: 'share_expired', detail: 'This share link has expired.' });
      expect((await view(id)).status).toBe(410);
      expect((await file(id, txt.id, 'download')).status).toBe(410);
      expect(await auditEvents(h, 'SHARE_EXPIRED', id)).toHaveLength(1);
      expect(await auditEvents(h, 'SHARE_LINK_EXPIRED', id)).toHaveLength(1);
    });
  });

  describe('passcode', () => {
    it('asks for the passcode, gives a viewer token for the right one that opens the view and the files', async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'public', passcode: 'bolt-4417' }, [txt.id]);
      const asked = await view(id);
      expect(asked.status).toBe(401);
      expect(asked.body).toMatchObject({ code: 'passcode_required', detail: 'This share needs a passcode.' });
      expect((await file(id, txt.id, 'download')).status).toBe(401);
      const unlocked = await unlock(id, 'bolt-4417');
      expect(unlocked.status).toBe(200);
      const token = unlocked.body.viewerToken as string;
      const lasts = new Date(unlocked.body.expiresAt as string).getTime() - clock.now().getTime();
      expect(lasts).toBeGreaterThan(29 * 60_000);
      expect(lasts).toBeLessThanOrEqual(30 * 60_000);
      expect((await view(id, undefined, { 'x-share-token': token })).status).toBe(200);
      expect(
        (await file(id, txt.id, 'download', undefined, `&token=${encodeURIComponent(token)}`)).status,
      ).toBe(302);
      // A forged or another share's token does not open it; the token expires.
      expect((await view(id, undefined, { 'x-share-token': `${token}x` })).status).toBe(401);
      clock.advance(31 * 60_000);
      expect((await view(id, undefined, { 'x-share-token': token })).status).toBe(401);
    });

    it('counts wrong passcodes to the maximum, auditing each with the attempt and whether the maximum was reached; then the link locks until the owner sets a new passcode', async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'public', passcode: 'right-one' }, [txt.id]);
      const answers = [];
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1)
        answers.push(await unlock(id, `wrong-${String(attempt)}`));
      expect(answers.map((answer) => answer.status)).toEqual([401, 401, 423]);
      expect(answers[0]?.body).toMatchObject({
        code: 'wrong_passcode',
        detail: 'The passcode is not correct.',
      });
      expect(JSON.stringify(answers[0]?.body)).not.toMatch(/attempt/i);
      expect(answers[2]?.body).toMatchObject({ code: 'passcode_locked' });
      const failed = await auditEvents(h, 'SHARE_PASSCODE_FAILED', id);
      expect(failed.map((event) => event.details)).toEqual([
        { attempt: '1', maxAttempts: '3', maxReached: 'false' },
        { attempt: '2', maxAttempts: '3', maxReached: 'false' },
        { attempt: '3', maxAttempts: '3', maxReached: 'true' },
      ]);
      // Locked: even the right passcode is refused, and nothing more is counted.
      expect((await unlock(id, 'right-one')).status).toBe(423);
      expect((await view(id)).status).toBe(423);
      expect(await auditEvents(h, 'SHARE_PASSCODE_FAILED', id)).toHaveLength(3);
      const locked = await h.call(admin, 'GET', `/shares/${id}`);
      expect(locked.body.passcode).toEqual({ required: true, locked: true });
      // The owner sets a new passcode: the link opens with it.
      const reset = await h.call(admin, 'POST', `/shares/${id}/settings`, {
        updates: {},
        passcode: 'new-one-9',
      });
      expect(reset.body.passcode).toEqual({ required: true, locked: false });
      expect((await unlock(id, 'right-one')).status).toBe(401);
      expect((await unlock(id, 'new-one-9')).status).toBe(200);
    });
  });

  describe('passcode attempts at once', () => {
    it('wrong passcodes sent at the same time still stop at the maximum: three counted and audited, the rest refused as locked', async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'public', passcode: 'right-one' }, [txt.id]);
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, attempt) => unlock(id, `guess-${String(attempt)}`)),
      );
      expect(answers.filter((answer) => answer.status === 401)).toHaveLength(MAX_ATTEMPTS - 1);
      expect(answers.filter((answer) => answer.status === 423)).toHaveLength(6 - (MAX_ATTEMPTS - 1));
      const failed = await auditEvents(h, 'SHARE_PASSCODE_FAILED', id);
      expect(failed.map((event) => event.details.attempt)).toEqual(['1', '2', '3']);
      expect(failed.map((event) => event.details.maxReached)).toEqual(['false', 'false', 'true']);
    });

    it('a viewer token opens the share only for the viewer it was given to', async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'tenant', passcode: 'team-code' }, [txt.id]);
      const member = await h.token([], 'demo', VIEWER_ID);
      const other = await h.token([], 'demo', OUTSIDER_ID);
      const unlocked = await unlock(id, 'team-code', member);
      expect(unlocked.status).toBe(200);
      const token = unlocked.body.viewerToken as string;
      expect((await view(id, member, { 'x-share-token': token })).status).toBe(200);
      expect((await view(id, other, { 'x-share-token': token })).status).toBe(401);
    });
  });

  describe('download policy and watermark', () => {
    it('download off refuses the download (403 download_not_allowed) and still previews', async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'public', policy: { allowDownload: false } }, [txt.id]);
      const answer = await file(id, txt.id, 'download');
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({
        code: 'download_not_allowed',
        detail: 'Downloads are turned off for this share.',
      });
      expect((await file(id, txt.id, 'preview')).status).toBe(302);
    });

    it('a watermarked PDF names the viewer and the time (pdftotext reads them)', async () => {
      const pdf = await addFile(h, place, 'RAMS.pdf', 'application/pdf', await samplePdf('Method statement'));
      const id = await share({ visibility: 'public', name: 'Marked pack', policy: { watermark: true } }, [
        pdf.id,
      ]);
      clock.set(new Date('2026-11-27T10:15:00Z'));
      const answer = await fetch(
        `${h.driveUrl}/v1/public/shares/${id}/files/${pdf.id}/download?tenantId=demo`,
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('application/pdf');
      expect(answer.headers.get('content-disposition')).toContain('attachment');
      const text = await pdfText(Buffer.from(await answer.arrayBuffer()));
      expect(text).toContain('Method statement');
      expect(text).toContain('Anonymous viewer - 27/11/2026 10:15 UTC - Marked pack');
      expect((await auditEvents(h, 'SHARE_FILE_DOWNLOADED', pdf.id))[0]?.details).toMatchObject({
        watermark: 'true',
      });
    });

    it("a signed-in viewer's watermark names them (their name at identity)", async () => {
      const pdf = await addFile(h, place, 'Contract.pdf', 'application/pdf', await samplePdf('Subcontract'));
      const vera = '00000000-0000-4000-8000-000000000004';
      const id = await share(
        { visibility: 'restricted', allowedUids: [vera], name: 'For Vera', policy: { watermark: true } },
        [pdf.id],
      );
      const token = await h.signInAs('viewer@demo.test');
      const opened = await view(id, token);
      expect(opened.body.viewer).toEqual({ signedIn: true, name: 'Vera Viewer' });
      const answer = await fetch(
        `${h.driveUrl}/v1/public/shares/${id}/files/${pdf.id}/preview?tenantId=demo`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-disposition')).toContain('inline');
      expect(await pdfText(Buffer.from(await answer.arrayBuffer()))).toMatch(
        /Vera Viewer - \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} UTC - For Vera/,
      );
    });

    it("a watermarked image differs from the original in its pixels (same size); a library's requireWatermark applies without the share's", async () => {
      const marked = await makePlace(h, { shareSourcePolicy: { requireWatermark: true } });
      const original = await samplePng();
      const png = await addFile(h, marked, 'site.png', 'image/png', original);
      const answer = await h.call(admin, 'POST', '/mutations/share', {
        name: 'Photos',
        libraryId: marked.libraryId,
        fileIds: [png.id],
        visibility: 'public',
      });
      const id = answer.body.id as string;
      expect((await view(id)).body.policy).toMatchObject({ watermark: true });
      const preview = await fetch(
        `${h.driveUrl}/v1/public/shares/${id}/files/${png.id}/preview?tenantId=demo`,
      );
      expect(preview.status).toBe(200);
      expect(preview.headers.get('content-type')).toBe('image/png');
      const stamped = Buffer.from(await preview.arrayBuffer());
      const [before, after] = await Promise.all([
        sharp(original).raw().toBuffer({ resolveWithObject: true }),
        sharp(stamped).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
      ]);
      expect([after.info.width, after.info.height]).toEqual([before.info.width, before.info.height]);
      let changed = 0;
      for (let i = 0; i < before.data.length; i += 1) if (before.data[i] !== after.data[i]) changed += 1;
      expect(changed).toBeGreaterThan(1_000);
    });

    it('under a watermark other types are refused clearly (409 watermark_unsupported)', async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'public', policy: { watermark: true } }, [txt.id]);
      const answer = await file(id, txt.id, 'download');
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({
        code: 'watermark_unsupported',
        detail:
          'This file cannot be previewed or downloaded from this share: the share adds a watermark, and only PDFs and images can carry one.',
      });
    });
  });

  describe('tenants and regions', () => {
    it("another tenant's share id answers 404, and a file not in the share 404", async () => {
      const txt = await textFile(h, place);
      const id = await share({ visibility: 'public' }, [txt.id]);
      expect((await view(id, undefined, {}, 'elsewhere')).status).toBe(404);
      const stranger = await textFile(h, place);
      expect((await file(id, stranger.id, 'download')).status).toBe(404);
      expect((await view('not-a-uuid')).status).toBe(404);
    });

    it("refuses a share of another region's tenant with 421 naming its region (acme lives in eu)", async () => {
      const acme = await makePlace(h, { tenantId: 'acme' });
      const id = randomUUID();
      await insertShare(h, {
        id,
        tenantId: 'acme',
        name: 'EU pack',
        libraryId: acme.libraryId,
        visibility: 'public',
        allowedUids: [],
        allowDownload: true,
        watermark: false,
        expiresAt: null,
        passcodeHash: null,
        createdBy: DRIVE_ADMIN_ID,
      });
      const answer = await view(id, undefined, {}, 'acme');
      expect(answer.status).toBe(421);
      expect(answer.body).toMatchObject({ code: 'wrong_region' });
      expect(answer.body.detail).toBe(
        'This organisation’s data lives in region eu; this is the uk drive. Use the eu service.',
      );
    });
  });
});
