// The return service (cis.md sections 3, 4, 5, 7 and 8) through the cis service's API on real PostgreSQL and
// Kafka: the stored return of a tax month (its id, period, deadlines, lines and stamps), compile and recompile, nil
// months, a missing tax month, each precondition of submit and amend with the spec's messages, get and validate by
// label, and the export's audit action.
import {
  ALL_CIS_SCOPES,
  DECLARED,
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
  startCisHarness,
  storedRow,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;

const ADMIN = '00000000-0000-4000-8000-00000000d000';
const COMPILER = '00000000-0000-4000-8000-00000000d001';
const RECOMPILER = '00000000-0000-4000-8000-00000000d002';
const SUBMITTER = '00000000-0000-4000-8000-00000000d003';
const AMENDER = '00000000-0000-4000-8000-00000000d004';

const as = (userId: string) => h.token(ALL_CIS_SCOPES, 'demo', userId);
const isoInstant = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** The tax month the full story is filed for: 6 May to 5 June 2025. */
const MAY = '2025-05';
/** A month whose only statement is never issued: the return stays invalid. */
const JULY = '2025-07';
/** A month without invoices. */
const MARCH = '2025-03';

const ids: Record<'alma' | 'bold' | 'cara', string> = { alma: '', bold: '', cara: '' };
let mayInvoices: string[] = [];

async function paidInvoices(
  rows: [string, string, number, number][],
  paymentDate: string,
): Promise<string[]> {
  const created: string[] = [];
  for (const [subcontractorId, invoiceNumber, grossP, materialsP] of rows) {
    const response = await h.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(subcontractorId, { invoiceNumber, invoiceDate: paymentDate, grossP, materialsP }),
    );
    expect(response.status).toBe(201);
    created.push((response.body.invoice as { id: string }).id);
  }
  expect((await h.call(admin, 'POST', '/invoices/approve', { ids: created })).body).toMatchObject({
    failed: [],
  });
  await drainJobQueue(h);
  expect((await h.call(admin, 'POST', '/invoices/pay', { ids: created, paymentDate })).body).toMatchObject({
    failed: [],
  });
  // The payment queues the statement job, which generates each statement (not issued).
  await drainJobQueue(h);
  return created;
}

async function statementOf(subcontractorId: string, taxMonth: string): Promise<Record<string, unknown>> {
  const page = await h.call(admin, 'GET', `/statements?taxMonth=${taxMonth}`);
  const group = (
    page.body.subcontractors as { subcontractorId: string; statement: Record<string, unknown> | null }[]
  ).find((g) => g.subcontractorId === subcontractorId);
  if (!group?.statement) throw new Error(`no statement for ${subcontractorId} in ${taxMonth}`);
  return group.statement;
}

const returnCount = async () =>
  Number((await adminQuery(h, `SELECT count(*)::int AS n FROM cis.returns`))[0]?.n ?? -1);

beforeAll(async () => {
  h = await startCisHarness();
  admin = await as(ADMIN);
  const settings = await h.call(admin, 'PUT', '/settings', settingsBody({ emailReplyTo: '' }));
  expect(settings.status).toBe(200);
  // Three subcontractors, one at each CIS rate: standard 20 %, higher 30 % (with its verification number), gross 0 %.
  ids.alma = await createSubcontractor(h, admin, {
    name: 'Alma Andrews',
    utr: '1111111111',
    nino: 'AB123456C',
  });
  ids.bold = await createSubcontractor(h, admin, {
    type: 'company',
    name: 'Bold Build Ltd',
    utr: '2222222222',
    nino: '',
    companyNumber: '01234567',
    verification: { status: 'higher', method: 'online', reference: 'V1234567890AB', notes: '' },
  });
  ids.cara = await createSubcontractor(h, admin, {
    type: 'partnership',
    name: 'Cara Gross',
    utr: '3333333333',
    nino: '',
    verification: { status: 'gross', method: 'online', reference: '', notes: '' },
  });
  mayInvoices = await paidInvoices(
    [
      [ids.alma, 'AL-1', 100000, 20000],
      [ids.alma, 'AL-2', 50000, 0],
      [ids.bold, 'BO-1', 80000, 10000],
      [ids.cara, 'CA-1', 60000, 0],
    ],
    '2025-05-20',
  );
  await paidInvoices([[ids.alma, 'AL-JULY', 40000, 0]], '2025-07-20');
});

