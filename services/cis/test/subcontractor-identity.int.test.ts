// One subcontractor per person (issue 13, ADR 0039) through the cis service's API on real PostgreSQL and Kafka: an
// active subcontractor's UTR, NINO and company number are unique in a tenant (compared through keyed hashes kept
// beside the sealed values), a duplicate refused on create and edit naming the record that has it, the unique
// indexes the last guard when two creates race, archived records not in the way; duplicates stored before this
// found, their hashes filled in at start-up, and merged (invoices and statements moved, one CIS300 line); Invite to
// Portal offering the existing record, and an invited subcontractor's details incomplete until filled in.
import {
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  fillIdentityHashesNow,
  freshIdentifiers,
  invoiceBody,
  settingsBody,
  subcontractorBody,
  type CisHarness,
  useCisHarnessWithAdmin,
} from './support.js';

let h: CisHarness;
let admin: string;

useCisHarnessWithAdmin(async (started) => {
  ({ h, admin } = started);
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
});

type Json = Record<string, unknown>;

/** A subcontractor as the API answers it. */
async function read(id: string): Promise<Json> {
  const response = await h.call(admin, 'GET', `/subcontractors/${id}`);
  expect(response.status).toBe(200);
  return response.body.subcontractor as Json;
}

/** The edit form's body for a stored subcontractor, with changes (blank UTR/NINO keep the stored ones). */
async function editBody(id: string, changes: Json = {}): Promise<Json> {
  const sub = await read(id);
  return {
    type: sub.type,
    name: sub.name,
    companyNumber: sub.companyNumber,
    email: sub.email,
    registeredAddress: sub.registeredAddress,
    gdprConsent: sub.gdprConsent,
    active: sub.active,
    ...changes,
  };
}

/** How a refusal reads: its status, code, message and the record it names. */
const refusal = (response: { status: number; body: Json }) => ({
  status: response.status,
  code: response.body.code,
  detail: response.body.detail,
  existing: response.body.existing,
});

const liveCount = async (name: string) =>
  Number(
    (
      await adminQuery(
        h,
        `SELECT count(*)::int AS n FROM cis.subcontractors WHERE name = $1 AND deleted_at IS NULL`,
        [name],
      )
    )[0]?.n,
  );

