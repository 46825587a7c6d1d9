// The bff in front of the audit service, against the real identity service and a stand-in audit service that records
// what reaches it: /api/audit/* with the staff session's token (the audit service takes tenant and actor from it),
// the web's audit_logEvent as POST /api/audit/client-events (its body as sent, its idempotency key, rate limited per
// user), the CSV export's attachment headers passed on, the live entries as a stream, and 503 when no audit service
// is deployed (which the web's logAuditEvent swallows with a warning).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import type { RunningBff } from '../src/app.js';
import { TestBrowser, read, signedInBrowser, startTestBff } from './support.js';

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: string;
}

/** An audit stand-in: records every request; 202 for client events, a CSV attachment, an open stream, JSON else. */
async function startFakeAudit() {
  const received: Received[] = [];
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
        body,
      });
      if (url.startsWith('/v1/entries/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('retry: 5000\n\n');
        return;
      }
      if (url.startsWith('/v1/entries.csv')) {
        res.writeHead(200, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="audit-entries.csv"',
        });
        res.end('seq,action\r\n1,"\'=cmd"\r\n');
        return;
      }
      if (url === '/v1/client-events' && req.method === 'POST') {
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ accepted: true, id: 'evt-1' }));
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
let audit: Awaited<ReturnType<typeof startFakeAudit>>;
let bff: RunningBff;
let base: string;

beforeAll(async () => {
  harness = await startIdentityHarness();
  audit = await startFakeAudit();
  ({ bff, base } = await startTestBff(harness.baseUrl, {
    AUDIT_URL: audit.url,
    AUDIT_EVENT_RATE_LIMIT_PER_MINUTE: '5',
    SESSION_CACHE_MS: '0',
    STREAM_SESSION_CHECK_MS: '50',
  }));
});

afterAll(async () => {
  await bff.shutdown('test');
  await audit.stop();
  await harness.stop();
});

const staff = (email = 'admin@demo.test') => signedInBrowser(base, { email });

describe('audit_logEvent: POST /api/audit/client-events', () => {
  it("WS-365: forwards { action, targetId, payload } to the audit service's /v1/client-events with the session's token, and answers its 202", async () => {
    const { browser, csrf } = await staff();
    const res = await browser.api('/api/audit/client-events', {
      method: 'POST',
      csrf,
      json: { action: 'SHARE_LINK_COPIED', targetId: 'share-1', payload: { fileId: 'f-1' } },
      headers: { 'x-idempotency-key': 'k-1' },
    });
    expect(res.status).toBe(202);
    expect(await read(res)).toEqual({ accepted: true, id: 'evt-1' });
    expect(audit.last()).toMatchObject({ method: 'POST', url: '/v1/client-events', idempotencyKey: 'k-1' });
    expect(JSON.parse(audit.last()?.body ?? '{}')).toEqual({
      action: 'SHARE_LINK_COPIED',
      targetId: 'share-1',
      payload: { fileId: 'f-1' },
    });
    // Tenant and actor travel in the signed token of the session, never in what the browser wrote.
    const claims = decodeJwt((audit.last()?.authorization ?? '').replace(/^Bearer /, ''));
    expect(claims.sub).toBe('00000000-0000-4000-8000-000000000001');
    expect(claims).toMatchObject({ tid: 'demo' });
  });

  it('needs a staff session (401) and the CSRF token (403); nothing reaches the audit service', async () => {
    const before = audit.received.length;
    const anonymous = await new TestBrowser(base).api('/api/audit/client-events', {
      method: 'POST',
      json: { action: 'X', targetId: 'y', payload: {} },
    });
    expect(anonymous.status).toBe(401);
    const { browser } = await staff();
    const forged = await browser.api('/api/audit/client-events', {
      method: 'POST',
      json: { action: 'X', targetId: 'y', payload: {} },
    });
    expect(forged.status).toBe(403);
    expect(audit.received.length).toBe(before);
  });

  it('limits client events per user: past the limit, 429 with Retry-After and nothing forwarded', async () => {
    const { browser, csrf } = await staff('viewer@demo.test');
    const send = () =>
      browser.api('/api/audit/client-events', {
        method: 'POST',
        csrf,
        json: { action: 'SHARE_LINK_COPIED', targetId: 's', payload: {} },
      });
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(202);
    const before = audit.received.length;
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(audit.received.length).toBe(before);
  });
});

describe('the audit screen: /api/audit/*', () => {
  it("forwards the entries query as it is to the audit service's /v1/entries with the session's token", async () => {
    const { browser } = await staff();
    const query = 'action=cis.invoice.approved&actorId=u1&targetId=i1&from=2026-11-01&to=2026-11-30&page=2';
    const res = await browser.api(`/api/audit/entries?${query}`);
    expect(res.status).toBe(200);
    expect(audit.last()).toMatchObject({ method: 'GET', url: `/v1/entries?${query}` });
    expect(audit.last()?.authorization).toMatch(/^Bearer ey/);
    expect((await new TestBrowser(base).api('/api/audit/entries')).status).toBe(401);
  });

  it("passes the CSV export's attachment headers and cells on as the service gave them", async () => {
    const { browser } = await staff();
    const res = await browser.api('/api/audit/entries.csv?action=cis.export.invoices');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-entries.csv"');
    expect(await res.text()).toBe('seq,action\r\n1,"\'=cmd"\r\n');
    expect(audit.last()?.url).toBe('/v1/entries.csv?action=cis.export.invoices');
  });

  it('forwards POST /api/audit/verify with the CSRF token', async () => {
    const { browser, csrf } = await staff();
    const res = await browser.api('/api/audit/verify', { method: 'POST', csrf, json: {} });
    expect(res.status).toBe(200);
    expect(audit.last()).toMatchObject({ method: 'POST', url: '/v1/verify' });
  });

  it('forwards GET /api/audit/entries/stream as a Server-Sent-Event stream, ended with the session', async () => {
    const { browser, csrf } = await staff();
    const res = await fetch(`${base}/api/audit/entries/stream`, {
      headers: { cookie: `ws_session=${browser.cookie('ws_session') ?? ''}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('retry: 5000');
    expect(bff.bff.context.streams.size).toBe(1);
    await browser.api('/api/auth/logout', { method: 'POST', csrf });
    let done = false;
    while (!done) done = (await reader?.read())?.done ?? true;
    expect(bff.bff.context.streams.size).toBe(0);
  });

  it('answers 503 naming the audit service when AUDIT_URL is not set', async () => {
    const { bff: without, base: withoutBase } = await startTestBff(harness.baseUrl);
    try {
      const { browser, csrf } = await signedInBrowser(withoutBase, { email: 'admin@demo.test' });
      const res = await browser.api('/api/audit/client-events', {
        method: 'POST',
        csrf,
        json: { action: 'X', targetId: 'y', payload: {} },
      });
      expect(res.status).toBe(503);
      expect((await read(res)).detail).toBe('The audit service is not available.');
    } finally {
      await without.shutdown('test');
    }
  });
});
