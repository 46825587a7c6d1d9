import { randomUUID } from 'node:crypto';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import {
  MEMBER_SCOPES,
  adminQuery,
  events,
  fileRow,
  seedFile,
  seedPlace,
  type Place,
} from './trash-fixtures.js';

const HOUR = 3_600_000;

describe('the sweep', () => {
  let h: DriveHarness;
  let place: Place;
  let tenantAdmin: string;
  let operator: string;
  beforeAll(async () => {
    h = await startDriveHarness();
    place = await seedPlace(h);
    tenantAdmin = await h.token(DRIVE_ADMIN_SCOPES);
    operator = await h.token([...DRIVE_ADMIN_SCOPES, 'system.superadmin']);
  });
  afterAll(async () => {
    await h.stop();
  });

  const metric = async (name: string): Promise<number | undefined> => {
    const port = h.drive.managementPort ?? h.drive.port;
    const text = await (await fetch(`http://127.0.0.1:${String(port)}/metrics`)).text();
    const line = text.split('\n').find((row) => row.startsWith(`${name} `) || row.startsWith(`${name}{`));
    return line === undefined ? undefined : Number(line.split(' ').at(-1));
  };

  it('removes objects without a record once older than the upload grant TTL, leaving younger ones (uploads in flight) alone', async () => {
    const kept = await seedFile(h, place);
    const orphanKey = `tenants/demo/files/${randomUUID()}/v/1`;
    await h.objects.put(orphanKey, Buffer.from('left behind'), 'text/plain');

    const young = await h.call(tenantAdmin, 'POST', '/admin/sweep', {});
    expect(young.status).toBe(200);
    expect(young.body).toMatchObject({ scope: 'tenant', orphanObjectsRemoved: 0, recentObjectsLeft: 1 });
    expect(await h.objects.stat(orphanKey)).toBeDefined();

    h.clock.advance(h.config.UPLOAD_GRANT_TTL_MS + HOUR);
    const old = await h.call(tenantAdmin, 'POST', '/admin/sweep', {});
    expect(old.body).toMatchObject({ orphanObjectsRemoved: 1, orphanKeys: [orphanKey], missingObjects: 0 });
    expect(await h.objects.stat(orphanKey)).toBeUndefined();
    expect(await h.objects.stat(kept.storagePath)).toBeDefined();
  });

  it('flags records without an object as missing, logs and counts them (drive_sweep_missing_objects), and clears the flag when the object is back', async () => {
    const file = await seedFile(h, place, { bytes: Buffer.from('soon gone') });
    await h.objects.remove([file.storagePath]);
    h.clock.advance(HOUR);

    const answer = await h.call(operator, 'POST', '/admin/sweep', { region: true });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ scope: 'region', missingObjects: 1, filesFlagged: 1 });
    expect(answer.body.missing).toEqual([
      { fileId: file.id, tenantId: 'demo', version: 1, key: file.storagePath },
    ]);
    expect((await fileRow(h, file.id))?.content_flag).toBe('missing');
    expect(await metric('drive_sweep_missing_objects')).toBe(1);
    expect(await events(h, 'FILE_CONTENT_FLAGGED', file.id)).toHaveLength(1);

    // Flagged once, not again.
    const again = await h.call(operator, 'POST', '/admin/sweep', { region: true });
    expect(again.body).toMatchObject({ missingObjects: 1, filesFlagged: 0 });

    await h.objects.put(file.storagePath, Buffer.from('soon gone'), 'text/plain');
    const back = await h.call(operator, 'POST', '/admin/sweep', { region: true });
    expect(back.body).toMatchObject({ missingObjects: 0, filesCleared: 1 });
    expect((await fileRow(h, file.id))?.content_flag).toBeNull();
    expect(await metric('drive_sweep_missing_objects')).toBe(0);
  });

  it('removes thumbnails of files that no longer exist; a region sweep covers every tenant, a tenant’s sweep its own objects', async () => {
    const file = await seedFile(h, place);
    const liveThumb = `tenants/demo/thumbs/${file.id}/v/1/thumbnail.jpg`;
    const deadThumb = `tenants/demo/thumbs/${randomUUID()}/v/1/gone.jpg`;
    const acmeOrphan = `tenants/acme/files/${randomUUID()}/v/1`;
    for (const key of [liveThumb, deadThumb, acmeOrphan]) {
      await h.objects.put(key, Buffer.from('x'), 'image/jpeg');
    }
    h.clock.advance(h.config.UPLOAD_GRANT_TTL_MS + HOUR);

    // A tenant's sweep sees its own objects only.
    const tenant = await h.call(tenantAdmin, 'POST', '/admin/sweep', {});
    expect(tenant.body.orphanKeys).toEqual([deadThumb]);
    expect(await h.objects.stat(deadThumb)).toBeUndefined();
    expect(await h.objects.stat(liveThumb)).toBeDefined();
    expect(await h.objects.stat(acmeOrphan)).toBeDefined();

    const region = await h.call(operator, 'POST', '/admin/sweep', { region: true });
    expect(region.body).toMatchObject({ orphanObjectsRemoved: 1, orphanKeys: [acmeOrphan] });
    expect(await h.objects.stat(acmeOrphan)).toBeUndefined();
    expect(await h.objects.stat(liveThumb)).toBeDefined();
    expect(await metric('drive_sweep_orphan_objects_removed_total')).toBeGreaterThanOrEqual(3);
  });

  it('leaves the objects a purge queued to the removal queue or the sweep, never a record without its object', async () => {
    const file = await seedFile(h, place);
    const member = await h.token(MEMBER_SCOPES, 'demo', file.ownerId);
    const purge = await h.call(member, 'POST', '/mutations/purge', { fileId: file.id });
    expect(purge.status).toBe(200);
    expect(await adminQuery(h, 'SELECT 1 FROM drive.file_versions WHERE file_id = $1', [file.id])).toEqual(
      [],
    );
    const sweep = await h.call(tenantAdmin, 'POST', '/admin/sweep', {});
    expect(sweep.body).toMatchObject({ missingObjects: 0 });
  });

  it('is for drive administrators; the region sweep for system.superadmin only', async () => {
    const member = await h.token(MEMBER_SCOPES);
    expect((await h.call(member, 'POST', '/admin/sweep', {})).status).toBe(403);
    const region = await h.call(tenantAdmin, 'POST', '/admin/sweep', { region: true });
    expect(region.status).toBe(403);
    expect(region.body.detail).toBe('A region sweep requires the system.superadmin permission.');
  });
});
