// The public site at the bff: `POST /api/public/project-requests` (the spec's sendProjectRequest) in front of the real
// notification service (PostgreSQL, the SMTP sink) and the real identity service (its shared rate limits), and the
// pages: every site path served the site's entry, an unknown public path the site's 404 page with a 404 status, the
// staff app's own sections still the staff app.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERNAL_TOKEN, startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import { startNotificationHarness, type NotificationHarness } from '@workspace/notification/testing';
import { SHELL_PAGES } from '@workspace/rules';
import { moduleCatalogue } from '@workspace/web/modules';
import type { RunningBff } from '../src/app.js';
import { projectRequestLimited } from '../src/http/site-routes.js';
import { isStaffAppPath } from '../src/http/web-bundles.js';
import { read, signedInBrowser, startTestBff, TestBrowser } from './support.js';

const SALES = 'sales@workspace.test';

let identity: IdentityHarness;
let notification: NotificationHarness;
let bff: RunningBff;
let base: string;
let staticDir: string;
let visitor = 0;

beforeAll(async () => {
  identity = await startIdentityHarness();
  notification = await startNotificationHarness({ SALES_INBOX: SALES, INTERNAL_API_TOKEN: INTERNAL_TOKEN });
  staticDir = mkdtempSync(join(tmpdir(), 'bff-dist-'));
  for (const page of ['index', 'portal', 'site', 'share'])
    writeFileSync(join(staticDir, `${page}.html`), `<!doctype html><title>${page}</title>`);
  ({ bff, base } = await startTestBff(identity.baseUrl, {
    NOTIFICATION_URL: notification.baseUrl,
    STATIC_DIR: staticDir,
    PROJECT_REQUEST_RATE_LIMIT_PER_HOUR: '2',
    // One hop: each test's visitor has an address of its own (X-Forwarded-For), as behind the ingress.
    TRUST_PROXY: '1',
  }));
});

afterAll(async () => {
  await bff.shutdown('test');
  await notification.stop();
  await identity.stop();
  rmSync(staticDir, { recursive: true, force: true });
});

/** A new visitor: another client address. */
function newVisitor(): string {
  visitor += 1;
  return `203.0.113.${visitor}`;
}

/** A project request as the site's drawer sends it: JSON, no session, no CSRF token. */
function send(body: unknown, ip: string): Promise<Response> {
  return fetch(`${base}/api/public/project-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
}

describe('POST /api/public/project-requests', () => {
  it('stores the request and e-mails the sales inbox, answering 201 with its id', async () => {
    const res = await send(
      { name: 'Dana Builder', email: 'dana@builders.test', company: 'Builders Ltd', message: 'CIS please' },
      newVisitor(),
    );
    expect(res.status).toBe(201);
    const body = await read(res);
    expect(Object.keys(body).sort()).toEqual(['id', 'receivedAt']);
    const mail = await notification.sinkClient.waitForMessage((message) => message.text.includes(body.id));
    expect(mail.to).toEqual([SALES]);
    expect(mail.subject).toBe('Project request from Dana Builder (Builders Ltd)');
    expect(mail.replyTo).toEqual(['dana@builders.test']);
    expect(mail.text).toContain('CIS please');
  });

  it('refuses a blank name and an email such as a@ with clear messages, and sends nothing', async () => {
    await notification.sinkClient.clear();
    const res = await send({ name: '', email: 'a@', company: '', message: '' }, newVisitor());
    expect(res.status).toBe(400);
    const problem = await read(res);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { field: 'body.name', message: 'Please enter your name' },
        { field: 'body.email', message: 'Please enter a valid email address, e.g. name@example.com' },
      ]),
    );
    expect(await notification.sinkClient.messages()).toEqual([]);
  });

  it('limits each client address, with a clear 429 and Retry-After, while others still get through', async () => {
    const ip = newVisitor();
    const request = { name: 'Rita Repeat', email: 'rita@example.com' };
    expect((await send(request, ip)).status).toBe(201);
    expect((await send(request, ip)).status).toBe(201);
    const limited = await send(request, ip);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const problem = await read(limited);
    expect(problem.code).toBe('rate_limited');
    expect(problem.detail).toBe(projectRequestLimited(retryAfter));
    expect(problem.detail).toMatch(
      /^Too many project requests from your network\. Please try again in \d+ minutes\.$/,
    );
    // Another visitor is not held back by this one.
    expect((await send(request, newVisitor())).status).toBe(201);
  });

  it('answers 503 with a clear message when the notification service cannot be reached', async () => {
    const { bff: alone, base: aloneBase } = await startTestBff(identity.baseUrl, {
      NOTIFICATION_URL: 'http://127.0.0.1:9',
    });
    try {
      const res = await fetch(`${aloneBase}/api/public/project-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Sam', email: 'sam@example.com' }),
      });
      expect(res.status).toBe(503);
      expect((await read(res)).detail).toBe(
        'Project requests cannot be received at the moment. Please try again later.',
      );
    } finally {
      await alone.shutdown('test');
    }
  });
});

describe('the site pages at the bff', () => {
  const page = async (browser: TestBrowser, path: string) => {
    const res = await browser.fetch(`${base}${path}`);
    return { status: res.status, title: /<title>(\w+)<\/title>/.exec(await res.text())?.[1] };
  };

  it("serves every site page from the site's entry, signed in or not", async () => {
    const { browser: staff } = await signedInBrowser(base, { email: 'admin@demo.test' });
    for (const browser of [new TestBrowser(base), staff]) {
      for (const path of ['/login', '/vision', '/help', '/terms', '/privacy']) {
        expect({ path, ...(await page(browser, path)) }).toEqual({ path, status: 200, title: 'site' });
      }
    }
    expect(await page(new TestBrowser(base), '/')).toEqual({ status: 200, title: 'site' });
    expect(await page(staff, '/')).toEqual({ status: 200, title: 'index' });
  });

  it("answers an unknown public path with the site's 404 page, never the staff app", async () => {
    const visitorBrowser = new TestBrowser(base);
    for (const path of ['/pricing', '/no/such/page', '/terms/old', '/favicon.ico']) {
      expect({ path, ...(await page(visitorBrowser, path)) }).toEqual({ path, status: 404, title: 'site' });
    }
  });

  it("keeps the staff app's sections for a signed-out browser (it sends them to sign in) and everything for staff", async () => {
    const visitorBrowser = new TestBrowser(base);
    for (const path of [
      '/cis/invoices',
      '/drive',
      '/schedule',
      '/welcome',
      '/settings/appearance',
      '/notifications',
      '/audit',
    ]) {
      expect({ path, ...(await page(visitorBrowser, path)) }).toEqual({ path, status: 200, title: 'index' });
    }
    const { browser: staff } = await signedInBrowser(base, { email: 'admin@demo.test' });
    expect(await page(staff, '/anything-else')).toEqual({ status: 200, title: 'index' });
  });

  it("knows every module route of the staff app's catalogue and the shell's own pages", () => {
    for (const route of [...moduleCatalogue.map((entry) => entry.route), ...Object.values(SHELL_PAGES)]) {
      expect({ route, staff: isStaffAppPath(route) }).toEqual({ route, staff: true });
      expect({ route, staff: isStaffAppPath(`${route}/anything`) }).toEqual({ route, staff: true });
    }
    expect(isStaffAppPath('/pricing')).toBe(false);
  });
});
