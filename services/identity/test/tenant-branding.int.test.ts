// Tenant branding in identity: the Success and Danger colours and the logo (text, or an image whose type is read
// from its content), against real PostgreSQL and Kafka and the dev IdP.
import { eventually } from '@workspace/kit/testing';
import { cachedAccessTokens, callIdentity, startIdentityHarness, type IdentityHarness } from './support.js';

let harness: IdentityHarness;

const token = cachedAccessTokens(() => harness);
const call = (method: string, path: string, bearer: string, body?: unknown) =>
  callIdentity(harness, method, path, bearer, body);

/** A real 1×1 PNG. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const TWO_MB = 2 * 1024 * 1024;
const base64 = (bytes: Buffer) => bytes.toString('base64');
/** A buffer of `size` bytes starting with the PNG signature. */
const pngOfSize = (size: number) => Buffer.concat([PNG_1PX, Buffer.alloc(size - PNG_1PX.length, 0)]);

beforeAll(async () => {
  harness = await startIdentityHarness();
});

afterAll(async () => {
  await harness.stop();
});

describe('tenant colours', () => {
  it('saves the Success and Danger colours with their variations for everyone in the tenant, and refuses a colour that is not hex', async () => {
    const admin = await token('demo', 'admin@demo.test');
    const current = await call('GET', '/v1/tenant', admin);
    const branding = {
      ...current.body.branding,
      successColor: '#10B981',
      successVariation: 'darker',
      dangerColor: '#F43F5E',
      dangerVariation: 'muted',
    };
    const saved = await call('PATCH', '/v1/tenant', admin, { branding });
    expect(saved.status).toBe(200);
    expect(saved.body.branding).toEqual(branding);

    const editor = await token('demo', 'editor@demo.test');
    expect((await call('GET', '/v1/me', editor)).body.tenant.branding).toMatchObject({
      successColor: '#10B981',
      successVariation: 'darker',
      dangerColor: '#F43F5E',
      dangerVariation: 'muted',
    });
    const acme = await call('GET', '/v1/tenant', await token('acme', 'admin@acme.test'));
    expect(acme.body.branding).not.toHaveProperty('successColor');

    const bad = await call('PATCH', '/v1/tenant', admin, { branding: { successColor: 'green' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'body.branding.successColor', message: 'Success colour must be a hex colour such as #52C41A' },
    ]);
  });

  it('need tenant.edit_settings to change', async () => {
    const editor = await token('demo', 'editor@demo.test');
    const refused = await call('PATCH', '/v1/tenant', editor, { branding: { dangerColor: '#000000' } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('This requires the tenant.edit_settings permission.');
  });
});

describe('tenant logo', () => {
  it('keeps a text logo of up to 30 characters and refuses a 31st', async () => {
    const admin = await token('demo', 'admin@demo.test');
    const editor = await token('demo', 'editor@demo.test');
    expect((await call('GET', '/v1/tenant/logo', editor)).body).toMatchObject({ kind: 'none', text: null });

    const thirty = 'Demo Construction Ltd — Leeds'.padEnd(30, '!');
    expect(thirty).toHaveLength(30);
    const saved = await call('PUT', '/v1/tenant/logo', admin, { kind: 'text', text: thirty });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ kind: 'text', text: thirty, contentType: null });
    expect((await call('GET', '/v1/tenant/logo', editor)).body).toMatchObject({ kind: 'text', text: thirty });

    const tooLong = await call('PUT', '/v1/tenant/logo', admin, { kind: 'text', text: `${thirty}x` });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([
      { field: 'body.text', message: 'The text logo can be at most 30 characters.' },
    ]);
    expect((await call('GET', '/v1/tenant/logo', editor)).body.text).toBe(thirty);
  });

  it('takes an image by its content: a PNG, a JPEG and a GIF are accepted, a .png that is really text is refused', async () => {
    const admin = await token('demo', 'admin@demo.test');
    const editor = await token('demo', 'editor@demo.test');

    const png = await call('PUT', '/v1/tenant/logo', admin, {
      kind: 'image',
      data: base64(PNG_1PX),
      fileName: 'logo.png',
    });
    expect(png.status).toBe(200);
    expect(png.body).toMatchObject({
      kind: 'image',
      text: null,
      contentType: 'image/png',
      size: PNG_1PX.length,
    });
    expect(png.body.etag).toMatch(/^[0-9a-f]{32}$/);
    const image = await call('GET', '/v1/tenant/logo/image', editor);
    expect(image.status).toBe(200);
    expect(image.body).toEqual({ contentType: 'image/png', etag: png.body.etag, data: base64(PNG_1PX) });

    // The name says PNG, the content is text: refused, and the saved logo stays.
    const disguised = await call('PUT', '/v1/tenant/logo', admin, {
      kind: 'image',
      data: base64(Buffer.from('this is not an image, only text with a .png name\n')),
      fileName: 'logo.png',
    });
    expect(disguised.status).toBe(400);
    expect(disguised.body.errors).toEqual([
      {
        field: 'body.data',
        message:
          'The logo must be a PNG, JPG or GIF image. This file’s content is not one of those, whatever its name says.',
      },
    ]);
    // An SVG is text too.
    const svg = await call('PUT', '/v1/tenant/logo', admin, {
      kind: 'image',
      data: base64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
      fileName: 'logo.svg',
    });
    expect(svg.status).toBe(400);
    expect((await call('GET', '/v1/tenant/logo', editor)).body.contentType).toBe('image/png');

    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20)]);
    for (const [bytes, type] of [
      [jpeg, 'image/jpeg'],
      [gif, 'image/gif'],
      [Buffer.concat([Buffer.from('GIF87a'), Buffer.alloc(20)]), 'image/gif'],
    ] as const) {
      // The name does not matter: a GIF called .jpg is a GIF.
      const res = await call('PUT', '/v1/tenant/logo', admin, {
        kind: 'image',
        data: base64(bytes),
        fileName: 'x.jpg',
      });
      expect(res.status).toBe(200);
      expect(res.body.contentType).toBe(type);
    }
  });

  it('accepts an image of exactly 2 MB and refuses one byte more, and a 3 MB file, with a clear message', async () => {
    const admin = await token('demo', 'admin@demo.test');
    const exact = await call('PUT', '/v1/tenant/logo', admin, {
      kind: 'image',
      data: base64(pngOfSize(TWO_MB)),
    });
    expect(exact.status).toBe(200);
    expect(exact.body.size).toBe(TWO_MB);
    for (const size of [TWO_MB + 1, 3 * 1024 * 1024]) {
      const res = await call('PUT', '/v1/tenant/logo', admin, {
        kind: 'image',
        data: base64(pngOfSize(size)),
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { field: 'body.data', message: 'The image logo can be at most 2 MB.' },
      ]);
    }
  });

  it('needs tenant.edit_settings to set or remove it, keeps it to its tenant, and records the change through the outbox', async () => {
    const admin = await token('demo', 'admin@demo.test');
    const editor = await token('demo', 'editor@demo.test');
    const put = await call('PUT', '/v1/tenant/logo', editor, { kind: 'text', text: 'Mine' });
    expect(put.status).toBe(403);
    expect(put.body.detail).toBe('This requires the tenant.edit_settings permission.');
    expect((await call('DELETE', '/v1/tenant/logo', editor)).status).toBe(403);

    expect((await call('PUT', '/v1/tenant/logo', admin, { kind: 'text', text: 'Demo' })).status).toBe(200);
    const acmeAdmin = await token('acme', 'admin@acme.test');
    expect((await call('GET', '/v1/tenant/logo', acmeAdmin)).body.kind).toBe('none');
    expect((await call('GET', '/v1/tenant/logo/image', acmeAdmin)).status).toBe(404);

    expect((await call('DELETE', '/v1/tenant/logo', admin)).status).toBe(204);
    expect((await call('GET', '/v1/tenant/logo', editor)).body.kind).toBe('none');

    const { db } = harness.service.deps;
    const rows = await eventually(
      async () => {
        const list = await db('outbox')
          .where({ type: 'identity.tenant.updated', tenant_id: 'demo' })
          .whereNotNull('published_at');
        return list.length >= 5 ? list : undefined;
      },
      30_000,
      'published tenant updates',
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
  });
});
