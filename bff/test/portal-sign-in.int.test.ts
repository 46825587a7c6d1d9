// The portal's sign-in and sign-out at the bff (issue 15, ADR 0055), against the real identity service (PostgreSQL,
// Kafka): a returning subcontractor asks for a fresh sign-in link without a session; every address gets the same
// 202 answer, and each request goes to identity's queue (kept, sealed, and retried while cis cannot be reached) (services/cis/test/portal-access.int.test.ts follows it to
// the e-mail); requests are limited per address and per client IP with a message
// saying how long to wait; logout ends the portal session at the server, so the old cookie opens nothing; staff who
// open a portal page are sent to the staff app.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  demoSeed,
  freePort,
  signIn as signInAtIdentity,
  startIdentityHarness,
  type IdentityHarness,
} from '@workspace/identity/testing';
import { SIGN_IN_LINK_REQUESTED } from '../src/http/portal-routes.js';
import { eventually } from '@workspace/kit/testing';
import pg from 'pg';
import { TestBrowser, demoPortalLink, read, signedInBrowser, startTestBff } from './support.js';

let harness: IdentityHarness;

beforeAll(async () => {
  // identity queues requests when it can send them through cis: here a port where nothing answers (retried later).
  harness = await startIdentityHarness({ config: { CIS_URL: `http://127.0.0.1:${await freePort()}` } });
});

afterAll(async () => {
  await harness.stop();
});

/** The bff's calls to identity (method and path), in order. */
const identityCalls: string[] = [];
const recording = {
  fetch: (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    identityCalls.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
    return fetch(input, init);
  },
};
const linkRequestsSent = () =>
  identityCalls.filter((call) => call === 'POST /v1/portal/link-requests').length;

/** identity's queued requests of a tenant that failed at least once (kept to be retried); the address is sealed. */
async function keptForRetry(tenantId: string): Promise<{ email_sealed: string }[]> {
  const client = new pg.Client({ connectionString: harness.database.adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ email_sealed: string }>(
      'SELECT email_sealed FROM identity.portal_link_requests WHERE tenant_id = $1 AND attempts >= 1',
      [tenantId],
    );
    return rows;
  } finally {
    await client.end();
  }
}

const ask = (base: string, body: unknown) =>
  fetch(`${base}/api/portal/sign-in-links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@site.test`;

describe('POST /api/portal/sign-in-links', () => {
  it('answers every address and contractor the same 202, without a session or CSRF token, and identity queues each request', async () => {
    const { bff, base } = await startTestBff(harness.baseUrl, {}, recording);
    try {
      const before = linkRequestsSent();
      const answers = [];
      for (const body of [
        { tenantId: 'demo', email: unique('known') },
        { tenantId: 'demo', email: unique('unknown') },
        { tenantId: 'no-such-contractor', email: unique('unknown') },
      ]) {
        const response = await ask(base, body);
        answers.push({ status: response.status, body: await read(response) });
      }
      for (const answer of answers) {
        expect(answer).toEqual({ status: 202, body: { message: SIGN_IN_LINK_REQUESTED } });
      }
      expect(linkRequestsSent()).toBe(before + 3);
      // cis cannot be reached here: the requests are kept, sealed, to be tried again.
      const kept = await eventually(
        async () => {
          const rows = await keptForRetry('demo');
          return rows.length >= 2 ? rows : undefined;
        },
        30_000,
        'the requests to be kept for a retry',
      );
      for (const row of kept) expect(row.email_sealed).not.toContain('@site.test');

      const bad = await ask(base, { tenantId: 'Not A Code', email: 'nope' });
      expect(bad.status).toBe(400);
      expect(linkRequestsSent()).toBe(before + 3);
      expect(
        ((await read(bad)) as { errors: { field: string; message: string }[] }).errors
          .map((error) => `${error.field}: ${error.message}`)
          .sort(),
      ).toEqual([
        'body.email: Enter a valid email address',
        'body.tenantId: Enter the contractor code from your invitation',
      ]);
    } finally {
      await bff.shutdown('test');
    }
  });

  it('allows an address 3 requests in 15 minutes, whatever its case, then says how long to wait; other addresses go on', async () => {
    const { bff, base } = await startTestBff(harness.baseUrl);
    try {
      const email = unique('often');
      const statuses = [];
      for (const address of [email, email.toUpperCase(), ` ${email}`, email]) {
        statuses.push((await ask(base, { tenantId: 'demo', email: address.trim() })).status);
      }
      expect(statuses).toEqual([202, 202, 202, 429]);
      const refused = await ask(base, { tenantId: 'acme', email });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expect(await read(refused)).toMatchObject({
        status: 429,
        code: 'rate_limited',
        detail: 'Too many sign-in link requests. Try again in 15 minutes.',
      });
      expect((await ask(base, { tenantId: 'demo', email: unique('other') })).status).toBe(202);
    } finally {
      await bff.shutdown('test');
    }
  });

  it('allows a client IP PORTAL_LINK_REQUESTS_PER_IP requests in 15 minutes, whatever the addresses', async () => {
    const { bff, base } = await startTestBff(harness.baseUrl, { PORTAL_LINK_REQUESTS_PER_IP: '4' });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await ask(base, { tenantId: 'demo', email: unique('ip') })).status);
      expect(statuses).toEqual([202, 202, 202, 202, 429]);
    } finally {
      await bff.shutdown('test');
    }
  });
});

