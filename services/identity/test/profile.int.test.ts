// Users' public keys, avatars and the tenant region default, against real PostgreSQL and Kafka and the dev IdP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FieldCipher } from '@workspace/kit';
import pg from 'pg';
import sharp from 'sharp';
import { openSealedForUser, sealForUser } from '../src/commands/user-keys.js';
import { acmeSeed, demoSeed, signIn, startIdentityHarness, type IdentityHarness } from './support.js';

let harness: IdentityHarness;
let admin: pg.Client;
let photoServer: Server;
let photoRequests = 0;
let token: string;

const demoUser = demoSeed.users[0];
const seededUids = [...demoSeed.users, ...acmeSeed.users].map((user) => user.uid);

beforeAll(async () => {
  harness = await startIdentityHarness();
  admin = new pg.Client({ connectionString: harness.database.adminUrl });
  await admin.connect();
  const photo = await sharp({
    create: { width: 400, height: 300, channels: 3, background: { r: 30, g: 90, b: 200 } },
  })
    .png()
    .toBuffer();
  photoServer = createServer((req, res) => {
    photoRequests++;
    if (req.url === '/photo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => photoServer.listen(0, '127.0.0.1', resolve));
  if (!demoUser) throw new Error('the demo seed has no users');
  const result = await signIn(harness, 'demo', demoUser.email, demoSeed.password);
  if (result.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(result.body)}`);
  token = result.body.accessToken as string;
});

afterAll(async () => {
  await new Promise((resolve) => photoServer.close(resolve));
  await admin.end();
  await harness.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${harness.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

const usersWithoutKey = async () =>
  (
    await admin.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM identity.users WHERE public_key IS NULL OR private_key_sealed IS NULL',
    )
  ).rows[0]?.count;

describe('each user has a public key', () => {
  it('every user has a key, the seeded ones included; the private half is stored only sealed', async () => {
    const { rows } = await admin.query<{ uid: string; public_key: string; private_key_sealed: string }>(
      'SELECT uid, public_key, private_key_sealed FROM identity.users',
    );
    expect(rows.map((row) => row.uid)).toEqual(expect.arrayContaining(seededUids));
    expect(await usersWithoutKey()).toBe(0);
    for (const row of rows) {
      expect(row.public_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(row.private_key_sealed).toMatch(/^v1\./);
    }
    expect(new Set(rows.map((row) => row.public_key)).size).toBe(rows.length);
  });

  it('the database refuses a user without a key', async () => {
    await expect(
      admin.query(
        `INSERT INTO identity.users (uid, tenant_id, email) VALUES ('20000000-0000-4000-8000-000000000009', 'demo', 'nokey@demo.test')`,
      ),
    ).rejects.toThrow(/users_key_present/);
  });

  it('GET /v1/users/:uid/public-key gives a colleague’s key; what is sealed to it opens with their keys only', async () => {
    const uid = demoUser?.uid ?? '';
    const response = await get(`/v1/users/${uid}/public-key`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { publicKey: string; algorithm: string; jwk: { x: string } };
    const { rows } = await admin.query<{ public_key: string; private_key_sealed: string }>(
      'SELECT public_key, private_key_sealed FROM identity.users WHERE uid = $1',
      [uid],
    );
    const row = rows[0];
    expect(body).toMatchObject({
      algorithm: 'X25519',
      publicKey: row?.public_key,
      jwk: { x: row?.public_key },
    });
    const cipher = FieldCipher.fromConfig(harness.config.IDENTITY_ENCRYPTION_KEYS);
    const sealed = sealForUser(body.publicKey, Buffer.from('for you only'));
    const keys = { publicKey: row?.public_key ?? '', privateKeySealed: row?.private_key_sealed ?? '' };
    expect(openSealedForUser(keys, cipher, sealed).toString()).toBe('for you only');
    // Another tenant's user is not found.
    expect((await get(`/v1/users/${acmeSeed.users[0]?.uid ?? ''}/public-key`)).status).toBe(404);
  });
});

describe('avatars', () => {
  it('serves the profile photo as a webp of at most 128 px, fetched once and then cached', async () => {
    const uid = demoUser?.uid ?? '';
    const port = (photoServer.address() as AddressInfo).port;
    await admin.query('UPDATE identity.users SET profile_photo_url = $1 WHERE uid = $2', [
      `http://127.0.0.1:${port}/photo.png`,
      uid,
    ]);
    const response = await get(`/v1/users/${uid}/avatar`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 128, 96]);
    const etag = response.headers.get('etag') ?? '';
    expect((await get(`/v1/users/${uid}/avatar`)).status).toBe(200);
    expect((await get(`/v1/users/${uid}/avatar`, { 'if-none-match': etag })).status).toBe(304);
    expect(photoRequests).toBe(1);
    expect(
      harness.definition.profile.avatars.cache.remainingTtl(
        `demo\u0000${uid}\u0000http://127.0.0.1:${port}/photo.png`,
      ),
    ).toBeGreaterThan(7 * 24 * 3_600_000 - 60_000);
  });

  it('a user without a photo has no avatar (404); a photo that cannot be fetched is a 502', async () => {
    const others = demoSeed.users.slice(1, 3).map((user) => user.uid);
    expect((await get(`/v1/users/${others[0] ?? ''}/avatar`)).status).toBe(404);
    const port = (photoServer.address() as AddressInfo).port;
    await admin.query('UPDATE identity.users SET profile_photo_url = $1 WHERE uid = $2', [
      `http://127.0.0.1:${port}/missing.png`,
      others[1],
    ]);
    expect((await get(`/v1/users/${others[1] ?? ''}/avatar`)).status).toBe(502);
  });
});

describe('tenant region', () => {
  it('a tenant stored without a region is in uk', async () => {
    await admin.query(`INSERT INTO identity.tenants (tenant_id, name) VALUES ('noregion', 'No Region Ltd')`);
    const { rows } = await admin.query<{ region: string }>(
      `SELECT region FROM identity.tenants WHERE tenant_id = 'noregion'`,
    );
    expect(rows[0]?.region).toBe('uk');
    const metadata = await fetch(`${harness.baseUrl}/v1/tenants/noregion/metadata`);
    expect(((await metadata.json()) as { databaseRegion: string }).databaseRegion).toBe('uk');
    await expect(
      admin.query(`INSERT INTO identity.tenants (tenant_id, name, region) VALUES ('fr-co', 'Fr', 'fr')`),
    ).rejects.toThrow(/tenants_region/);
  });
});