describe('a duplicate identifier is refused, naming the record that has it', () => {
  it('the same UTR, written another way, on create', async () => {
    const ids = freshIdentifiers();
    const first = await createSubcontractor(h, admin, { name: 'Ursula Utr', ...ids });
    const spaced = `K${ids.utr.slice(0, 5)} ${ids.utr.slice(5)}`;
    const second = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Ursula Second', utr: spaced, nino: freshIdentifiers().nino }),
    );
    expect(refusal(second)).toEqual({
      status: 409,
      code: 'duplicate_subcontractor',
      detail:
        'Ursula Utr already has this UTR: each person has one subcontractor record. Open their record instead of adding another.',
      existing: { id: first, name: 'Ursula Utr' },
    });
    // Shown under the field it is about.
    expect(second.body.errors).toEqual([{ field: 'body.utr', message: second.body.detail }]);
    expect(await liveCount('Ursula Second')).toBe(0);
  });

  it('the same NINO (lower case, with spaces) on create', async () => {
    const ids = freshIdentifiers();
    const first = await createSubcontractor(h, admin, { name: 'Nina Nino', ...ids });
    const written = `${ids.nino.slice(0, 2).toLowerCase()} ${ids.nino.slice(2, 8)} ${ids.nino.slice(8).toLowerCase()}`;
    const second = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Nina Second', utr: freshIdentifiers().utr, nino: written }),
    );
    expect(refusal(second)).toMatchObject({
      status: 409,
      detail: expect.stringContaining('Nina Nino already has this National Insurance number') as string,
      existing: { id: first, name: 'Nina Nino' },
    });
  });

  it('the same company number (lower case) on create', async () => {
    const first = await createSubcontractor(h, admin, {
      type: 'company',
      name: 'Crane Co Ltd',
      nino: '',
      utr: freshIdentifiers().utr,
      companyNumber: 'SC123456',
    });
    const second = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({
        type: 'company',
        name: 'Crane Again Ltd',
        nino: '',
        utr: freshIdentifiers().utr,
        companyNumber: 'sc 123456',
      }),
    );
    expect(refusal(second)).toMatchObject({
      status: 409,
      detail: expect.stringContaining('Crane Co Ltd already has this company number') as string,
      existing: { id: first, name: 'Crane Co Ltd' },
    });
  });

  it('on edit: taking another record’s UTR or NINO is refused; editing a record that keeps its own is not', async () => {
    const owner = freshIdentifiers();
    const holder = await createSubcontractor(h, admin, { name: 'Hal Holder', ...owner });
    const other = await createSubcontractor(h, admin, { name: 'Otto Other' });
    const utr = await h.call(
      admin,
      'PUT',
      `/subcontractors/${other}`,
      await editBody(other, { utr: owner.utr }),
    );
    expect(refusal(utr)).toMatchObject({
      status: 409,
      detail: expect.stringContaining('Hal Holder already has this UTR') as string,
      existing: { id: holder, name: 'Hal Holder' },
    });
    const nino = await h.call(
      admin,
      'PUT',
      `/subcontractors/${other}`,
      await editBody(other, { nino: owner.nino }),
    );
    expect(refusal(nino)).toMatchObject({
      status: 409,
      detail: expect.stringContaining('Hal Holder already has this National Insurance number') as string,
    });
    // Its own identifiers again, and other fields changed: saved.
    const same = await h.call(
      admin,
      'PUT',
      `/subcontractors/${holder}`,
      await editBody(holder, { utr: owner.utr, nino: owner.nino, phone: '07700900999' }),
    );
    expect(same.status).toBe(200);
    expect(await read(other)).toMatchObject({ name: 'Otto Other' });
  });

  it('two creates racing for one UTR give one record; the other is refused with the same message', async () => {
    const ids = freshIdentifiers();
    const bodies = ['Rita Race', 'Rita Race'].map((name, i) =>
      subcontractorBody({ name, utr: ids.utr, nino: i === 0 ? ids.nino : freshIdentifiers().nino }),
    );
    const answers = await Promise.all(bodies.map((body) => h.call(admin, 'POST', '/subcontractors', body)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.status === 409);
    const created = answers.find((answer) => answer.status === 201);
    expect(refused?.body.detail).toBe(
      'Rita Race already has this UTR: each person has one subcontractor record. Open their record instead of adding another.',
    );
    expect(refused?.body.existing).toEqual({
      id: (created?.body.subcontractor as Json).id,
      name: 'Rita Race',
    });
    expect(await liveCount('Rita Race')).toBe(1);
  });

  it('the unique index refuses a second live record with the same hash even past the check', async () => {
    const ids = freshIdentifiers();
    const first = await createSubcontractor(h, admin, { name: 'Ida Index', ...ids });
    const second = await createSubcontractor(h, admin, { name: 'Ida Other' });
    const [stored] = await adminQuery(h, 'SELECT utr_hash, utr_enc FROM cis.subcontractors WHERE id = $1', [
      first,
    ]);
    // A keyed hash, not the UTR: 64 hex characters.
    expect(String(stored?.utr_hash)).toMatch(/^[0-9a-f]{64}$/);
    expect(String(stored?.utr_hash)).not.toContain(ids.utr);
    await expect(
      adminQuery(h, 'UPDATE cis.subcontractors SET utr_hash = $1 WHERE id = $2', [stored?.utr_hash, second]),
    ).rejects.toThrow(/subcontractors_unique_utr/);
  });

  it('archived records do not block; bringing one back while another has its UTR is refused', async () => {
    const ids = freshIdentifiers();
    const old = await createSubcontractor(h, admin, { name: 'Archie Old', ...ids });
    expect((await h.call(admin, 'POST', '/subcontractors/archive', { ids: [old] })).status).toBe(200);
    const fresh = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Archie New', ...ids }),
    );
    expect(fresh.status).toBe(201);
    const back = await h.call(admin, 'PUT', `/subcontractors/${old}`, await editBody(old, { active: true }));
    expect(refusal(back)).toMatchObject({
      status: 409,
      existing: { id: (fresh.body.subcontractor as Json).id, name: 'Archie New' },
    });
  });
});

