// Drives (drive.md §3, §5, §6, §7) on real PostgreSQL and Kafka: the drives list with the personal drive made on
// first use, one drive, Create Shared Drive with the remaining-capacity rule, Edit Drive Settings, members.
import { GIB } from '../src/domain/index.js';
import { UsageStore } from '../src/db/usage.store.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

const PEER = '00000000-0000-4000-8000-0000000000e1';
const OUTSIDER = '00000000-0000-4000-8000-0000000000e2';
const CREATOR = '00000000-0000-4000-8000-0000000000e3';
const VIEW = ['drive.view', 'drive.read', 'drive.file.read'];
const CREATE = [...VIEW, 'drive.drives.create'];

let h: DriveHarness;
let admin: string;

beforeAll(async () => {
  h = await startDriveHarness();
  admin = await h.token(DRIVE_ADMIN_SCOPES);
});
afterAll(async () => {
  await h.stop();
});

const outboxRows = async (type: string) =>
  h.definition.deps().inTenant('demo', async (trx) => {
    const result = await trx.raw<{ rows: { type: string; payload: Record<string, unknown> }[] }>(
      `SELECT type, payload FROM drive.outbox WHERE type = ? ORDER BY id`,
      [type],
    );
    return result.rows;
  });

const addUsage = (bytes: number) =>
  h.definition
    .deps()
    .inTenant('demo', (trx) =>
      new UsageStore(trx).record('demo', { bytes, files: 0, counter: 'other', day: '2026-11-27' }),
    );

async function createDrive(
  token: string,
  drive: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return h.call(token, 'POST', '/drives/create', { drive }, headers);
}

describe('GET /drives', () => {
  it("makes the caller's personal drive on first use, with its library, once", async () => {
    const token = await h.token(VIEW, 'demo', PEER);
    const first = await h.call(token, 'GET', '/drives');
    expect(first.status).toBe(200);
    const drives = first.body.drives as {
      type: string;
      ownerId: string;
      name: string;
      settings: { defaultLibraryId: string | null };
    }[];
    const personal = drives.filter((drive) => drive.type === 'personal');
    expect(personal).toEqual([expect.objectContaining({ ownerId: PEER, name: 'My Drive' })]);
    expect(personal[0]?.settings.defaultLibraryId).toEqual(expect.any(String));
    const again = await h.call(token, 'GET', '/drives');
    expect(
      (again.body.drives as { type: string }[]).filter((drive) => drive.type === 'personal'),
    ).toHaveLength(1);
  });

  it('lists drives the caller owns or is a member of, never another’s personal or members drive', async () => {
    const made = await createDrive(admin, { name: 'Site drawings', memberIds: [PEER] });
    expect(made.status).toBe(201);
    const peer = await h.call(await h.token(VIEW, 'demo', PEER), 'GET', '/drives');
    const outsider = await h.call(await h.token(VIEW, 'demo', OUTSIDER), 'GET', '/drives');
    const names = (answer: typeof peer) =>
      (answer.body.drives as { name: string; ownerId: string }[]).map((d) => d.name);
    expect(names(peer)).toContain('Site drawings');
    expect(names(outsider)).not.toContain('Site drawings');
    expect(
      (outsider.body.drives as { ownerId: string; type: string }[]).every(
        (d) => d.type !== 'personal' || d.ownerId === OUTSIDER,
      ),
    ).toBe(true);
  });

  it('refuses a caller without drive scopes, and another tenant named in the query (404)', async () => {
    expect((await h.call(await h.token(['cis.view']), 'GET', '/drives')).status).toBe(403);
    expect((await h.call(admin, 'GET', '/drives?tenantId=acme')).status).toBe(404);
  });
});

