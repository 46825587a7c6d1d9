// Returns by period (issue 13, ADR 0035) through the cis service's API on real PostgreSQL, with a controlled business
// clock: every tax month since the module was switched on is filed, due, overdue or marked, with its filing deadline
// and the late-filing penalty as at the clock's today; the month the Returns page opens on; months marked filed
// elsewhere (who and when, audited) are not overdue; no return is submitted before its month ends; the dashboard warns
// about past months and counts Portal Pending invoices; the return history pages past 12.
import { ControlledClock } from '@workspace/kit/testing';
import {
  ALL_CIS_SCOPES,
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
  startCisHarness,
  type CisHarness,
} from './support.js';

const ADMIN = '00000000-0000-4000-8000-00000000e000';
const clock = new ControlledClock(new Date('2026-09-20T10:00:00Z'));
let h: CisHarness;
let admin: string;

interface Period {
  label: string;
  status: string;
  statusText: string;
  nil: boolean;
  filingDeadline: string;
  penalty: { totalP: number; next: { from: string; amountP: number } | null };
  mark: { reason: string; markedBy: string; markedAt: string; note: string } | null;
  return: { id: string; status: string } | null;
}

interface Periods {
  today: string;
  dueTaxMonth: string;
  activeSince: string | null;
  periods: Period[];
}

const at = (instant: string) => {
  clock.set(new Date(instant));
};

async function periods(): Promise<Periods> {
  const response = await h.call(admin, 'GET', '/returns/periods');
  expect(response.status).toBe(200);
  return response.body as unknown as Periods;
}

const periodOf = (list: Periods, label: string): Period => {
  const found = list.periods.find((period) => period.label === label);
  if (!found) throw new Error(`no period ${label} in ${list.periods.map((p) => p.label).join(', ')}`);
  return found;
};

async function alerts(): Promise<{ kind: string; label: string; message: string; severity: string }[]> {
  const response = await h.call(admin, 'GET', '/dashboard');
  expect(response.status).toBe(200);
  return response.body.alerts as { kind: string; label: string; message: string; severity: string }[];
}

beforeAll(async () => {
  h = await startCisHarness({ clock });
  admin = await h.token(ALL_CIS_SCOPES, 'demo', ADMIN);
  // Switched on on 20 September 2026: the month ending 5 October 2026 ('2026-09') is the first to owe a return.
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
  // One invoice paid on 20 October 2026: the month ending 5 November 2026 ('2026-10') has payments.
  at('2026-10-20T10:00:00Z');
  const sub = await createSubcontractor(h, admin, {
    name: 'Pat Period',
    utr: '1111111111',
    nino: 'AB123456C',
  });
  const created = await h.call(admin, 'POST', '/invoices', invoiceBody(sub, { invoiceDate: '2026-10-20' }));
  expect(created.status).toBe(201);
  const id = (created.body.invoice as { id: string }).id;
  expect((await h.call(admin, 'POST', '/invoices/approve', { ids: [id] })).body).toMatchObject({
    failed: [],
  });
  await drainJobQueue(h);
  const paid = await h.call(admin, 'POST', '/invoices/pay', { ids: [id], paymentDate: '2026-10-20' });
  expect(paid.body).toMatchObject({ failed: [] });
  await drainJobQueue(h);
});

afterAll(async () => {
  await h.stop();
});

describe('the period list', () => {
  it('starts at the month the module was switched on (kept in settings.active_since)', async () => {
    at('2026-11-10T10:00:00Z');
    const list = await periods();
    expect(list.activeSince).toBe('2026-09-20');
    expect(list.periods.map((p) => p.label)).toEqual(['2026-11', '2026-10', '2026-09']);
    const stored = await adminQuery(h, `SELECT active_since::text AS since FROM cis.settings`);
    expect(stored).toEqual([{ since: '2026-09-20' }]);
  });

  it('on the 10th the return due is the month just ended, without a penalty yet', async () => {
    at('2026-11-10T10:00:00Z');
    const list = await periods();
    expect(list.today).toBe('2026-11-10');
    expect(list.dueTaxMonth).toBe('2026-10');
    expect(periodOf(list, '2026-10')).toMatchObject({
      status: 'due',
      nil: false,
      filingDeadline: '2026-11-19',
      penalty: { totalP: 0 },
    });
    expect(periodOf(list, '2026-11')).toMatchObject({
      status: 'in_progress',
      statusText: 'Month in progress',
    });
    // A month without payments owes a nil return from 6 April 2026: the month ending 5 October is overdue.
    expect(periodOf(list, '2026-09')).toMatchObject({
      status: 'overdue',
      nil: true,
      penalty: { totalP: 10_000 },
    });
  });

  it('on the 25th last month’s unfiled return is overdue with £100, rising to £300 after 2 months', async () => {
    at('2026-11-25T10:00:00Z');
    const list = await periods();
    expect(list.dueTaxMonth).toBe('2026-10');
    expect(periodOf(list, '2026-10')).toMatchObject({
      status: 'overdue',
      statusText: 'Overdue',
      penalty: { totalP: 10_000, next: { from: '2027-01-20', amountP: 20_000 } },
    });
    const dashboard = await alerts();
    expect(dashboard).toContainEqual(
      expect.objectContaining({
        kind: 'filing',
        label: '2026-10',
        severity: 'critical',
        message:
          'CIS300 return for the month ending 5 November 2026 overdue since 19 November 2026: late-filing penalty £100.00',
      }),
    );
    expect(dashboard).toContainEqual(expect.objectContaining({ kind: 'filing', label: '2026-09' }));
  });
});