afterAll(async () => {
  await h.stop();
});

describe('compile', () => {
  it('answers lines[] and its validation, and stores the return keyed by its tax month with period, deadlines, lines and stamps', async () => {
    const compiled = await h.call(await as(COMPILER), 'POST', `/returns/${MAY}/compile`);
    expect(compiled.status).toBe(200);
    // The statements are generated but not yet issued: the compile says so (the return cannot be submitted yet).
    expect(compiled.body.validation).toEqual({
      valid: false,
      issues: [
        'Line 1: Statement not issued for Alma Andrews',
        'Line 2: Statement not issued for Bold Build Ltd',
      ],
    });
    const ret = compiled.body.return as Record<string, unknown>;
    const lines = [
      {
        subcontractorId: ids.alma,
        name: 'Alma Andrews',
        utrMasked: '******1111',
        ninoMasked: 'AB******C',
        verificationRef: '',
        grossP: 150000,
        materialsP: 20000,
        cisDeductedP: 26000,
        cisRate: 20,
        invoiceCount: 2,
        statementsIssued: false,
        lastStatementDate: null,
      },
      {
        subcontractorId: ids.bold,
        name: 'Bold Build Ltd',
        utrMasked: '******2222',
        ninoMasked: '',
        verificationRef: 'V1234567890AB',
        grossP: 80000,
        materialsP: 10000,
        cisDeductedP: 21000,
        cisRate: 30,
        invoiceCount: 1,
        statementsIssued: false,
        lastStatementDate: null,
      },
      {
        subcontractorId: ids.cara,
        name: 'Cara Gross',
        utrMasked: '******3333',
        ninoMasked: '',
        verificationRef: '',
        grossP: 60000,
        materialsP: 0,
        cisDeductedP: 0,
        cisRate: 0,
        invoiceCount: 1,
        statementsIssued: false,
        lastStatementDate: null,
      },
    ];
    const period = {
      taxMonth: MAY,
      label: MAY,
      startDate: '2025-05-06',
      endDate: '2025-06-05',
      displayLabel: 'Tax month ending 5 June 2025',
    };
    const deadlines = { statements: '2025-06-19', filing: '2025-06-19', payment: '2025-06-22' };
    const totals = { subcontractors: 3, invoices: 4, grossP: 290000, materialsP: 30000, cisDeductedP: 47000 };
    expect(ret).toMatchObject({
      id: MAY,
      taxMonth: MAY,
      status: 'draft',
      locked: false,
      lockedAt: null,
      period,
      deadlines,
      totals,
      submissionRef: null,
      submittedAt: null,
      submittedBy: null,
      amendmentOf: null,
      compiledBy: COMPILER,
      createdAt: isoInstant,
      updatedAt: isoInstant,
    });
    expect(ret.lines).toEqual(lines);

    const stored = await storedRow(h, 'returns', { tenant_id: 'demo', id: MAY });
    expect(stored).toMatchObject({
      tenant_id: 'demo',
      id: MAY,
      tax_month: MAY,
      status: 'draft',
      locked: false,
      locked_at: null,
      period,
      deadlines,
      totals,
      issues: [
        'Line 1: Statement not issued for Alma Andrews',
        'Line 2: Statement not issued for Bold Build Ltd',
      ],
      submission_ref: null,
      submitted_at: null,
      submitted_by: null,
      amendment_of: null,
      compiled_by: COMPILER,
      updated_by: COMPILER,
    });
    expect(stored?.lines).toEqual(lines);
    expect(Date.parse(String(stored?.created_at))).toBe(Date.parse(String(ret.createdAt)));
    expect(Date.parse(String(stored?.updated_at))).toBe(Date.parse(String(ret.updatedAt)));
  });

  it('a second compile refreshes the same record as a draft: the issued statements now count', async () => {
    const before = await storedRow(h, 'returns', { tenant_id: 'demo', id: MAY });
    const issuedAt: Record<string, unknown> = {};
    for (const key of ['alma', 'bold'] as const) {
      const statement = await statementOf(ids[key], MAY);
      const issued = await h.call(admin, 'POST', `/statements/${String(statement.id)}/issue`, {
        method: 'print',
      });
      expect(issued.status).toBe(200);
      issuedAt[key] = (issued.body.statement as { issuedAt: string }).issuedAt;
    }
    const recompiled = await h.call(await as(RECOMPILER), 'POST', `/returns/${MAY}/compile`);
    expect(recompiled.status).toBe(200);
    expect(recompiled.body.validation).toEqual({ valid: true, issues: [] });
    const ret = recompiled.body.return as { lines: Record<string, unknown>[] } & Record<string, unknown>;
    expect(ret).toMatchObject({ id: MAY, status: 'draft', compiledBy: RECOMPILER });
    expect(ret.lines.map((line) => [line.name, line.statementsIssued, line.lastStatementDate])).toEqual([
      ['Alma Andrews', true, issuedAt.alma],
      ['Bold Build Ltd', true, issuedAt.bold],
      ['Cara Gross', false, null],
    ]);
    const rows = await adminQuery(h, `SELECT to_jsonb(r) AS row FROM cis.returns r WHERE tax_month = $1`, [
      MAY,
    ]);
    expect(rows).toHaveLength(1);
    const after = rows[0]?.row as Record<string, unknown>;
    expect(after).toMatchObject({
      id: MAY,
      status: 'draft',
      compiled_by: RECOMPILER,
      updated_by: RECOMPILER,
      issues: [],
    });
    expect(Date.parse(String(after.created_at))).toBe(Date.parse(String(before?.created_at)));
    expect(Date.parse(String(after.updated_at))).toBeGreaterThan(Date.parse(String(before?.updated_at)));
  });

  it('a month without invoices compiles to a nil return', async () => {
    const compiled = await h.call(admin, 'POST', `/returns/${MARCH}/compile`);
    expect(compiled.status).toBe(200);
    expect(compiled.body.validation).toEqual({ valid: true, issues: [] });
    expect(compiled.body.return).toMatchObject({
      id: MARCH,
      status: 'nil',
      lines: [],
      totals: { subcontractors: 0, invoices: 0, grossP: 0, materialsP: 0, cisDeductedP: 0 },
    });
    expect(await storedRow(h, 'returns', { tenant_id: 'demo', id: MARCH })).toMatchObject({
      status: 'nil',
      lines: [],
    });
  });

  it("validates first: without a valid tax month it answers 'Tax month is required' and stores nothing", async () => {
    const before = await returnCount();
    for (const label of ['%20', '2025-13', 'June']) {
      const response = await h.call(admin, 'POST', `/returns/${label}/compile`);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field: 'params.taxMonth', message: 'Tax month is required' }]);
    }
    const validate = await h.call(admin, 'GET', '/returns/%20/validate');
    expect(validate.body.errors).toEqual([{ field: 'params.taxMonth', message: 'Tax month is required' }]);
    expect(await returnCount()).toBe(before);
  });
});