describe('POST /drives/create (Create Shared Drive)', () => {
  it('makes the creator owner and the chosen people contributors, with the default settings and a default library', async () => {
    const token = await h.token(CREATE, 'demo', CREATOR);
    const made = await createDrive(token, { name: '  RAMS  ', memberIds: [PEER, OUTSIDER, CREATOR] });
    expect(made.status).toBe(201);
    const drive = made.body.drive as Record<string, unknown>;
    expect(drive).toMatchObject({
      name: 'RAMS',
      type: 'shared',
      slug: 'rams',
      ownerId: CREATOR,
      visibility: 'members',
      moduleId: null,
      settings: {
        color: 'blue',
        icon: 'Folder',
        description: '',
        allowExternalSharing: false,
        retentionDays: null,
        quotaGB: 1,
        versioningEnabled: true,
        maxVersions: 10,
        defaultLibraryId: expect.any(String),
      },
      stats: { fileCount: 0, totalSize: 0, lastActivity: null },
    });
    expect(drive.members).toEqual([
      expect.objectContaining({ userId: CREATOR, role: 'owner', addedBy: CREATOR }),
      expect.objectContaining({ userId: PEER, role: 'contributor' }),
      expect.objectContaining({ userId: OUTSIDER, role: 'contributor' }),
    ]);
    expect(drive.memberIds).toEqual([CREATOR, PEER, OUTSIDER]);
    const events = await outboxRows('drive.drive.created');
    expect(events.at(-1)?.payload).toMatchObject({ action: 'DRIVE_CREATED', targetId: made.body.driveId });
  });

  it("answers 'Drive name is required' for a blank or missing name", async () => {
    for (const drive of [{ name: '   ' }, {}]) {
      const answer = await createDrive(admin, drive);
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toBe('Drive name is required');
    }
  });

  it('needs drive.drives.create', async () => {
    const answer = await createDrive(await h.token(VIEW, 'demo', PEER), { name: 'Mine' });
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toBe("You don't have permission to create shared drives");
  });

  it('refuses a quota below 1 GB', async () => {
    const answer = await createDrive(admin, { name: 'Zero', settings: { quotaGB: 0 } });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe('Quota must be at least 1 GB');
  });

  it('falls back to 5 GB of capacity when the capacity check fails (a token identity does not accept)', async () => {
    const over = await createDrive(admin, { name: 'Big', settings: { quotaGB: 6 } });
    expect(over.status).toBe(400);
    expect(over.body.detail).toBe('Quota exceeds remaining capacity (5 GB)');
    expect((await createDrive(admin, { name: 'Five', settings: { quotaGB: 5 } })).status).toBe(201);
  });

  it("takes the tier's limit from identity and subtracts what the tenant uses (professional: 200 GB)", async () => {
    const signedIn = await h.signInAs('admin@demo.test');
    expect((await createDrive(signedIn, { name: 'Large', settings: { quotaGB: 150 } })).status).toBe(201);
    await addUsage(Math.round(180.5 * GIB));
    try {
      const over = await createDrive(signedIn, { name: 'Too large', settings: { quotaGB: 20 } });
      expect(over.status).toBe(400);
      expect(over.body.detail).toBe('Quota exceeds remaining capacity (19 GB)');
      expect((await createDrive(signedIn, { name: 'Fits', settings: { quotaGB: 19 } })).status).toBe(201);
    } finally {
      await addUsage(-Math.round(180.5 * GIB));
    }
  });

  it('refuses even 1 GB when the tenant has used all its capacity: the input starts at 1, the capacity is 0', async () => {
    const signedIn = await h.signInAs('admin@demo.test');
    await addUsage(200 * GIB);
    try {
      const full = await createDrive(signedIn, { name: 'No room', settings: { quotaGB: 1 } });
      expect(full.status).toBe(400);
      expect(full.body.detail).toBe('Quota exceeds remaining capacity (0 GB)');
      expect(full.body.errors).toEqual([
        { field: 'body.drive.settings.quotaGB', message: 'Quota exceeds remaining capacity (0 GB)' },
      ]);
    } finally {
      await addUsage(-200 * GIB);
    }
    expect((await createDrive(signedIn, { name: 'Room again', settings: { quotaGB: 1 } })).status).toBe(201);
  });

  it('keeps a drive’s type to personal, shared, module or custom', async () => {
    const custom = await createDrive(admin, { name: 'Client handover', type: 'custom' });
    expect(custom.status).toBe(201);
    expect(custom.body.drive).toMatchObject({ type: 'custom' });
    expect((await createDrive(admin, { name: 'Team', type: 'team' })).status).toBe(400);
    await expect(
      h.definition.deps().inTenant('demo', (trx) =>
        trx.raw(
          `INSERT INTO drives (id, tenant_id, name, type, slug, owner_id, created_by)
           VALUES (gen_random_uuid(), 'demo', 'X', 'team', 'x', 'u', 'u')`,
        ),
      ),
    ).rejects.toThrow(/drives_type/);
  });

  it('answers a repeated idempotency key with the first drive', async () => {
    const key = { 'x-idempotency-key': `drive-${String(Date.now())}` };
    const first = await createDrive(admin, { name: 'Once' }, key);
    const second = await createDrive(admin, { name: 'Once' }, key);
    expect(second.status).toBe(201);
    expect(second.body.driveId).toBe(first.body.driveId);
  });

  it('answers 404 for another tenant named in the payload', async () => {
    const answer = await h.call(admin, 'POST', '/drives/create', { tenantId: 'acme', drive: { name: 'X' } });
    expect(answer.status).toBe(404);
  });
});

