// Issue 15, the subcontractor portal's pages: the dashboard (this tax month's payments, invoices awaiting approval,
// the latest statement), one invoice, the profile with what a subcontractor may change (audited, with the portal
// subcontractor as the actor), the tax-year summary with its statements. A portal session reads its own data only:
// another subcontractor's invoice, statement or profile answers 404, as a record that never was.
import { eventually } from '@workspace/kit/testing';
import {
  adminQuery,
  ALL_CIS_SCOPES,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  portalTokenOf,
  settingsBody,
  useCisHarnessWithAdmin,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;
let rita: string;
let ritaId: string;
let benId: string;
const ids = { ritaPaid: '', ritaPending: '', benPaid: '', ritaStatement: '', benStatement: '' };

const statementOf = async (subcontractorId: string, taxMonth: string) => {
  const page = await h.call(admin, 'GET', `/statements?taxMonth=${taxMonth}`);
  const group = (
    page.body.subcontractors as { subcontractorId: string; statement: { id: string } | null }[]
  ).find((g) => g.subcontractorId === subcontractorId);
  return group?.statement?.id ?? '';
};

/** A staff invoice for the subcontractor, approved and paid on the date. */
async function paidInvoice(
  subcontractorId: string,
  invoiceNumber: string,
  paymentDate: string,
  grossP: number,
) {
  const created = await h.call(
    admin,
    'POST',
    '/invoices',
    invoiceBody(subcontractorId, { invoiceNumber, invoiceDate: paymentDate, grossP, materialsP: 20_000 }),
  );
  expect(created.status).toBe(201);
  const id = (created.body.invoice as { id: string }).id;
  expect((await h.call(admin, 'POST', '/invoices/approve', { ids: [id] })).status).toBe(200);
  await drainJobQueue(h);
  expect((await h.call(admin, 'POST', '/invoices/pay', { ids: [id], paymentDate })).status).toBe(200);
  await drainJobQueue(h);
  return id;
}

useCisHarnessWithAdmin(async (started) => {
  ({ h, admin } = started);
  h.clock.set(new Date('2026-11-20T10:00:00Z')); // tax month 2026-11 (6 November – 5 December 2026)
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
  ritaId = await createSubcontractor(h, admin, {
    name: 'Rita Roofing',
    utr: '5555555555',
    nino: 'AB123456C',
    email: 'rita@roofing.test',
  });
  benId = await createSubcontractor(h, admin, { name: 'Ben Brick', email: 'ben@brick.test' });
  rita = await portalTokenOf(h, await h.signInAs('admin@demo.test'), ritaId);

  // Rita: paid in October (tax month 2026-10) and in November; Ben: paid in November.
  await paidInvoice(ritaId, 'RR-OCT', '2026-10-20', 50_000);
  ids.ritaPaid = await paidInvoice(ritaId, 'RR-NOV', '2026-11-14', 100_000);
  ids.benPaid = await paidInvoice(benId, 'BB-NOV', '2026-11-14', 70_000);
  for (const [subcontractorId, month] of [
    [ritaId, '2026-10'],
    [ritaId, '2026-11'],
    [benId, '2026-11'],
  ] as const) {
    const id = await statementOf(subcontractorId, month);
    expect((await h.call(admin, 'POST', `/statements/${id}/issue`, { method: 'portal' })).status).toBe(200);
    if (month === '2026-11') ids[subcontractorId === ritaId ? 'ritaStatement' : 'benStatement'] = id;
  }
  const pending = await h.call(rita, 'POST', '/portal/invoices', {
    invoiceNumber: 'RR-NEW',
    invoiceDate: '2026-11-18',
    description: 'Flashing, 4 Elm Road',
    grossP: 40_000,
    materialsP: 0,
    vatRate: 20,
  });
  expect(pending.status).toBe(201);
  ids.ritaPending = (pending.body.invoice as { id: string }).id;
});

describe('the portal dashboard', () => {
  it('shows this tax month’s gross, deduction and net paid, the invoices awaiting approval and the latest statement', async () => {
    const answer = await h.call(rita, 'GET', '/portal/dashboard');
    expect(answer.status).toBe(200);
    // November only: £1,000 gross, £200 materials, 20 % of £800 labour = £160 deducted, £840 net of it.
    expect(answer.body).toMatchObject({
      taxMonth: '2026-11',
      paid: { grossP: 100_000, cisDeductionP: 16_000, netP: 84_000, invoices: 1 },
      latestStatement: { id: ids.ritaStatement, taxMonth: '2026-11', status: 'issued' },
    });
    expect(answer.body.awaitingApproval).toEqual([
      expect.objectContaining({ id: ids.ritaPending, status: 'portal_draft', statusLabel: 'Portal Pending' }),
    ]);
    expect(answer.text).not.toContain('BB-NOV');
  });
});

describe('a portal session reads only its own data', () => {
  it('answers its own invoice, and 404 for another subcontractor’s invoice or an unknown one', async () => {
    const own = await h.call(rita, 'GET', `/portal/invoices/${ids.ritaPaid}`);
    expect(own.status).toBe(200);
    expect(own.body.invoice).toMatchObject({
      invoiceNumber: 'RR-NOV',
      status: 'paid',
      paymentDate: '2026-11-14',
    });
    for (const id of [ids.benPaid, '00000000-0000-4000-8000-000000000404']) {
      const other = await h.call(rita, 'GET', `/portal/invoices/${id}`);
      expect([id, other.status, other.body.detail]).toEqual([id, 404, 'Invoice not found']);
      expect(other.text).not.toContain('BB-NOV');
    }
  });

  it('answers its own statement’s PDF, and 404 for another subcontractor’s statement', async () => {
    const own = await h.call(rita, 'GET', `/portal/statements/${ids.ritaStatement}/pdf`);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/pdf');
    const other = await h.call(rita, 'GET', `/portal/statements/${ids.benStatement}/pdf`);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).not.toBe('application/pdf');
  });

  it('answers its own profile, and 404 for another subcontractor’s profile, read or written (which stays as it was)', async () => {
    const other = await h.call(rita, 'GET', `/portal/subcontractors/${benId}`);
    expect([other.status, other.body.detail]).toEqual([404, 'Subcontractor not found']);
    expect(other.text).not.toContain('Ben Brick');
    const write = await h.call(rita, 'PUT', `/portal/subcontractors/${benId}`, {
      phone: '07700900999',
      registeredAddress: { line1: '9 Stolen Street', city: 'Leeds', postcode: 'LS2 2BB' },
    });
    expect(write.status).toBe(404);
    const [ben] = await adminQuery(
      h,
      'SELECT phone, registered_address FROM cis.subcontractors WHERE id = $1',
      [benId],
    );
    expect(ben).toMatchObject({ phone: '07700900123', registered_address: { line1: '1 High Street' } });
  });

  it('answers 404 for another tenant’s subcontractor and invoice, even by their ids', async () => {
    const acme = await h.token(ALL_CIS_SCOPES, 'acme');
    expect((await h.call(acme, 'PUT', '/settings', settingsBody())).status).toBe(200);
    const acmeSub = await createSubcontractor(h, acme, { name: 'Aaron Acme' });
    const created = await h.call(acme, 'POST', '/invoices', invoiceBody(acmeSub, { invoiceNumber: 'AC-1' }));
    expect(created.status).toBe(201);
    const acmeInvoice = (created.body.invoice as { id: string }).id;
    expect((await h.call(acme, 'POST', '/invoices/approve', { ids: [acmeInvoice] })).status).toBe(200);
    const invoice = await h.call(rita, 'GET', `/portal/invoices/${acmeInvoice}`);
    expect([invoice.status, invoice.body.detail]).toEqual([404, 'Invoice not found']);
    const profile = await h.call(rita, 'GET', `/portal/subcontractors/${acmeSub}`);
    expect([profile.status, profile.body.detail]).toEqual([404, 'Subcontractor not found']);
    expect(invoice.text + profile.text).not.toContain('Acme');
  });

  it('refuses a staff token on the portal’s pages', async () => {
    for (const path of ['/portal/dashboard', `/portal/subcontractors/${ritaId}`, '/portal/tax-year']) {
      expect([path, (await h.call(admin, 'GET', path)).status]).toEqual([path, 403]);
    }
  });
});

