// Corrections after the fact (issue 13, ADR 0037) through the cis service's API on real PostgreSQL and Kafka, with
// the business clock controlled (10 November 2026, London): no payment date after today; paying, cancelling or
// moving a payment into a month whose return is submitted is refused with `return_submitted` until the request
// confirms it; a paid invoice's payment date corrected (audited, old and new date) while its month's return is not
// submitted; a cancelled invoice never shown paid nor pending a statement (staff list, detail, statements, portal);
// an issued statement whose month changed marked, and a corrected statement issued with the old one kept.
import { internalPost } from '@workspace/identity/testing';
import { ControlledClock } from '@workspace/kit/testing';
import { PDFParse } from 'pdf-parse';
import {
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
  startCisHarnessWithAdmin,
  type CisHarness,
} from './support.js';

/** HMRC's three declarations, ticked: what a submit asks for (the declare work of issue 13). */
const DECLARATIONS = {
  declarations: { employmentStatus: true, verification: true, informationCorrect: true },
};

const clock = new ControlledClock(new Date('2026-11-10T10:00:00Z'));
let h: CisHarness;
let admin: string;

/** The month ending 5 November 2026 (6 October to 5 November): filed on the 10th, its return submitted. */
const OCTOBER = '2026-10';
/** The month ending 5 September 2026: nothing filed. */
const AUGUST = '2026-08';
/** The month in progress on 10 November 2026 (6 November to 5 December). */
const NOVEMBER = '2026-11';

type Invoice = {
  id: string;
  status: string;
  paymentDate: string | null;
  taxMonth: string | null;
  paidAt: string | null;
  statement: { required: boolean; issuedAt: string | null; statementId: string | null };
};

beforeAll(async () => {
  ({ h, admin } = await startCisHarnessWithAdmin({ clock }));
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
});

afterAll(async () => {
  await h.stop();
});

beforeEach(() => {
  clock.set(new Date('2026-11-10T10:00:00Z'));
});

let numbers = 0;

/** A new approved invoice of the subcontractor (£1,000 gross, £200 materials: a £160 deduction at 20 %). */
async function approvedInvoice(subcontractorId: string, overrides: Record<string, unknown> = {}) {
  numbers += 1;
  const created = await h.call(
    admin,
    'POST',
    '/invoices',
    invoiceBody(subcontractorId, {
      invoiceNumber: `COR-${numbers}`,
      invoiceDate: '2026-10-20',
      ...overrides,
    }),
  );
  expect(created.status).toBe(201);
  const id = (created.body.invoice as { id: string }).id;
  expect((await h.call(admin, 'POST', `/invoices/${id}/approve`)).status).toBe(200);
  return id;
}

async function paidInvoice(subcontractorId: string, paymentDate: string) {
  const id = await approvedInvoice(subcontractorId);
  const paid = await h.call(admin, 'POST', `/invoices/${id}/pay`, { paymentDate });
  expect(paid.status).toBe(200);
  await drainJobQueue(h);
  return id;
}

const invoice = async (id: string) => (await h.call(admin, 'GET', `/invoices/${id}`)).body.invoice as Invoice;

type Group = {
  subcontractorId: string;
  state: string;
  changedSinceIssue: boolean;
  invoices: { id: string }[];
  totals: { grossP: number; cisDeductionP: number };
  statement: { id: string; status: string; version: number; supersedes: string | null } | null;
};

async function statementGroup(subcontractorId: string, taxMonth: string): Promise<Group | undefined> {
  const page = await h.call(admin, 'GET', `/statements?taxMonth=${taxMonth}`);
  expect(page.status).toBe(200);
  return (page.body.subcontractors as Group[]).find((g) => g.subcontractorId === subcontractorId);
}