describe('GET /drives/:id', () => {
  it('answers a member, refuses (404) a non-member, and 404 for an unknown id', async () => {
    const made = await createDrive(admin, { name: 'Contracts', memberIds: [PEER] });
    const id = made.body.driveId as string;
    expect((await h.call(await h.token(VIEW, 'demo', PEER), 'GET', `/drives/${id}`)).body).toMatchObject({
      drive: { id, name: 'Contracts' },
    });
    expect((await h.call(await h.token(VIEW, 'demo', OUTSIDER), 'GET', `/drives/${id}`)).status).toBe(404);
    expect((await h.call(admin, 'GET', '/drives/6b0f2ad4-5d6c-4a8e-9f0e-4c1b2a3d4e5f')).status).toBe(404);
  });

  it("answers 404 for another tenant's drive", async () => {
    const acmeDrive = await h.definition.deps().inTenant('acme', async (trx) => {
      const { rows } = await trx.raw<{ rows: { id: string }[] }>(
        `INSERT INTO drive.drives (id, tenant_id, name, type, slug, owner_id, created_by)
         VALUES (gen_random_uuid(), 'acme', 'Acme drive', 'shared', 'acme-drive', ?, ?) RETURNING id`,
        [DRIVE_ADMIN_ID, DRIVE_ADMIN_ID],
      );
      return rows[0]?.id ?? '';
    });
    expect((await h.call(admin, 'GET', `/drives/${acmeDrive}`)).status).toBe(404);
    const update = await h.call(admin, 'POST', '/drives/update', {
      driveId: acmeDrive,
      updates: { name: 'Mine' },
    });
    expect(update.status).toBe(404);
    expect((await h.call(admin, 'POST', `/drives/${acmeDrive}/members`, { userIds: [PEER] })).status).toBe(
      404,
    );
    expect(
      (await h.call(admin, 'PATCH', `/drives/${acmeDrive}/members/${PEER}`, { role: 'manager' })).status,
    ).toBe(404);
    expect((await h.call(admin, 'DELETE', `/drives/${acmeDrive}/members/${PEER}`)).status).toBe(404);
    const own = (await createDrive(admin, { name: 'Own' })).body.driveId as string;
    expect((await h.call(admin, 'GET', `/drives/${own}?tenantId=acme`)).status).toBe(404);
    expect(
      (await h.call(admin, 'POST', `/drives/${own}/members`, { tenantId: 'acme', userIds: [PEER] })).status,
    ).toBe(404);
    expect((await h.call(admin, 'DELETE', `/drives/${own}/members/${PEER}?tenantId=acme`)).status).toBe(404);
  });
});

