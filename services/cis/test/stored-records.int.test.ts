// The cis service's records as stored (cis.md sections 3, 4 and 7): each field the spec names, read back through
// the service's API and from the stored row; the actor and time stamps of each change; batch writes with mixed
// outcomes; the audit actions and their events; sealing failures; and tenant isolation under row-level security.
// Real PostgreSQL and Kafka, identity and notification, one service for the file.
import { eventually } from '@workspace/kit/testing';
import { demoSeed } from '@workspace/identity/testing';
import {
  ALL_CIS_SCOPES,
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  serviceRoleQuery,
  settingsBody,
  startCisHarness,
  storedRow,
  subcontractorBody,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;

const ADMIN = '00000000-0000-4000-8000-00000000c000';
const CREATOR = '00000000-0000-4000-8000-00000000c001';
const EDITOR = '00000000-0000-4000-8000-00000000c002';
const APPROVER = '00000000-0000-4000-8000-00000000c003';
const PAYER = '00000000-0000-4000-8000-00000000c004';
const ISSUER = '00000000-0000-4000-8000-00000000c005';
const IMPORTER = '00000000-0000-4000-8000-00000000c006';

const as = (userId: string, tenantId = 'demo') => h.token(ALL_CIS_SCOPES, tenantId, userId);

const isoInstant = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const sameInstant = (stored: unknown, answered: unknown) => {
  expect(Date.parse(String(stored))).toBe(Date.parse(String(answered)));
};

async function createInvoice(token: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const created = await h.call(token, 'POST', '/invoices', {
    invoiceDate: '2026-11-10',
    grossP: 100000,
    materialsP: 0,
    vatRate: 20,
    ...body,
  });
  expect(created.status).toBe(201);
  return created.body.invoice as Record<string, unknown>;
}

async function activity(action: string, targetId?: string) {
  return adminQuery(
    h,
    `SELECT tenant_id, action, target_id, details, performed_by, performed_at FROM cis.activity
     WHERE action = $1 ${targetId === undefined ? '' : 'AND target_id = $2'} ORDER BY id`,
    targetId === undefined ? [action] : [action, targetId],
  );
}

/** The first activity entry of a user's, once there (a refusal's entry is written after the answer). */
const firstActivityBy = (userId: string, what: string) =>
  eventually(
    async () =>
      (await adminQuery(h, `SELECT action, details FROM cis.activity WHERE performed_by = $1`, [userId]))[0],
    10_000,
    what,
  );

async function events(type: string) {
  return adminQuery(h, `SELECT tenant_id, topic, type, payload, published_at FROM cis.outbox WHERE type = $1 ORDER BY id`, [type]); // prettier-ignore
}

beforeAll(async () => {
  h = await startCisHarness();
  admin = await as(ADMIN);
  const saved = await h.call(admin, 'PUT', '/settings', settingsBody());
  expect(saved.status).toBe(200);
});

afterAll(async () => {
  await h.stop();
});

describe('settings record', () => {
  it('is one document per tenant (config) with active, companyName, employerRef and accountsOfficeRef; switching the module off and on is audited', async () => {
    await h.call(admin, 'GET', '/settings');
    const off = await h.call(admin, 'PUT', '/settings', settingsBody({ active: false, utr: '' }));
    expect(off.status).toBe(200);
    expect(off.body.settings).toMatchObject({
      active: false,
      companyName: 'Demo Construction Ltd',
      employerRef: '123/AB12345',
      accountsOfficeRef: '123PA00012345',
    });
    const on = await h.call(admin, 'PUT', '/settings', settingsBody({ utr: '' }));
    expect(on.body.settings).toMatchObject({ active: true, accountsOfficeRef: '123PA00012345' });
    await h.call(admin, 'GET', '/settings');

    const rows = await adminQuery(
      h,
      `SELECT to_jsonb(s) AS row FROM cis.settings s WHERE tenant_id = 'demo'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.row).toMatchObject({
      active: true,
      company_name: 'Demo Construction Ltd',
      employer_ref: '123/AB12345',
      accounts_office_ref: '123PA00012345',
      utr_masked: '******8152',
    });
    // The saves name the single document 'config'; deactivation and activation are their own actions.
    const saves = await activity('cis.settings.updated');
    expect(saves.length).toBeGreaterThanOrEqual(3);
    expect(saves.every((row) => row.target_id === 'config' && row.performed_by === ADMIN)).toBe(true);
    expect(await activity('cis.module.deactivated')).toHaveLength(1);
    expect(await activity('cis.module.activated')).toHaveLength(2);
    expect((await events('cis.module.deactivated'))[0]).toMatchObject({
      tenant_id: 'demo',
      topic: 'cis.events.v1',
      payload: { actorId: ADMIN, targetType: 'module', targetId: 'cis' },
    });
  });
});

describe('invoice record', () => {
  let subcontractorId: string;
  let grossSubcontractorId: string;
  let invoiceId: string;

  beforeAll(async () => {
    subcontractorId = await createSubcontractor(h, admin, { name: 'Ivor Record', utr: '9999999999' });
    grossSubcontractorId = await createSubcontractor(h, admin, {
      name: 'Gus Gross',
      utr: '8888888888',
      verification: { status: 'gross', method: 'online', reference: '', notes: '' },
    });
  });

  it('keeps id, invoiceNumber, the subcontractor’s id and name, invoiceDate, receivedDate and every amount', async () => {
    const invoice = await createInvoice(await as(CREATOR), {
      invoiceNumber: 'SR-001',
      subcontractorId,
      invoiceDate: '2026-11-10',
      receivedDate: '2026-11-12',
      grossP: 120050,
      materialsP: 30000,
      vatRate: 20,
    });
    invoiceId = String(invoice.id);
    const amounts = {
      grossP: 120050,
      materialsP: 30000,
      materialsPercentage: 24.99,
      labourP: 90050,
      cisDeductionP: 18010,
      vatBaseP: 120050,
      vatAmountP: 24010,
      grossTotalP: 144060,
      netPaymentP: 126050,
    };
    const read = await h.call(admin, 'GET', `/invoices/${invoiceId}`);
    expect(read.body.invoice).toMatchObject({
      id: invoiceId,
      invoiceNumber: 'SR-001',
      subcontractorId,
      subcontractorName: 'Ivor Record',
      invoiceDate: '2026-11-10',
      receivedDate: '2026-11-12',
      paymentDate: null,
      taxMonth: null,
      amounts,
    });
    expect((read.body.invoice as { amounts: object }).amounts).toEqual(amounts);

    expect(await storedRow(h, 'invoices', { id: invoiceId })).toMatchObject({
      id: invoiceId,
      tenant_id: 'demo',
      invoice_number: 'SR-001',
      subcontractor_id: subcontractorId,
      subcontractor_name: 'Ivor Record',
      invoice_date: '2026-11-10',
      received_date: '2026-11-12',
      payment_date: null,
      tax_month: null,
      gross_p: 120050,
      materials_p: 30000,
      materials_percentage: 24.99,
      labour_p: 90050,
      cis_deduction_p: 18010,
      vat_base_p: 120050,
      vat_amount_p: 24010,
      gross_total_p: 144060,
      net_payment_p: 126050,
      created_by: CREATOR,
      updated_by: CREATOR,
      deleted_at: null,
    });
  });

  it('an edit of a draft stores the new values; updatedAt moves on and updatedBy names the editor, createdBy stays', async () => {
    const before = await storedRow(h, 'invoices', { id: invoiceId });
    const edited = await h.call(await as(EDITOR), 'PUT', `/invoices/${invoiceId}`, {
      invoiceNumber: 'SR-001A',
      subcontractorId,
      invoiceDate: '2026-11-11',
      receivedDate: '2026-11-13',
      grossP: 110000,
      materialsP: 10000,
      vatRate: 20,
      description: 'Second fix, plot 9',
    });
    expect(edited.status).toBe(200);
    const invoice = edited.body.invoice as Record<string, unknown>;
    expect(invoice).toMatchObject({
      invoiceNumber: 'SR-001A',
      invoiceDate: '2026-11-11',
      receivedDate: '2026-11-13',
      description: 'Second fix, plot 9',
      amounts: { grossP: 110000, materialsP: 10000, labourP: 100000, cisDeductionP: 20000 },
      createdBy: CREATOR,
      updatedBy: EDITOR,
    });
    expect(Date.parse(String(invoice.updatedAt))).toBeGreaterThan(Date.parse(String(invoice.createdAt)));
    const after = await storedRow(h, 'invoices', { id: invoiceId });
    expect(after).toMatchObject({ invoice_number: 'SR-001A', created_by: CREATOR, updated_by: EDITOR });
    sameInstant(after?.created_at, before?.created_at);
    expect(Date.parse(String(after?.updated_at))).toBeGreaterThan(Date.parse(String(before?.updated_at)));
    sameInstant(after?.updated_at, invoice.updatedAt);
    // The list shows the edited record.
    const list = await h.call(admin, 'GET', '/invoices?search=SR-001A');
    expect((list.body.items as { id: string }[]).map((i) => i.id)).toEqual([invoiceId]);
  });

  it('approve records approvedAt, approvedBy and lockedAt, asks for the statement (requestedAt, requestedBy), queues its job and refuses an edit', async () => {
    const [{ n: jobsBefore } = { n: 0 }] = await adminQuery(h, `SELECT count(*)::int AS n FROM cis.jobs`);
    const approved = await h.call(await as(APPROVER), 'POST', `/invoices/${invoiceId}/approve`);
    expect(approved.status).toBe(200);
    const invoice = approved.body.invoice as Record<string, unknown>;
    expect(invoice).toMatchObject({
      status: 'approved',
      approvedAt: isoInstant,
      approvedBy: APPROVER,
      lockedAt: isoInstant,
      statement: {
        required: true,
        requestedAt: isoInstant,
        requestedBy: APPROVER,
        issuedAt: null,
        issuedMethod: null,
      },
      paidAt: null,
      paidBy: null,
    });
    const row = await storedRow(h, 'invoices', { id: invoiceId });
    expect(row).toMatchObject({
      status: 'approved',
      approved_by: APPROVER,
      statement_required: true,
      statement_requested_by: APPROVER,
    });
    sameInstant(row?.approved_at, invoice.approvedAt);
    sameInstant(row?.locked_at, invoice.lockedAt);
    sameInstant(row?.statement_requested_at, (invoice.statement as { requestedAt: string }).requestedAt);

    const jobs = await adminQuery(
      h,
      `SELECT type, status, payload, performed_by FROM cis.jobs ORDER BY created_at`,
    );
    expect(jobs).toHaveLength(Number(jobsBefore) + 1);
    expect(jobs.at(-1)).toMatchObject({
      type: 'statements.generate',
      performed_by: APPROVER,
      payload: { invoiceIds: [invoiceId], reason: 'approved' },
    });

    const edit = await h.call(admin, 'PUT', `/invoices/${invoiceId}`, {
      invoiceNumber: 'SR-001B',
      subcontractorId,
      invoiceDate: '2026-11-11',
      grossP: 1,
      materialsP: 0,
      vatRate: 0,
    });
    expect(edit.status).toBe(409);
    expect(edit.body.detail).toBe('Only draft invoices can be edited');
  });

  it('approving an invoice whose CIS deduction is 0 queues no statement job and asks for no statement', async () => {
    await drainJobQueue(h);
    const invoice = await createInvoice(admin, {
      invoiceNumber: 'SR-ZERO',
      subcontractorId: grossSubcontractorId,
      grossP: 50000,
    });
    expect(invoice.amounts).toMatchObject({ cisDeductionP: 0 });
    const [{ n: before } = { n: -1 }] = await adminQuery(h, `SELECT count(*)::int AS n FROM cis.jobs`);
    const approved = await h.call(admin, 'POST', `/invoices/${String(invoice.id)}/approve`);
    expect(approved.body.invoice).toMatchObject({
      status: 'approved',
      statement: { required: false, requestedAt: null, requestedBy: null },
    });
    const [{ n: after } = { n: -2 }] = await adminQuery(h, `SELECT count(*)::int AS n FROM cis.jobs`);
    expect(after).toBe(before);
    expect(
      await adminQuery(h, `SELECT id FROM cis.jobs WHERE payload->'invoiceIds' ? $1`, [String(invoice.id)]),
    ).toEqual([]);
  });

  it('mark paid records paymentDate, the tax month of that date, paidAt and paidBy', async () => {
    // No payment date after today (issue 13): the business clock is on the payment day.
    h.clock.set(new Date('2026-12-05T12:00:00Z'));
    const paid = await h.call(await as(PAYER), 'POST', `/invoices/${invoiceId}/pay`, {
      paymentDate: '2026-12-05',
    });
    expect(paid.status).toBe(200);
    const invoice = paid.body.invoice as Record<string, unknown>;
    // 5 December is the last day of the tax month that began on 6 November.
    expect(invoice).toMatchObject({
      status: 'paid',
      paymentDate: '2026-12-05',
      taxMonth: '2026-11',
      paidAt: isoInstant,
      paidBy: PAYER,
      approvedBy: APPROVER,
    });
    const row = await storedRow(h, 'invoices', { id: invoiceId });
    expect(row).toMatchObject({
      status: 'paid',
      payment_date: '2026-12-05',
      tax_month: '2026-11',
      paid_by: PAYER,
      updated_by: PAYER,
    });
    sameInstant(row?.paid_at, invoice.paidAt);
  });

  it('cancel is recorded as cis.invoice.cancelled in the activity log and on cis.events.v1', async () => {
    const invoice = await createInvoice(admin, { invoiceNumber: 'SR-CANCEL', subcontractorId });
    const id = String(invoice.id);
    const cancelled = await h.call(admin, 'POST', `/invoices/${id}/cancel`);
    expect(cancelled.body.invoice).toMatchObject({ status: 'cancelled' });
    const [entry] = await activity('cis.invoice.cancelled', id);
    expect(entry).toMatchObject({ tenant_id: 'demo', performed_by: ADMIN });
    expect((await events('cis.invoice.cancelled'))[0]).toMatchObject({
      tenant_id: 'demo',
      payload: { actorId: ADMIN, targetType: 'invoice', targetId: id },
    });
  });
});

describe('statement record', () => {
  it('generated: id, subcontractor id and name, tax month, status, generatedAt and generatedBy; issued: issuedAt and issuedMethod, stamped on each included invoice', async () => {
    const subcontractorId = await createSubcontractor(h, admin, { name: 'Stella Stone', utr: '7777777777' });
    const ids: string[] = [];
    for (const invoiceNumber of ['ST-A', 'ST-B'])
      ids.push(
        String((await createInvoice(admin, { invoiceNumber, subcontractorId, materialsP: 20000 })).id),
      );
    const approved = await h.call(await as(APPROVER), 'POST', '/invoices/approve', { ids });
    expect(approved.body).toEqual({ succeeded: ids, failed: [] });
    await drainJobQueue(h);
    const paid = await h.call(await as(PAYER), 'POST', '/invoices/pay', { ids, paymentDate: '2026-10-20' });
    expect(paid.body).toEqual({ succeeded: ids, failed: [] });
    await drainJobQueue(h);

    const page = await h.call(admin, 'GET', '/statements?taxMonth=2026-10');
    const group = (page.body.subcontractors as { subcontractorId: string; statement: Record<string, unknown> }[]).find(
      (g) => g.subcontractorId === subcontractorId,
    ); // prettier-ignore
    const statement = group?.statement as Record<string, unknown>;
    // The job the payment queued generated it, for the user who paid.
    expect(statement).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      subcontractorId,
      subcontractorName: 'Stella Stone',
      taxMonth: '2026-10',
      invoiceCount: 2,
      status: 'generated',
      generatedAt: isoInstant,
      generatedBy: PAYER,
      issuedAt: null,
      issuedMethod: null,
      createdAt: isoInstant,
      updatedAt: isoInstant,
    });
    const statementId = String(statement.id);
    const generated = await storedRow(h, 'statements', { id: statementId });
    expect(generated).toMatchObject({
      tenant_id: 'demo',
      id: statementId,
      subcontractor_id: subcontractorId,
      subcontractor_name: 'Stella Stone',
      tax_month: '2026-10',
      status: 'generated',
      generated_by: PAYER,
      issued_at: null,
      issued_method: null,
    });
    sameInstant(generated?.generated_at, statement.generatedAt);
    sameInstant(generated?.created_at, statement.createdAt);

    const issued = await h.call(await as(ISSUER), 'POST', `/statements/${statementId}/issue`, {
      method: 'print',
    });
    expect(issued.status).toBe(200);
    const view = (issued.body.statement ?? {}) as Record<string, unknown>;
    expect(view).toMatchObject({ status: 'issued', issuedAt: isoInstant, issuedMethod: 'print' });
    const stored = await storedRow(h, 'statements', { id: statementId });
    expect(stored).toMatchObject({
      status: 'issued',
      issued_method: 'print',
      issued_by: ISSUER,
      updated_by: ISSUER,
    });
    sameInstant(stored?.issued_at, view.issuedAt);
    sameInstant(stored?.updated_at, view.updatedAt);
    sameInstant(stored?.created_at, statement.createdAt);
    expect(Date.parse(String(stored?.updated_at))).toBeGreaterThan(Date.parse(String(stored?.created_at)));

    // Issuing stamps each included invoice; the statement request stays the approver's.
    for (const id of ids) {
      const invoice = await h.call(admin, 'GET', `/invoices/${id}`);
      expect(invoice.body.invoice).toMatchObject({
        statement: {
          required: true,
          requestedAt: isoInstant,
          requestedBy: APPROVER,
          issuedAt: view.issuedAt,
          issuedMethod: 'print',
          statementId,
        },
      });
      const row = await storedRow(h, 'invoices', { id });
      expect(row).toMatchObject({ statement_issued_method: 'print', statement_id: statementId });
      sameInstant(row?.statement_issued_at, view.issuedAt);
    }

    // The activity entry of the issue (the spec's 'statement.issue', recorded as cis.statement.sent).
    const [activity] = await adminQuery(
      h,
      `SELECT action, performed_by, details FROM cis.activity WHERE target_id = $1 AND action = 'cis.statement.sent'`,
      [statementId],
    );
    expect(activity).toMatchObject({
      performed_by: ISSUER,
      details: { activity: 'statement.issue', method: 'print' },
    });
  });

  it("answers 'Statement not found' for a statement that does not exist", async () => {
    const issue = await h.call(admin, 'POST', '/statements/0123456789abcdef/issue', { method: 'print' });
    expect(issue.status).toBe(404);
    expect(issue.body.detail).toBe('Statement not found');
    const pdf = await h.call(admin, 'GET', '/statements/0123456789abcdef/pdf');
    expect(pdf.status).toBe(404);
    expect(pdf.body.detail).toBe('Statement not found');
  });
});

describe('subcontractor record', () => {
  it('create stores id, type, name, email, phone, mobile, portalAccess, active, archived and the creator', async () => {
    const created = await h.call(
      await as(CREATOR),
      'POST',
      '/subcontractors',
      subcontractorBody({
        type: 'partnership',
        name: 'Parker & Partners',
        utr: '5555555555',
        nino: '',
        email: 'office@parker.test',
        phone: '0113 496 0000',
        mobile: '07700 900456',
        portalAccess: true,
      }),
    );
    expect(created.status).toBe(201);
    const sub = created.body.subcontractor as Record<string, unknown>;
    const id = String(sub.id);
    expect(sub).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'partnership',
      name: 'Parker & Partners',
      email: 'office@parker.test',
      phone: '0113 496 0000',
      mobile: '07700 900456',
      portalAccess: true,
      active: true,
      archived: false,
      createdBy: CREATOR,
      updatedBy: CREATOR,
    });
    expect((await h.call(admin, 'GET', `/subcontractors/${id}`)).body.subcontractor).toMatchObject({
      id,
      type: 'partnership',
      name: 'Parker & Partners',
    });
    expect(await storedRow(h, 'subcontractors', { id })).toMatchObject({
      id,
      tenant_id: 'demo',
      type: 'partnership',
      name: 'Parker & Partners',
      email: 'office@parker.test',
      phone: '0113 496 0000',
      mobile: '07700 900456',
      portal_access: true,
      active: true,
      archived: false,
      created_by: CREATOR,
      updated_by: CREATOR,
      deleted_at: null,
    });

    const archived = await h.call(admin, 'POST', '/subcontractors/archive', { ids: [id] });
    expect(archived.body).toEqual({ succeeded: [id], failed: [] });
    expect(await storedRow(h, 'subcontractors', { id })).toMatchObject({
      active: false,
      archived: true,
      portal_access: true,
      updated_by: ADMIN,
    });
  });

  it('an edit with a blank UTR keeps the sealed one; update, verification and delete are each audited; the deleted record is kept', async () => {
    const id = await createSubcontractor(h, await as(CREATOR), { name: 'Una Utr', utr: '1234567890' });
    const sealed = (await storedRow(h, 'subcontractors', { id }))?.utr_enc;
    expect(String(sealed)).toMatch(/^v1\.c1\./);

    for (const utr of ['', undefined]) {
      const edited = await h.call(
        await as(EDITOR),
        'PUT',
        `/subcontractors/${id}`,
        subcontractorBody({ name: 'Una Utr', utr, phone: '07700900999' }),
      );
      expect(edited.status).toBe(200);
      expect(edited.body.subcontractor).toMatchObject({
        utrMasked: '******7890',
        phone: '07700900999',
        updatedBy: EDITOR,
        createdBy: CREATOR,
      });
    }
    expect((await storedRow(h, 'subcontractors', { id }))?.utr_enc).toBe(sealed);
    const clear = await h.call(admin, 'GET', `/subcontractors/${id}?unmask=true`);
    expect(clear.body.subcontractor).toMatchObject({ utr: '1234567890' });

    const verified = await h.call(admin, 'POST', `/subcontractors/${id}/verification`, {
      status: 'higher',
      method: 'letter',
      reference: 'V1234567890AB',
      notes: '',
    });
    expect(verified.body.subcontractor).toMatchObject({ verification: { status: 'higher', rate: 30 } });

    const deleted = await h.call(admin, 'POST', '/subcontractors/delete', { ids: [id] });
    expect(deleted.body).toEqual({ succeeded: [id], failed: [] });
    expect((await h.call(admin, 'GET', `/subcontractors/${id}`)).status).toBe(404);
    const list = await h.call(admin, 'GET', '/subcontractors?search=Una');
    expect(list.body.items).toEqual([]);
    // The deleted record is kept, with when and by whom.
    const kept = await storedRow(h, 'subcontractors', { id });
    expect(kept).toMatchObject({ id, name: 'Una Utr', deleted_by: ADMIN, archived: true, utr_enc: sealed });
    expect(Date.parse(String(kept?.deleted_at))).not.toBeNaN();

    for (const [action, actor] of [
      ['cis.subcontractor.created', CREATOR],
      ['cis.subcontractor.updated', EDITOR],
      ['cis.subcontractor.verified', ADMIN],
      ['cis.subcontractor.deleted', ADMIN],
    ] as const) {
      const entries = await activity(action, id);
      expect(entries.length).toBeGreaterThanOrEqual(1);
      expect(entries[0]).toMatchObject({ tenant_id: 'demo', performed_by: actor });
      const published = (await events(action)).filter(
        (event) => (event.payload as { targetId: string }).targetId === id,
      );
      expect(published[0]).toMatchObject({
        tenant_id: 'demo',
        topic: 'cis.events.v1',
        payload: { actorId: actor },
      });
    }
  });

  it('lists with the status, type and search filters, by name', async () => {
    const company = await createSubcontractor(h, admin, {
      type: 'company',
      name: 'Filter Co Ltd',
      nino: '',
      companyNumber: '01234567',
    });
    const individual = await createSubcontractor(h, admin, { name: 'Filter Indy' });
    const gone = await createSubcontractor(h, admin, { name: 'Filter Gone' });
    await h.call(admin, 'POST', '/subcontractors/archive', { ids: [gone] });
    const ids = async (query: string) =>
      ((await h.call(admin, 'GET', `/subcontractors?${query}`)).body.items as { id: string }[]).map(
        (s) => s.id,
      );
    expect(await ids('search=filter')).toEqual([company, gone, individual]);
    expect(await ids('search=filter&type=company')).toEqual([company]);
    expect(await ids('search=filter&type=individual')).toEqual([gone, individual]);
    expect(await ids('search=filter&status=active')).toEqual([company, individual]);
    expect(await ids('search=filter&status=archived')).toEqual([gone]);
  });

  it('the invite creates an individual (no type chosen), active, standard at 20 % with portal access, answers success, magicLink and tenantName, and emails the link', async () => {
    const inviter = await h.signInAs('admin@demo.test');
    h.sink.clear();
    const sent = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'Ivo Invite',
      email: 'ivo@invite.test',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      success: true,
      subcontractorId: expect.any(String),
      magicLink: expect.stringContaining('token='),
      expiresIn: '15 minutes',
      tenantName: demoSeed.tenant.name,
      emailSent: true,
    });
    const id = String(sent.body.subcontractorId);
    expect(await storedRow(h, 'subcontractors', { id })).toMatchObject({
      type: 'individual',
      name: 'Ivo Invite',
      email: 'ivo@invite.test',
      active: true,
      archived: false,
      portal_access: true,
      verification_status: 'standard',
      verification_rate: 20,
    });
    // The email: to the subcontractor, naming them and the contractor, with the link and its 15 minutes.
    const mail = await eventually(
      async () => Promise.resolve(h.sink.messages().find((m) => m.to.includes('ivo@invite.test'))),
      10_000,
      'the invitation email',
    );
    expect(mail.subject).toContain(demoSeed.tenant.name);
    // Sent as the contractor, as its statements are (issue 13): its company name, replies to its accounts.
    expect(mail).toMatchObject({ fromName: 'Demo Construction Ltd', replyTo: ['accounts@demo.test'] });
    expect(mail.text).toContain('Hello Ivo Invite,');
    expect(mail.text).toContain(`${demoSeed.tenant.name} has invited you to their subcontractor portal`);
    expect(mail.text).toContain(String(sent.body.magicLink));
    expect(mail.text).toContain('The link expires in 15 minutes');

    const refused = await h.call(inviter, 'POST', '/subcontractors/invite', { name: '', email: '' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.detail).toBe('Name and email are required');
  });
});

describe('batch writes', () => {
  let subcontractorId: string;

  beforeAll(async () => {
    subcontractorId = await createSubcontractor(h, admin, { name: 'Betty Batch', utr: '6666666666' });
  });

  it('bulk approve, mark paid and soft delete answer the ids that changed and each refused id with its reason', async () => {
    const [d1, d2, d3] = await Promise.all(
      ['BT-1', 'BT-2', 'BT-3'].map(async (invoiceNumber) =>
        String((await createInvoice(admin, { invoiceNumber, subcontractorId })).id),
      ),
    ) as [string, string, string]; // prettier-ignore
    await h.call(admin, 'POST', `/invoices/${d3}/cancel`);
    const unknown = '00000000-0000-4000-8000-0000000bad00';

    const approved = await h.call(await as(APPROVER), 'POST', '/invoices/approve', {
      ids: [d1, d2, d3, unknown],
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({
      succeeded: [d1, d2],
      failed: [
        { id: d3, error: 'Only draft or portal-pending invoices can be approved' },
        { id: unknown, error: 'Invoice not found' },
      ],
    });
    const statuses = async () =>
      Object.fromEntries(
        (await adminQuery(h, 'SELECT id, status, deleted_at FROM cis.invoices WHERE id = ANY($1)', [[d1, d2, d3]])).map(
          (row) => [String(row.id), `${String(row.status)}${row.deleted_at ? ' (deleted)' : ''}`],
        ),
      ); // prettier-ignore
    expect(await statuses()).toEqual({ [d1]: 'approved', [d2]: 'approved', [d3]: 'cancelled' });
    const [bulkApprove] = (await events('cis.invoice.bulk.approve')).slice(-1);
    expect(bulkApprove?.payload).toMatchObject({ targetIds: [d1, d2, d3, unknown], succeeded: 2, failed: 2 });

    const paid = await h.call(await as(PAYER), 'POST', '/invoices/pay', {
      ids: [d1, d3, d2],
      paymentDate: '2026-09-10',
    });
    expect(paid.body).toEqual({
      succeeded: [d1, d2],
      failed: [{ id: d3, error: 'Only approved invoices can be marked as paid' }],
    });
    expect(await statuses()).toEqual({ [d1]: 'paid', [d2]: 'paid', [d3]: 'cancelled' });

    const deleted = await h.call(admin, 'POST', '/invoices/delete', { ids: [d3, d1] });
    expect(deleted.body).toEqual({
      succeeded: [d3],
      failed: [{ id: d1, error: 'Approved and paid invoices cannot be deleted; cancel them instead' }],
    });
    expect(await statuses()).toEqual({ [d1]: 'paid', [d2]: 'paid', [d3]: 'cancelled (deleted)' });
    expect(await storedRow(h, 'invoices', { id: d3 })).toMatchObject({ archived: true, deleted_by: ADMIN });
  });

  it('import creates each valid row with createdAt, updatedAt and the importer as creator, and reports the others by row', async () => {
    const csv = [
      'Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge,Description,Materials Justification',
      'BI-1,Betty Batch,02/11/2026,1000.00,100.00,20,no,Roofing,',
      'BI-2,Betty Batch,03/11/2026,200.00,300.00,20,no,,',
      'BI-3,Betty Batch,2026-11-04,250.00,0,0,no,,',
    ].join('\n');
    const result = await h.call(await as(IMPORTER), 'POST', '/invoices/import', { csv });
    expect(result.status).toBe(200);
    const created = result.body.created as string[];
    expect(created).toHaveLength(2);
    expect(result.body.failed).toEqual([
      { index: 2, errors: expect.arrayContaining(['Materials cannot exceed gross amount']) as unknown },
    ]);
    const rows = await adminQuery(
      h,
      'SELECT to_jsonb(i) AS row FROM cis.invoices i WHERE id = ANY($1) ORDER BY invoice_number',
      [created],
    );
    expect(rows.map((r) => r.row)).toEqual([
      expect.objectContaining({ invoice_number: 'BI-1', source: 'import', status: 'draft', created_by: IMPORTER, updated_by: IMPORTER }),
      expect.objectContaining({ invoice_number: 'BI-3', source: 'import', status: 'draft', created_by: IMPORTER, updated_by: IMPORTER }),
    ]); // prettier-ignore
    for (const { row } of rows as { row: { created_at: string; updated_at: string } }[]) {
      expect(Date.parse(row.created_at)).not.toBeNaN();
      expect(Date.parse(row.updated_at)).not.toBeNaN();
    }
    const view = await h.call(admin, 'GET', `/invoices/${created[0] ?? ''}`);
    expect(view.body.invoice).toMatchObject({
      createdBy: IMPORTER,
      createdAt: isoInstant,
      updatedAt: isoInstant,
    });
    const [entry] = (await activity('cis.import.invoices')).slice(-1);
    expect(entry).toMatchObject({ performed_by: IMPORTER, details: { format: 'csv', rows: '3' } });
  });

  it('archive subcontractors in bulk answers the archived ids and each refused id', async () => {
    const one = await createSubcontractor(h, admin, { name: 'Arlo Archive' });
    const two = await createSubcontractor(h, admin, { name: 'Ada Archive' });
    const unknown = '00000000-0000-4000-8000-0000000bad01';
    const archived = await h.call(admin, 'POST', '/subcontractors/archive', { ids: [one, unknown, two] });
    expect(archived.body).toEqual({
      succeeded: [one, two],
      failed: [{ id: unknown, error: 'Subcontractor not found' }],
    });
    const rows = await adminQuery(h, 'SELECT archived, active FROM cis.subcontractors WHERE id = ANY($1)', [
      [one, two],
    ]);
    expect(rows).toEqual([
      { archived: true, active: false },
      { archived: true, active: false },
    ]);
    const [bulk] = (await events('cis.subcontractor.bulk.archive')).slice(-1);
    expect(bulk?.payload).toMatchObject({ targetIds: [one, unknown, two], succeeded: 2, failed: 1 });
  });
});

describe('audit log', () => {
  it('each entry carries performedAt; its event on cis.events.v1 carries the tenant, the action, the target and the details', async () => {
    const listed = await h.call(admin, 'GET', '/activity?limit=200');
    const items = listed.body.items as Record<string, unknown>[];
    expect(items.length).toBeGreaterThan(10);
    for (const item of items) expect(item.performedAt).toEqual(isoInstant);
    const times = items.map((item) => Date.parse(String(item.performedAt)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const stored = await adminQuery(h, `SELECT performed_at FROM cis.activity WHERE tenant_id = 'demo'`);
    expect(stored.every((row) => row.performed_at instanceof Date)).toBe(true);

    const subcontractorId = await createSubcontractor(h, admin, { name: 'Eve Event' });
    const invoice = await createInvoice(admin, { invoiceNumber: 'EV-1', subcontractorId, grossP: 10000 });
    const id = String(invoice.id);
    const event = await eventually(
      async () => {
        const rows = await adminQuery(
          h,
          `SELECT tenant_id, topic, type, key, payload, published_at FROM cis.outbox WHERE type = 'cis.invoice.created' AND payload->>'targetId' = $1`,
          [id],
        );
        return rows[0]?.published_at ? rows[0] : undefined;
      },
      20_000,
      'the event to be published to Kafka',
    );
    expect(event).toMatchObject({
      tenant_id: 'demo',
      topic: 'cis.events.v1',
      type: 'cis.invoice.created',
      payload: {
        actorId: ADMIN,
        targetType: 'invoice',
        targetId: id,
        details: { grossP: '10000', cisDeductionP: '2000', source: 'staff' },
      },
    });
    const [entry] = await activity('cis.invoice.created', id);
    expect(entry).toMatchObject({ tenant_id: 'demo', target_id: id, details: { grossP: '10000' } });
  });

  it('exports and imports are recorded as cis.export.{x} and cis.import.{x}', async () => {
    const invoices = await fetch(`${h.cisUrl}/v1/invoices/export.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(invoices.status).toBe(200);
    await invoices.text();
    const subs = await fetch(`${h.cisUrl}/v1/subcontractors/export.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(subs.status).toBe(200);
    const count = subs.headers.get('x-record-count');
    await subs.text();
    const [invoiceExport] = (await activity('cis.export.invoices')).slice(-1);
    expect(invoiceExport).toMatchObject({
      performed_by: ADMIN,
      details: { resource: 'invoices', format: 'csv' },
    });
    const [subExport] = (await activity('cis.export.subcontractors')).slice(-1);
    expect(subExport).toMatchObject({ performed_by: ADMIN, details: { format: 'csv', count } });
    expect(await events('cis.export.subcontractors')).not.toHaveLength(0);
    expect(await events('cis.export.invoices')).not.toHaveLength(0);
    expect(await events('cis.import.invoices')).not.toHaveLength(0);
  });

  it('a refused request is recorded as cis.permission.denied and a server failure as cis.error, with the reason', async () => {
    const denied = '00000000-0000-4000-8000-0000000de001';
    const reader = await h.token(['cis.sub.read'], 'demo', denied);
    const refused = await h.call(reader, 'POST', '/invoices/approve', { ids: [] });
    expect(refused.status).toBe(403);
    const deniedEntry = await firstActivityBy(denied, 'the permission.denied entry');
    expect(deniedEntry).toMatchObject({
      action: 'cis.permission.denied',
      details: { method: 'POST', path: '/v1/invoices/approve', status: '403' },
    });

    // A sealed UTR that cannot be opened is a server failure.
    const id = await createSubcontractor(h, admin, { name: 'Erin Error', utr: '4444444444' });
    await adminQuery(h, `UPDATE cis.subcontractors SET utr_enc = 'v1.c1.AAAA.BBBB.CCCC' WHERE id = $1`, [id]);
    const failing = '00000000-0000-4000-8000-0000000e7707';
    const failed = await h.call(await as(failing), 'GET', `/subcontractors/${id}?unmask=true`);
    expect(failed.status).toBe(500);
    const errorEntry = await firstActivityBy(failing, 'the cis.error entry');
    expect(errorEntry).toMatchObject({
      action: 'cis.error',
      details: {
        method: 'GET',
        path: `/v1/subcontractors/${id}`,
        status: '500',
        reason: 'Failed to decrypt sensitive data',
      },
    });
    const published = await eventually(
      async () =>
        (await events('cis.error')).find(
          (event) => (event.payload as { actorId: string }).actorId === failing,
        ),
      10_000,
      'the cis.error event',
    );
    expect(published).toMatchObject({ tenant_id: 'demo', payload: { targetType: 'error' } });
  });

  it('a refused request whose audit entry cannot be written still answers, and the failure is only a warning', async () => {
    const logger = h.definition.deps().logger;
    const originalWarn = logger.warn;
    const warnings: unknown[][] = [];
    logger.warn = (...args: unknown[]) => {
      warnings.push(args);
      Reflect.apply(originalWarn, logger, args);
    };
    await adminQuery(
      h,
      `CREATE FUNCTION cis.test_refuse_denied_audit() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.action = 'cis.permission.denied' THEN RAISE EXCEPTION 'the activity log refused the entry'; END IF;
         RETURN NEW;
       END $$`,
    );
    await adminQuery(
      h,
      `CREATE TRIGGER test_refuse_denied_audit BEFORE INSERT ON cis.activity
       FOR EACH ROW EXECUTE FUNCTION cis.test_refuse_denied_audit()`,
    );
    const user = '00000000-0000-4000-8000-0000000de002';
    try {
      const reader = await h.token(['cis.sub.read'], 'demo', user);
      const refused = await h.call(reader, 'POST', '/invoices/pay', { ids: [] });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe('This requires the cis.inv.pay permission.');
      const warning = await eventually(
        async () => Promise.resolve(warnings.find((args) => args[1] === 'audit entry could not be written')),
        10_000,
        'the warning',
      );
      expect((warning[0] as { err: Error }).err.message).toContain('the activity log refused the entry');
      // The service keeps answering, and the refused entry was not written.
      expect((await h.call(admin, 'GET', '/settings')).status).toBe(200);
      expect(await adminQuery(h, 'SELECT id FROM cis.activity WHERE performed_by = $1', [user])).toEqual([]);
    } finally {
      logger.warn = originalWarn;
      await adminQuery(h, 'DROP TRIGGER test_refuse_denied_audit ON cis.activity');
      await adminQuery(h, 'DROP FUNCTION cis.test_refuse_denied_audit()');
    }
    // With the log writable again the same refusal is recorded.
    await h.call(await h.token(['cis.sub.read'], 'demo', user), 'POST', '/invoices/pay', { ids: [] });
    await eventually(
      async () => (await adminQuery(h, 'SELECT id FROM cis.activity WHERE performed_by = $1', [user]))[0],
      10_000,
      'the entry once the log is writable',
    );
  });
});

describe('sealed fields', () => {
  it("answers 'Failed to encrypt sensitive data' when the active key is unavailable, never the value, and stores nothing", async () => {
    const keys = (h.definition.deps().cipher as unknown as { keys: Map<string, Buffer> }).keys;
    const active = keys.get('c1');
    expect(active).toBeDefined();
    const user = '00000000-0000-4000-8000-0000000e2c01';
    keys.delete('c1');
    try {
      const created = await h.call(
        await as(user),
        'POST',
        '/subcontractors',
        subcontractorBody({ name: 'Kai Keyless', utr: '3141592653', nino: 'AB123456C' }),
      );
      expect(created.status).toBe(500);
      expect(created.body.detail).toBe('Failed to encrypt sensitive data');
      expect(created.text).not.toContain('3141592653');
      const settings = await h.call(await as(user), 'PUT', '/settings', settingsBody({ utr: '2718281828' }));
      expect(settings.status).toBe(500);
      expect(settings.body.detail).toBe('Failed to encrypt sensitive data');
    } finally {
      keys.set('c1', active as Buffer);
    }
    expect(await adminQuery(h, `SELECT id FROM cis.subcontractors WHERE name = 'Kai Keyless'`)).toEqual([]);
    expect((await storedRow(h, 'settings', { tenant_id: 'demo' }))?.utr_masked).toBe('******8152');
    const entries = await eventually(
      async () => {
        const rows = await adminQuery(h, `SELECT details FROM cis.activity WHERE action = 'cis.error' AND performed_by = $1 ORDER BY id`, [user]); // prettier-ignore
        return rows.length === 2 ? rows : undefined;
      },
      10_000,
      'both cis.error entries',
    );
    expect(entries.map((row) => (row.details as { reason: string }).reason)).toEqual([
      'Failed to encrypt sensitive data',
      'Failed to encrypt sensitive data',
    ]);
    // With the key back, sealing works again.
    expect(
      (await h.call(admin, 'POST', '/subcontractors', subcontractorBody({ name: 'Kai Keyless' }))).status,
    ).toBe(201);
  });
});

describe('tenant isolation', () => {
  const TABLES = [
    'settings',
    'subcontractors',
    'invoices',
    'statements',
    'returns',
    'jobs',
    'activity',
    'return_period_marks',
    'deadline_alerts',
  ] as const;

  /**
   * Gives a tenant a row in every CIS table: settings, a subcontractor, a paid invoice, its statement and job, a return,
   * a month marked as before this product, and a deadline told (as the daily scan records it).
   */
  async function seed(tenantId: string, name: string, paymentDate: string, taxMonth: string) {
    const token = await as(ADMIN, tenantId);
    expect(
      (await h.call(token, 'PUT', '/settings', settingsBody({ companyName: `${name} Ltd` }))).status,
    ).toBe(200);
    const subcontractorId = await createSubcontractor(h, token, { name });
    const invoice = await h.call(token, 'POST', '/invoices', {
      invoiceNumber: `RLS-${tenantId}`,
      subcontractorId,
      invoiceDate: paymentDate,
      grossP: 10000,
      materialsP: 0,
      vatRate: 20,
    });
    const id = (invoice.body.invoice as { id: string }).id;
    await h.call(token, 'POST', `/invoices/${id}/approve`);
    await h.call(token, 'POST', `/invoices/${id}/pay`, { paymentDate });
    await drainJobQueue(h);
    expect((await h.call(token, 'POST', `/returns/${taxMonth}/compile`)).status).toBe(200);
    const marked = await h.call(token, 'PUT', '/returns/periods/2026-07/mark', { reason: 'before_product' });
    expect(marked.status).toBe(200);
    await adminQuery(
      h,
      `INSERT INTO cis.deadline_alerts (tenant_id, tax_month, kind, state, due_date, alerted_at)
       VALUES ($1, $2, 'filing', 'due', '2026-09-19', now()) ON CONFLICT DO NOTHING`,
      [tenantId, taxMonth],
    );
  }

  it('under the service’s runtime role each CIS table shows only the rows of the tenant set for the transaction, and none without one', async () => {
    await seed('demo', 'Rhys Demo', '2026-08-10', '2026-08');
    await seed('acme', 'Rhys Acme', '2026-08-11', '2026-08');

    // Every table that holds tenant data has forced row-level security; the others are the outbox, the inbox, the
    // job queue (event envelopes and ids without personal data, read across tenants by the relay and the workers), the
    // deadline scan's list of tenants (tenant ids and dates, claimed across tenants by the daily scan),
    // the CIS300 seal and identifier hash backlogs (tenant ids only, read across tenants at start-up) and the
    // migrations' bookkeeping.
    const tables = await adminQuery(
      h,
      `SELECT c.relname AS name, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'cis' AND c.relkind = 'r' ORDER BY c.relname`,
    );
    const forced = tables.filter((t) => t.rls === true && t.forced === true).map((t) => String(t.name));
    expect(forced.sort()).toEqual([...TABLES].sort());
    expect(tables.filter((t) => t.rls !== true).map((t) => t.name)).toEqual([
      'cis300_seal_backlog',
      'deadline_scan_tenants',
      'identity_hash_backlog',
      'inbox',
      'job_queue',
      'knex_migrations',
      'knex_migrations_lock',
      'outbox',
    ]);
    const policies = await adminQuery(h, `SELECT tablename, qual FROM pg_policies WHERE schemaname = 'cis'`);
    for (const table of TABLES)
      expect(policies.find((p) => p.tablename === table)?.qual).toContain("current_setting('app.tenant_id'");

    for (const table of TABLES) {
      const both = await adminQuery(h, `SELECT DISTINCT tenant_id FROM cis.${table} ORDER BY tenant_id`);
      expect(both.map((row) => row.tenant_id)).toEqual(['acme', 'demo']);
    }
    for (const tenant of ['demo', 'acme']) {
      await serviceRoleQuery(h, tenant, async (query) => {
        const [role] = await query('SELECT current_user AS name');
        expect(role?.name).toBe('svc_cis');
        for (const table of TABLES) {
          const seen = await query(
            `SELECT tenant_id, count(*)::int AS n FROM cis.${table} GROUP BY tenant_id`,
          );
          expect({ table, tenants: seen.map((row) => row.tenant_id) }).toEqual({ table, tenants: [tenant] });
          expect(seen[0]?.n).toBeGreaterThan(0);
        }
      });
    }
    await serviceRoleQuery(h, null, async (query) => {
      for (const table of TABLES) expect(await query(`SELECT tenant_id FROM cis.${table}`)).toEqual([]);
    });
    // Nor can a write under one tenant put a row in another's.
    await expect(
      serviceRoleQuery(h, 'demo', async (query) => {
        await query(
          `INSERT INTO cis.activity (tenant_id, action, target_type, summary, performed_by) VALUES ('acme', 'x', 'x', 'x', 'x')`,
        );
      }),
    ).rejects.toThrow(/row-level security/);
  });
});

describe('jobs', () => {
  it('a job keeps type, status, progress, performedBy and stamps; GET /jobs/:id follows it from pending at 0 to completed at 100', async () => {
    // A paid invoice without a statement: no deduction (gross payment status), so nothing asked for one.
    const subcontractorId = await createSubcontractor(h, admin, {
      name: 'Jo Job',
      verification: { status: 'gross', method: 'online', reference: '', notes: '' },
    });
    const invoice = String((await createInvoice(admin, { invoiceNumber: 'JOB-1', subcontractorId })).id);
    await h.call(admin, 'POST', `/invoices/${invoice}/approve`);
    await h.call(admin, 'POST', `/invoices/${invoice}/pay`, { paymentDate: '2026-07-15' });
    await drainJobQueue(h);
    // The worker stops so the job can be seen waiting; this is the file's last test, so it stays stopped (the
    // harness's shutdown stops it again).
    const worker = h.definition.jobs();
    await worker.stop();
    const generator = '00000000-0000-4000-8000-00000000c0b5';
    const started = await h.call(await as(generator), 'POST', '/statements/generate-all', {
      taxMonth: '2026-07',
    });
    expect(started.status).toBe(202);
    const id = (started.body.job as { id: string }).id;
    const pending = await h.call(admin, 'GET', `/jobs/${id}`);
    expect(pending.status).toBe(200);
    expect(pending.body.job).toEqual({
      id,
      type: 'statements.generate',
      status: 'pending',
      progress: 0,
      result: null,
      error: null,
      performedBy: generator,
      createdAt: isoInstant,
      updatedAt: isoInstant,
    });
    const stored = await storedRow(h, 'jobs', { id });
    expect(stored).toMatchObject({
      tenant_id: 'demo',
      type: 'statements.generate',
      status: 'pending',
      progress: 0,
      performed_by: generator,
      payload: { taxMonth: '2026-07', reason: 'generate-all' },
    });

    // Run it (the worker's own step): Jo Job's invoice paid in 2026-07 gets its statement.
    while (await worker.runOne()) {
      // every due job, this one included
    }
    const done = await h.call(admin, 'GET', `/jobs/${id}`);
    const job = done.body.job as Record<string, unknown>;
    expect(job).toMatchObject({
      status: 'completed',
      progress: 100,
      performedBy: generator,
      result: { generated: 1, failed: 0 },
    });
    expect(Date.parse(String(job.updatedAt))).toBeGreaterThan(Date.parse(String(job.createdAt)));
    expect(await storedRow(h, 'jobs', { id })).toMatchObject({ status: 'completed', progress: 100 });
    expect((await h.call(admin, 'GET', '/jobs/00000000-0000-4000-8000-00000000f00d')).body.detail).toBe(
      'Job not found',
    );
  });
});
