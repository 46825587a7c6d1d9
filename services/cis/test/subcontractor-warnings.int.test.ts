// Issue 13, the subcontractor's part: postcodes checked and normalised, HMRC's check-digit warnings in the save
// responses, a new subcontractor not verified until a verification is recorded, one subcontractor's tax year to the
// penny (a cancelled invoice never counts), and other users' activity with their name. Real PostgreSQL and Kafka,
// identity and cis through their HTTP APIs.
import {
  createSubcontractor,
  invoiceBody,
  portalTokenOf,
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

interface Address {
  postcode: string;
}
interface Sub {
  id: string;
  registeredAddress: Address;
  tradingAddress: Address;
  verification: { method: string; verifiedDate: string | null };
}

describe('postcodes', () => {
  it('are stored in capitals with one space before the inward code, on create and on edit', async () => {
    const created = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({
        name: 'Polly Postcode',
        utr: '3000000010',
        nino: '',
        registeredAddress: {
          line1: '10 Downing Street',
          city: 'London',
          postcode: ' sw1a2aa ',
          country: 'GB',
        },
        tradingAddressSameAsRegistered: false,
        tradingAddress: { line1: '1 Dock Road', city: 'Belfast', postcode: 'bt71nn', country: 'NI' },
      }),
    );
    expect(created.status).toBe(201);
    const sub = created.body.subcontractor as Sub;
    expect(sub.registeredAddress.postcode).toBe('SW1A 2AA');
    expect(sub.tradingAddress.postcode).toBe('BT7 1NN');

    const edited = await h.call(
      admin,
      'PUT',
      `/subcontractors/${sub.id}`,
      subcontractorBody({
        name: 'Polly Postcode',
        utr: '',
        nino: '',
        registeredAddress: { line1: '1 Piccadilly', city: 'Manchester', postcode: 'm11ae', country: 'GB' },
      }),
    );
    expect(edited.status).toBe(200);
    const read = await h.call(admin, 'GET', `/subcontractors/${sub.id}`);
    expect((read.body.subcontractor as Sub).registeredAddress.postcode).toBe('M1 1AE');
  });

  it('refuses a malformed postcode with a clear message and stores nothing', async () => {
    const refused = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({
        name: 'Malformed Postcode',
        utr: '3000000004',
        nino: '',
        registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1A', country: 'GB' },
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'body.registeredAddress.postcode', message: 'Invalid UK postcode (e.g., SW1A 1AA)' },
    ]);
    const list = await h.call(admin, 'GET', '/subcontractors?search=Malformed');
    expect(list.body.items).toEqual([]);
  });
});

describe("HMRC's check digits warn beside the fields; the save goes ahead", () => {
  it('a subcontractor whose UTR and VAT number fail the check digits is saved, with the warnings', async () => {
    const created = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Wendy Warning', utr: '1234567890', nino: '', vatNumber: 'GB930000200' }),
    );
    expect(created.status).toBe(201);
    expect(created.body.warnings).toEqual({
      utr: 'This UTR fails HMRC’s check digit test: check it against HMRC’s letter, as HMRC rejects a return carrying it',
      vatNumber:
        'This VAT number fails HMRC’s check digit test: check it with the subcontractor or HMRC’s VAT number checker',
    });
    const clean = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({
        name: 'Clara Clean',
        utr: '5860920998',
        vatNumber: 'GB930000297',
        nino: 'AB123457C',
      }),
    );
    expect(clean.body.warnings).toEqual({});
  });

  it("the contractor's UTR and Accounts Office reference warn on save, and are saved", async () => {
    const saved = await h.call(
      admin,
      'PUT',
      '/settings',
      settingsBody({ utr: '1234567890', accountsOfficeRef: '123PA00012345' }),
    );
    expect(saved.status).toBe(200);
    expect(Object.keys(saved.body.warnings as object).sort()).toEqual(['accountsOfficeRef', 'utr']);
    const good = await h.call(
      admin,
      'PUT',
      '/settings',
      settingsBody({ utr: '5860920998', accountsOfficeRef: '961PF10305739' }),
    );
    expect(good.body.warnings).toEqual({});
  });
});