describe('POST /api/portal/logout', () => {
  it('ends the portal session at the server: the cookie it had opens nothing afterwards', async () => {
    const { bff, base } = await startTestBff(harness.baseUrl);
    try {
      const { body } = await signInAtIdentity(harness, 'demo', 'admin@demo.test', demoSeed.password);
      const created = await fetch(`${harness.baseUrl}/v1/portal/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${String(body.accessToken)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subcontractorId: 'sub-logout-1' }),
      });
      const link = new URL(((await read(created)) as { magicLink: string }).magicLink);
      const portal = new TestBrowser(base);
      const session = await portal.api('/api/portal/session', {
        method: 'POST',
        json: { tenantId: link.searchParams.get('tid'), token: link.searchParams.get('token') },
      });
      expect(session.status).toBe(200);
      const { csrfToken } = (await read(session)) as { csrfToken: string };
      const cookie = (portal.lastSetCookie('ws_portal') ?? '').split(';')[0] ?? '';
      expect(cookie).toMatch(/^ws_portal=/);

      const logout = await portal.api('/api/portal/logout', { method: 'POST', csrf: csrfToken });
      expect(logout.status).toBe(204);
      expect(logout.headers.getSetCookie().join()).toMatch(/ws_portal=;/);
      // The old cookie, sent again (as a copied or stolen one would be), is no session any more.
      const replayed = await fetch(`${base}/api/portal/session`, { headers: { cookie } });
      expect(replayed.status).toBe(401);
      const forwarded = await fetch(`${base}/api/portal/cis/me`, { headers: { cookie } });
      expect(forwarded.status).toBe(401);
    } finally {
      await bff.shutdown('test');
    }
  });
});

describe('portal pages and a staff session', () => {
  it('sends staff who open /portal/* to the staff app, unless they are signed in to the portal too; /portal-login always loads', async () => {
    const staticDir = mkdtempSync(join(tmpdir(), 'bff-bundles-'));
    for (const page of ['index.html', 'portal.html', 'site.html', 'share.html'])
      writeFileSync(join(staticDir, page), `<!doctype html><title>${page}</title>`);
    const { bff, base } = await startTestBff(harness.baseUrl, { STATIC_DIR: staticDir });
    try {
      const page = async (browser: TestBrowser, path: string) => {
        const response = await browser.fetch(`${base}${path}`);
        return {
          status: response.status,
          location: response.headers.get('location'),
          body: await response.text(),
        };
      };
      const { browser: staff } = await signedInBrowser(base, { email: 'admin@demo.test' });
      for (const path of ['/portal/dashboard', '/portal/invoices', '/portal']) {
        expect(await page(staff, path)).toMatchObject({ status: 302, location: '/' });
      }
      expect(await page(staff, '/portal-login')).toMatchObject({
        status: 200,
        body: expect.stringContaining('portal.html') as string,
      });
      expect((await page(staff, '/')).body).toContain('index.html');

      // Signed in to the portal as well (a member of staff trying the portal): the portal loads.
      const link = await demoPortalLink(harness, 'sub-staff-too');
      const redeemed = await staff.api('/api/portal/session', {
        method: 'POST',
        json: { tenantId: link.searchParams.get('tid'), token: link.searchParams.get('token') },
      });
      expect(redeemed.status).toBe(200);
      expect(await page(staff, '/portal/dashboard')).toMatchObject({
        status: 200,
        body: expect.stringContaining('portal.html') as string,
      });

      // A subcontractor (no staff session) gets the portal.
      expect(await page(new TestBrowser(base), '/portal/dashboard')).toMatchObject({
        status: 200,
        body: expect.stringContaining('portal.html') as string,
      });
    } finally {
      await bff.shutdown('test');
    }
  });
});
