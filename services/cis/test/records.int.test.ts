// The cis service's records as the spec describes them (cis.md sections 3, 4 and 9): every field read back, soft
// deletes, archives, list orders, the returns history, jobs, the export audit and sealed-field failures. Real
// PostgreSQL and Kafka, through the service's HTTP API.
import { eventually } from '@workspace/kit/testing';
import { currentTaxMonth, londonDate, previousTaxMonth } from '../src/domain/index.js';
import {
  adminQuery,
  createSubcontractor,
  invoiceBody as standardInvoice,
  subcontractorBody,
  type CisHarness,
  useCisHarnessWithAdmin,
} from './support.js';

let h: CisHarness;
let admin: string;

useCisHarnessWithAdmin((started) => {
  ({ h, admin } = started);
});

/** The invoice these records are read back from: groundworks whose materials are 70 % of the gross, justified. */
const invoiceBody = (subcontractorId: string, overrides: Record<string, unknown> = {}) =>
  standardInvoice(subcontractorId, {
    invoiceNumber: 'R-1',
    materialsP: 70000,
    description: 'Groundworks, plot 4',
    materialsJustification: 'Aggregate and concrete bought by the subcontractor',
    ...overrides,
  });

describe('settings record', () => {
  it('keeps the processing fields and stamps (emailFrom, emailReplyTo, statementFooter, createdAt, updatedAt)', async () => {
    // The processing fields as written, and as they must read back.
    const written = {
      vatScheme: 'flat',
      emailStatements: false,
      warningDays: 0,
      statementDeadlineDays: 30,
      emailFrom: 'cis@demo.test',
      emailReplyTo: 'accounts@demo.test',
      statementFooter: 'Registered in England 01234567',
    };
    const saved = await h.call(admin, 'PUT', '/settings', {
      active: true,
      companyName: 'Demo Construction Ltd',
      employerRef: '123/AB12345',
      accountsOfficeRef: '123PA00012345',
      utr: '2325648152',
      ...written,
    });
    expect(saved.status).toBe(200);
    const read = await h.call(admin, 'GET', '/settings');
    const settings = read.body.settings as Record<string, unknown>;
    expect(settings).toMatchObject(written);
    expect(Date.parse(String(settings.createdAt))).not.toBeNaN();
    expect(Date.parse(String(settings.updatedAt))).toBeGreaterThanOrEqual(
      Date.parse(String(settings.createdAt)),
    );
  });
});

