// The bff in front of the drive (ADR 0049), against the real identity service and a stand-in drive that records what
// reaches it: /api/drive/* with the staff session's token, the files stream as a stream, /api/public/shares/* with no
// session (a staff session's token along when there is one, on a change only with its CSRF token) and rate limited,
// a download's redirect to the object store passed on, the CSP naming the object store's origin, and /share/* served
// the public share page whoever asks.
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import type { RunningBff } from '../src/app.js';
import { TestBrowser, read, signedInBrowser, startTestBff } from './support.js';

const OBJECT_STORE = 'http://files.uk.test:9000';
const PRESIGNED = `${OBJECT_STORE}/workspace-drive-uk/tenants/demo/files/f1/v/1?X-Amz-Signature=abc`;

/** What reached the stand-in drive. */
interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  shareToken: string | undefined;
  body: string;
}

/** A drive stand-in: records every request; answers JSON, keeps /v1/files/stream open, redirects /v1/download. */
async function startFakeDrive() {
  const received: Received[] = [];
  const openStreams = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const url = req.url ?? '';
      received.push({
        method: req.method ?? '',
        url,
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['x-idempotency-key'] as string | undefined,
        shareToken: req.headers['x-share-token'] as string | undefined,
        body,
      });
      if (url.startsWith('/v1/files/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('retry: 5000\n\n');
        openStreams.add(res);
        res.on('close', () => openStreams.delete(res));
        return;
      }
      if (url.startsWith('/v1/download')) {
        res.writeHead(302, { location: PRESIGNED });
        res.end();
        return;
      }
      if (url.startsWith('/v1/internal-redirect')) {
        res.writeHead(302, { location: `http://${req.headers.host ?? ''}/metrics` });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    openStreams,
    last: () => received.at(-1),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

let harness: IdentityHarness;
let drive: Awaited<ReturnType<typeof startFakeDrive>>;
let bff: RunningBff;
let base: string;
let staticDir: string;

beforeAll(async () => {
  harness = await startIdentityHarness();
  drive = await startFakeDrive();
  // The four entries of the web build, each saying which it is.
  staticDir = mkdtempSync(join(tmpdir(), 'bff-dist-'));
  for (const page of ['index', 'portal', 'site', 'share'])
    writeFileSync(join(staticDir, `${page}.html`), `<!doctype html><title>${page}</title>`);
  ({ bff, base } = await startTestBff(harness.baseUrl, {
    DRIVE_URL: drive.url,
    OBJECT_STORE_PUBLIC_URL: OBJECT_STORE,
    STATIC_DIR: staticDir,
    SESSION_CACHE_MS: '0',
    PUBLIC_SHARE_RATE_LIMIT_PER_MINUTE: '1000',
    STREAM_SESSION_CHECK_MS: '50',
  }));
});

afterAll(async () => {
  await bff.shutdown('test');
  await drive.stop();
  await harness.stop();
  rmSync(staticDir, { recursive: true, force: true });
});

/** A staff browser signed in at the bff: its cookie header and CSRF token. */
async function staff(email = 'admin@demo.test') {
  const { browser, csrf } = await signedInBrowser(base, { email });
  return { browser, csrf, cookie: `ws_session=${browser.cookie('ws_session') ?? ''}` };
}

describe('/api/drive/* (staff)', () => {
  it("needs a staff session; forwards to the drive's /v1 with the session's token, the query and the idempotency key", async () => {
    const before = drive.received.length;
    expect((await new TestBrowser(base).api('/api/drive/files?view=all')).status).toBe(401);
    expect(drive.received.length).toBe(before);

    const admin = await staff();
    const listed = await admin.browser.api('/api/drive/files?view=all&page=2');
    expect(listed.status).toBe(200);
    expect(drive.last()).toMatchObject({ method: 'GET', url: '/v1/files?view=all&page=2' });
    expect(drive.last()?.authorization).toMatch(/^Bearer ey/);

    const shared = await admin.browser.api('/api/drive/mutations/share', {
      method: 'POST',
      csrf: admin.csrf,
      json: { name: 'Drawings', fileIds: ['f1'] },
      headers: { 'x-idempotency-key': 'demo:f1:share' },
    });
    expect(shared.status).toBe(200);
    expect(drive.last()).toMatchObject({
      method: 'POST',
      url: '/v1/mutations/share',
      idempotencyKey: 'demo:f1:share',
    });
    expect(JSON.parse(drive.last()?.body ?? '{}')).toEqual({ name: 'Drawings', fileIds: ['f1'] });
  });

  it('lets a drawn signature (a PNG data URL of up to 512 KB) through to the drive; other forwards keep 256 kB', async () => {
    const admin = await staff();
    const png = `data:image/png;base64,${'A'.repeat(700 * 1024)}`;
    const signed = await admin.browser.api('/api/drive/signatures/t1/sign', {
      method: 'POST',
      csrf: admin.csrf,
      json: { signature: png },
    });
    expect(signed.status).toBe(200);
    expect(drive.last()?.url).toBe('/v1/signatures/t1/sign');
    const other = await admin.browser.api('/api/drive/folders/create', {
      method: 'POST',
      csrf: admin.csrf,
      json: { name: png },
    });
    expect(other.status).toBe(413);
  });

  it('refuses a change without the CSRF token (403) before anything reaches the drive', async () => {
    const admin = await staff();
    const before = drive.received.length;
    const res = await admin.browser.api('/api/drive/folders/create', { method: 'POST', json: {} });
    expect(res.status).toBe(403);
    expect(drive.received.length).toBe(before);
  });

  it("passes a download's redirect to the object store on to the browser (not followed by the bff)", async () => {
    const admin = await staff();
    const res = await admin.browser.api('/api/drive/download?fileId=f1');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(PRESIGNED);
    // A redirect to the service's own (internal) address never reaches the browser.
    const internal = await admin.browser.api('/api/drive/internal-redirect');
    expect(internal.headers.get('location')).toBeNull();
  });

  it('forwards GET /api/drive/files/stream as a Server-Sent-Event stream, ended with the session', async () => {
    const admin = await staff();
    const res = await fetch(`${base}/api/drive/files/stream`, { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('retry: 5000');
    expect(bff.bff.context.streams.size).toBe(1);
    await admin.browser.api('/api/auth/logout', { method: 'POST', csrf: admin.csrf });
    let done = false;
    while (!done) done = (await reader?.read())?.done ?? true;
    expect(bff.bff.context.streams.size).toBe(0);
  });

  it('answers 503 naming the drive when DRIVE_URL is not set', async () => {
    const { bff: without, base: withoutBase } = await startTestBff(harness.baseUrl);
    try {
      const { browser } = await signedInBrowser(withoutBase, { email: 'admin@demo.test' });
      const res = await browser.api('/api/drive/files');
      expect(res.status).toBe(503);
      expect((await read(res)).detail).toBe('The drive service is not available.');
      expect((await browser.api('/api/public/shares/s1')).status).toBe(503);
    } finally {
      await without.shutdown('test');
    }
  });
});

describe('/api/public/shares/* (no session)', () => {
  it("forwards a signed-out browser's call to the drive's /v1/public/shares without a token", async () => {
    const res = await new TestBrowser(base).api('/api/public/shares/s1?tenantId=demo');
    expect(res.status).toBe(200);
    expect(drive.last()).toMatchObject({ method: 'GET', url: '/v1/public/shares/s1?tenantId=demo' });
    expect(drive.last()?.authorization).toBeUndefined();
  });

  it('takes a passcode from a signed-out browser: a POST needs neither a session nor a CSRF token', async () => {
    const res = await new TestBrowser(base).api('/api/public/shares/s1/unlock', {
      method: 'POST',
      json: { passcode: '123456' },
    });
    expect(res.status).toBe(200);
    expect(drive.last()).toMatchObject({ method: 'POST', url: '/v1/public/shares/s1/unlock' });
    expect(drive.last()?.authorization).toBeUndefined();
    expect(JSON.parse(drive.last()?.body ?? '{}')).toEqual({ passcode: '123456' });
    // The viewer token the passcode gave goes along with the next calls.
    await new TestBrowser(base).api('/api/public/shares/s1?tenantId=demo', {
      headers: { 'x-share-token': 'viewer-token-1' },
    });
    expect(drive.last()?.shareToken).toBe('viewer-token-1');
  });

  it("sends a signed-in colleague's token along (tenant and restricted shares), on a change only with the CSRF token", async () => {
    const admin = await staff();
    await admin.browser.api('/api/public/shares/s1');
    expect(drive.last()?.authorization).toMatch(/^Bearer ey/);
    await admin.browser.api('/api/public/shares/s1/unlock', {
      method: 'POST',
      csrf: admin.csrf,
      json: { passcode: '1' },
    });
    expect(drive.last()?.authorization).toMatch(/^Bearer ey/);
    // Without the CSRF token (what a forged cross-site request has) the call goes on, but as nobody's.
    const forged = await admin.browser.api('/api/public/shares/s1/unlock', {
      method: 'POST',
      json: { passcode: '1' },
    });
    expect(forged.status).toBe(200);
    expect(drive.last()?.url).toBe('/v1/public/shares/s1/unlock');
    expect(drive.last()?.authorization).toBeUndefined();
  });

  it('keeps a forwarded path under the public shares (no way from there to the rest of the drive)', async () => {
    const before = drive.received.length;
    for (const path of ['/api/public/shares/..%2f..%2ffiles', '/api/public/shares/%2e%2e/%2e%2e/files']) {
      const res = await fetch(`${base}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect(drive.received.length).toBe(before);
  });

  it('limits the calls per client address: past the limit, 429 with Retry-After and nothing forwarded', async () => {
    const { bff: limited, base: limitedBase } = await startTestBff(harness.baseUrl, {
      DRIVE_URL: drive.url,
      PUBLIC_SHARE_RATE_LIMIT_PER_MINUTE: '2',
    });
    try {
      const browser = new TestBrowser(limitedBase);
      expect((await browser.api('/api/public/shares/s2')).status).toBe(200);
      expect((await browser.api('/api/public/shares/s2')).status).toBe(200);
      const before = drive.received.length;
      const refused = await browser.api('/api/public/shares/s2');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(drive.received.length).toBe(before);
    } finally {
      await limited.shutdown('test');
    }
  });
});

describe('the pages', () => {
  const titleOf = async (res: Response) => /<title>(\w+)<\/title>/.exec(await res.text())?.[1];

  it('serves /share/{shareId} the public share page, signed out and signed in; never the staff app', async () => {
    expect(await titleOf(await fetch(`${base}/share/s1`))).toBe('share');
    expect(await titleOf(await fetch(`${base}/share/s1/unknown/deeper`))).toBe('share');
    expect(await titleOf(await fetch(`${base}/share`))).toBe('share');
    const admin = await staff();
    expect(await titleOf(await fetch(`${base}/share/s1`, { headers: { cookie: admin.cookie } }))).toBe(
      'share',
    );
    // The other entries are as they were.
    expect(await titleOf(await fetch(`${base}/`))).toBe('site');
    expect(await titleOf(await fetch(`${base}/portal-login`))).toBe('portal');
    expect(await titleOf(await fetch(`${base}/drive/all`, { headers: { cookie: admin.cookie } }))).toBe(
      'index',
    );
    // Not a share path: for a signed-out browser an unknown public path, the site's 404 page (site-routes.int.test.ts).
    expect(await titleOf(await fetch(`${base}/sharex`))).toBe('site');
    expect(await titleOf(await fetch(`${base}/sharex`, { headers: { cookie: admin.cookie } }))).toBe('index');
  });

  it("sends the CSP with the object store's origin for uploads, images, media and PDFs, and no other origin", async () => {
    const csp = (await fetch(`${base}/share/s1`)).headers.get('content-security-policy') ?? '';
    const directive = (name: string) =>
      csp
        .split(';')
        .map((part) => part.trim())
        .find((part) => part.startsWith(`${name} `));
    expect(directive('connect-src')).toBe(`connect-src 'self' ${OBJECT_STORE}`);
    expect(directive('img-src')).toBe(`img-src 'self' data: blob: ${OBJECT_STORE}`);
    expect(directive('media-src')).toBe(`media-src 'self' ${OBJECT_STORE}`);
    expect(directive('frame-src')).toBe(`frame-src 'self' ${OBJECT_STORE}`);
    expect(directive('object-src')).toBe(`object-src ${OBJECT_STORE}`);
    expect(directive('script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(directive('default-src')).toBe("default-src 'self'");
  });
});