describe('verification', () => {
  it('a new subcontractor has no verification method until one is recorded (not "Online")', async () => {
    const id = await createSubcontractor(h, admin, {
      name: 'Nora New',
      utr: '2234567890',
      nino: '',
      verification: { status: 'standard', reference: '', notes: '' },
    });
    const read = await h.call(admin, 'GET', `/subcontractors/${id}`);
    expect((read.body.subcontractor as Sub).verification).toMatchObject({ method: '', verifiedDate: null });

    const verified = await h.call(admin, 'POST', `/subcontractors/${id}/verification`, {
      status: 'standard',
      method: 'online',
      reference: 'V1234567890',
      notes: '',
      verifiedDate: '2026-11-02',
    });
    expect((verified.body.subcontractor as Sub).verification).toMatchObject({
      method: 'online',
      verifiedDate: '2026-11-02',
    });
  });

  it('a subcontractor created by an invitation has no verification method either', async () => {
    const inviter = await h.signInAs('admin@demo.test');
    const invited = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'Ivy Invited',
      email: 'ivy@invited.test',
      type: 'individual',
      utr: '1097172564',
    });
    expect(invited.status).toBe(200);
    const read = await h.call(admin, 'GET', `/subcontractors/${String(invited.body.subcontractorId)}`);
    expect((read.body.subcontractor as Sub).verification.method).toBe('');
  });
});

