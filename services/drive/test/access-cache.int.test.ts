import { ControlledClock } from '@workspace/kit/testing';
import pg from 'pg';
import { FileCountCache, listFiles, type FileListQuery } from '../src/commands/file-list.js';
import { READER_SCOPES, seedDrive, seedFile, seedLibrary } from './files.fixtures.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';

/*
 * The drive's access cache (ADR 0050, commands/access-cache.ts): the tenant's drives, members and libraries kept in
 * memory and checked against the tenant's access version on every request. A revoked member or a narrowed library
 * ACL stops access with the next request, whoever wrote the change; a tenant's entries never answer another tenant;
 * the spec's permission caches bound how long entries live (DRV-336: 90 s; DRV-338: 1 hour, at most 20 entries).
 */

const ALICE = '00000000-0000-4000-8000-0000000a11ce';
const SECOND = 1_000;

let h: DriveHarness;
let clock: ControlledClock;
let admin: string;
let alice: string;
let team: string;
let general: string;
let plans: string;
let sql: pg.Client;

interface Page {
  items: { name: string }[];
  total: number;
}

async function names(token: string): Promise<string[]> {
  const answer = await h.call(token, 'GET', '/files?pageSize=100');
  expect(answer.status).toBe(200);
  return (answer.body as unknown as Page).items.map((item) => item.name).sort();
}

const access = () => h.definition.deps().access;

beforeAll(async () => {
  clock = new ControlledClock(new Date());
  h = await startDriveHarness({ clock });
  admin = await h.token(DRIVE_ADMIN_SCOPES);
  alice = await h.token(READER_SCOPES, 'demo', ALICE);
  team = await seedDrive(h, { name: 'Team', members: [{ userId: ALICE, role: 'contributor' }] });
  general = await seedLibrary(h, team, { name: 'General' });
  plans = await seedLibrary(h, team, { name: 'Plans' });
  await seedFile(h, { driveId: team, libraryId: general, name: 'minutes.txt' });
  await seedFile(h, { driveId: team, libraryId: plans, name: 'plan.txt' });
  // Another writer than this process (another replica, an operator): a connection of its own to the database.
  sql = new pg.Client({ connectionString: h.identity.database.adminUrl });
  await sql.connect();
}, 120_000);

afterAll(async () => {
  await sql.end();
  await h.stop();
});

