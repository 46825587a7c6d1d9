// The bff's edge against the security review of 2026-11-26, in front of the real identity service (sessions, rate
// limits, the dev IdP) and a stand-in cis that records what reaches it: bodies read only after the session check
// and small by default (M6), forwarded paths confined to the service's API (L9), TRUST_PROXY as a hop count (L2),
// the operational endpoints off the public port (L4), rate limits on metadata, invitations and portal submissions
// (L5), and streams bound to their sessions, capped per user, the only forwards without the timeout (L6).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import { eventually } from '@workspace/kit/testing';
import type { RunningBff } from '../src/app.js';
import { TestBrowser, demoPortalLink, read, signedInBrowser, startTestBff } from './support.js';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** What reached the stand-in cis: method, path with query, and the body's size. */
interface Received {
  method: string;
  url: string;
  bytes: number;
}

/** A cis stand-in: records every request, answers JSON, keeps stream paths open and never answers /v1/hang. */
async function startFakeCis() {
  const received: Received[] = [];
  const openStreams = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on('end', () => {
      const url = req.url ?? '';
      received.push({ method: req.method ?? '', url, bytes });
      if (url.endsWith('/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('retry: 5000\n\n');
        openStreams.add(res);
        res.on('close', () => openStreams.delete(res));
        return;
      }
      if (url === '/v1/hang') return;
      if (url === '/v1/subcontractors/invite') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            success: true,
            subcontractorId: '00000000-0000-4000-8000-000000000001',
            magicLink: 'http://localhost/portal-login?token=x',
            tenantName: 'Demo Construction Ltd',
            expiresIn: '15 minutes',
            emailSent: true,
          }),
        );
        return;
      }
      res.writeHead(url.startsWith('/v1/portal/invoices') ? 201 : 200, {
        'content-type': 'application/json',
      });
      res.end(JSON.stringify({ url, bytes }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    openStreams,
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
let cis: Awaited<ReturnType<typeof startFakeCis>>;
let bff: RunningBff;
let base: string;

beforeAll(async () => {
  harness = await startIdentityHarness();
  cis = await startFakeCis();
  ({ bff, base } = await startTestBff(harness.baseUrl, {
    CIS_URL: cis.url,
    TRUST_PROXY: '1',
    SESSION_CACHE_MS: '0',
    SERVICE_TIMEOUT_MS: '300',
    METADATA_RATE_LIMIT_PER_MINUTE: '3',
    INVITE_RATE_LIMIT_PER_MINUTE: '2',
    PORTAL_SUBMIT_RATE_LIMIT_PER_MINUTE: '2',
    STREAMS_PER_USER: '2',
    STREAM_SESSION_CHECK_MS: '50',
  }));
});

afterAll(async () => {
  await bff.shutdown('test');
  await cis.stop();
  await harness.stop();
});

/** A raw request (the path exactly as given: no URL normalisation on the way), and its status and body. */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    // `path` as an option is sent as it is (a URL string would be parsed, and its dot segments resolved).
    const req = http.request({
      hostname,
      port,
      path,
      method: options.method ?? 'GET',
      headers: options.headers,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    req.end(options.body);
  });
}

/** A staff browser signed in at the bff: its cookie header and CSRF token. */
async function staff(email = 'admin@demo.test') {
  const { browser, csrf } = await signedInBrowser(base, { email });
  return { browser, csrf, cookie: `ws_session=${browser.cookie('ws_session') ?? ''}` };
}

/** A portal session for a subcontractor of demo (a magic link made at identity, redeemed through the bff). */
async function portal(subcontractorId: string) {
  const link = await demoPortalLink(harness, subcontractorId);
  const browser = new TestBrowser(base);
  const redeemed = await browser.api('/api/portal/session', {
    method: 'POST',
    json: { tenantId: link.searchParams.get('tid'), token: link.searchParams.get('token') },
  });
  expect(redeemed.status).toBe(200);
  const { csrfToken } = (await read(redeemed)) as { csrfToken: string };
  return { browser, csrf: csrfToken, cookie: `ws_portal=${browser.cookie('ws_portal') ?? ''}` };
}

const oneMegabyteOfBrokenJson = `{"csv":"${'x'.repeat(1024 * 1024)}`;

describe('JSON bodies (M6)', () => {
  it('reads no anonymous body: 1 MB of broken JSON is a 401 (a parsed body would be a 400), a public route’s 1 MB a 413', async () => {
    const before = cis.received.length;
    for (const path of ['/api/cis/invoices/import', '/api/cis/invoices', '/api/me', '/api/portal/invite']) {
      const res = await raw(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: oneMegabyteOfBrokenJson,
      });
      expect([path, res.status]).toEqual([path, 401]);
    }
    // Link redemption needs no session (and no CSRF token): its body is read, with the small default limit.
    const redeem = await raw('/api/portal/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId: 'demo', token: 'x'.repeat(1024 * 1024) }),
    });
    expect(redeem.status).toBe(413);
    expect(JSON.parse(redeem.body)).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(cis.received.length).toBe(before);
  });

  it('reads no large body for a caller who may not import: a portal session’s 1 MB is a 401, a viewer’s a 403, both unread', async () => {
    const sub = await portal('sub-edge-body');
    const res = await raw('/api/cis/invoices/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: sub.cookie, 'x-csrf-token': sub.csrf },
      body: oneMegabyteOfBrokenJson,
    });
    expect(res.status).toBe(401);
    // A staff user without the import scopes is refused before the body is read too.
    const viewer = await staff('viewer@demo.test');
    const refused = await raw('/api/cis/invoices/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: viewer.cookie, 'x-csrf-token': viewer.csrf },
      body: oneMegabyteOfBrokenJson,
    });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'forbidden' });
  });

  it('gives the CSV import (11 MB) and the logo (6 MB) their sizes for a signed-in user; other forwards refuse 1 MB', async () => {
    const admin = await staff();
    const csv = 'x'.repeat(2 * 1024 * 1024);
    const imported = await admin.browser.api('/api/cis/invoices/import', {
      method: 'POST',
      csrf: admin.csrf,
      json: { csv },
    });
    expect(imported.status).toBe(200);
    expect(cis.received.at(-1)).toMatchObject({ method: 'POST', url: '/v1/invoices/import' });
    expect(cis.received.at(-1)?.bytes).toBeGreaterThan(2 * 1024 * 1024);

    const other = await admin.browser.api('/api/cis/invoices', {
      method: 'POST',
      csrf: admin.csrf,
      json: { description: 'x'.repeat(1024 * 1024) },
    });
    expect(other.status).toBe(413);
    expect(await read(other)).toMatchObject({ code: 'payload_too_large' });

    // A PNG of about 1.5 MB (its signature, then padding): about 2 MB of base64, over the default, under identity's.
    const image = Buffer.concat([PNG_1PX, Buffer.alloc(1_500_000)]);
    const logo = await admin.browser.api('/api/tenant/logo', {
      method: 'PUT',
      csrf: admin.csrf,
      json: { kind: 'image', data: image.toString('base64'), fileName: 'logo.png' },
    });
    expect(logo.status).toBe(200);
    expect(await read(logo)).toMatchObject({ kind: 'image', contentType: 'image/png' });
    const removed = await admin.browser.api('/api/tenant/logo', { method: 'DELETE', csrf: admin.csrf });
    expect(removed.status).toBe(204);
  });
});