describe("a subcontractor's tax year", () => {
  /** Creates, approves and pays an invoice; answers its id. */
  async function paid(
    subcontractorId: string,
    number: string,
    grossP: number,
    materialsP: number,
    date: string,
  ) {
    const created = await h.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(subcontractorId, {
        invoiceNumber: number,
        invoiceDate: date,
        grossP,
        materialsP,
        materialsJustification: materialsP * 100 >= grossP * 60 ? 'Bricks and blocks bought for the job' : '',
      }),
    );
    expect(created.status).toBe(201);
    const id = (created.body.invoice as { id: string }).id;
    expect((await h.call(admin, 'POST', `/invoices/${id}/approve`)).status).toBe(200);
    const pay = await h.call(admin, 'POST', `/invoices/${id}/pay`, { paymentDate: date });
    expect(pay.status).toBe(200);
    return id;
  }

  it('sums payments, materials, deductions and net per tax month and over the year, to the penny, without a cancelled invoice', async () => {
    const sub = await createSubcontractor(h, admin, { name: 'Yara Year', utr: '2108834503', nino: '' });
    const other = await createSubcontractor(h, admin, { name: 'Otto Other', utr: '3000000001', nino: '' });
    // 2025-26 runs from 6 April 2025 to 5 April 2026; the standard rate is 20 % of gross less materials.
    await paid(sub, 'Y-1', 123_457, 23_456, '2025-04-06'); // month ending 5 May 2025: deduction £200.00
    await paid(sub, 'Y-2', 99_999, 0, '2025-12-04'); // month ending 5 December 2025: £200.00
    await paid(sub, 'Y-3', 50_001, 10_001, '2026-01-05'); // month ending 5 January 2026: £80.00
    await paid(sub, 'Y-4', 20_000, 0, '2026-04-05'); // the year's last day: month ending 5 April 2026, £40.00
    await paid(sub, 'Y-5', 77_777, 0, '2026-04-06'); // the next tax year
    await paid(other, 'O-1', 55_555, 0, '2025-06-10'); // another subcontractor
    const cancelled = await paid(sub, 'Y-6', 1_000_000, 0, '2025-12-10'); // paid, then cancelled: never counts
    expect((await h.call(admin, 'POST', `/invoices/${cancelled}/cancel`)).status).toBe(200);

    const year = await h.call(admin, 'GET', `/subcontractors/${sub}/tax-year?taxYear=2025`);
    expect(year.status).toBe(200);
    const body = year.body as {
      taxYear: string;
      startDate: string;
      endDate: string;
      months: {
        taxMonth: string;
        name: string;
        grossP: number;
        materialsP: number;
        cisDeductionP: number;
        netP: number;
        invoices: number;
      }[];
      totals: Record<string, number>;
      years: number[];
    };
    expect(body).toMatchObject({ taxYear: '2025-26', startDate: '2025-04-06', endDate: '2026-04-05' });
    expect(body.months.map((m) => m.taxMonth)).toEqual([
      '2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09',
      '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03',
    ]); // prettier-ignore
    const nonEmpty = body.months.filter((m) => m.invoices > 0);
    // The deduction is 20 % of gross less materials, to the penny: 20 000.2p → 20 000p; 19 999.8p → 20 000p.
    const deduction = (gross: number, materials: number) => Math.round(((gross - materials) * 20) / 100);
    expect(nonEmpty).toEqual([
      expect.objectContaining({ taxMonth: '2025-04', name: 'Month ending 5 May 2025', grossP: 123_457, materialsP: 23_456, cisDeductionP: 20_000, invoices: 1 }),
      expect.objectContaining({ taxMonth: '2025-11', name: 'Month ending 5 December 2025', grossP: 99_999, materialsP: 0, cisDeductionP: 20_000, invoices: 1 }),
      expect.objectContaining({ taxMonth: '2025-12', name: 'Month ending 5 January 2026', grossP: 50_001, materialsP: 10_001, cisDeductionP: 8_000, invoices: 1 }),
      expect.objectContaining({ taxMonth: '2026-03', name: 'Month ending 5 April 2026', grossP: 20_000, materialsP: 0, cisDeductionP: 4_000, invoices: 1 }),
    ]); // prettier-ignore
    const gross = 123_457 + 99_999 + 50_001 + 20_000;
    const deducted = deduction(123_457, 23_456) + deduction(99_999, 0) + deduction(50_001, 10_001) + deduction(20_000, 0); // prettier-ignore
    expect(deducted).toBe(20_000 + 20_000 + 8_000 + 4_000);
    expect(body.totals).toEqual({
      grossP: gross,
      materialsP: 23_456 + 10_001,
      cisDeductionP: deducted,
      netP: gross - deducted,
      invoices: 4,
    });
    for (const month of body.months) expect(month.netP).toBe(month.grossP - month.cisDeductionP);
    expect(body.years).toEqual(expect.arrayContaining([2026, 2025]));

    const next = await h.call(admin, 'GET', `/subcontractors/${sub}/tax-year?taxYear=2026`);
    expect((next.body.totals as Record<string, number>).grossP).toBe(77_777);
  });

  it("opens on the tax year of the business clock's today", async () => {
    const sub = await createSubcontractor(h, admin, { name: 'Cleo Clock', utr: '3000000002', nino: '' });
    const now = h.clock.now();
    try {
      h.clock.set(new Date('2027-04-05T12:00:00Z')); // the last day of 2026-27
      const last = await h.call(admin, 'GET', `/subcontractors/${sub}/tax-year`);
      expect(last.body).toMatchObject({ taxYear: '2026-27', taxYearStart: 2026, years: [2026] });
      h.clock.set(new Date('2027-04-06T12:00:00Z')); // the first of 2027-28
      const first = await h.call(admin, 'GET', `/subcontractors/${sub}/tax-year`);
      expect(first.body).toMatchObject({ taxYear: '2027-28', taxYearStart: 2027, years: [2027] });
    } finally {
      h.clock.set(now);
    }
  });

  it('answers 404 for an unknown subcontractor and refuses a reader without invoice access', async () => {
    const missing = await h.call(
      admin,
      'GET',
      '/subcontractors/00000000-0000-4000-8000-00000000dead/tax-year',
    );
    expect(missing.status).toBe(404);
    const subReader = await h.token(['cis.sub.read']);
    const sub = await createSubcontractor(h, admin, { name: 'Sam Scoped', utr: '3000000003', nino: '' });
    expect((await h.call(subReader, 'GET', `/subcontractors/${sub}/tax-year`)).status).toBe(403);
  });
});