describe('subcontractor record', () => {
  it('keeps every field of a company: number, VAT number (check digits computed, not enforced), addresses, consents, verification and stamps', async () => {
    const missing = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ type: 'company', name: 'Brick & Co Ltd', nino: '', companyNumber: '' }),
    );
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'body.companyNumber', message: 'Valid company number required for companies' },
      ]),
    );
    const created = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({
        type: 'company',
        name: 'Brick & Co Ltd',
        nino: '',
        companyNumber: 'sc123456',
        vatNumber: 'GB 123 4567 89',
        registeredAddress: {
          line1: '1 Yard Lane',
          line2: 'Unit 2',
          city: 'Glasgow',
          county: 'Lanarkshire',
          postcode: 'G1 1AA',
          country: 'GB',
        },
        tradingAddressSameAsRegistered: false,
        tradingAddress: { line1: '9 Depot Road', city: 'Belfast', postcode: 'BT1 1AA', country: 'NI' },
        marketingConsent: true,
        verification: {
          status: 'higher',
          method: 'online',
          reference: 'V1234567890AB',
          notes: 'Unmatched at verification',
          verifiedDate: '2026-11-02',
        },
      }),
    );
    expect(created.status).toBe(201);
    const sub = created.body.subcontractor as Record<string, unknown>;
    expect(sub).toMatchObject({
      type: 'company',
      companyNumber: 'SC123456',
      vatNumber: 'GB123456789',
      vatNumberChecksumValid: false,
      ninoMasked: '',
      registeredAddress: { line1: '1 Yard Lane', line2: 'Unit 2', city: 'Glasgow', county: 'Lanarkshire' },
      tradingAddress: { line1: '9 Depot Road', city: 'Belfast', country: 'NI' },
      tradingAddressSameAsRegistered: false,
      gdprConsent: true,
      marketingConsent: true,
      portalAccess: false,
      active: true,
      archived: false,
      verification: {
        status: 'higher',
        rate: 30,
        method: 'online',
        reference: 'V1234567890AB',
        notes: 'Unmatched at verification',
        verifiedDate: '2026-11-02',
        verifiedBy: '00000000-0000-4000-8000-0000000000ad',
      },
      createdBy: '00000000-0000-4000-8000-0000000000ad',
      updatedBy: '00000000-0000-4000-8000-0000000000ad',
    });
    for (const stamp of ['vatCheckedAt', 'gdprConsentDate', 'createdAt', 'updatedAt'])
      expect(Date.parse(String(sub[stamp]))).not.toBeNaN();
    // A status change sets the rate (gross 0, standard 20, higher 30).
    const verified = await h.call(admin, 'POST', `/subcontractors/${String(sub.id)}/verification`, {
      status: 'gross',
      method: 'phone',
      reference: '',
      notes: 'Gross payment status confirmed',
    });
    expect(verified.body.subcontractor).toMatchObject({
      verification: { status: 'gross', rate: 0, method: 'phone' },
    });
  });

  it('archives (single and bulk, one bulk audit entry); an archived subcontractor cannot take a new invoice; bulk delete is soft with the time and user', async () => {
    const ids: string[] = [];
    for (const name of ['Arch One', 'Arch Two', 'Arch Three', 'Del One', 'Del Two']) {
      // Five people, each with identifiers of their own (one subcontractor per person, ADR 0039).
      ids.push(await createSubcontractor(h, admin, { name }));
    }
    const [one, two, three, delOne, delTwo] = ids as [string, string, string, string, string];
    const single = await h.call(admin, 'POST', '/subcontractors/archive', { ids: [one] });
    expect(single.body).toEqual({ succeeded: [one], failed: [] });
    const bulk = await h.call(admin, 'POST', '/subcontractors/archive', { ids: [one, two, three] });
    expect(bulk.body).toEqual({ succeeded: [two, three], failed: [{ id: one, error: 'Already archived' }] });
    const archived = await h.call(admin, 'GET', '/subcontractors?status=archived');
    expect((archived.body.items as { id: string }[]).map((s) => s.id).sort()).toEqual(
      [one, two, three].sort(),
    );
    const bulkAudit = await adminQuery(
      h,
      `SELECT details FROM cis.activity WHERE action = 'cis.subcontractor.bulk.archive'`,
    );
    expect(bulkAudit).toHaveLength(1);

    const refused = await h.call(admin, 'POST', '/invoices', invoiceBody(one, { invoiceNumber: 'ARCH-1' }));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'body.subcontractorId', message: 'Archived subcontractors cannot be used for new invoices' },
    ]);

    const deleted = await h.call(admin, 'POST', '/subcontractors/delete', { ids: [delOne, delTwo] });
    expect(deleted.body).toEqual({ succeeded: [delOne, delTwo], failed: [] });
    const rows = await adminQuery(
      h,
      'SELECT deleted_at, deleted_by FROM cis.subcontractors WHERE id = ANY($1)',
      [[delOne, delTwo]],
    );
    expect(
      rows.every(
        (row) => row.deleted_at !== null && row.deleted_by === '00000000-0000-4000-8000-0000000000ad',
      ),
    ).toBe(true);
    const list = await h.call(admin, 'GET', '/subcontractors');
    const names = (list.body.items as { name: string }[]).map((s) => s.name);
    expect(names).not.toContain('Del One');
    expect((await h.call(admin, 'GET', `/subcontractors/${delOne}`)).status).toBe(404);
    // Subcontractors are listed by name.
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });
});