describe('access cache', () => {
  it('serves the reader sets from memory while nothing changed, and reloads when a drive, member or library changes', async () => {
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
    const loads = access().loads;
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
    expect(access().loads).toBe(loads);

    const renamed = await h.call(admin, 'PATCH', `/libraries/${general}`, { name: 'General papers' });
    expect(renamed.status).toBe(200);
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
    expect(access().loads).toBe(loads + 1);
  });

  it('a member removed from the drive loses its files with the next request', async () => {
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
    const removed = await h.call(admin, 'DELETE', `/drives/${team}/members/${ALICE}?tenantId=demo`);
    expect(removed.status).toBe(200);
    expect(await names(alice)).toEqual([]);

    const added = await h.call(admin, 'POST', `/drives/${team}/members`, { userIds: [ALICE] });
    expect(added.status).toBe(200);
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
  });

  it('a membership removed by another writer (another replica, SQL) stops access with the next request', async () => {
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
    await sql.query('DELETE FROM drive.drive_members WHERE drive_id = $1 AND user_id = $2', [team, ALICE]);
    expect(await names(alice)).toEqual([]);
    await sql.query(
      `INSERT INTO drive.drive_members (tenant_id, drive_id, user_id, role, added_by)
        VALUES ('demo', $1, $2, 'contributor', 'operator')`,
      [team, ALICE],
    );
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
  });

  it('a change rolled back never leaves its version to a later change', async () => {
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
    const deps = h.definition.deps();
    const caller = { userId: ALICE, scopes: new Set(READER_SCOPES) };
    // A transaction removes Alice, reads her access (cached under its own, uncommitted version), then rolls back.
    await expect(
      deps.inTenant('demo', async (trx) => {
        await trx('drive_members').where({ drive_id: team, user_id: ALICE }).delete();
        expect((await deps.access.reader(trx, 'demo', caller)).visibleDriveIds).not.toContain(team);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // Another change commits (one statement, as the rolled-back one): its version is a new one, not the rolled-back
    // one's.
    await sql.query(
      `INSERT INTO drive.drive_members (tenant_id, drive_id, user_id, role, added_by)
        VALUES ('demo', $1, 'someone-else', 'contributor', 'operator')`,
      [team],
    );
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
  });

  it("a library's read ACL narrowed hides its files with the next request", async () => {
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
    const narrowed = await h.call(admin, 'PATCH', `/libraries/${plans}`, {
      acl: { readScopes: ['drive.pii.read'] },
    });
    expect(narrowed.status).toBe(200);
    expect(await names(alice)).toEqual(['minutes.txt']);

    const widened = await h.call(admin, 'PATCH', `/libraries/${plans}`, {
      acl: { readScopes: ['drive.file.read'] },
    });
    expect(widened.status).toBe(200);
    expect(await names(alice)).toEqual(['minutes.txt', 'plan.txt']);
  });

  it("a tenant's entries never answer another tenant", async () => {
    // The same user id, with the same scopes, in another tenant (acme lives in region eu, so its lists are refused
    // by this drive's region check: the list's command is called directly).
    const acmeDrive = await seedDrive(h, {
      tenantId: 'acme',
      name: 'Acme',
      members: [{ userId: ALICE, role: 'contributor' }],
    });
    const acmeLibrary = await seedLibrary(h, acmeDrive, { tenantId: 'acme', name: 'Acme papers' });
    await seedFile(h, { tenantId: 'acme', driveId: acmeDrive, libraryId: acmeLibrary, name: 'acme.txt' });
    const deps = h.definition.deps();
    const caller = { userId: ALICE, scopes: new Set(READER_SCOPES) };
    const query: FileListQuery = { view: 'all', visibility: 'all', page: 1, pageSize: 100 };
    const list = async (tenantId: string) =>
      (await listFiles(deps, new FileCountCache(), tenantId, caller, query)).items
        .map((item) => item.name)
        .sort();

    expect(await list('demo')).toEqual(['minutes.txt', 'plan.txt']);
    expect(await list('acme')).toEqual(['acme.txt']);
    expect(await list('demo')).toEqual(['minutes.txt', 'plan.txt']);
    const demoAccess = deps.access.tenants.get('demo');
    const acmeAccess = deps.access.tenants.get('acme');
    expect(demoAccess?.drives.map((drive) => drive.tenantId)).not.toContain('acme');
    expect(acmeAccess?.drives.map((drive) => drive.id)).toEqual([acmeDrive]);
    // A change in acme reloads acme only.
    const loads = deps.access.loads;
    await sql.query(`UPDATE drive.drives SET name = 'Acme Ltd' WHERE id = $1`, [acmeDrive]);
    expect(await list('demo')).toEqual(['minutes.txt', 'plan.txt']);
    expect(deps.access.loads).toBe(loads);
    expect(await list('acme')).toEqual(['acme.txt']);
    expect(deps.access.loads).toBe(loads + 1);
    // Asked for one tenant in another tenant's transaction, the cache refuses rather than fill the wrong entry.
    await expect(deps.inTenant('acme', (trx) => deps.access.reader(trx, 'demo', caller))).rejects.toThrow(
      /another|tenant demo/,
    );
  });

  it("keeps a tenant's drives and libraries 90 s, then reads them again (DRV-336)", async () => {
    await names(alice);
    const loads = access().loads;
    clock.advance(89 * SECOND);
    await names(alice);
    expect(access().loads).toBe(loads);
    clock.advance(SECOND);
    await names(alice);
    expect(access().loads).toBe(loads + 1);
  });

  it("keeps a caller's reader sets up to 1 hour, at most 20 of them, the least recently used evicted (DRV-338)", async () => {
    // A change first, so Alice's entry is made now (her earlier one was made before the clock moved above).
    await sql.query(`UPDATE drive.drives SET name = 'Team papers' WHERE id = $1`, [team]);
    const builds = access().builds;
    await names(alice);
    expect(access().builds).toBe(builds + 1);
    clock.advance(59 * 60 * SECOND);
    await names(alice);
    expect(access().builds).toBe(builds + 1);
    clock.advance(60 * SECOND);
    await names(alice);
    expect(access().builds).toBe(builds + 2);

    // Alice, then twenty others: the 21st entry evicts Alice's, the least recently used.
    const others = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.token(READER_SCOPES, 'demo', `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`),
      ),
    );
    for (const other of others) await names(other);
    expect(access().readers.size).toBe(20);
    const before = access().builds;
    await names(others[19] ?? '');
    expect(access().builds).toBe(before);
    await names(alice);
    expect(access().builds).toBe(before + 1);
  });
});