describe('POST /drives/update (Edit Drive Settings)', () => {
  let driveId: string;
  beforeAll(async () => {
    const made = await createDrive(admin, { name: 'Insurance', memberIds: [PEER] });
    driveId = made.body.driveId as string;
  });

  it('saves the trimmed name and description, the colour and the quota, audited DRIVE_UPDATED', async () => {
    const answer = await h.call(admin, 'POST', '/drives/update', {
      tenantId: 'demo',
      driveId,
      updates: {
        name: '  Insurance certificates ',
        settings: { description: ' Certificates ', color: 'green', quotaGB: 1000 },
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.drive).toMatchObject({
      name: 'Insurance certificates',
      settings: { description: 'Certificates', color: 'green', quotaGB: 1000 },
    });
    const events = await outboxRows('drive.drive.updated');
    expect(events.at(-1)?.payload).toMatchObject({ action: 'DRIVE_UPDATED', targetId: driveId });
  });

  it("answers 'Drive name is required' for a blank name, and refuses quotas 0 and 1001", async () => {
    const blank = await h.call(admin, 'POST', '/drives/update', { driveId, updates: { name: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.detail).toBe('Drive name is required');
    for (const quotaGB of [0, 1001, 2.5]) {
      const answer = await h.call(admin, 'POST', '/drives/update', {
        driveId,
        updates: { settings: { quotaGB } },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toBe('Quota must be between 1 and 1000 GB');
    }
  });

  it('refuses a contributor (403) and someone who cannot see the drive (404)', async () => {
    const contributor = await h.call(await h.token(VIEW, 'demo', PEER), 'POST', '/drives/update', {
      driveId,
      updates: { name: 'Hijack' },
    });
    expect(contributor.status).toBe(403);
    expect(contributor.body.detail).toBe("You don't have permission to manage this drive");
    const outsider = await h.call(await h.token(VIEW, 'demo', OUTSIDER), 'POST', '/drives/update', {
      driveId,
      updates: { name: 'Hijack' },
    });
    expect(outsider.status).toBe(404);
  });
});

describe('drive members', () => {
  it('adds, re-roles and removes members (owner or manager only), never the owner, audited DRIVE_MEMBERS_CHANGED', async () => {
    const owner = await h.token(CREATE, 'demo', CREATOR);
    const made = await createDrive(owner, { name: 'Handover' });
    const id = made.body.driveId as string;
    const added = await h.call(owner, 'POST', `/drives/${id}/members`, { userIds: [PEER, OUTSIDER] });
    expect(added.status).toBe(200);
    expect(
      (added.body.drive as { members: { userId: string; role: string }[] }).members.map((m) => [
        m.userId,
        m.role,
      ]),
    ).toEqual([
      [CREATOR, 'owner'],
      [PEER, 'contributor'],
      [OUTSIDER, 'contributor'],
    ]);
    const peer = await h.token(VIEW, 'demo', PEER);
    expect((await h.call(peer, 'DELETE', `/drives/${id}/members/${OUTSIDER}`)).status).toBe(403);
    const promoted = await h.call(owner, 'PATCH', `/drives/${id}/members/${PEER}`, { role: 'manager' });
    expect((promoted.body.drive as { members: { userId: string; role: string }[] }).members[1]).toMatchObject(
      { userId: PEER, role: 'manager' },
    );
    const removed = await h.call(peer, 'DELETE', `/drives/${id}/members/${OUTSIDER}`);
    expect(removed.status).toBe(200);
    expect((removed.body.drive as { memberIds: string[] }).memberIds).toEqual([CREATOR, PEER]);
    const ownerOut = await h.call(peer, 'DELETE', `/drives/${id}/members/${CREATOR}`);
    expect(ownerOut.status).toBe(409);
    expect(ownerOut.body.detail).toBe('The drive owner cannot be removed or given another role');
    expect((await h.call(owner, 'DELETE', `/drives/${id}/members/${OUTSIDER}`)).status).toBe(404);
    expect((await h.call(owner, 'PATCH', `/drives/${id}/members/${PEER}`, { role: 'owner' })).status).toBe(
      400,
    );
    await expect(
      h.definition
        .deps()
        .inTenant('demo', (trx) =>
          trx.raw(`UPDATE drive_members SET role = 'admin' WHERE drive_id = ? AND user_id = ?`, [id, PEER]),
        ),
    ).rejects.toThrow(/drive_members_role/);
    const events = await outboxRows('drive.drive.members_changed');
    expect(events.length).toBeGreaterThanOrEqual(3);
  });
});