describe('forwarded paths stay under the service’s API (L9)', () => {
  const escapes = [
    '/%2e%2e/metrics',
    '/%2E%2E/metrics',
    '/.%2e/metrics',
    '/%2e./metrics',
    '/../metrics',
    '/invoices/../../metrics',
    '/invoices/..%2f..%2fmetrics',
    '/invoices%2f..%2f..%2fmetrics',
    '/..%5cmetrics',
    '/..\\metrics',
    '/%2e%2e/%2e%2e/openapi.json',
  ];

  it('refuses every encoding of a dot segment on the staff forward with 404, and cis sees none of them', async () => {
    const admin = await staff();
    const before = cis.received.length;
    for (const escape of escapes) {
      const res = await raw(`/api/cis${escape}`, { headers: { cookie: admin.cookie } });
      expect([escape, res.status]).toEqual([escape, 404]);
    }
    expect(cis.received.slice(before)).toEqual([]);
    // An ordinary path and an encoded dot in the query still go through, under /v1.
    const ok = await raw('/api/cis/invoices?search=%2e%2e', { headers: { cookie: admin.cookie } });
    expect(ok.status).toBe(200);
    expect(cis.received.at(-1)?.url).toBe('/v1/invoices?search=%2e%2e');
  });

  it('refuses them on the portal forward too, including a step from /v1/portal up to staff routes', async () => {
    const sub = await portal('sub-edge-paths');
    const before = cis.received.length;
    for (const escape of [...escapes, '/%2e%2e/invoices', '/%2e%2e/%2e%2e/metrics']) {
      const res = await raw(`/api/portal/cis${escape}`, { headers: { cookie: sub.cookie } });
      expect([escape, res.status]).toEqual([escape, 404]);
    }
    expect(cis.received.slice(before)).toEqual([]);
    const ok = await raw('/api/portal/cis/me', { headers: { cookie: sub.cookie } });
    expect(ok.status).toBe(200);
    expect(cis.received.at(-1)?.url).toBe('/v1/portal/me');
  });
});