/** Issues the subcontractor's statement of the month by print, then compiles and submits the month's return. */
async function submitMonth(subcontractorIds: string[], taxMonth: string) {
  for (const subcontractorId of subcontractorIds) {
    const group = await statementGroup(subcontractorId, taxMonth);
    if (group?.statement?.status === 'generated') {
      const issued = await h.call(admin, 'POST', `/statements/${group.statement.id}/issue`, {
        method: 'print',
      });
      expect(issued.status).toBe(200);
    }
  }
  const compiled = await h.call(admin, 'POST', `/returns/${taxMonth}/compile`);
  expect(compiled.status).toBe(200);
  const submitted = await h.call(admin, 'POST', `/returns/${taxMonth}/submit`, DECLARATIONS);
  expect(submitted.status).toBe(200);
}

/** The newest audit entries of an action about a target. */
async function auditOf(action: string, targetId: string) {
  return adminQuery(
    h,
    `SELECT summary, details FROM cis.activity WHERE action = $1 AND target_id = $2 ORDER BY performed_at DESC, id DESC`,
    [action, targetId],
  );
}

describe('no payment date after today (the business clock, London)', () => {
  let sub: string;
  beforeAll(async () => {
    sub = await createSubcontractor(h, admin, {
      name: 'Future Fencing',
      utr: '5050505050',
      nino: '',
      email: 'f@fencing.test',
    });
  });

  it('refuses tomorrow for one invoice and for a batch, naming the field, and leaves them approved', async () => {
    const one = await approvedInvoice(sub);
    const two = await approvedInvoice(sub);
    const single = await h.call(admin, 'POST', `/invoices/${one}/pay`, { paymentDate: '2026-11-11' });
    expect(single.status).toBe(400);
    expect(single.body.errors).toEqual([
      { field: 'body.paymentDate', message: 'Payment date cannot be after today' },
    ]);
    const batch = await h.call(admin, 'POST', '/invoices/pay', {
      ids: [one, two],
      paymentDate: '2026-12-17',
    });
    expect(batch.status).toBe(400);
    expect(batch.body.errors).toEqual([
      { field: 'body.paymentDate', message: 'Payment date cannot be after today' },
    ]);
    expect((await invoice(one)).status).toBe('approved');
    expect((await invoice(two)).status).toBe('approved');
  });

  it('accepts today, and tomorrow once the clock has reached it', async () => {
    const one = await approvedInvoice(sub);
    const two = await approvedInvoice(sub);
    expect((await h.call(admin, 'POST', `/invoices/${one}/pay`, { paymentDate: '2026-11-10' })).status).toBe(
      200,
    );
    clock.set(new Date('2026-11-11T00:30:00Z'));
    const paid = await h.call(admin, 'POST', `/invoices/${two}/pay`, { paymentDate: '2026-11-11' });
    expect(paid.status).toBe(200);
    expect(paid.body.invoice).toMatchObject({ paymentDate: '2026-11-11', taxMonth: NOVEMBER });
    await drainJobQueue(h);
  });
});

