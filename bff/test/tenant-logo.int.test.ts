// The bff's tenant logo routes against the real identity service (PostgreSQL, Kafka) and the dev OIDC provider:
// set through PUT /api/tenant/logo, served as bytes by GET /api/tenant/logo with its type, cache headers and nosniff.
import { startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import type { RunningBff } from '../src/app.js';
import { signedInBrowser, startTestBff } from './support.js';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let harness: IdentityHarness;
let bff: RunningBff;
let base: string;

beforeAll(async () => {
  harness = await startIdentityHarness();
  ({ bff, base } = await startTestBff(harness.baseUrl));
});

afterAll(async () => {
  await bff.shutdown('test');
  await harness.stop();
});

/** A browser signed in at the bff; it sends its session's CSRF token with every call. */
const signedIn = async (email: string) =>
  (await signedInBrowser(base, { email, csrfOnEveryCall: true })).browser;

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