describe('duplicates stored before this', () => {
  let kept: string;
  let duplicate: string;
  let doraUtr: string;
  const MONTH = '2025-05';

  /** Invoices paid on a date (20 May 2025: tax month 2025-05), one per [subcontractor, number, gross]. */
  async function paid(rows: [string, string, number][], date = '2025-05-20'): Promise<void> {
    const ids: string[] = [];
    for (const [subcontractorId, invoiceNumber, grossP] of rows) {
      const created = await h.call(
        admin,
        'POST',
        '/invoices',
        invoiceBody(subcontractorId, { invoiceNumber, invoiceDate: date, grossP, materialsP: 0 }),
      );
      expect(created.status).toBe(201);
      ids.push((created.body.invoice as { id: string }).id);
    }
    expect((await h.call(admin, 'POST', '/invoices/approve', { ids })).body).toMatchObject({ failed: [] });
    await drainJobQueue(h);
    const pay = await h.call(admin, 'POST', '/invoices/pay', { ids, paymentDate: date });
    expect(pay.body).toMatchObject({ failed: [] });
    await drainJobQueue(h);
  }

  const linesOf = async () => {
    const compiled = await h.call(admin, 'POST', `/returns/${MONTH}/compile`);
    expect(compiled.status).toBe(200);
    return (compiled.body.return as { lines: Json[] }).lines;
  };

  beforeAll(async () => {
    const ids = freshIdentifiers();
    doraUtr = ids.utr;
    kept = await createSubcontractor(h, admin, { name: 'Dora Double', ...ids });
    duplicate = await createSubcontractor(h, admin, {
      name: 'Dora Double (portal)',
      email: 'dora.portal@double.test',
      portalAccess: true,
    });
    // As a version before migration 008 could store them: the second record holds the same UTR, sealed, and no
    // record has its hashes yet; the tenant waits in the backlog.
    await adminQuery(
      h,
      `UPDATE cis.subcontractors SET utr_enc = (SELECT utr_enc FROM cis.subcontractors WHERE id = $1),
         utr_masked = (SELECT utr_masked FROM cis.subcontractors WHERE id = $1) WHERE id = $2`,
      [kept, duplicate],
    );
    await adminQuery(
      h,
      `UPDATE cis.subcontractors SET utr_hash = NULL, nino_hash = NULL, crn_hash = NULL WHERE tenant_id = 'demo'`,
    );
    await adminQuery(h, `INSERT INTO cis.identity_hash_backlog (tenant_id) VALUES ('demo')`);
    await paid([
      [kept, 'DD-1', 100000],
      [duplicate, 'DD-P1', 50000],
    ]);
    await paid([[duplicate, 'DD-P2', 30000]], '2025-06-20');
  });

  it('get their hashes at start-up: the later one marked a known duplicate, the earlier one guarded', async () => {
    expect(await fillIdentityHashesNow(h)).toBeGreaterThanOrEqual(2);
    const rows = await adminQuery(
      h,
      'SELECT id, utr_hash, known_duplicate FROM cis.subcontractors WHERE id = ANY($1::uuid[]) ORDER BY created_at',
      [[kept, duplicate]],
    );
    expect(rows.map((row) => row.known_duplicate)).toEqual([false, true]);
    expect(rows[0]?.utr_hash).toBe(rows[1]?.utr_hash);
    expect(await adminQuery(h, 'SELECT * FROM cis.identity_hash_backlog')).toEqual([]);
    // A third record with the same UTR is refused, naming the earliest.
    const again = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Dora Third', utr: doraUtr, nino: freshIdentifiers().nino }),
    );
    expect(refusal(again)).toMatchObject({ status: 409, existing: { id: kept, name: 'Dora Double' } });
  });

  it('are listed as one set, the oldest first', async () => {
    const listed = await h.call(admin, 'GET', '/subcontractors/duplicates');
    expect(listed.status).toBe(200);
    const groups = listed.body.groups as { identifier: string; label: string; subcontractors: Json[] }[];
    const dora = groups.filter((group) => group.subcontractors.some((sub) => sub.id === kept));
    expect(
      dora.map((group) => [group.identifier, group.label, group.subcontractors.map((sub) => sub.id)]),
    ).toEqual([['utr', 'UTR', [kept, duplicate]]]);
  });

  it('split one person across two CIS300 lines until merged; after the merge, one line with both payments', async () => {
    const before = await linesOf();
    expect(before.filter((line) => [kept, duplicate].includes(String(line.subcontractorId)))).toHaveLength(2);

    const merged = await h.call(admin, 'POST', '/subcontractors/merge', { keepId: kept, mergeId: duplicate });
    expect(merged.status).toBe(200);
    // June's statement moves; May's stays with the merged record, as it was (the kept record has its own for May).
    expect(merged.body).toMatchObject({ mergedId: duplicate, invoicesMoved: 2, statementsMoved: 1 });
    const june = await adminQuery(
      h,
      `SELECT subcontractor_id, tax_month FROM cis.statements WHERE subcontractor_id = ANY($1::uuid[]) ORDER BY tax_month, subcontractor_id = $2`,
      [[kept, duplicate], kept],
    );
    expect(june.map((row) => [row.tax_month, row.subcontractor_id])).toEqual([
      ['2025-05', duplicate],
      ['2025-05', kept],
      ['2025-06', kept],
    ]);
    // The kept record takes the portal access.
    expect(merged.body.subcontractor).toMatchObject({ id: kept, portalAccess: true });
    expect(await read(duplicate)).toMatchObject({
      archived: true,
      active: false,
      portalAccess: false,
      mergedInto: kept,
      archiveNote: 'Merged into Dora Double (duplicate record)',
    });
    const invoices = await h.call(admin, 'GET', `/invoices?subcontractorId=${kept}`);
    expect((invoices.body.items as Json[]).map((invoice) => invoice.invoiceNumber).sort()).toEqual([
      'DD-1',
      'DD-P1',
      'DD-P2',
    ]);

    const after = (await linesOf()).filter((line) =>
      [kept, duplicate].includes(String(line.subcontractorId)),
    );
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ subcontractorId: kept, grossP: 150000 });

    const [entry] = await adminQuery(
      h,
      `SELECT summary, details FROM cis.activity WHERE action = 'cis.subcontractor.merged' AND target_id = $1`,
      [kept],
    );
    expect(entry).toMatchObject({
      summary:
        'Subcontractor Dora Double (portal) merged into Dora Double: 2 invoices and 1 statements moved',
    });
    // No longer a set of duplicates; the kept record is guarded by the unique index again.
    const listed = await h.call(admin, 'GET', '/subcontractors/duplicates');
    expect(
      (listed.body.groups as { subcontractors: Json[] }[]).some((group) =>
        group.subcontractors.some((sub) => sub.id === kept),
      ),
    ).toBe(false);
    const [row] = await adminQuery(h, 'SELECT known_duplicate FROM cis.subcontractors WHERE id = $1', [kept]);
    expect(row?.known_duplicate).toBe(false);
  });

  it('refuses to merge records of two different people', async () => {
    const a = await createSubcontractor(h, admin, { name: 'Pat One', email: 'pat.one@test.test' });
    const b = await createSubcontractor(h, admin, { name: 'Pat Two', email: 'pat.two@test.test' });
    const merge = await h.call(admin, 'POST', '/subcontractors/merge', { keepId: a, mergeId: b });
    expect({ status: merge.status, detail: merge.body.detail }).toEqual({
      status: 409,
      detail:
        'These records share no UTR, National Insurance number, company number or email address: only records of the same person can be merged',
    });
  });
});