describe('a month whose return is submitted', () => {
  let sub: string;
  let filed: string;
  beforeAll(async () => {
    sub = await createSubcontractor(h, admin, {
      name: 'Submitted Sam',
      utr: '6060606060',
      nino: '',
      email: 'sam@submitted.test',
    });
    filed = await paidInvoice(sub, '2026-11-03');
    await submitMonth([sub], OCTOBER);
  });

  it('warns before a payment into it (409 return_submitted, nothing changed), then takes it when confirmed', async () => {
    const id = await approvedInvoice(sub);
    const warned = await h.call(admin, 'POST', `/invoices/${id}/pay`, { paymentDate: '2026-11-04' });
    expect(warned.status).toBe(409);
    expect(warned.body).toMatchObject({
      code: 'return_submitted',
      detail:
        'The return for the month ending 5 November 2026 has already been submitted. Marking this invoice paid ' +
        'changes it: the return will show as changed since submission and will need an amendment.',
    });
    expect((await invoice(id)).status).toBe('approved');

    const paid = await h.call(admin, 'POST', `/invoices/${id}/pay`, {
      paymentDate: '2026-11-04',
      confirmSubmittedReturn: true,
    });
    expect(paid.status).toBe(200);
    expect(paid.body.invoice).toMatchObject({ status: 'paid', taxMonth: OCTOBER });
    const [entry] = await auditOf('cis.invoice.paid', id);
    expect(entry?.details).toMatchObject({ submittedReturnChanged: OCTOBER });
    await drainJobQueue(h);
  });

  it('warns a batch payment reaching it as a whole, and not a payment into the month in progress', async () => {
    const one = await approvedInvoice(sub);
    const warned = await h.call(admin, 'POST', '/invoices/pay', { ids: [one], paymentDate: '2026-11-05' });
    expect(warned.status).toBe(409);
    expect(warned.body.code).toBe('return_submitted');
    expect((await invoice(one)).status).toBe('approved');
    const open = await h.call(admin, 'POST', '/invoices/pay', { ids: [one], paymentDate: '2026-11-06' });
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ succeeded: [one], failed: [] });
    await drainJobQueue(h);
  });

  it('warns before cancelling a paid invoice of it, then cancels it when confirmed', async () => {
    const warned = await h.call(admin, 'POST', `/invoices/${filed}/cancel`);
    expect(warned.status).toBe(409);
    expect(warned.body).toMatchObject({
      code: 'return_submitted',
      detail: expect.stringContaining('Cancelling this invoice changes it') as unknown,
    });
    expect((await invoice(filed)).status).toBe('paid');
    const cancelled = await h.call(admin, 'POST', `/invoices/${filed}/cancel`, {
      confirmSubmittedReturn: true,
    });
    expect(cancelled.status).toBe(200);
    const [entry] = await auditOf('cis.invoice.cancelled', filed);
    expect(entry?.details).toMatchObject({ submittedReturnChanged: OCTOBER });
  });

  it('marks the issued statement changed since issue; a corrected statement is issued and the old one kept', async () => {
    const before = await statementGroup(sub, OCTOBER);
    expect(before).toMatchObject({ state: 'issued', changedSinceIssue: true });
    const old = before?.statement;
    if (!old) throw new Error('no statement');
    const page = await h.call(admin, 'GET', `/statements?taxMonth=${OCTOBER}`);
    expect(page.body.counters).toMatchObject({ changedSinceIssue: 1 });

    const corrected = await h.call(admin, 'POST', `/statements/${old.id}/correct`);
    expect(corrected.status).toBe(201);
    const replacement = corrected.body.statement as NonNullable<Group['statement']> & {
      invoiceIds: string[];
    };
    expect(replacement).toMatchObject({ status: 'generated', version: 2, supersedes: old.id });
    // The cancelled invoice is gone from it, the one paid after submission is in it.
    expect(replacement.invoiceIds).not.toContain(filed);
    expect(replacement.invoiceIds).toHaveLength(1);

    const again = await h.call(admin, 'POST', `/statements/${old.id}/correct`);
    expect(again).toMatchObject({
      status: 409,
      body: { detail: 'This statement has been replaced by a corrected statement' },
    });
    const reissueOld = await h.call(admin, 'POST', `/statements/${old.id}/issue`, { method: 'print' });
    expect(reissueOld.status).toBe(409);

    h.sink.clear();
    const issued = await h.call(admin, 'POST', `/statements/${replacement.id}/issue`, { method: 'email' });
    expect(issued.status).toBe(200);
    const mail = h.sink.messages().find((m) => m.to.includes('sam@submitted.test'));
    expect(mail?.subject).toBe('Corrected payment and deduction statement: Month ending 5 November 2026');
    expect(mail?.attachments[0]?.contentType).toBe('application/pdf');

    // The subcontractor's corrected PDF says what it replaces.
    const correctedPdf = await fetch(`${h.cisUrl}/v1/statements/${replacement.id}/pdf`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const parser = new PDFParse({ data: new Uint8Array(await correctedPdf.arrayBuffer()) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain(`CORRECTED STATEMENT: replaces statement ${old.id} issued earlier for this month`);

    const after = await statementGroup(sub, OCTOBER);
    expect(after).toMatchObject({ state: 'issued', changedSinceIssue: false, statement: { version: 2 } });
    // The old statement stays on record: its PDF is still there.
    const oldPdf = await h.call(admin, 'GET', `/statements/${old.id}/pdf`);
    expect(oldPdf.status).toBe(200);
    expect(oldPdf.headers.get('content-type')).toContain('application/pdf');
    const unchanged = await h.call(admin, 'POST', `/statements/${replacement.id}/correct`);
    expect(unchanged).toMatchObject({
      status: 409,
      body: { detail: 'This statement has not changed since it was issued' },
    });
    const [entry] = await auditOf('cis.statement.corrected', replacement.id);
    expect(entry?.details).toMatchObject({ supersedes: old.id, version: '2' });
  });
});

describe('a payment date corrected', () => {
  let sub: string;
  beforeAll(async () => {
    sub = await createSubcontractor(h, admin, {
      name: 'Correcting Cat',
      utr: '7070707070',
      nino: '',
      email: 'cat@correcting.test',
    });
  });

  it('within its open month: the new date, audited with the old and the new date', async () => {
    const id = await paidInvoice(sub, '2026-11-07');
    const corrected = await h.call(admin, 'POST', `/invoices/${id}/payment-date`, {
      paymentDate: '2026-11-08',
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body.invoice).toMatchObject({ paymentDate: '2026-11-08', taxMonth: NOVEMBER });
    const [entry] = await auditOf('cis.invoice.payment_date_corrected', id);
    expect(entry).toMatchObject({
      summary: expect.stringContaining('payment date corrected from 2026-11-07 to 2026-11-08') as unknown,
      details: { from: '2026-11-07', to: '2026-11-08', fromTaxMonth: NOVEMBER, toTaxMonth: NOVEMBER },
    });
  });

  it('to another open month: the invoice moves to that month’s statement, the old one refreshed', async () => {
    const other = await createSubcontractor(h, admin, {
      name: 'Moving Mo',
      utr: '7171717171',
      nino: '',
      email: 'mo@moving.test',
    });
    const id = await paidInvoice(other, '2026-11-07');
    const generated = await statementGroup(other, NOVEMBER);
    expect(generated?.statement?.status).toBe('generated');
    // Back to 20 August: the month ending 5 September 2026, whose return is not submitted.
    const moved = await h.call(admin, 'POST', `/invoices/${id}/payment-date`, { paymentDate: '2026-08-20' });
    expect(moved.status).toBe(200);
    expect(moved.body.invoice).toMatchObject({
      paymentDate: '2026-08-20',
      taxMonth: AUGUST,
      statement: { issuedAt: null, required: true },
    });
    await drainJobQueue(h);
    // Its November statement had only this invoice: removed while not issued; August's generated for it.
    expect(await statementGroup(other, NOVEMBER)).toBeUndefined();
    expect(await statementGroup(other, AUGUST)).toMatchObject({ state: 'generated', invoices: [{ id }] });
  });

  it('refuses a date after today, the same date, and an invoice that is not paid', async () => {
    const id = await paidInvoice(sub, '2026-11-09');
    const future = await h.call(admin, 'POST', `/invoices/${id}/payment-date`, { paymentDate: '2026-11-11' });
    expect(future.status).toBe(400);
    expect(future.body.errors).toEqual([
      { field: 'body.paymentDate', message: 'Payment date cannot be after today' },
    ]);
    const same = await h.call(admin, 'POST', `/invoices/${id}/payment-date`, { paymentDate: '2026-11-09' });
    expect(same.status).toBe(400);
    const approved = await approvedInvoice(sub);
    const notPaid = await h.call(admin, 'POST', `/invoices/${approved}/payment-date`, {
      paymentDate: '2026-11-09',
    });
    expect(notPaid).toMatchObject({
      status: 409,
      body: { detail: 'Only paid invoices have a payment date to correct' },
    });
    expect((await invoice(id)).paymentDate).toBe('2026-11-09');
  });

  it('is refused once its month’s return is submitted, and warns before moving into a submitted month', async () => {
    const filedSub = await createSubcontractor(h, admin, {
      name: 'Filed Fay',
      utr: '7272727272',
      nino: '',
      email: 'fay@filed.test',
    });
    const september = '2026-09';
    const id = await paidInvoice(filedSub, '2026-10-02');
    await submitMonth([filedSub], september);
    const locked = await h.call(admin, 'POST', `/invoices/${id}/payment-date`, { paymentDate: '2026-10-03' });
    expect(locked).toMatchObject({
      status: 409,
      body: {
        code: 'return_submitted_locked',
        detail:
          'The payment date cannot be corrected: the return for the month ending 5 October 2026 has been ' +
          'submitted. Start its amendment first.',
      },
    });
    expect((await invoice(id)).paymentDate).toBe('2026-10-02');

    const open = await paidInvoice(filedSub, '2026-11-09');
    const warned = await h.call(admin, 'POST', `/invoices/${open}/payment-date`, {
      paymentDate: '2026-10-01',
    });
    expect(warned.status).toBe(409);
    expect(warned.body).toMatchObject({
      code: 'return_submitted',
      detail: expect.stringContaining('Correcting this payment date changes it') as unknown,
    });
    expect((await invoice(open)).paymentDate).toBe('2026-11-09');
  });
});

describe('a cancelled invoice', () => {
  it('is never shown paid nor pending a statement: detail, list, statements and the portal', async () => {
    const sub = await createSubcontractor(h, admin, {
      name: 'Cancelled Cy',
      utr: '8080808080',
      nino: '',
      email: 'cy@cancelled.test',
    });
    const id = await paidInvoice(sub, '2026-11-08');
    const before = await invoice(id);
    expect(before).toMatchObject({ status: 'paid', statement: { required: true, issuedAt: null } });
    const listBefore = await h.call(admin, 'GET', '/invoices');
    const pendingBefore = (listBefore.body.summary as { pendingStatements: number }).pendingStatements;

    expect((await h.call(admin, 'POST', `/invoices/${id}/cancel`)).status).toBe(200);
    const after = await invoice(id);
    expect(after).toMatchObject({
      status: 'cancelled',
      paymentDate: null,
      taxMonth: null,
      paidAt: null,
      statement: { required: false },
    });
    const list = await h.call(admin, 'GET', `/invoices?subcontractorId=${sub}`);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        id,
        paymentDate: null,
        statement: expect.objectContaining({ required: false }),
      }),
    ]);
    expect((list.body.summary as { pendingStatements: number }).pendingStatements).toBe(pendingBefore - 1);
    // Its generated statement had only this invoice: gone, and the month lists nothing pending for it.
    expect(await statementGroup(sub, NOVEMBER)).toBeUndefined();

    // Identity makes the portal link with a signed-in staff user's token.
    const inviter = await h.signInAs('admin@demo.test');
    const invite = await h.call(inviter, 'POST', '/subcontractors/invite', { subcontractorId: sub });
    expect(invite.status).toBe(200);
    const token = new URL(String(invite.body.magicLink)).searchParams.get('token');
    const redeemed = await internalPost(h.identity, '/v1/portal/links/redeem', { tenantId: 'demo', token });
    const portal = ((await redeemed.json()) as { accessToken: string }).accessToken;
    const records = await h.call(portal, 'GET', '/portal/me');
    expect(records.status).toBe(200);
    expect(records.body.invoices).toEqual([
      expect.objectContaining({ id, status: 'cancelled', paymentDate: null, taxMonth: null }),
    ]);
  });
});