describe('invoice record', () => {
  let subcontractorId: string;

  beforeAll(async () => {
    subcontractorId = await createSubcontractor(h, admin, {
      name: 'Ivy Invoice',
      utr: '9999999999',
      nino: 'AB123456C',
    });
  });

  it('keeps description, justification, the verification snapshot, masked identifiers and the stamps', async () => {
    const created = await h.call(admin, 'POST', '/invoices', invoiceBody(subcontractorId));
    expect(created.status).toBe(201);
    expect(created.body.warnings).toEqual([
      'High materials percentage (70%) - please verify this is correct',
    ]);
    const invoice = created.body.invoice as Record<string, unknown>;
    expect(invoice).toMatchObject({
      description: 'Groundworks, plot 4',
      materialsJustification: 'Aggregate and concrete bought by the subcontractor',
      source: 'staff',
      verificationSnapshot: { rate: 20, reference: '' },
      piiMasked: { utrMasked: '******9999', ninoMasked: 'AB******C' },
      createdBy: '00000000-0000-4000-8000-0000000000ad',
      updatedBy: '00000000-0000-4000-8000-0000000000ad',
      paymentDate: null,
      taxMonth: null,
    });
    expect(Date.parse(String(invoice.createdAt))).not.toBeNaN();
    // The snapshot stays what it was when the invoice was recorded, whatever the subcontractor becomes.
    await h.call(admin, 'POST', `/subcontractors/${subcontractorId}/verification`, {
      status: 'higher',
      method: 'online',
      reference: 'V0000000001',
      notes: '',
    });
    const again = await h.call(admin, 'GET', `/invoices/${String(invoice.id)}`);
    expect(again.body.invoice).toMatchObject({
      verificationSnapshot: { rate: 20, reference: '' },
      cisRate: 20,
    });
  });

  it('lists by invoice date, newest first; a bulk delete is soft (deletedAt, archived) and the rows are never listed again', async () => {
    for (const [number, date] of [
      ['ORD-A', '2026-09-01'],
      ['ORD-B', '2026-11-20'],
      ['ORD-C', '2026-10-15'],
    ] as const)
      await h.call(
        admin,
        'POST',
        '/invoices',
        invoiceBody(subcontractorId, { invoiceNumber: number, invoiceDate: date, materialsP: 0 }),
      );
    const list = await h.call(admin, 'GET', '/invoices?search=ORD-');
    const dates = (list.body.items as { invoiceDate: string }[]).map((i) => i.invoiceDate);
    expect(dates).toEqual(['2026-11-20', '2026-10-15', '2026-09-01']);

    const ids = (list.body.items as { id: string }[]).map((i) => i.id);
    const deleted = await h.call(admin, 'POST', '/invoices/delete', { ids });
    expect(deleted.body).toMatchObject({ succeeded: expect.arrayContaining(ids), failed: [] });
    const rows = await adminQuery(h, 'SELECT deleted_at, archived FROM cis.invoices WHERE id = ANY($1)', [
      ids,
    ]);
    expect(rows.every((row) => row.deleted_at !== null && row.archived === true)).toBe(true);
    expect((await h.call(admin, 'GET', '/invoices?search=ORD-')).body.total).toBe(0);
    expect((await h.call(admin, 'GET', `/invoices/${ids[0] ?? ''}`)).status).toBe(404);
  });

  it('records each CSV export in the audit log with the count', async () => {
    const response = await fetch(`${h.cisUrl}/v1/invoices/export.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(response.headers.get('content-disposition')).toMatch(/cis-invoices-\d{4}-\d{2}-\d{2}\.csv/);
    const text = await response.text();
    expect(text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'Invoice Number,Subcontractor,Date,Gross,Materials,CIS,Net,Status',
    );
    const [entry] = await adminQuery(
      h,
      `SELECT details FROM cis.activity WHERE action = 'cis.export.invoices' ORDER BY id DESC LIMIT 1`,
    );
    expect(entry?.details).toMatchObject({ resource: 'invoices', format: 'csv', count: expect.any(String) });
  });
});

describe('statements and jobs', () => {
  it('a Generate All job starts pending at 0 %, completes with its counts, and the statement keeps its invoices and totals', async () => {
    const subcontractorId = await createSubcontractor(h, admin, {
      name: 'Stan Statement',
      utr: '8888888888',
    });
    const today = londonDate(new Date());
    const ids: string[] = [];
    for (const [number, gross] of [
      ['ST-1', 120000],
      ['ST-2', 30050],
    ] as const) {
      const invoice = await h.call(
        admin,
        'POST',
        '/invoices',
        invoiceBody(subcontractorId, { invoiceNumber: number, grossP: gross, materialsP: 10000 }),
      );
      ids.push((invoice.body.invoice as { id: string }).id);
    }
    await h.call(admin, 'POST', '/invoices/approve', { ids });
    await h.call(admin, 'POST', '/invoices/pay', { ids, paymentDate: today });
    const month = currentTaxMonth();
    // Let the approve/pay jobs settle, then delete the statement they made so Generate All has work to do.
    await eventually(
      async () => {
        const rows = await adminQuery(h, `SELECT count(*)::int AS n FROM cis.job_queue`);
        return rows[0]?.n === 0;
      },
      20_000,
      'the queue to drain',
    );
    await adminQuery(h, `UPDATE cis.invoices SET statement_id = NULL WHERE id = ANY($1)`, [ids]);
    await adminQuery(h, `DELETE FROM cis.statements WHERE subcontractor_id = $1`, [subcontractorId]);

    const started = await h.call(admin, 'POST', '/statements/generate-all', { taxMonth: month });
    expect(started.status).toBe(202);
    const job = started.body.job as { id: string };
    expect(started.body.job).toMatchObject({ status: 'pending', progress: 0 });
    const [stored] = await adminQuery(
      h,
      'SELECT status, progress, performed_by FROM cis.jobs WHERE id = $1',
      [job.id],
    );
    expect(stored?.performed_by).toBe('00000000-0000-4000-8000-0000000000ad');
    const done = await eventually(
      async () => {
        const polled = await h.call(admin, 'GET', `/jobs/${job.id}`);
        const view = polled.body.job as { status: string; progress: number; result: Record<string, number> };
        return view.status === 'completed' ? view : undefined;
      },
      20_000,
      'the job',
    );
    expect(done.progress).toBe(100);
    expect(done.result).toMatchObject({ generated: 1, failed: 0 });

    const page = await h.call(admin, 'GET', `/statements?taxMonth=${month}`);
    const group = (
      page.body.subcontractors as { subcontractorId: string; statement: Record<string, unknown> }[]
    ).find((g) => g.subcontractorId === subcontractorId);
    expect(group?.statement).toMatchObject({
      invoiceCount: 2,
      invoiceIds: expect.arrayContaining(ids),
      totals: { grossP: 150050, materialsP: 20000, labourP: 130050, cisDeductionP: 26010 },
      status: 'generated',
      issuedAt: null,
    });
    expect(Date.parse(String(group?.statement.updatedAt))).not.toBeNaN();
    expect(page.body.counters).toMatchObject({ generated: expect.any(Number), issued: expect.any(Number) });
  });
});

describe('returns history', () => {
  it('keeps the latest 12 returns, newest tax month first', async () => {
    let label = previousTaxMonth(currentTaxMonth());
    for (let n = 0; n < 13; n++) {
      const compiled = await h.call(admin, 'POST', `/returns/${label}/compile`);
      expect(compiled.status).toBe(200);
      label = previousTaxMonth(label);
    }
    const history = await h.call(admin, 'GET', '/returns');
    const months = (history.body.items as { taxMonth: string }[]).map((r) => r.taxMonth);
    expect(months).toHaveLength(12);
    expect(months).toEqual([...months].sort().reverse());
    expect((history.body.items as { status: string }[])[0]?.status).toBe('nil');
  });
});

describe('sealed fields', () => {
  it('answers "Failed to decrypt sensitive data" when a sealed UTR cannot be opened, and never the value', async () => {
    const id = await createSubcontractor(h, admin, { name: 'Sid Sealed', utr: '7777777777' });
    await adminQuery(h, `UPDATE cis.subcontractors SET utr_enc = 'v1.c1.AAAA.BBBB.CCCC' WHERE id = $1`, [id]);
    const response = await h.call(admin, 'GET', `/subcontractors/${id}?unmask=true`);
    expect(response.status).toBe(500);
    expect(response.body.detail).toBe('Failed to decrypt sensitive data');
    expect(response.text).not.toContain('7777777777');
  });
});
