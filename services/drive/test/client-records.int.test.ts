// What the spec's client did itself and the drive does for it (docs/drive.md › Rows the architecture replaces), on
// real PostgreSQL and Kafka: a client-side action's audit record (the callable audit_logEvent's job) is a route of
// the drive whose event reaches drive.events.v1 with the tenant, the action, the target and the payload; and no file
// action runs without a known tenant (the spec's 'Tenant ID not available'): the tenant is the token's, required.
import { eventually } from '@workspace/kit/testing';
import { adminRows } from './files.fixtures.js';
import { makePlace, textFile, type Place } from './shares.fixtures.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

interface OutboxRow {
  tenant_id: string;
  topic: string;
  type: string;
  key: string;
  payload: Record<string, unknown>;
  published_at: Date | null;
}

describe('client-side records and the tenant of a file action', () => {
  let h: DriveHarness;
  let admin: string;
  let place: Place;

  beforeAll(async () => {
    h = await startDriveHarness({ env: { SHARE_LINK_SECRET: 'x'.repeat(40) } });
    admin = await h.token(DRIVE_ADMIN_SCOPES);
    place = await makePlace(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('DRV-215, DRV-382: the Share Links Copy recorded by POST /v1/shares/:id/link-copied is published on drive.events.v1 with tenant, action, target and payload', async () => {
    const file = await textFile(h, place, 'RAMS.txt');
    const made = await h.call(admin, 'POST', '/mutations/share', {
      tenantId: 'demo',
      name: 'RAMS for Brick Ltd',
      libraryId: place.libraryId,
      fileIds: [file.id],
      visibility: 'public',
    });
    expect(made.status).toBe(201);
    const shareId = String(made.body.id);

    const copied = await h.call(admin, 'POST', `/shares/${shareId}/link-copied`, { tenantId: 'demo' });
    expect(copied.status).toBe(204);
    const event = await eventually(
      async () => {
        const [row] = await adminRows<OutboxRow>(
          h,
          `SELECT tenant_id, topic, type, key, payload, published_at FROM drive.outbox
            WHERE type = 'drive.share.link_copied' AND payload->>'targetId' = ?`,
          [shareId],
        );
        return row?.published_at ? row : undefined;
      },
      20_000,
      'the SHARE_LINK_COPIED event to be published to Kafka',
    );
    expect(event).toMatchObject({
      tenant_id: 'demo',
      topic: 'drive.events.v1',
      type: 'drive.share.link_copied',
      payload: {
        action: 'SHARE_LINK_COPIED',
        actorId: DRIVE_ADMIN_ID,
        targetType: 'share',
        targetId: shareId,
        details: { visibility: 'public' },
      },
    });
    // Another tenant named in the call is refused (404) and records nothing.
    const foreign = await h.call(admin, 'POST', `/shares/${shareId}/link-copied`, { tenantId: 'acme' });
    expect(foreign.status).toBe(404);
    const rows = await adminRows<OutboxRow>(
      h,
      `SELECT tenant_id FROM drive.outbox WHERE type = 'drive.share.link_copied' AND payload->>'targetId' = ?`,
      [shareId],
    );
    expect(rows).toHaveLength(1);
  });

  it('DRV-291: a token without a tenant is refused (401) on every file action, and nothing changes', async () => {
    const file = await textFile(h, place, 'Programme.txt');
    const noTenant = await h.token(DRIVE_ADMIN_SCOPES, '');
    const answers = await Promise.all([
      h.call(noTenant, 'GET', '/files'),
      h.call(noTenant, 'GET', `/download?fileId=${file.id}`),
      h.call(noTenant, 'PATCH', `/files/${file.id}`, { name: 'Renamed.txt' }),
      h.call(noTenant, 'POST', '/mutations/delete', { fileId: file.id }),
      h.call(noTenant, 'POST', '/mutations/folder-assign', {
        fileIds: [file.id],
        driveId: place.driveId,
        folderId: null,
      }),
      h.call(noTenant, 'POST', '/uploads', {
        driveId: place.driveId,
        libraryId: place.libraryId,
        name: 'New.txt',
        size: 3,
        mimeType: 'text/plain',
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 401]);
    const stored: unknown = await h.definition
      .deps()
      .inTenant('demo', (trx) => trx('files').where({ id: file.id }).first('name', 'status'));
    expect(stored).toEqual({ name: 'Programme.txt', status: 'active' });
    // The same calls with the tenant in the token work.
    expect((await h.call(admin, 'GET', `/download?fileId=${file.id}`)).status).toBe(302);
  });
});