describe('marking a month', () => {
  it('filed elsewhere: not overdue, who and when kept and audited; cleared, it is overdue again', async () => {
    at('2026-11-25T10:00:00Z');
    const marked = await h.call(admin, 'PUT', '/returns/periods/2026-09/mark', {
      reason: 'filed_elsewhere',
      note: 'Filed by the previous accountant',
    });
    expect(marked.status).toBe(200);
    expect(marked.body.mark).toEqual({
      reason: 'filed_elsewhere',
      note: 'Filed by the previous accountant',
      markedBy: ADMIN,
      markedAt: expect.stringMatching(/^2026-11-25T10:00:/),
    });
    expect(periodOf(await periods(), '2026-09')).toMatchObject({
      status: 'filed_elsewhere',
      statusText: 'Filed elsewhere',
      penalty: { totalP: 0 },
      mark: { reason: 'filed_elsewhere', markedBy: ADMIN },
    });
    expect((await alerts()).filter((alert) => alert.label === '2026-09')).toEqual([]);
    const audit = await adminQuery(
      h,
      `SELECT action, target_id, performed_by, summary FROM cis.activity WHERE action LIKE 'cis.return.period_%' ORDER BY id`,
    );
    expect(audit).toEqual([
      {
        action: 'cis.return.period_marked',
        target_id: '2026-09',
        performed_by: ADMIN,
        summary: 'The month ending 5 October 2026 marked as filed elsewhere',
      },
    ]);

    expect((await h.call(admin, 'DELETE', '/returns/periods/2026-09/mark')).status).toBe(204);
    expect(periodOf(await periods(), '2026-09').status).toBe('overdue');
    expect(
      (await h.call(admin, 'PUT', '/returns/periods/2026-09/mark', { reason: 'before_product' })).status,
    ).toBe(200);
    expect(periodOf(await periods(), '2026-09').status).toBe('before_product');
  });

  it('refuses a month that has not ended, and inactivity for a month with payments', async () => {
    at('2026-11-25T10:00:00Z');
    const early = await h.call(admin, 'PUT', '/returns/periods/2026-11/mark', { reason: 'filed_elsewhere' });
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(
      'The month ending 5 December 2026 has not ended yet, so it cannot be marked as filed elsewhere.',
    );
    const inactive = await h.call(admin, 'PUT', '/returns/periods/2026-10/mark', { reason: 'inactive' });
    expect(inactive.status).toBe(409);
    expect(inactive.body.detail).toMatch(/^Payments are recorded in the month ending 5 November 2026/);
    const bad = await h.call(admin, 'PUT', '/returns/periods/2026-10/mark', { reason: 'lost' });
    expect(bad.status).toBe(400);
  });
});

describe('submitting', () => {
  it('refuses a return before its month ends, with a clear message', async () => {
    at('2026-11-25T10:00:00Z');
    const compiled = await h.call(admin, 'POST', '/returns/2026-11/compile');
    expect(compiled.status).toBe(200);
    const id = (compiled.body.return as { id: string }).id;
    const refused = await h.call(admin, 'POST', `/returns/${id}/submit`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      'The return for the month ending 5 December 2026 cannot be submitted before the month ends: it can be submitted from 6 December 2026.',
    );
    expect((await h.call(admin, 'GET', '/returns/2026-11')).body.return).toMatchObject({
      status: 'nil',
      locked: false,
    });
  });

  it('from the 6th it is submitted; filed, the page opens on the month in progress', async () => {
    at('2026-12-10T10:00:00Z');
    const submitted = await h.call(admin, 'POST', '/returns/2026-11/submit');
    expect(submitted.status).toBe(200);
    const list = await periods();
    expect(periodOf(list, '2026-11')).toMatchObject({ status: 'filed', penalty: { totalP: 0 } });
    expect(list.dueTaxMonth).toBe('2026-12');
  });
});

describe('the dashboard', () => {
  it('counts Portal Pending invoices', async () => {
    const response = await h.call(admin, 'GET', '/dashboard');
    expect(response.body.tiles).toMatchObject({ portalPending: 0 });
  });
});

describe('the return history', () => {
  it('pages past 12 returns, newest tax month first, with the total', async () => {
    at('2026-12-10T10:00:00Z');
    for (const month of ['2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']) {
      expect((await h.call(admin, 'POST', `/returns/${month}/compile`)).status).toBe(200);
    }
    for (const month of ['2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10']) {
      expect((await h.call(admin, 'POST', `/returns/${month}/compile`)).status).toBe(200);
    }
    const first = await h.call(admin, 'GET', '/returns?limit=12');
    const second = await h.call(admin, 'GET', '/returns?limit=12&offset=12');
    expect(first.body.total).toBe(15);
    const months = [
      ...(first.body.items as { taxMonth: string }[]),
      ...(second.body.items as { taxMonth: string }[]),
    ];
    expect(months.map((row) => row.taxMonth)).toEqual([
      '2026-11',
      '2026-10',
      '2026-09',
      '2026-08',
      '2026-07',
      '2026-06',
      '2026-05',
      '2026-04',
      '2026-03',
      '2026-02',
      '2026-01',
      '2025-12',
      '2025-11',
      '2025-10',
      '2025-09',
    ]);
    // Every month back to the oldest return is in the period list; before 6 April 2026 a month without payments
    // owed no return.
    const list = await periods();
    expect(list.periods).toHaveLength(16);
    expect(periodOf(list, '2025-09')).toMatchObject({ status: 'not_required', return: { status: 'nil' } });
  });
});
