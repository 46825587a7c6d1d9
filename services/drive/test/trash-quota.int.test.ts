import { GIB } from '../src/domain/index.js';
import { startDriveHarness, type DriveHarness } from './support.js';
import {
  MEMBER_SCOPES,
  OWNER_ID,
  adminQuery,
  fileRow,
  seedFile,
  seedPlace,
  usage,
} from './trash-fixtures.js';

describe('freeSpaceOnSoftDelete on (the default): restore takes the bytes back', () => {
  let h: DriveHarness;
  beforeAll(async () => {
    h = await startDriveHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('refuses a restore whose bytes no longer fit: STORAGE_LIMIT_EXCEEDED with the GB figures', async () => {
    const place = await seedPlace(h);
    const file = await seedFile(h, place, { bytes: Buffer.alloc(1_000, 7) });
    const owner = await h.token(MEMBER_SCOPES, 'demo', OWNER_ID);
    await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
    // The demo tenant is on professional (200 GiB): fill it to 100 bytes short.
    await adminQuery(h, `UPDATE drive.storage_usage SET used = $1 WHERE tenant_id = 'demo'`, [
      200 * GIB - 100,
    ]);
    // identity tells the tier to a token it issued.
    const admin = await h.signInAs('admin@demo.test');
    const answer = await h.call(admin, 'POST', '/mutations/restore', { fileId: file.id });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      code: 'STORAGE_LIMIT_EXCEEDED',
      detail:
        'Storage limit exceeded. You have 0.00 GB remaining, but this file requires 0.00 GB. Please upgrade your storage plan or delete some files.',
      remainingGB: 0,
      requiredGB: 0,
    });
    expect((await fileRow(h, file.id))?.status).toBe('trashed');

    await adminQuery(h, `UPDATE drive.storage_usage SET used = 0 WHERE tenant_id = 'demo'`);
    expect((await h.call(admin, 'POST', '/mutations/restore', { fileId: file.id })).status).toBe(200);
  });
});

describe('freeSpaceOnSoftDelete off', () => {
  let h: DriveHarness;
  beforeAll(async () => {
    h = await startDriveHarness({ env: { FREE_SPACE_ON_SOFT_DELETE: 'false' } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('keeps a trashed file’s bytes counted until it is purged, and restore changes nothing', async () => {
    const place = await seedPlace(h);
    const owner = await h.token(MEMBER_SCOPES, 'demo', OWNER_ID);
    const file = await seedFile(h, place, { bytes: Buffer.alloc(5_000, 8) });
    const counted = await usage(h);

    const trashed = await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
    expect(trashed.body).toMatchObject({ result: 'trashed', releasedBytes: 0 });
    expect(await usage(h)).toEqual(counted);
    expect((await fileRow(h, file.id))?.released_bytes).toBeNull();

    await h.call(owner, 'POST', '/mutations/restore', { fileId: file.id });
    expect(await usage(h)).toEqual(counted);

    await h.call(owner, 'POST', '/mutations/delete', { fileId: file.id });
    const purged = await h.call(owner, 'POST', '/mutations/purge', { fileId: file.id });
    expect(purged.body).toMatchObject({ releasedBytes: 5_000 });
    expect(await usage(h)).toEqual({ used: counted.used - 5_000, files: counted.files - 1 });
  });
});
