// Module drives (drive.md §4, §7; workspace.md WS-350..358) on real PostgreSQL and Kafka: schedule, chat, notes and
// cis each get a tenant-wide drive with its share library and module folders, provisioned on first use only when
// AUTO_PROVISION_MODULE_DRIVES is on and the caller can create or manage drives; one per module and tenant.
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

const VIEWER = '00000000-0000-4000-8000-0000000000c1';
const VIEW = ['drive.view', 'drive.read', 'drive.file.read'];

interface ModuleDriveAnswer {
  drive: {
    id: string;
    name: string;
    type: string;
    moduleId: string;
    visibility: string;
    settings: { defaultLibraryId: string };
  };
  driveId: string;
  created: boolean;
}

describe('module drives, auto-provision on', () => {
  let h: DriveHarness;
  let admin: string;
  beforeAll(async () => {
    h = await startDriveHarness();
    admin = await h.token(DRIVE_ADMIN_SCOPES);
  });
  afterAll(async () => {
    await h.stop();
  });

  it.each([
    ['schedule', 'Schedule Files', 'Team Space', ['Schedule Files', 'Signatures', 'Shared Files']],
    ['chat', 'Chat Files', 'Conversations', ['Chat Files', 'Shared Files']],
    ['notes', 'Notes Files', 'Workspace', ['Notes', 'Documentation', 'Shared Files']],
    ['cis', 'CIS Documents', 'Operational', ['Documentation', 'Signatures', 'Shared Files']],
  ])(
    'provisions the %s drive on first use (POST /drives/create with moduleId): %s with its %s share library and module folders',
    async (moduleId, driveName, libraryName, folders) => {
      const made = await h.call(admin, 'POST', '/drives/create', { tenantId: 'demo', drive: { moduleId } });
      expect(made.status).toBe(201);
      const answer = made.body as unknown as ModuleDriveAnswer;
      expect(answer).toMatchObject({
        created: true,
        drive: { name: driveName, type: 'module', moduleId, visibility: 'tenant' },
      });
      const baseline = await h.call(admin, 'POST', '/libraries/ensure-module-baseline', {
        tenantId: 'demo',
        driveId: answer.driveId,
        moduleId,
      });
      expect(baseline.status).toBe(200);
      expect(baseline.body).toMatchObject({
        libraryId: answer.drive.settings.defaultLibraryId,
        created: false,
      });
      const libraries = baseline.body.libraries as {
        id: string;
        name: string;
        acl: Record<string, string[]>;
      }[];
      expect(libraries.find((library) => library.id === baseline.body.libraryId)).toMatchObject({
        name: libraryName,
        acl: {
          readScopes: ['drive.file.read'],
          writeScopes: ['drive.file.upload'],
          deleteScopes: ['drive.file.soft_delete', 'drive.file.hard_delete'],
          shareScopes: ['drive.file.share'],
        },
      });
      expect(
        (baseline.body.folders as { name: string; type: string }[]).map((folder) => [
          folder.name,
          folder.type,
        ]),
      ).toEqual(folders.map((name) => [name, 'module']));
      // The module folder's shape (drive.md §3): id, name, type module, createdBy, fileCount, parentId, lastUpdated.
      const listed = await h.call(admin, 'GET', `/drives/${answer.driveId}/folders`);
      const moduleFolders = (listed.body.items as Record<string, unknown>[]).filter(
        (folder) => folder.type === 'module',
      );
      // One insert makes them all: they share a creation time, so their order among themselves is not fixed.
      expect(moduleFolders.map((folder) => String(folder.name)).sort()).toEqual([...folders].sort());
      for (const folder of moduleFolders) {
        expect(folder).toMatchObject({
          type: 'module',
          createdBy: DRIVE_ADMIN_ID,
          fileCount: 0,
          parentId: null,
        });
        expect(typeof folder.id).toBe('string');
        expect(Number.isNaN(Date.parse(String(folder.updatedAt)))).toBe(false);
      }
    },
  );

  it('gives one drive per module and tenant: a second create, the ensure route and concurrent first uses answer it', async () => {
    const first = (await h.call(admin, 'POST', '/drives/modules/chat/ensure', {}))
      .body as unknown as ModuleDriveAnswer;
    expect(first.created).toBe(false);
    const again = await h.call(admin, 'POST', '/drives/create', { drive: { moduleId: 'chat' } });
    expect(again.body).toMatchObject({ created: false, driveId: first.driveId });
    const racing = await Promise.all(
      [1, 2, 3].map(() => h.call(admin, 'POST', '/drives/modules/notes/ensure', {})),
    );
    expect(new Set(racing.map((answer) => answer.body.driveId)).size).toBe(1);
  });

  it('shows a module drive to everyone in the tenant, and answers its ensure to a viewer once provisioned', async () => {
    const viewer = await h.token(VIEW, 'demo', VIEWER);
    const drives = await h.call(viewer, 'GET', '/drives');
    expect((drives.body.drives as { moduleId: string | null }[]).map((d) => d.moduleId)).toEqual(
      expect.arrayContaining(['schedule', 'chat', 'notes', 'cis']),
    );
    const ensured = await h.call(viewer, 'POST', '/drives/modules/chat/ensure', {});
    expect(ensured.status).toBe(200);
    expect(ensured.body.created).toBe(false);
  });

  it('keeps the CIS documents library out of the baseline answer for a caller without cis.pii.unmask', async () => {
    const cis = (await h.call(admin, 'POST', '/drives/modules/cis/ensure', {}))
      .body as unknown as ModuleDriveAnswer;
    const plain = await h.call(admin, 'POST', '/libraries/ensure-module-baseline', {
      driveId: cis.driveId,
      moduleId: 'cis',
    });
    expect((plain.body.libraries as { name: string }[]).map((l) => l.name)).toEqual(['Operational']);
    const holder = await h.token([...DRIVE_ADMIN_SCOPES, 'cis.pii.unmask']);
    const full = await h.call(holder, 'POST', '/libraries/ensure-module-baseline', {
      driveId: cis.driveId,
      moduleId: 'cis',
    });
    expect(full.body.libraries).toEqual([
      expect.objectContaining({ name: 'Operational' }),
      expect.objectContaining({
        name: 'Statements and returns',
        kind: 'context',
        context: {
          moduleKey: 'cis',
          entityType: 'documents',
          entityId: 'statements-and-returns',
          entityName: 'Statements and returns',
        },
        acl: {
          readScopes: ['cis.pii.unmask'],
          writeScopes: [],
          deleteScopes: ['drive.manage_all'],
          shareScopes: [],
        },
        policies: expect.objectContaining({
          readOnly: true,
          legalHold: true,
          shareAllowed: false,
          deletePolicy: 'managerOnly',
        }),
        shareSourcePolicy: expect.objectContaining({ externalAllowed: false }),
      }),
    ]);
  });

  it('refuses an unknown module and a drive of another module', async () => {
    const unknown = await h.call(admin, 'POST', '/drives/modules/calendar/ensure', {});
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('Unknown module: calendar');
    const chat = (await h.call(admin, 'POST', '/drives/modules/chat/ensure', {}))
      .body as unknown as ModuleDriveAnswer;
    const wrong = await h.call(admin, 'POST', '/libraries/ensure-module-baseline', {
      driveId: chat.driveId,
      moduleId: 'notes',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('This drive is not the notes module drive');
    const other = await h.call(admin, 'POST', '/libraries/ensure-module-baseline', {
      driveId: chat.driveId,
      moduleId: 'calendar',
    });
    expect(other.body.detail).toBe('Unknown module: calendar');
  });

  it('answers 404 for another tenant, and refuses the baseline to a caller who may not add libraries', async () => {
    expect((await h.call(admin, 'POST', '/drives/modules/chat/ensure', { tenantId: 'acme' })).status).toBe(
      404,
    );
    const chat = (await h.call(admin, 'POST', '/drives/modules/chat/ensure', {}))
      .body as unknown as ModuleDriveAnswer;
    const viewer = await h.call(
      await h.token(VIEW, 'demo', VIEWER),
      'POST',
      '/libraries/ensure-module-baseline',
      {
        driveId: chat.driveId,
        moduleId: 'chat',
      },
    );
    expect(viewer.status).toBe(403);
    expect(
      (
        await h.call(admin, 'POST', '/libraries/ensure-module-baseline', {
          tenantId: 'acme',
          driveId: chat.driveId,
          moduleId: 'chat',
        })
      ).status,
    ).toBe(404);
  });
});

describe('module drives: who may provision them', () => {
  it('does not provision for a caller who can neither create nor manage drives', async () => {
    const h = await startDriveHarness();
    try {
      const viewer = await h.call(await h.token(VIEW, 'demo', VIEWER), 'POST', '/drives/create', {
        drive: { moduleId: 'chat' },
      });
      expect(viewer.status).toBe(403);
      expect(viewer.body.detail).toBe("You don't have permission to create shared drives");
      const manager = await h.call(
        await h.token([...VIEW, 'drive.drives.manage']),
        'POST',
        '/drives/modules/chat/ensure',
        {},
      );
      expect(manager.status).toBe(200);
      expect(manager.body.created).toBe(true);
    } finally {
      await h.stop();
    }
  });

  it('does not provision when AUTO_PROVISION_MODULE_DRIVES is off, whoever asks', async () => {
    const h = await startDriveHarness({ env: { AUTO_PROVISION_MODULE_DRIVES: 'false' } });
    try {
      const admin = await h.token(DRIVE_ADMIN_SCOPES);
      const answer = await h.call(admin, 'POST', '/drives/create', { drive: { moduleId: 'schedule' } });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({
        code: 'auto_provision_off',
        detail: 'Module drives are not provisioned automatically in this organisation',
      });
      const drives = await h.call(admin, 'GET', '/drives');
      expect((drives.body.drives as { type: string }[]).some((drive) => drive.type === 'module')).toBe(false);
      const library = await h.call(admin, 'POST', '/libraries/get-or-create', {
        context: { moduleKey: 'schedule', entityType: 'event', entityId: 'e1' },
      });
      expect(library.status).toBe(403);
    } finally {
      await h.stop();
    }
  });
});