describe('rate limits (L2, L5)', () => {
  it('limits GET /api/metadata per client IP: the 4th in a minute is 429 with Retry-After and the problem shape', async () => {
    const from = (ip: string) =>
      raw('/api/metadata', { headers: { 'x-tenant-id': 'demo', 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.20')).status).toBe(200);
    const refused = await from('198.51.100.20');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.body)).toMatchObject({
      status: 429,
      code: 'rate_limited',
      detail: expect.stringMatching(/^Too many attempts\. Try again in \d+ seconds\.$/),
    });
    // Another address has its own allowance.
    expect((await from('198.51.100.21')).status).toBe(200);
  });

  it('with TRUST_PROXY=1, a left-most X-Forwarded-For of the client’s choosing does not give a new allowance', async () => {
    const from = (spoofed: string) =>
      raw('/api/metadata', {
        headers: { 'x-tenant-id': 'demo', 'x-forwarded-for': `${spoofed}, 198.51.100.30` },
      });
    expect((await from('10.0.0.1')).status).toBe(200);
    expect((await from('10.0.0.2')).status).toBe(200);
    expect((await from('10.0.0.3')).status).toBe(200);
    expect((await from('10.0.0.4')).status).toBe(429);
  });

  it('limits POST /api/portal/invite per staff user: the 3rd in a minute is 429, and cis saw two', async () => {
    const admin = await staff('admin@demo.test');
    const invite = () =>
      admin.browser.api('/api/portal/invite', {
        method: 'POST',
        csrf: admin.csrf,
        json: { subcontractorId: '00000000-0000-4000-8000-000000000001', tenantId: 'demo' },
      });
    const before = cis.received.filter((r) => r.url === '/v1/subcontractors/invite').length;
    expect((await invite()).status).toBe(200);
    expect((await invite()).status).toBe(200);
    const refused = await invite();
    expect(refused.status).toBe(429);
    expect(await read(refused)).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(cis.received.filter((r) => r.url === '/v1/subcontractors/invite').length - before).toBe(2);
  });

  it('limits POST /api/portal/cis/invoices per subcontractor: the 3rd in a minute is 429, and cis saw two', async () => {
    const sub = await portal('sub-edge-submit');
    const submit = () =>
      sub.browser.api('/api/portal/cis/invoices', {
        method: 'POST',
        csrf: sub.csrf,
        json: { invoiceNumber: 'A1' },
      });
    const before = cis.received.filter((r) => r.url === '/v1/portal/invoices').length;
    expect((await submit()).status).toBe(201);
    expect((await submit()).status).toBe(201);
    const refused = await submit();
    expect(refused.status).toBe(429);
    expect(await read(refused)).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(cis.received.filter((r) => r.url === '/v1/portal/invoices').length - before).toBe(2);
    // Reads are not counted.
    expect((await sub.browser.api('/api/portal/cis/me')).status).toBe(200);
  });
});

/** Opens a stream through the bff; its status, and a reader of its body. */
async function openStream(cookie: string, path = '/api/cis/invoices/stream') {
  const res = await fetch(`${base}${path}`, { headers: { cookie, accept: 'text/event-stream' } });
  return { status: res.status, res, reader: res.body?.getReader() };
}

/** Reads a stream to its end (true), failing the test if the bff never ends it. */
async function ended(reader: ReadableStreamDefaultReader<Uint8Array> | undefined): Promise<boolean> {
  if (!reader) return false;
  for (;;) {
    const { done } = await reader.read();
    if (done) return true;
  }
}

describe('streams (L6)', () => {
  it('ends a forwarded stream when its session ends (sign-out), and the service’s stream with it', async () => {
    const admin = await staff();
    const stream = await openStream(admin.cookie);
    expect(stream.status).toBe(200);
    const jobs = await openStream(admin.cookie, '/api/cis/jobs/job-1/stream');
    expect(jobs.status).toBe(200);
    expect(cis.openStreams.size).toBeGreaterThanOrEqual(2);

    const logout = await admin.browser.api('/api/auth/logout', { method: 'POST', csrf: admin.csrf });
    expect(logout.status).toBeLessThan(300);
    expect(await ended(stream.reader)).toBe(true);
    expect(await ended(jobs.reader)).toBe(true);
    expect(bff.bff.context.streams.size).toBe(0);
  });

  it('ends /api/live (identity’s stream) when its session ends', async () => {
    const admin = await staff();
    const live = await openStream(admin.cookie, '/api/live');
    expect(live.status).toBe(200);
    expect(
      (await admin.browser.api('/api/auth/logout', { method: 'POST', csrf: admin.csrf })).status,
    ).toBeLessThan(300);
    expect(await ended(live.reader)).toBe(true);
  });

  it('caps the streams of one user (2 here): the next is 429 until one closes', async () => {
    const admin = await staff();
    const first = await openStream(admin.cookie);
    const second = await openStream(admin.cookie);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await fetch(`${base}/api/cis/invoices/stream`, { headers: { cookie: admin.cookie } });
    expect(third.status).toBe(429);
    expect(await read(third)).toMatchObject({ status: 429, code: 'too_many_streams' });
    // Another user has their own allowance.
    const other = await staff('viewer@demo.test');
    const theirs = await openStream(other.cookie);
    expect(theirs.status).toBe(200);

    await first.reader?.cancel();
    const next = await eventually(async () => {
      const opened = await openStream(admin.cookie);
      if (opened.status === 200) return opened;
      await opened.reader?.cancel();
      return undefined;
    });
    await next.reader?.cancel();
    await second.reader?.cancel();
    await theirs.reader?.cancel();
  });

  it('keeps the upstream timeout on a forward that is not a stream, whatever its Accept header says', async () => {
    const admin = await staff();
    const res = await fetch(`${base}/api/cis/hang`, {
      headers: { cookie: admin.cookie, accept: 'text/event-stream' },
      signal: AbortSignal.timeout(20_000),
    });
    expect(res.status).toBe(503);
    expect(await read(res)).toMatchObject({ code: 'unavailable' });
  });
});

describe('operational endpoints (L4)', () => {
  it('with MANAGEMENT_PORT, the public port answers 404 for them and the management port serves them', async () => {
    const { bff: managed, base: publicBase } = await startTestBff(harness.baseUrl, { MANAGEMENT_PORT: '0' });
    try {
      for (const path of ['/metrics', '/openapi.json', '/readyz', '/healthz']) {
        expect([path, (await fetch(`${publicBase}${path}`)).status]).toEqual([path, 404]);
      }
      const management = `http://127.0.0.1:${String(managed.managementPort)}`;
      const metrics = await fetch(`${management}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('service="bff"');
      expect((await fetch(`${management}/healthz`)).status).toBe(200);
      expect((await fetch(`${management}/readyz`)).status).toBe(200);
      const openApi = (await (await fetch(`${management}/openapi.json`)).json()) as { paths: object };
      expect(Object.keys(openApi.paths)).toContain('/api/metadata');
      // The API itself is on the public port only.
      expect((await fetch(`${management}/api/auth/session`)).status).toBe(404);
      expect((await fetch(`${publicBase}/api/auth/session`)).status).toBe(401);
    } finally {
      await managed.shutdown('test');
    }
  });
});
