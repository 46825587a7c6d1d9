import { storeServerFile } from '../src/commands/server-files.js';
import { storeServerVersion } from '../src/commands/versions.js';
import { DriveStore } from '../src/db/drives.store.js';
import { FileStore } from '../src/db/files.store.js';
import { LibraryStore } from '../src/db/libraries.store.js';
import { eventually } from '@workspace/kit/testing';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

// The versions the service makes itself (a stamped PDF, a CIS document filed again) follow the drive's versioning
// rule as uploaded ones do: at most maxVersions kept, the oldest pruned with its object, nothing pruned under legal
// hold (a new version is refused there instead).
describe('versions the service makes follow the versioning rule', () => {
  let h: DriveHarness;
  let place: { driveId: string; libraryId: string };
  const actor = { tenantId: 'demo', userId: DRIVE_ADMIN_ID };

  beforeAll(async () => {
    h = await startDriveHarness();
    const token = await h.token(DRIVE_ADMIN_SCOPES, 'demo', DRIVE_ADMIN_ID);
    const made = await h.call(token, 'POST', '/drives/create', { drive: { name: 'Contracts' } });
    expect(made.status).toBe(201);
    const drive = made.body.drive as { id: string; settings: { defaultLibraryId: string } };
    place = { driveId: drive.id, libraryId: drive.settings.defaultLibraryId };
    await h.definition
      .deps()
      .inTenant('demo', (trx) => new DriveStore(trx).update(drive.id, { maxVersions: 2 }));
  });
  afterAll(async () => {
    await h.stop();
  });

  const deps = () => h.definition.deps();
  const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);

  it('keeps the newest maxVersions and removes the pruned versions’ objects once committed', async () => {
    const file = await deps().inTenant('demo', (trx) =>
      storeServerFile(deps(), trx, actor, {
        ...place,
        folderId: null,
        name: 'Subcontract.pdf',
        mimeType: 'application/pdf',
        bytes: pdf('v1'),
        ownerId: DRIVE_ADMIN_ID,
      }),
    );
    for (const text of ['v2', 'v3']) {
      await deps().inTenant('demo', async (trx) => {
        const current = await new FileStore(trx).get(file.id);
        if (!current) throw new Error('file gone');
        await storeServerVersion(deps(), trx, actor, current, {
          bytes: pdf(text),
          mimeType: 'application/pdf',
          note: `Signed ${text}`,
        });
      });
    }
    const { stored, versions } = await deps().inTenant('demo', async (trx) => ({
      stored: await new FileStore(trx).get(file.id),
      versions: await new FileStore(trx).versions(file.id),
    }));
    expect(stored).toMatchObject({ version: 3, versionsCount: 2 });
    expect(versions.map((version) => version.version)).toEqual([3, 2]);
    const firstKey = `tenants/demo/files/${file.id}/v/1`;
    await eventually(
      async () => (await h.objects.stat(firstKey)) === undefined,
      10_000,
      'the pruned version’s object removed',
    );
    expect(await h.objects.stat(`tenants/demo/files/${file.id}/v/3`)).toBeDefined();
  });

  it('refuses a version under legal hold when one would have to go, and keeps every version', async () => {
    const file = await deps().inTenant('demo', (trx) =>
      storeServerFile(deps(), trx, actor, {
        ...place,
        folderId: null,
        name: 'Held.pdf',
        mimeType: 'application/pdf',
        bytes: pdf('h1'),
        ownerId: DRIVE_ADMIN_ID,
      }),
    );
    const addVersion = (text: string) =>
      deps().inTenant('demo', async (trx) => {
        const current = await new FileStore(trx).get(file.id);
        if (!current) throw new Error('file gone');
        return storeServerVersion(deps(), trx, actor, current, {
          bytes: pdf(text),
          mimeType: 'application/pdf',
          note: text,
        });
      });
    await addVersion('h2');
    await deps().inTenant('demo', async (trx) => {
      const library = await new LibraryStore(trx).get(place.libraryId);
      if (!library) throw new Error('library gone');
      await new LibraryStore(trx).update(place.libraryId, {
        policies: { ...library.policies, legalHold: true },
      });
    });
    await expect(addVersion('h3')).rejects.toMatchObject({ status: 409, code: 'LEGAL_HOLD' });
    const versions = await deps().inTenant('demo', (trx) => new FileStore(trx).versions(file.id));
    expect(versions.map((version) => version.version)).toEqual([2, 1]);
    await deps().inTenant('demo', async (trx) => {
      const library = await new LibraryStore(trx).get(place.libraryId);
      if (!library) throw new Error('library gone');
      await new LibraryStore(trx).update(place.libraryId, {
        policies: { ...library.policies, legalHold: false },
      });
    });
  });
});
