// The bff's tenant logo routes against the real identity service (PostgreSQL, Kafka) and the dev OIDC provider:
// set through PUT /api/tenant/logo, served as bytes by GET /api/tenant/logo with its type, cache headers and nosniff.
import { randomBytes } from 'node:crypto';
import {
  INTERNAL_TOKEN,
  REDIRECT_URI,
  demoSeed,
  startIdentityHarness,
  type IdentityHarness,
} from '../../services/identity/test/support.js';
import { startBff, type RunningBff } from '../src/app.js';
import { bffConfigSchema } from '../src/config.js';

const PUBLIC_URL = 'http://localhost:8080';
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let harness: IdentityHarness;
let bff: RunningBff;
let base: string;

beforeAll(async () => {
  harness = await startIdentityHarness();
  bff = await startBff(
    bffConfigSchema.parse({
      PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      IDENTITY_URL: harness.baseUrl,
      INTERNAL_API_TOKEN: INTERNAL_TOKEN,
      PUBLIC_URL,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
    }),
  );
  base = `http://127.0.0.1:${bff.port}`;
});

afterAll(async () => {
  await bff.shutdown('test');
  await harness.stop();
});

/** A browser reduced to what sign-in needs: a cookie jar per origin and manual redirects. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();
  csrf = '';

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const separator = pair.indexOf('=');
      const value = pair.slice(separator + 1).trim();
      if (value === '' || /max-age=0/i.test(header)) jar.delete(pair.slice(0, separator).trim());
      else jar.set(pair.slice(0, separator).trim(), value);
    }
    return response;
  }

  api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    if (this.csrf) headers.set('x-csrf-token', this.csrf);
    return this.fetch(`${base}${path}`, {
      ...rest,
      headers,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  }
}

/** Signs in through the bff and the IdP's own login form; the browser then holds the session and its CSRF token. */
async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser();
  const login = await browser.api('/api/auth/login?tenant=demo');
  let url = login.headers.get('location') ?? '';
  for (let hop = 0; hop < 12 && !url.startsWith(REDIRECT_URI); hop++) {
    let response = await browser.fetch(url);
    if (response.status === 200 && /\/interaction\//.test(url)) {
      const action = /action="([^"]+)"/.exec(await response.text())?.[1] ?? '';
      response = await browser.fetch(new URL(action, url).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: demoSeed.password }).toString(),
      });
    }
    url = new URL(response.headers.get('location') ?? '', url).toString();
  }
  const callback = await browser.fetch(`${base}${url.slice(PUBLIC_URL.length)}`);
  expect(callback.status).toBe(302);
  const session = (await (await browser.api('/api/auth/session')).json()) as { csrfToken: string };
  browser.csrf = session.csrfToken;
  return browser;
}

describe('tenant logo through the bff', () => {
  it('serves the image logo as bytes with its content type, an ETag, cache headers and nosniff; 304 when unchanged', async () => {
    const admin = await signedIn('admin@demo.test');
    expect((await admin.api('/api/tenant/logo')).status).toBe(404);

    const saved = await admin.api('/api/tenant/logo', {
      method: 'PUT',
      json: { kind: 'image', data: PNG_1PX.toString('base64'), fileName: 'logo.png' },
    });
    expect(saved.status).toBe(200);
    const view = (await saved.json()) as { kind: string; contentType: string; etag: string };
    expect(view).toMatchObject({ kind: 'image', contentType: 'image/png' });

    // Any member of the tenant sees it.
    const viewer = await signedIn('viewer@demo.test');
    const settings = await viewer.api('/api/tenant/logo/settings');
    expect(await settings.json()).toMatchObject({ kind: 'image', etag: view.etag });

    const image = await viewer.api('/api/tenant/logo');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toBe('private, no-cache');
    expect(image.headers.get('etag')).toBe(`"${view.etag}"`);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG_1PX)).toBe(true);

    const versioned = await viewer.api(`/api/tenant/logo?v=${view.etag}`);
    expect(versioned.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    await versioned.body?.cancel();
    const unchanged = await viewer.api('/api/tenant/logo', {
      headers: { 'if-none-match': `"${view.etag}"` },
    });
    expect(unchanged.status).toBe(304);
  });

  it("passes identity's refusals on: a .png that is really text, a 31-character text logo, a viewer's change", async () => {
    const admin = await signedIn('admin@demo.test');
    const disguised = await admin.api('/api/tenant/logo', {
      method: 'PUT',
      json: { kind: 'image', data: Buffer.from('plain text').toString('base64'), fileName: 'logo.png' },
    });
    expect(disguised.status).toBe(400);
    expect(((await disguised.json()) as { errors: { message: string }[] }).errors[0]?.message).toMatch(
      /must be a PNG, JPG or GIF image/,
    );
    const long = await admin.api('/api/tenant/logo', {
      method: 'PUT',
      json: { kind: 'text', text: 'x'.repeat(31) },
    });
    expect(long.status).toBe(400);

    const text = await admin.api('/api/tenant/logo', {
      method: 'PUT',
      json: { kind: 'text', text: 'Demo Build' },
    });
    expect(await text.json()).toMatchObject({ kind: 'text', text: 'Demo Build' });
    // A text logo has no image to serve.
    expect((await admin.api('/api/tenant/logo')).status).toBe(404);

    const viewer = await signedIn('viewer@demo.test');
    const refused = await viewer.api('/api/tenant/logo', { method: 'DELETE' });
    expect(refused.status).toBe(403);
    const withoutCsrf = await admin.fetch(`${base}/api/tenant/logo`, { method: 'DELETE' });
    expect(withoutCsrf.status).toBe(403);
    expect((await admin.api('/api/tenant/logo', { method: 'DELETE' })).status).toBe(204);
    expect(await (await viewer.api('/api/tenant/logo/settings')).json()).toMatchObject({ kind: 'none' });
  });
});
