// Libraries (drive.md §3, §6, §7) on real PostgreSQL and Kafka: the list, New Library and edits with ACL scopes and
// policies validated, ensure-default and get-or-create (one library per module entity).
import { randomUUID } from 'node:crypto';
import { DriveStore } from '../src/db/drives.store.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

const MEMBER = '00000000-0000-4000-8000-0000000000f1';
const OUTSIDER = '00000000-0000-4000-8000-0000000000f2';
const VIEW = ['drive.view', 'drive.read', 'drive.file.read'];

let h: DriveHarness;
let admin: string;
let driveId: string;

beforeAll(async () => {
  h = await startDriveHarness();
  admin = await h.token(DRIVE_ADMIN_SCOPES);
  const made = await h.call(admin, 'POST', '/drives/create', {
    drive: { name: 'Projects', memberIds: [MEMBER] },
  });
  driveId = made.body.driveId as string;
});
afterAll(async () => {
  await h.stop();
});

const outboxTypes = async () =>
  h.definition.deps().inTenant('demo', async (trx) => {
    const result = await trx.raw<{ rows: { type: string; payload: Record<string, unknown> }[] }>(
      `SELECT type, payload FROM drive.outbox ORDER BY id`,
    );
    return result.rows;
  });

/** A drive made before it had a default library (or by another path). */
const bareDrive = (tenantId = 'demo') =>
  h.definition.deps().inTenant(tenantId, async (trx) => {
    const id = randomUUID();
    await new DriveStore(trx).insert(
      {
        id,
        tenantId,
        name: 'Bare',
        type: 'shared',
        slug: 'bare',
        ownerId: DRIVE_ADMIN_ID,
        moduleId: null,
        visibility: 'members',
        color: 'blue',
        icon: 'Folder',
        description: '',
        allowExternalSharing: false,
        retentionDays: null,
        quotaGb: 1,
        versioningEnabled: true,
        maxVersions: 10,
        defaultLibraryId: null,
        createdBy: DRIVE_ADMIN_ID,
      },
      [{ userId: DRIVE_ADMIN_ID, role: 'owner', displayName: '', addedBy: DRIVE_ADMIN_ID }],
    );
    return id;
  });