describe('the portal profile', () => {
  it('shows UTR and NINO masked, the verification status and rate, and the contact details', async () => {
    const answer = await h.call(rita, 'GET', `/portal/subcontractors/${ritaId}`);
    expect(answer.status).toBe(200);
    expect(answer.body.subcontractor).toMatchObject({
      id: ritaId,
      name: 'Rita Roofing',
      utrMasked: '******5555',
      ninoMasked: 'AB******C',
      email: 'rita@roofing.test',
      phone: '07700900123',
      registeredAddress: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA' },
      verification: { status: 'standard', rate: 20 },
    });
    expect(answer.text).not.toContain('5555555555');
    expect(answer.text).not.toContain('AB123456C');
    expect(answer.body.subcontractor).not.toHaveProperty('utr');
    expect(answer.body.subcontractor).not.toHaveProperty('verifiedBy');
  });

  it('refuses bad contact details with every field’s message, and saves nothing', async () => {
    const refused = await h.call(rita, 'PUT', `/portal/subcontractors/${ritaId}`, {
      phone: 'call me',
      mobile: '12',
      registeredAddress: { line1: '', city: '', postcode: 'NOT A POSTCODE' },
      tradingAddressSameAsRegistered: false,
      tradingAddress: { line1: '2 Yard Lane', city: 'Leeds', postcode: 'XX' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'body.phone', message: 'Invalid phone number format' },
        { field: 'body.mobile', message: 'Invalid mobile format' },
        { field: 'body.registeredAddress.line1', message: 'Address line 1 is required' },
        { field: 'body.registeredAddress.city', message: 'City is required' },
        { field: 'body.registeredAddress.postcode', message: expect.any(String) },
        { field: 'body.tradingAddress.postcode', message: expect.any(String) },
      ]),
    );
    const [row] = await adminQuery(
      h,
      'SELECT phone, registered_address FROM cis.subcontractors WHERE id = $1',
      [ritaId],
    );
    expect(row).toMatchObject({ phone: '07700900123', registered_address: { line1: '1 High Street' } });
  });

  it('saves their phone, mobile and addresses, audited as cis.subcontractor.updated by the portal subcontractor', async () => {
    const saved = await h.call(rita, 'PUT', `/portal/subcontractors/${ritaId}`, {
      phone: '0113 496 0000',
      mobile: '07700 900456',
      registeredAddress: { line1: '4 Elm Road', line2: '', city: 'York', county: '', postcode: 'yo1 7hh' },
      tradingAddressSameAsRegistered: false,
      tradingAddress: { line1: 'Unit 2, Yard Lane', city: 'York', postcode: 'YO10 3AB' },
      // What the portal may not change is not read: name, e-mail, identifiers, rate.
      name: 'Someone Else',
      email: 'thief@example.test',
      utr: '1111111111',
      verification: { status: 'gross' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.subcontractor).toMatchObject({
      name: 'Rita Roofing',
      email: 'rita@roofing.test',
      phone: '0113 496 0000',
      mobile: '07700 900456',
      registeredAddress: { line1: '4 Elm Road', city: 'York', postcode: 'YO1 7HH', country: 'GB' },
      tradingAddress: { line1: 'Unit 2, Yard Lane', postcode: 'YO10 3AB' },
      tradingAddressSameAsRegistered: false,
      utrMasked: '******5555',
      verification: { status: 'standard', rate: 20 },
    });
    // Staff see the change, made by the portal subcontractor.
    const staffView = await h.call(admin, 'GET', `/subcontractors/${ritaId}`);
    expect(staffView.body.subcontractor).toMatchObject({
      phone: '0113 496 0000',
      updatedBy: `portal:${ritaId}`,
    });
    const [entry] = await adminQuery(
      h,
      `SELECT action, target_id, performed_by, summary FROM cis.activity
        WHERE action = 'cis.subcontractor.updated' AND target_id = $1 ORDER BY id DESC LIMIT 1`,
      [ritaId],
    );
    expect(entry).toMatchObject({ performed_by: `portal:${ritaId}`, target_id: ritaId });
    const event = await eventually(
      async () => {
        const [row] = await adminQuery(
          h,
          `SELECT topic, payload, published_at FROM cis.outbox
            WHERE type = 'cis.subcontractor.updated' AND payload->>'targetId' = $1 ORDER BY id DESC LIMIT 1`,
          [ritaId],
        );
        return row?.published_at ? row : undefined;
      },
      30_000,
      'the update event to be published',
    );
    expect(event).toMatchObject({
      topic: 'cis.events.v1',
      payload: { actorId: `portal:${ritaId}`, targetType: 'subcontractor', details: { via: 'portal' } },
    });
  });
});

describe('the portal tax-year summary', () => {
  it('gives the year’s payments and deductions per month with every statement issued for it, their own only', async () => {
    const answer = await h.call(rita, 'GET', '/portal/tax-year?taxYear=2026');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      subcontractorId: ritaId,
      taxYear: '2026-27',
      totals: { grossP: 150_000, cisDeductionP: 22_000, netP: 128_000, invoices: 2 },
    });
    const months = answer.body.months as { taxMonth: string; grossP: number }[];
    expect(months.filter((month) => month.grossP > 0).map((month) => month.taxMonth)).toEqual([
      '2026-10',
      '2026-11',
    ]);
    const statements = answer.body.statements as { taxMonth: string; subcontractorId: string }[];
    expect(statements.map((statement) => statement.taxMonth)).toEqual(['2026-11', '2026-10']);
    expect(answer.text).not.toContain(benId);
    const earlier = await h.call(rita, 'GET', '/portal/tax-year?taxYear=2025');
    expect(earlier.body).toMatchObject({ taxYear: '2025-26', totals: { grossP: 0 }, statements: [] });
  });
});
