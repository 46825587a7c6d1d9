// The business clock (issue 13): cis reads "today" from its clock, not the machine's or the database's, so the tax
// month in progress, the invoice list's period filters and the CSV's file name follow the day a test sets.
import {
  createSubcontractor,
  invoiceBody,
  settingsBody,
  useCisHarnessWithAdmin,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;

useCisHarnessWithAdmin(async (started) => {
  ({ h, admin } = started);
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
});

const at = (iso: string) => {
  h.clock.set(new Date(iso));
};
const dashboardPeriod = async () =>
  ((await h.call(admin, 'GET', '/dashboard')).body.period as { label: string; displayLabel: string }).label;

test('the tax month in progress is the clock’s, across a month end and a year end', async () => {
  at('2027-01-05T23:30:00Z'); // 5 January, GMT: still the month ending 5 January
  expect(await dashboardPeriod()).toBe('2026-12');
  at('2027-01-06T00:30:00Z');
  expect(await dashboardPeriod()).toBe('2027-01');
  at('2026-06-05T23:30:00Z'); // 6 June 00:30 in London (BST)
  expect(await dashboardPeriod()).toBe('2026-06');
});

test('the invoice list’s "current" period and the CSV file name follow the clock', async () => {
  const subcontractorId = await createSubcontractor(h, admin, { utr: '5860920398', nino: 'AB123456D' });
  at('2026-03-04T12:00:00Z');
  const created = await h.call(
    admin,
    'POST',
    '/invoices',
    invoiceBody(subcontractorId, { invoiceNumber: 'CLOCK-1', invoiceDate: '2026-03-01' }),
  );
  expect(created.status).toBe(201);
  const id = (created.body.invoice as { id: string }).id;
  expect((await h.call(admin, 'POST', '/invoices/approve', { ids: [id] })).body).toMatchObject({
    failed: [],
  });
  expect(
    (await h.call(admin, 'POST', '/invoices/pay', { ids: [id], paymentDate: '2026-03-03' })).body,
  ).toMatchObject({
    failed: [],
  });
  const current = async () =>
    ((await h.call(admin, 'GET', '/invoices?period=current')).body.items as { id: string }[]).map(
      (i) => i.id,
    );
  expect(await current()).toContain(id); // 4 March is in the month ending 5 March, as the payment is
  at('2026-03-07T12:00:00Z');
  expect(await current()).not.toContain(id);
  const csv = await h.call(admin, 'GET', '/invoices/export.csv?status=all');
  expect(csv.headers.get('content-disposition')).toContain('cis-invoices-2026-03-07.csv');
});
