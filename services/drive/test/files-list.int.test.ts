import { randomUUID } from 'node:crypto';
import { FileStore } from '../src/db/files.store.js';
import { READER_SCOPES, seedDrive, seedFile, seedLibrary } from './files.fixtures.js';
import { DRIVE_ADMIN_ID, DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

/*
 * GET /v1/files (drive.md §2 "File list screen", §9 paging): views, filters, search by file or owner name, sort,
 * paging with the page-size rule, and only the files the caller may open (canReadFile, in SQL).
 */

const ALICE = '00000000-0000-4000-8000-00000000a11c';
const BOB = '00000000-0000-4000-8000-0000000000b0';

interface Entry {
  id: string;
  name: string;
  ownerName: string;
  driveName: string;
  libraryName: string;
  folderName: string | null;
  sharedWithCount: number;
  visibility: string;
  size: number;
  starred: boolean;
  status: string;
}
interface Page {
  items: Entry[];
  total: number;
  page: number;
  pageSize: number;
}

let h: DriveHarness;
let admin: string;
let alice: string;
let bob: string;
let teamDrive: string;
let general: string;
let operational: string;
let folderId: string;
const ids: Record<string, string> = {};

const names = (page: Page) => page.items.map((item) => item.name);

async function list(token: string, query = ''): Promise<Page> {
  const answer = await h.call(token, 'GET', `/files${query ? `?${query}` : ''}`);
  expect(answer.status).toBe(200);
  return answer.body as unknown as Page;
}

beforeAll(async () => {
  h = await startDriveHarness();
  // The drive's administrator who also holds the Operational library's own read scope.
  admin = await h.token([...DRIVE_ADMIN_SCOPES, 'cis.sub.unmask']);
  alice = await h.token(READER_SCOPES, 'demo', ALICE);
  bob = await h.token(READER_SCOPES, 'demo', BOB);
  teamDrive = await seedDrive(h, { name: 'Team Drive', members: [{ userId: ALICE, role: 'contributor' }] });
  general = await seedLibrary(h, teamDrive, { name: 'General' });
  // A library only holders of one drive read scope may read (manage-all reads it too: the scope is the drive's own;
  // a library gated by another module's scope, as the CIS documents one, is its holders' alone: cis-documents tests).
  operational = await seedLibrary(h, teamDrive, {
    name: 'Operational',
    acl: { readScopes: ['drive.pii.read'] },
  });
  const personal = await seedDrive(h, { name: 'My Drive', type: 'personal' });
  const personalLibrary = await seedLibrary(h, personal, { name: 'Personal' });
  folderId = randomUUID();
  await h.definition.deps().inTenant('demo', (trx) =>
    trx('folders').insert({
      id: folderId,
      tenant_id: 'demo',
      drive_id: teamDrive,
      library_id: general,
      slug: 'drawings',
      name: 'Drawings',
      created_by: DRIVE_ADMIN_ID,
    }),
  );
  const day = (n: number) => new Date(Date.UTC(2026, 0, n, 9));
  const seeds = [
    { key: 'plan', name: 'Site plan.pdf', mimeType: 'application/pdf', createdAt: day(1), folderId },
    {
      key: 'rams',
      name: 'RAMS week 1.docx',
      ownerId: ALICE,
      ownerName: 'Alice Archer',
      visibility: 'shared' as const,
      createdAt: day(2),
      bytes: Buffer.alloc(3000, 1),
    },
    { key: 'budget', name: 'Budget.xlsx', visibility: 'restricted' as const, createdAt: day(3) },
    {
      key: 'forAlice',
      name: 'Restricted for Alice.txt',
      visibility: 'restricted' as const,
      allowedUids: [ALICE],
      createdAt: day(4),
    },
    { key: 'forBob', name: 'For Bob.txt', sharedWith: [BOB], createdAt: day(5), bytes: Buffer.alloc(10, 1) },
  ];
  for (const { key, ...seed } of seeds) {
    ids[key] = (await seedFile(h, { driveId: teamDrive, libraryId: general, ...seed })).id;
  }
  ids.utr = (
    await seedFile(h, {
      driveId: teamDrive,
      libraryId: operational,
      name: 'UTR list.csv',
      sharedWith: [ALICE],
      createdAt: day(6),
    })
  ).id;
  ids.personal = (
    await seedFile(h, {
      driveId: personal,
      libraryId: personalLibrary,
      name: 'Personal notes.txt',
      createdAt: day(7),
    })
  ).id;
  // Another tenant's file (acme), in its own drive and library.
  const acmeDrive = await seedDrive(h, { tenantId: 'acme' });
  const acmeLibrary = await seedLibrary(h, acmeDrive, { tenantId: 'acme' });
  ids.acme = (
    await seedFile(h, {
      tenantId: 'acme',
      driveId: acmeDrive,
      libraryId: acmeLibrary,
      name: 'Acme secret.txt',
    })
  ).id;
});

afterAll(async () => {
  await h.stop();
});

describe('who sees a file (canReadFile, in SQL)', () => {
  it('a manage-all holder sees every file of the tenant, newest first, with drive, library and folder names', async () => {
    const page = await list(admin);
    expect(names(page)).toEqual([
      'Personal notes.txt',
      'UTR list.csv',
      'For Bob.txt',
      'Restricted for Alice.txt',
      'Budget.xlsx',
      'RAMS week 1.docx',
      'Site plan.pdf',
    ]);
    expect(page).toMatchObject({ total: 7, page: 1, pageSize: 50 });
    expect(page.items.find((item) => item.name === 'Site plan.pdf')).toMatchObject({
      driveName: 'Team Drive',
      libraryName: 'General',
      folderName: 'Drawings',
      ownerName: 'Drive Admin',
    });
    expect(page.items.find((item) => item.name === 'For Bob.txt')).toMatchObject({ sharedWithCount: 1 });
  });

  it('a drive member sees its files but not restricted ones, unless allowed by name; not a closed library, not another personal drive', async () => {
    expect(names(await list(alice))).toEqual([
      'For Bob.txt',
      'Restricted for Alice.txt',
      'RAMS week 1.docx',
      'Site plan.pdf',
    ]);
  });

  it("manage-all does not open a library gated by another module's scope", async () => {
    const driveAdmin = await h.token(DRIVE_ADMIN_SCOPES);
    expect(names(await list(driveAdmin))).not.toContain('UTR list.csv');
    expect((await list(driveAdmin)).total).toBe(6);
  });

  it('a file shared with a user by name is visible to that user outside their drives', async () => {
    const page = await list(bob);
    expect(names(page)).toEqual(['For Bob.txt']);
    expect(page.total).toBe(1);
  });

  it('a caller without any drive view scope is refused', async () => {
    const answer = await h.call(await h.token(['cis.inv.read']), 'GET', '/files');
    expect(answer.status).toBe(403);
  });

  it("another tenant's files never appear, and naming another tenant answers 404", async () => {
    expect(names(await list(admin))).not.toContain('Acme secret.txt');
    expect((await h.call(admin, 'GET', '/files?tenantId=acme')).status).toBe(404);
    expect((await h.call(admin, 'GET', `/files/${ids.acme ?? ''}`)).status).toBe(404);
  });
});

describe('views', () => {
  it('mine lists the files the caller owns', async () => {
    expect(names(await list(alice, 'view=mine'))).toEqual(['RAMS week 1.docx']);
  });

  it('shared lists files shared with people or marked shared', async () => {
    expect(names(await list(admin, 'view=shared'))).toEqual([
      'UTR list.csv',
      'For Bob.txt',
      'RAMS week 1.docx',
    ]);
  });

  it('starred lists the caller’s stars only', async () => {
    expect((await h.call(alice, 'PUT', `/files/${ids.plan ?? ''}/star`)).status).toBe(204);
    expect(names(await list(alice, 'view=starred'))).toEqual(['Site plan.pdf']);
    expect(names(await list(admin, 'view=starred'))).toEqual([]);
    expect((await list(alice, 'view=all')).items.find((item) => item.name === 'Site plan.pdf')?.starred).toBe(
      true,
    );
  });

  it('trash lists trashed files, which leave the other views', async () => {
    await h.definition
      .deps()
      .inTenant('demo', (trx) =>
        new FileStore(trx).update(ids.budget ?? '', { status: 'trashed', binnedAt: new Date() }),
      );
    try {
      expect(names(await list(admin, 'view=trash'))).toEqual(['Budget.xlsx']);
      expect(names(await list(admin))).not.toContain('Budget.xlsx');
      expect(names(await list(alice, 'view=trash'))).toEqual([]);
    } finally {
      await h.definition
        .deps()
        .inTenant('demo', (trx) =>
          new FileStore(trx).update(ids.budget ?? '', { status: 'active', binnedAt: null }),
        );
    }
  });
});

describe('filters and search', () => {
  it('filters by drive, library and folder', async () => {
    expect((await list(admin, `driveId=${teamDrive}`)).total).toBe(6);
    expect(names(await list(admin, `libraryId=${operational}`))).toEqual(['UTR list.csv']);
    expect(names(await list(admin, `folderId=${folderId}`))).toEqual(['Site plan.pdf']);
  });

  it('filters by visibility: shared, and private (restricted counts as private)', async () => {
    expect(names(await list(alice, 'visibility=shared'))).toEqual(['For Bob.txt', 'RAMS week 1.docx']);
    expect(names(await list(alice, 'visibility=private'))).toEqual([
      'Restricted for Alice.txt',
      'Site plan.pdf',
    ]);
  });

  it('searches by file name, any case', async () => {
    expect(names(await list(alice, 'q=PLAN'))).toEqual(['Site plan.pdf']);
  });

  it('searches by owner name', async () => {
    expect(names(await list(admin, 'q=archer'))).toEqual(['RAMS week 1.docx']);
  });

  it('a search with LIKE wildcards matches them literally', async () => {
    expect((await list(admin, `q=${encodeURIComponent('%')}`)).total).toBe(0);
  });
});

describe('sort', () => {
  it('sorts by name, and the same column toggles the direction', async () => {
    const ascending = names(await list(alice, 'sort=name&order=asc'));
    expect(ascending).toEqual([
      'For Bob.txt',
      'RAMS week 1.docx',
      'Restricted for Alice.txt',
      'Site plan.pdf',
    ]);
    expect(names(await list(alice, 'sort=name&order=desc'))).toEqual([...ascending].reverse());
  });

  it('sorts by size and by owner', async () => {
    const bySize = (await list(alice, 'sort=size&order=desc')).items;
    expect(bySize[0]?.name).toBe('RAMS week 1.docx');
    expect(bySize.map((item) => item.size)).toEqual(
      [...bySize.map((item) => item.size)].sort((a, b) => b - a),
    );
    expect(names(await list(alice, 'sort=owner&order=asc'))[0]).toBe('RAMS week 1.docx');
  });

  it("sorts by the library's and the drive's name", async () => {
    const byLibrary = (await list(admin, 'sort=library&order=desc')).items.map((item) => item.libraryName);
    expect(byLibrary.slice(0, 2)).toEqual(['Personal', 'Operational']);
    expect(byLibrary.slice(2).every((name) => name === 'General')).toBe(true);
    const byDrive = (await list(admin, 'sort=drive&order=asc')).items.map((item) => item.driveName);
    expect(byDrive[0]).toBe('My Drive');
    expect(byDrive.slice(1).every((name) => name === 'Team Drive')).toBe(true);
  });

  it('defaults to created, newest first; createdAt ascending reverses it', async () => {
    const newest = names(await list(alice));
    expect(names(await list(alice, 'sort=createdAt&order=asc'))).toEqual([...newest].reverse());
  });
});

describe('paging', () => {
  it('pages with the total for the pager', async () => {
    const first = await list(admin, 'pageSize=3&page=1');
    const second = await list(admin, 'pageSize=3&page=2');
    const third = await list(admin, 'pageSize=3&page=3');
    expect(first).toMatchObject({ total: 7, pageSize: 3 });
    expect([...names(first), ...names(second), ...names(third)]).toEqual(names(await list(admin)));
    expect(names(third)).toHaveLength(1);
  });

  it.each(['0', '201', '-1', 'abc', '2.5'])('refuses a page size of %s with a clear 400', async (size) => {
    const answer = await h.call(admin, 'GET', `/files?pageSize=${size}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { field: 'query.pageSize', message: 'Page size must be above 0 and not above 200' },
    ]);
  });

  it('accepts the maximum page size of 200 and defaults to 50', async () => {
    expect((await list(admin, 'pageSize=200')).pageSize).toBe(200);
    expect((await list(admin)).pageSize).toBe(50);
  });
});