describe("other users' activity", () => {
  it('carries the name of the user who acted, for any member of the tenant reading it', async () => {
    const cyril = await h.signInAs('cis.admin@demo.test');
    const created = await h.call(
      cyril,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Named Actor', utr: '2325648152', nino: '' }),
    );
    expect(created.status).toBe(201);
    const id = (created.body.subcontractor as { id: string }).id;

    const ada = await h.signInAs('admin@demo.test');
    const activity = await h.call(ada, 'GET', '/activity?limit=50');
    expect(activity.status).toBe(200);
    const entry = (
      activity.body.items as { targetId: string; action: string; performedByName: string | null }[]
    ).find((item) => item.targetId === id && item.action === 'cis.subcontractor.created');
    expect(entry?.performedByName).toBe('Cyril Cisadmin');

    const dashboard = await h.call(ada, 'GET', '/dashboard');
    const recent = (
      dashboard.body.recentActivity as { targetId: string; performedByName: string | null }[]
    ).find((item) => item.targetId === id);
    expect(recent?.performedByName).toBe('Cyril Cisadmin');
    expect((recent as { performedByLabel?: string } | undefined)?.performedByLabel).toBe('by Cyril Cisadmin');

    // A clerk may not list the tenant's users (no users.view), but sees who acted: names only, from identity.
    const clara = await h.signInAs('clerk@demo.test');
    const clerkView = await h.call(clara, 'GET', '/activity?limit=50');
    expect(clerkView.status).toBe(200);
    const seen = (clerkView.body.items as { targetId: string; performedByName: string | null }[]).find(
      (item) => item.targetId === id,
    );
    expect(seen?.performedByName).toBe('Cyril Cisadmin');

    // The reader's own entries carry no name ('by you'), and a test-issuer reader identity does not know still gets
    // the activity, without names.
    const own = await h.call(cyril, 'GET', '/activity?limit=50');
    const mine = (own.body.items as { targetId: string; performedByName: string | null }[]).find(
      (item) => item.targetId === id,
    );
    expect(mine?.performedByName).toBeNull();
    expect((mine as { performedByLabel?: string } | undefined)?.performedByLabel).toBe('by you');
    const unnamed = await h.call(admin, 'GET', '/activity?limit=50');
    expect(unnamed.status).toBe(200);
  });

  it("names a subcontractor's own portal actions by their name, '(portal)', archived or not, and a deleted one as a subcontractor", async () => {
    const id = await createSubcontractor(h, admin, {
      name: 'Rob Roofing',
      utr: '5860920458',
      nino: 'JM457812C',
      email: 'rob@roofing.test',
    });
    const ada = await h.signInAs('admin@demo.test');
    const rob = await portalTokenOf(h, ada, id);
    const submitted = await h.call(rob, 'POST', '/portal/invoices', {
      invoiceNumber: 'ROB-1',
      invoiceDate: '2026-11-18',
      description: 'Ridge tiles, 9 Oak Lane',
      grossP: 60_000,
      materialsP: 0,
      vatRate: 20,
    });
    expect(submitted.status).toBe(201);
    const invoiceId = (submitted.body.invoice as { id: string }).id;

    type Entry = {
      targetId: string;
      action: string;
      performedBy: string;
      performedByName: string | null;
      performedByLabel: string;
    };
    const portalEntry = async (path: '/dashboard' | '/activity?limit=200') => {
      const answer = await h.call(ada, 'GET', path);
      expect(answer.status).toBe(200);
      const items = (path === '/dashboard' ? answer.body.recentActivity : answer.body.items) as Entry[];
      // Only the name: no identifier of the subcontractor reaches the reader through the performer.
      expect(answer.text).not.toMatch(/5860920458|JM457812C/);
      return items.find((item) => item.targetId === invoiceId && item.performedBy === `portal:${id}`);
    };

    for (const path of ['/dashboard', '/activity?limit=200'] as const)
      expect(await portalEntry(path)).toMatchObject({
        performedByName: 'Rob Roofing',
        performedByLabel: 'by Rob Roofing (portal)',
      });

    // Archived: still the subcontractor the contractor knows.
    const archived = await h.call(admin, 'POST', '/subcontractors/archive', { ids: [id] });
    expect(archived.body).toMatchObject({ succeeded: [id], failed: [] });
    expect(await portalEntry('/activity?limit=200')).toMatchObject({
      performedByName: 'Rob Roofing',
      performedByLabel: 'by Rob Roofing (portal)',
    });

    // Deleted: never named again, still said to be a subcontractor in the portal.
    const deleted = await h.call(admin, 'POST', '/subcontractors/delete', { ids: [id] });
    expect(deleted.body).toMatchObject({ succeeded: [id], failed: [] });
    expect(await portalEntry('/activity?limit=200')).toMatchObject({
      performedByName: null,
      performedByLabel: 'by a subcontractor (portal)',
    });
  });
});