describe('read by label', () => {
  it('gets the return of a tax month, validates it (issues[]) and lists the invoices it was compiled from', async () => {
    const got = await h.call(admin, 'GET', `/returns/${MAY}`);
    expect(got.status).toBe(200);
    expect(got.body.return).toMatchObject({ id: MAY, taxMonth: MAY, status: 'draft' });
    expect(got.body.validation).toEqual({ valid: true, issues: [] });
    const validated = await h.call(admin, 'GET', `/returns/${MAY}/validate`);
    expect(validated.body).toEqual({ valid: true, issues: [] });

    const invoices = await h.call(admin, 'GET', `/invoices?taxMonth=${MAY}&status=paid`);
    expect((invoices.body.items as { id: string }[]).map((i) => i.id).sort()).toEqual(
      [...mayInvoices].sort(),
    );

    const list = await h.call(admin, 'GET', '/returns');
    expect((list.body.items as { id: string }[]).map((r) => r.id)).toEqual([MAY, MARCH]);
  });

  it("answers 'Return not found' for a month or id without a return", async () => {
    for (const [method, path] of [
      ['GET', '/returns/1999-01'],
      ['GET', '/returns/1999-01/validate'],
      ['POST', '/returns/1999-01/submit'],
      ['POST', '/returns/1999-01/amend'],
      ['POST', '/returns/1999-01/unlock'],
      ['GET', '/returns/1999-01/export.csv'],
    ] as const) {
      const response = await h.call(admin, method, path);
      expect({ path, status: response.status, detail: response.body.detail }).toEqual({
        path,
        status: 404,
        detail: 'Return not found',
      });
    }
  });
});

