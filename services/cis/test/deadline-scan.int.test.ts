// The daily deadline scan (issue 15) on real PostgreSQL and Kafka with a controlled business clock: a tenant whose
// CIS module is on is told each deadline the dashboard alerts on, once per tax month, deadline kind and state, as
// `cis.deadline.alerted` through cis's outbox; a second scan the same day or the next tells nothing new; a deadline
// passed is told again as overdue; a tenant whose module is off is told nothing.
import { ControlledClock } from '@workspace/kit/testing';
import { ALL_CIS_SCOPES, adminQuery, settingsBody, startCisHarness, type CisHarness } from './support.js';

const ADMIN = '00000000-0000-4000-8000-00000000d100';
// Switched on on 20 September 2026: the month 6 September to 5 October 2026 ('2026-09') is the first to owe a return;
// its statements and return are due on 19 October, its payment on 22 October.
const clock = new ControlledClock(new Date('2026-09-20T10:00:00Z'));
let h: CisHarness;
let demo: string;
let acme: string;

interface Told {
  tenant: string;
  subject: string;
  taxMonth: string;
  kind: string;
  state: string;
  dueDate: string;
  daysRemaining?: number;
  message: string;
}

const at = (instant: string) => {
  clock.set(new Date(instant));
};

/** Every cis.deadline.alerted in cis's outbox, oldest first. */
async function told(): Promise<Told[]> {
  const rows = await adminQuery(
    h,
    `SELECT tenant_id, subject, topic, payload FROM cis.outbox WHERE type = 'cis.deadline.alerted' ORDER BY id`,
  );
  return rows.map((row) => {
    expect(row.topic).toBe('cis.events.v1');
    return { tenant: row.tenant_id, subject: row.subject, ...(row.payload as object) } as Told;
  });
}

const key = (event: Pick<Told, 'taxMonth' | 'kind' | 'state'>) =>
  `${event.taxMonth}:${event.kind}:${event.state}`;

async function dashboardAlerts(): Promise<
  { kind: string; label: string; date: string; daysRemaining: number }[]
> {
  const answer = await h.call(demo, 'GET', '/dashboard');
  expect(answer.status).toBe(200);
  return answer.body.alerts as { kind: string; label: string; date: string; daysRemaining: number }[];
}

const scan = () => h.definition.deadlineScan().runOnce();

beforeAll(async () => {
  h = await startCisHarness({ clock });
  demo = await h.token(ALL_CIS_SCOPES, 'demo', ADMIN);
  acme = await h.token(ALL_CIS_SCOPES, 'acme', ADMIN);
  expect((await h.call(demo, 'PUT', '/settings', settingsBody())).status).toBe(200);
  // acme switched the module on and off again: it is not scanned.
  expect((await h.call(acme, 'PUT', '/settings', settingsBody())).status).toBe(200);
  expect((await h.call(acme, 'PUT', '/settings', settingsBody({ active: false }))).status).toBe(200);
});

afterAll(async () => {
  await h.stop();
});

describe('the daily deadline scan', () => {
  it('tells each deadline the dashboard alerts on, once per tenant, tax month, kind and state', async () => {
    at('2026-10-17T09:00:00Z');
    expect(await scan()).toEqual({ tenants: 1, alerted: 2 });
    const events = await told();
    expect(events).toEqual([
      {
        tenant: 'demo',
        subject: '2026-09',
        taxMonth: '2026-09',
        kind: 'statements',
        state: 'due',
        dueDate: '2026-10-19',
        daysRemaining: 2,
        message: expect.stringContaining('Payment and deduction statements for the') as string,
      },
      {
        tenant: 'demo',
        subject: '2026-09',
        taxMonth: '2026-09',
        kind: 'filing',
        state: 'due',
        dueDate: '2026-10-19',
        daysRemaining: 2,
        message: expect.stringContaining('CIS300 return filing for the') as string,
      },
    ]);
    // The same rules as the dashboard: the deadlines told are the dashboard's alerts of the day.
    const alerts = await dashboardAlerts();
    expect(alerts.map((a) => `${a.label}:${a.kind}:due`).sort()).toEqual(events.map(key).sort());
    const remembered = await adminQuery(
      h,
      `SELECT tenant_id, tax_month, kind, state, due_date::text AS due FROM cis.deadline_alerts ORDER BY kind`,
    );
    expect(remembered).toEqual([
      { tenant_id: 'demo', tax_month: '2026-09', kind: 'filing', state: 'due', due: '2026-10-19' },
      { tenant_id: 'demo', tax_month: '2026-09', kind: 'statements', state: 'due', due: '2026-10-19' },
    ]);
  });

  it('a second scan the same day, and the next day, tells nothing new', async () => {
    at('2026-10-17T21:00:00Z');
    expect(await scan()).toEqual({ tenants: 0, alerted: 0 });
    at('2026-10-18T09:00:00Z');
    // The next day the tenant is scanned again; its alerts (now due tomorrow) were told already.
    expect((await dashboardAlerts()).length).toBe(2);
    expect(await scan()).toEqual({ tenants: 1, alerted: 0 });
    expect(await told()).toHaveLength(2);
  });

  it('after the due date the return is told again as overdue, and the payment coming due', async () => {
    at('2026-10-20T09:00:00Z');
    expect(await scan()).toEqual({ tenants: 1, alerted: 2 });
    const fresh = (await told()).slice(2);
    expect(fresh.map(key).sort()).toEqual(['2026-09:filing:overdue', '2026-09:payment:due']);
    expect(fresh.find((event) => event.state === 'overdue')).toMatchObject({
      tenant: 'demo',
      dueDate: '2026-10-19',
      daysRemaining: -1,
      message: expect.stringContaining('overdue since 19 October 2026') as string,
    });
    // The dashboard shows the same two.
    const alerts = await dashboardAlerts();
    expect(
      alerts.map((a) => `${a.label}:${a.kind}:${a.daysRemaining < 0 ? 'overdue' : 'due'}`).sort(),
    ).toEqual(fresh.map(key).sort());
    at('2026-10-21T09:00:00Z');
    expect(await scan()).toEqual({ tenants: 1, alerted: 0 });
  });

  it('a tenant whose CIS module is off is not scanned and told nothing', async () => {
    expect(await adminQuery(h, `SELECT tenant_id FROM cis.deadline_scan_tenants ORDER BY tenant_id`)).toEqual(
      [{ tenant_id: 'demo' }],
    );
    expect((await told()).filter((event) => event.tenant !== 'demo')).toEqual([]);
    expect(
      await adminQuery(h, `SELECT count(*)::int AS n FROM cis.deadline_alerts WHERE tenant_id <> 'demo'`),
    ).toEqual([{ n: 0 }]);
  });
});