describe('Invite to Portal', () => {
  let inviter: string;

  beforeAll(async () => {
    inviter = await h.signInAs('admin@demo.test');
  });

  it('offers the existing subcontractor when the email matches, and invites it when asked', async () => {
    const existing = await createSubcontractor(h, admin, { name: 'Eve Email', email: 'eve@email.test' });
    const offered = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'Eve Email',
      email: 'EVE@email.test ',
    });
    expect(offered.status).toBe(409);
    expect(offered.body).toMatchObject({
      code: 'subcontractor_exists',
      detail:
        'Eve Email is already a subcontractor with this email address. Invite them instead of creating a second record.',
      existing: { id: existing, name: 'Eve Email', email: 'eve@email.test' },
      matchedBy: 'email',
    });
    expect(await liveCount('Eve Email')).toBe(1);
    const invited = await h.call(inviter, 'POST', '/subcontractors/invite', { subcontractorId: existing });
    expect(invited.status).toBe(200);
    expect(invited.body.subcontractorId).toBe(existing);
    expect(await liveCount('Eve Email')).toBe(1);
  });

  it('offers the existing subcontractor when the UTR matches (another email)', async () => {
    const ids = freshIdentifiers();
    const existing = await createSubcontractor(h, admin, { name: 'Uma Utr', ...ids, email: 'uma@work.test' });
    const offered = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'Uma U',
      email: 'uma@home.test',
      utr: ids.utr,
    });
    expect(offered.status).toBe(409);
    expect(offered.body).toMatchObject({
      code: 'subcontractor_exists',
      detail:
        'Uma Utr is already a subcontractor with this UTR. Invite them instead of creating a second record.',
      existing: { id: existing, name: 'Uma Utr' },
      matchedBy: 'utr',
    });
  });

  it('flags the subcontractor it creates "details incomplete" until its address and consent are filled in', async () => {
    const invited = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'Ivy Invited',
      email: 'ivy@invited.test',
      utr: freshIdentifiers().utr,
    });
    expect(invited.status).toBe(200);
    const id = String(invited.body.subcontractorId);
    expect(await read(id)).toMatchObject({
      detailsIncomplete: true,
      missingDetails: ['address', 'gdprConsent'],
    });
    const list = await h.call(admin, 'GET', '/subcontractors?search=Ivy');
    expect((list.body.items as Json[])[0]).toMatchObject({ id, detailsIncomplete: true });

    const address = { line1: '2 Low Road', city: 'York', postcode: 'YO1 1AA', country: 'GB' };
    const withAddress = await h.call(
      admin,
      'PUT',
      `/subcontractors/${id}`,
      await editBody(id, { registeredAddress: address }),
    );
    expect(withAddress.status).toBe(200);
    expect(withAddress.body.subcontractor).toMatchObject({
      detailsIncomplete: true,
      missingDetails: ['gdprConsent'],
    });
    const complete = await h.call(
      admin,
      'PUT',
      `/subcontractors/${id}`,
      await editBody(id, { gdprConsent: true }),
    );
    expect(complete.body.subcontractor).toMatchObject({ detailsIncomplete: false, missingDetails: [] });
    // A subcontractor made by the create form is complete from the start.
    expect(await read(await createSubcontractor(h, admin, { name: 'Cal Complete' }))).toMatchObject({
      detailsIncomplete: false,
    });
  });
});