describe('POST /libraries (New Library)', () => {
  it('stores the ACL, the policies (extensions bare and lower case) and the share-source policy, audited LIBRARY_CREATED', async () => {
    const answer = await h.call(admin, 'POST', '/libraries', {
      tenantId: 'demo',
      driveId,
      name: ' Drawings ',
      description: 'Issued drawings',
      acl: { readScopes: ['drive.file.read'], writeScopes: ['drive.file.upload'] },
      policies: {
        deletePolicy: 'ownerOnly',
        allowedExtensions: ['.PDF', 'dwg', ' Pdf '],
        maxFileSizeMB: 20,
        shareAllowed: false,
      },
      shareSourcePolicy: { externalAllowed: false, requireWatermark: true },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.library).toMatchObject({
      driveId,
      driveName: 'Projects',
      name: 'Drawings',
      kind: 'library',
      visibleInDriveUI: true,
      acl: {
        readScopes: ['drive.file.read'],
        writeScopes: ['drive.file.upload'],
        deleteScopes: ['drive.file.soft_delete', 'drive.file.hard_delete'],
        shareScopes: ['drive.file.share'],
      },
      policies: {
        readOnly: false,
        legalHold: false,
        shareAllowed: false,
        deletePolicy: 'ownerOnly',
        allowedExtensions: ['pdf', 'dwg'],
        maxFileSizeMB: 20,
      },
      shareSourcePolicy: { externalAllowed: false, requireWatermark: true, requireRecord: false },
    });
    const created = (await outboxTypes()).filter((row) => row.type === 'drive.library.created');
    expect(created.at(-1)?.payload).toMatchObject({
      action: 'LIBRARY_CREATED',
      targetId: answer.body.libraryId,
    });
  });

  it.each([
    [{ name: '  ' }, 'Library name is required'],
    [{}, 'Library name is required'],
    [{ name: 'X', policies: { allowedExtensions: ['p d f'] } }, '"p d f" is not a file extension'],
    [{ name: 'X', policies: { maxFileSizeMB: 0 } }, 'Maximum file size must be between 1 and 5120 MB'],
    [{ name: 'X', policies: { maxFileSizeMB: 5121 } }, 'Maximum file size must be between 1 and 5120 MB'],
    [{ name: 'X', acl: { readScopes: ['Drive Read'] } }, '"Drive Read" is not a scope'],
  ])('refuses %j with its message', async (fields, message) => {
    const answer = await h.call(admin, 'POST', '/libraries', { driveId, ...fields });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe(message);
  });

  it('refuses a personal drive', async () => {
    const drives = await h.call(admin, 'GET', '/drives');
    const personal = (drives.body.drives as { id: string; type: string }[]).find(
      (d) => d.type === 'personal',
    );
    const answer = await h.call(admin, 'POST', '/libraries', { driveId: personal?.id, name: 'Mine' });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe('Libraries cannot be added to a personal drive');
  });

  it('needs drive.libraries.create, and answers 404 for a drive of another tenant or one the caller cannot see', async () => {
    const denied = await h.call(await h.token(VIEW, 'demo', MEMBER), 'POST', '/libraries', {
      driveId,
      name: 'X',
    });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe("You don't have permission to create libraries");
    const acmeDrive = await bareDrive('acme');
    expect((await h.call(admin, 'POST', '/libraries', { driveId: acmeDrive, name: 'X' })).status).toBe(404);
    expect((await h.call(admin, 'POST', '/libraries', { tenantId: 'acme', driveId, name: 'X' })).status).toBe(
      404,
    );
    const creator = await h.token([...VIEW, 'drive.libraries.create'], 'demo', OUTSIDER);
    expect((await h.call(creator, 'POST', '/libraries', { driveId, name: 'X' })).status).toBe(404);
  });
});

describe('PATCH /libraries/:id', () => {
  let libraryId: string;
  beforeAll(async () => {
    libraryId = (await h.call(admin, 'POST', '/libraries', { driveId, name: 'RAMS' })).body
      .libraryId as string;
  });

  it('changes the policies, audited LIBRARY_UPDATED', async () => {
    const answer = await h.call(admin, 'PATCH', `/libraries/${libraryId}`, {
      policies: { readOnly: true, legalHold: true, deletePolicy: 'twoPerson', allowedExtensions: ['DOCX'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.library).toMatchObject({
      name: 'RAMS',
      policies: { readOnly: true, legalHold: true, deletePolicy: 'twoPerson', allowedExtensions: ['docx'] },
    });
    const updated = (await outboxTypes()).filter((row) => row.type === 'drive.library.updated');
    expect(updated.at(-1)?.payload).toMatchObject({ action: 'LIBRARY_UPDATED', targetId: libraryId });
  });

  it('keeps the delete policy to none, ownerOnly, managerOnly or twoPerson', async () => {
    for (const deletePolicy of ['none', 'ownerOnly', 'managerOnly', 'twoPerson']) {
      const answer = await h.call(admin, 'PATCH', `/libraries/${libraryId}`, { policies: { deletePolicy } });
      expect(answer.body.library).toMatchObject({ policies: { deletePolicy } });
    }
    const other = await h.call(admin, 'PATCH', `/libraries/${libraryId}`, {
      policies: { deletePolicy: 'never' },
    });
    expect(other.status).toBe(400);
  });

  it('refuses a blank name, and a caller without drive.libraries.manage', async () => {
    const blank = await h.call(admin, 'PATCH', `/libraries/${libraryId}`, { name: ' ' });
    expect(blank.body.detail).toBe('Library name is required');
    const member = await h.call(await h.token(VIEW, 'demo', MEMBER), 'PATCH', `/libraries/${libraryId}`, {
      name: 'Mine',
    });
    expect(member.status).toBe(403);
    expect(member.body.detail).toBe("You don't have permission to manage libraries");
  });

  it('answers 404 for an unknown id, and for a library gated by a scope the caller lacks (not theirs to reopen)', async () => {
    expect((await h.call(admin, 'PATCH', `/libraries/${randomUUID()}`, { name: 'X' })).status).toBe(404);
    expect(
      (await h.call(admin, 'PATCH', `/libraries/${libraryId}`, { tenantId: 'acme', name: 'X' })).status,
    ).toBe(404);
    const acmeDriveId = await bareDrive('acme');
    const acmeLibrary = await h.definition.deps().inTenant('acme', async (trx) => {
      const { rows } = await trx.raw<{ rows: { id: string }[] }>(
        `INSERT INTO libraries (id, tenant_id, drive_id, name, read_scopes, write_scopes, delete_scopes, share_scopes, created_by)
         VALUES (gen_random_uuid(), 'acme', ?, 'Acme', '{drive.file.read}', '{}', '{}', '{}', 'u') RETURNING id`,
        [acmeDriveId],
      );
      return rows[0]?.id ?? '';
    });
    expect((await h.call(admin, 'PATCH', `/libraries/${acmeLibrary}`, { name: 'X' })).status).toBe(404);
    const gated = await h.call(admin, 'POST', '/libraries', {
      driveId,
      name: 'Payroll',
      acl: { readScopes: ['cis.pii.unmask'] },
    });
    expect(gated.status).toBe(201);
    const reopen = await h.call(admin, 'PATCH', `/libraries/${gated.body.libraryId as string}`, {
      acl: { readScopes: ['drive.file.read'] },
    });
    expect(reopen.status).toBe(404);
    const holder = await h.token([...DRIVE_ADMIN_SCOPES, 'cis.pii.unmask']);
    const allowed = await h.call(holder, 'PATCH', `/libraries/${gated.body.libraryId as string}`, {
      description: 'Payroll records',
    });
    expect(allowed.status).toBe(200);
  });
});

describe('GET /libraries', () => {
  it("lists libraries of the caller's drives only, never a personal drive's, a hidden one or one they cannot read", async () => {
    await h.call(await h.token(VIEW, 'demo', MEMBER), 'GET', '/drives');
    const member = await h.call(await h.token(VIEW, 'demo', MEMBER), 'GET', '/libraries');
    expect(member.status).toBe(200);
    const names = (member.body.libraries as { name: string; driveName: string }[]).map(
      (l) => `${l.driveName}/${l.name}`,
    );
    expect(names).toEqual(
      expect.arrayContaining(['Projects/Documents', 'Projects/Drawings', 'Projects/RAMS']),
    );
    expect(names).not.toContain('Projects/Payroll');
    expect(names.some((name) => name.startsWith('My Drive/'))).toBe(false);
    const outsider = await h.call(await h.token(VIEW, 'demo', OUTSIDER), 'GET', '/libraries');
    expect((outsider.body.libraries as { driveId: string }[]).some((l) => l.driveId === driveId)).toBe(false);
  });

  it('filters by drive, and answers 404 for another tenant', async () => {
    const other = (await h.call(admin, 'POST', '/drives/create', { drive: { name: 'Other' } })).body
      .driveId as string;
    const answer = await h.call(admin, 'GET', `/libraries?driveId=${other}`);
    expect((answer.body.libraries as { driveId: string }[]).map((l) => l.driveId)).toEqual([other]);
    expect((await h.call(admin, 'GET', '/libraries?tenantId=acme')).status).toBe(404);
  });
});

describe('POST /libraries/ensure-default', () => {
  it('makes the default library of a drive without one, then answers it with created false', async () => {
    const bare = await bareDrive();
    const first = await h.call(admin, 'POST', '/libraries/ensure-default', {
      driveId: bare,
      overrides: { name: 'Site files', policies: { allowedExtensions: ['pdf'] } },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      created: true,
      library: { name: 'Site files', driveId: bare, policies: { allowedExtensions: ['pdf'] } },
    });
    const second = await h.call(admin, 'POST', '/libraries/ensure-default', { driveId: bare });
    expect(second.body).toMatchObject({ created: false, libraryId: first.body.libraryId });
    const drive = await h.call(admin, 'GET', `/drives/${bare}`);
    expect(drive.body.drive).toMatchObject({ settings: { defaultLibraryId: first.body.libraryId } });
  });

  it('needs drive.libraries.create or a manager of the drive; 404 for a drive the caller cannot see or another tenant', async () => {
    const member = await h.call(await h.token(VIEW, 'demo', MEMBER), 'POST', '/libraries/ensure-default', {
      driveId,
    });
    expect(member.status).toBe(403);
    expect(member.body.detail).toBe("You don't have permission to create libraries");
    const outsider = await h.call(
      await h.token(VIEW, 'demo', OUTSIDER),
      'POST',
      '/libraries/ensure-default',
      {
        driveId,
      },
    );
    expect(outsider.status).toBe(404);
    const acmeDrive = await bareDrive('acme');
    expect((await h.call(admin, 'POST', '/libraries/ensure-default', { driveId: acmeDrive })).status).toBe(
      404,
    );
  });
});

describe('POST /libraries/get-or-create', () => {
  const context = { moduleKey: 'schedule', entityType: 'event', entityId: 'evt-1', entityName: 'Site visit' };

  it("gives one library per context, in the module's drive (provisioned on first use), hidden from the drive UI", async () => {
    const first = await h.call(admin, 'POST', '/libraries/get-or-create', {
      tenantId: 'demo',
      context,
      defaults: { memberIds: [MEMBER], ownerIds: [DRIVE_ADMIN_ID] },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ libraryId: expect.any(String), created: true });
    const second = await h.call(admin, 'POST', '/libraries/get-or-create', { context });
    expect(second.body).toEqual({ libraryId: first.body.libraryId, created: false });
    const other = await h.call(admin, 'POST', '/libraries/get-or-create', {
      context: { ...context, entityId: 'evt-2' },
    });
    expect(other.body.libraryId).not.toBe(first.body.libraryId);
    const listed = await h.call(admin, 'GET', '/libraries');
    expect((listed.body.libraries as { id: string }[]).some((l) => l.id === first.body.libraryId)).toBe(
      false,
    );
    const drives = await h.call(admin, 'GET', '/drives');
    expect(drives.body.drives).toEqual(
      expect.arrayContaining([expect.objectContaining({ moduleId: 'schedule', name: 'Schedule Files' })]),
    );
  });

  it('refuses an unknown module, a caller without library or attachment scopes, and another tenant', async () => {
    const unknown = await h.call(admin, 'POST', '/libraries/get-or-create', {
      context: { ...context, moduleKey: 'calendar' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('Unknown module: calendar');
    const viewer = await h.call(await h.token(VIEW, 'demo', MEMBER), 'POST', '/libraries/get-or-create', {
      context,
    });
    expect(viewer.status).toBe(403);
    const acme = await h.call(admin, 'POST', '/libraries/get-or-create', { tenantId: 'acme', context });
    expect(acme.status).toBe(404);
  });

  it('lets an attachment adder use an existing module drive', async () => {
    const adder = await h.token([...VIEW, 'drive.attachment.add'], 'demo', MEMBER);
    const answer = await h.call(adder, 'POST', '/libraries/get-or-create', {
      context: { ...context, entityId: 'evt-3' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.created).toBe(true);
  });
});