describe('submit and amend', () => {
  it("refuses an invalid return with 'Return validation failed: …' and leaves it unlocked", async () => {
    const compiled = await h.call(admin, 'POST', `/returns/${JULY}/compile`);
    expect(compiled.body.return).toMatchObject({ id: JULY, status: 'draft' });
    const submitted = await h.call(admin, 'POST', `/returns/${JULY}/submit`, DECLARED);
    expect(submitted.status).toBe(409);
    expect(submitted.body.detail).toBe(
      'Return validation failed: Line 1: Statement not issued for Alma Andrews',
    );
    expect(await storedRow(h, 'returns', { tenant_id: 'demo', id: JULY })).toMatchObject({
      status: 'draft',
      locked: false,
      locked_at: null,
      submitted_at: null,
      cis300_xml_enc: null,
    });
  });

  it("refuses to amend a return that is not submitted: 'Can only amend submitted returns'", async () => {
    for (const id of [JULY, MARCH]) {
      const amended = await h.call(admin, 'POST', `/returns/${id}/amend`);
      expect(amended.status).toBe(409);
      expect(amended.body.detail).toBe('Can only amend submitted returns');
    }
    expect(await adminQuery(h, `SELECT id FROM cis.returns WHERE amendment_of IS NOT NULL`)).toEqual([]);
  });

  it('submits a valid return: submitted and locked, with lockedAt, submittedAt, submittedBy and the submission reference', async () => {
    const submitted = await h.call(await as(SUBMITTER), 'POST', `/returns/${MAY}/submit`, DECLARED);
    expect(submitted.status).toBe(200);
    const ret = submitted.body.return as Record<string, unknown>;
    expect(ret).toMatchObject({
      id: MAY,
      status: 'submitted',
      locked: true,
      // Issue 13: 'Submitted', not the bare 'Locked' of cis.md section 4.
      displayStatus: 'Submitted',
      lockedAt: isoInstant,
      submittedAt: isoInstant,
      // Issue 13 (superseding cis.md section 4's 'system'): the person who declared and submitted it.
      submittedBy: SUBMITTER,
      declarations: DECLARED.declarations,
      submissionRef: expect.stringMatching(/^[A-Za-z0-9+/]{27}=$/),
      updatedAt: isoInstant,
      hasCis300: true,
    });
    const stored = await storedRow(h, 'returns', { tenant_id: 'demo', id: MAY });
    expect(stored).toMatchObject({
      status: 'submitted',
      locked: true,
      submitted_by: SUBMITTER,
      submission_ref: ret.submissionRef,
      updated_by: SUBMITTER,
      issues: [],
    });
    expect(Date.parse(String(stored?.locked_at))).toBe(Date.parse(String(ret.lockedAt)));
    expect(Date.parse(String(stored?.submitted_at))).toBe(Date.parse(String(ret.submittedAt)));
    // The submission reference is the IRmark of the CIS300 document kept with it, sealed.
    expect(stored?.cis300_xml).toBeNull();
    expect(h.definition.deps().sealed.open(String(stored?.cis300_xml_enc))).toContain(
      `>${String(ret.submissionRef)}</IRmark>`,
    );
    const [entry] = await adminQuery(
      h,
      `SELECT performed_by, details FROM cis.activity WHERE action = 'cis.return.submitted' AND target_id = $1`,
      [MAY],
    );
    expect(entry).toMatchObject({ performed_by: SUBMITTER, details: { activity: 'return.submit' } });

    // A locked return is neither submitted again nor recompiled, and stays as it was.
    const again = await h.call(admin, 'POST', `/returns/${MAY}/submit`, DECLARED);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Return is already locked');
    const recompile = await h.call(admin, 'POST', `/returns/${MAY}/compile`);
    expect(recompile.status).toBe(409);
    expect(recompile.body.detail).toBe('Return is already locked');
    expect(await storedRow(h, 'returns', { tenant_id: 'demo', id: MAY })).toEqual(stored);
  });

  it('amends a submitted return: a new record {id}-AMD-{timestamp} with amendmentOf, compiledBy and stamps, read by the label from then on', async () => {
    const amended = await h.call(await as(AMENDER), 'POST', `/returns/${MAY}/amend`);
    expect(amended.status).toBe(201);
    const ret = amended.body.return as Record<string, unknown>;
    const id = String(ret.id);
    expect(id).toMatch(/^2025-05-AMD-\d+$/);
    expect(ret).toMatchObject({
      taxMonth: MAY,
      status: 'amended',
      locked: false,
      amendmentOf: MAY,
      compiledBy: AMENDER,
      createdAt: isoInstant,
      updatedAt: isoInstant,
      period: { taxMonth: MAY, label: MAY },
    });
    expect(await storedRow(h, 'returns', { tenant_id: 'demo', id })).toMatchObject({
      amendment_of: MAY,
      compiled_by: AMENDER,
      updated_by: AMENDER,
      status: 'amended',
    });
    // The original stays submitted and locked.
    expect(await storedRow(h, 'returns', { tenant_id: 'demo', id: MAY })).toMatchObject({
      status: 'submitted',
      locked: true,
    });
    expect((await h.call(admin, 'GET', `/returns/${MAY}`)).body.return).toMatchObject({
      id,
      amendmentOf: MAY,
    });
  });

  it('records the CSV export of a return as cis.return.exported', async () => {
    const response = await fetch(`${h.cisUrl}/v1/returns/${MAY}/export.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Alma Andrews');
    const [entry] = await adminQuery(
      h,
      `SELECT performed_by, details FROM cis.activity WHERE action = 'cis.return.exported' AND target_id = $1`,
      [MAY],
    );
    expect(entry).toMatchObject({
      performed_by: ADMIN,
      details: { format: 'csv', lines: '3', taxMonth: MAY },
    });
    const [event] = await adminQuery(
      h,
      `SELECT tenant_id, payload FROM cis.outbox WHERE type = 'cis.return.exported'`,
    );
    expect(event).toMatchObject({ tenant_id: 'demo', payload: { targetId: MAY, taxMonth: MAY } });
  });
});

describe('return status values', () => {
  it("the stored status is one of draft, ready, submitted, amended and nil; the second reading's 'compiled' is not a status", async () => {
    const [row] = await adminQuery(h, `SELECT id, status FROM cis.returns WHERE tax_month = $1 LIMIT 1`, [
      MAY,
    ]);
    const id = String(row?.id);
    const original = String(row?.status);
    try {
      for (const status of ['draft', 'ready', 'submitted', 'amended', 'nil']) {
        await adminQuery(h, `UPDATE cis.returns SET status = $2 WHERE id = $1`, [id, status]);
        expect((await adminQuery(h, `SELECT status FROM cis.returns WHERE id = $1`, [id]))[0]?.status).toBe(
          status,
        );
      }
      for (const status of ['compiled', 'locked', '']) {
        await expect(
          adminQuery(h, `UPDATE cis.returns SET status = $2 WHERE id = $1`, [id, status]),
        ).rejects.toThrow(/returns_status/);
      }
    } finally {
      await adminQuery(h, `UPDATE cis.returns SET status = $2 WHERE id = $1`, [id, original]);
    }
  });
});
