// drive.md §9 regions (DRV-010): the eu release keeps an eu tenant's files in the eu bucket. The drive of region eu
// (DRIVE_REGION=eu, its bucket the eu release's name made unique for this run) takes an upload from acme (identity's
// eu tenant) through the browser's flow (grant, presigned part PUTs, register): the object is in the eu bucket and
// not in the uk release's; demo (uk) is refused with 421. The default names per region: config.test.ts.
import { randomBytes } from 'node:crypto';
import { ObjectStore } from '../src/clients/object-store.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import { putParts, seedPlace, sha256, type Grant } from './uploads-support.js';

const run = randomBytes(4).toString('hex');
const EU_BUCKET = `workspace-drive-eu-${run}`;
const UK_BUCKET = `workspace-drive-uk-${run}`;

/** Every key in a bucket under a prefix. */
async function keys(store: ObjectStore, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const item of store.list(prefix)) if (item.name) found.push(item.name);
  return found;
}

describe('the eu release (DRIVE_REGION=eu)', () => {
  let h: DriveHarness;
  let uk: ObjectStore;
  beforeAll(async () => {
    h = await startDriveHarness({ env: { DRIVE_REGION: 'eu', OBJECT_STORE_BUCKET: EU_BUCKET } });
    // The uk release's bucket in the same object store, as the uk release would make it.
    uk = new ObjectStore({ ...h.config, DRIVE_REGION: 'uk', OBJECT_STORE_BUCKET: UK_BUCKET });
    await uk.ensureBucket();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('stores an eu tenant’s upload (acme, through grant, presigned parts and register) in the eu bucket, none in the uk one', async () => {
    const acme = await h.token(DRIVE_ADMIN_SCOPES, 'acme');
    const place = await seedPlace(h, { tenantId: 'acme' });
    const bytes = randomBytes(64 * 1024 + 7);
    const granted = await h.call(acme, 'POST', '/uploads', {
      ...place,
      name: 'Lyon site survey.bin',
      size: bytes.length,
      mimeType: 'application/octet-stream',
    });
    expect(granted.status).toBe(201);
    const g = granted.body as unknown as Grant;
    expect(g.objectPath).toBe(`tenants/acme/files/${g.fileId}/v/1`);
    for (const part of g.parts) expect(new URL(part.url).pathname.startsWith(`/${EU_BUCKET}/`)).toBe(true);
    await putParts(g, bytes);
    const done = await h.call(acme, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(bytes) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ code: 'REGISTERED', file: { id: g.fileId, size: bytes.length } });

    expect(h.objects.bucket).toBe(EU_BUCKET);
    const eu = new ObjectStore({ ...h.config, OBJECT_STORE_BUCKET: EU_BUCKET });
    expect(await keys(eu, 'tenants/acme/')).toEqual([g.objectPath]);
    expect((await eu.stat(g.objectPath))?.size).toBe(bytes.length);
    expect(await keys(uk)).toEqual([]);

    const abilities = await h.call(acme, 'GET', '/me/abilities');
    expect(abilities.status).toBe(200);
    expect(abilities.body).toMatchObject({ region: 'eu' });
  });

  it('refuses a uk tenant (demo) with 421 wrong_region, and keeps nothing of it', async () => {
    const demo = await h.signInAs('admin@demo.test');
    const answer = await h.call(demo, 'POST', '/uploads', { name: 'a.txt', size: 3 });
    expect(answer.status).toBe(421);
    expect(answer.body).toMatchObject({ code: 'wrong_region' });
    expect(answer.body.detail).toBe(
      'This organisation’s data lives in region uk; this is the eu drive. Use the uk service.',
    );
    expect(await keys(h.objects, 'tenants/demo/')).toEqual([]);
  });
});
