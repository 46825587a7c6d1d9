// cis's audit actions (cis.md §7; workspace.md "Audit actions") in the audit trail: a real path through cis for each
// family, and every other action of the family by the event cis publishes for it.
import { eventually } from '@workspace/kit/testing';
import { toBusMessage, createBus, createLogger } from '@workspace/kit';
import {
  adminQuery,
  CIS_ADMIN_ID,
  createSubcontractor,
  invoiceBody,
  settingsBody,
  startCisHarnessWithAdmin,
  type CisHarness,
} from '@workspace/cis/testing';
import { currentTaxMonth, londonDate } from '@workspace/cis/domain';
import { auditConfigSchema } from '../src/config.js';
import { entriesOf, expectOneEntryPerAction, publishActions, type EntryItem } from './families.fixtures.js';
import { AuditTopicReader, ModuleEventPublisher, startAuditHarness, type AuditHarness } from './support.js';

let cis: CisHarness;
let admin: string;
let h: AuditHarness;
let publisher: ModuleEventPublisher;
let reader: AuditTopicReader;

beforeAll(async () => {
  ({ h: cis, admin } = await startCisHarnessWithAdmin());
  h = await startAuditHarness({ database: cis.identity.database });
  publisher = await ModuleEventPublisher.start();
  reader = await AuditTopicReader.start();
});

afterAll(async () => {
  await reader.stop();
  await publisher.close();
  await h.stop();
  await cis.stop();
});

/** The entries of the demo tenant about `targetId` (other runs on the shared Kafka write the demo tenant too). */
const entriesAbout = (targetId: string) => entriesOf(h, 'demo', `&targetId=${encodeURIComponent(targetId)}`);

const waitForAction = (targetId: string, action: string) =>
  eventually(
    async () => (await entriesAbout(targetId)).find((entry) => entry.action === action),
    60_000,
    `${action} of ${targetId} in the audit trail`,
  );

/** cis's own record of an action: its outbox row (the event it published). */
const cisEvent = async (type: string, subject: string) => {
  const [row] = await adminQuery(cis, 'SELECT * FROM cis.outbox WHERE type = $1 AND subject = $2', [
    type,
    subject,
  ]);
  if (!row) throw new Error(`cis published no ${type} for ${subject}`);
  return row;
};

describe('cis actions in the audit trail', () => {
  it('an invoice approved in cis becomes one audit entry and one audit.v1 record with the CloudEvents headers, stored once when delivered twice (WS-386)', async () => {
    expect((await cis.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
    const subcontractorId = await createSubcontractor(cis, admin);
    const created = await cis.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(subcontractorId, { invoiceNumber: `A-${Date.now()}` }),
    );
    expect(created.status).toBe(201);
    const invoiceId = (created.body.invoice as { id: string }).id;
    expect((await cis.call(admin, 'POST', `/invoices/${invoiceId}/approve`)).status).toBe(200);

    const approved = await waitForAction(invoiceId, 'cis.invoice.approved');
    const event = await cisEvent('cis.invoice.approved', invoiceId);
    expect(approved).toMatchObject({
      module: 'cis',
      source: '/workspace/cis',
      actorId: CIS_ADMIN_ID,
      targetId: invoiceId,
      sourceEventId: event.event_id,
    });
    expect(await waitForAction(invoiceId, 'cis.invoice.created')).toBeDefined();
    expect(await waitForAction(subcontractorId, 'cis.subcontractor.created')).toBeDefined();

    // This service's record of the entry (by its id: another run's audit service on the same Kafka may have recorded
    // the same cis event in its own trail).
    const record = await eventually(
      () => Promise.resolve(reader.records.find((r) => r.value.id === approved.id)),
      30_000,
      'the approval on audit.v1',
    );
    expect(record.key).toBe('demo:log');
    expect(record.headers).toMatchObject({
      ce_specversion: '1.0',
      ce_type: 'audit.entry.recorded',
      ce_source: '/workspace/audit',
      ce_subject: String(approved.seq),
      ce_tenantid: 'demo',
      'content-type': 'application/json',
    });
    expect(record.headers.ce_time).toBe((record.value as { recordedAt: string }).recordedAt);
    expect(record.value).toMatchObject({
      tenantId: 'demo',
      seq: String(approved.seq),
      id: approved.id,
      action: 'cis.invoice.approved',
      module: 'cis',
      actorId: CIS_ADMIN_ID,
      targetId: invoiceId,
      sourceEventId: event.event_id,
    });

    // The same event delivered again (cis's relay republishing it after a crash): still one entry.
    const bus = createBus(
      'audit-test-redeliver',
      auditConfigSchema.parse({
        DATABASE_URL: 'postgres://u@127.0.0.1/x',
        KAFKA_BROKERS: h.config.KAFKA_BROKERS,
      }),
      createLogger({ name: 'test', level: 'silent' }),
    );
    try {
      await bus.publish([toBusMessage(event as never)]);
    } finally {
      await bus.close();
    }
    // A later action on the same invoice (same key, same partition) arrives after the repeat.
    expect(
      (
        await cis.call(admin, 'POST', `/invoices/${invoiceId}/pay`, {
          paymentDate: londonDate(new Date()),
        })
      ).status,
    ).toBe(200);
    await waitForAction(invoiceId, 'cis.invoice.paid');
    const about = await entriesAbout(invoiceId);
    expect(about.filter((entry) => entry.sourceEventId === event.event_id)).toHaveLength(1);
    expect(about.map((entry) => entry.action).sort()).toEqual([
      'cis.invoice.approved',
      'cis.invoice.created',
      'cis.invoice.paid',
    ]);
  });

  it('records the rest of WS-386 by their events: one entry per action', async () => {
    const { tenantId, ids } = await publishActions(publisher, 'cis', [
      'cis.subcontractor.updated',
      'cis.subcontractor.verified',
      'cis.subcontractor.deleted',
      'cis.invoice.cancelled',
      'cis.invoice.bulk.approve',
      'cis.invoice.bulk.pay',
      'cis.invoice.bulk.delete',
    ]);
    const entries = await eventually(async () => {
      const found = await entriesOf(h, tenantId);
      return found.length >= ids.size ? found : undefined;
    }, 60_000);
    expectOneEntryPerAction(entries, ids);
  });

  it('statements and returns (WS-387): a return compiled in cis, the rest by their events', async () => {
    const month = currentTaxMonth();
    const compiled = await cis.call(admin, 'POST', `/returns/${month}/compile`);
    expect(compiled.status).toBe(200);
    const returnId = (compiled.body.return as { id: string }).id;
    const entry = await waitForAction(returnId, 'cis.return.compiled');
    expect(entry).toMatchObject({ module: 'cis', actorId: CIS_ADMIN_ID });

    const { tenantId, ids } = await publishActions(publisher, 'cis', [
      'cis.statement.generated',
      'cis.statement.sent',
      'cis.return.compiled',
      'cis.return.submitted',
      'cis.return.exported',
    ]);
    const entries = await eventually(async () => {
      const found = await entriesOf(h, tenantId);
      return found.length >= ids.size ? found : undefined;
    }, 60_000);
    expectOneEntryPerAction(entries, ids);
  });

  it('settings and the module (WS-388): settings updated in cis, activation by their events', async () => {
    const saved = await cis.call(admin, 'PUT', '/settings', settingsBody({ warningDays: 4 }));
    expect(saved.status).toBe(200);
    const updated = await eventually(
      async () =>
        (await entriesOf(h, 'demo', '&action=cis.settings.updated')).find(
          (entry) => entry.actorId === CIS_ADMIN_ID,
        ),
      60_000,
      'cis.settings.updated',
    );
    expect(updated.module).toBe('cis');
    const { tenantId, ids } = await publishActions(publisher, 'cis', [
      'cis.settings.updated',
      'cis.module.activated',
      'cis.module.deactivated',
    ]);
    const entries = await eventually(async () => {
      const found = await entriesOf(h, tenantId);
      return found.length >= ids.size ? found : undefined;
    }, 60_000);
    expectOneEntryPerAction(entries, ids);
  });

  it('imports, exports, errors and denials (WS-389): an export and a denial in cis, the rest by their events', async () => {
    const exported = await cis.call(admin, 'GET', '/invoices/export.csv');
    expect(exported.status).toBe(200);
    const viewer = await cis.token(['cis.inv.read'], 'demo', '00000000-0000-4000-8000-0000000000b7');
    const denied = await cis.call(viewer, 'PUT', '/settings', settingsBody());
    expect(denied.status).toBe(403);
    const mine = (entry: EntryItem, actor: string) => entry.actorId === actor;
    await eventually(
      async () =>
        (await entriesOf(h, 'demo', '&action=cis.export.invoices')).find((e) => mine(e, CIS_ADMIN_ID)),
      60_000,
      'cis.export.invoices',
    );
    const denial = await eventually(
      async () =>
        (await entriesOf(h, 'demo', '&action=cis.permission.denied')).find((e) =>
          mine(e, '00000000-0000-4000-8000-0000000000b7'),
        ),
      60_000,
      'cis.permission.denied',
    );
    expect(denial.payload).toMatchObject({ method: 'PUT', path: '/v1/settings', status: '403' });
    expect(denial.payload).not.toHaveProperty('reason');

    const { tenantId, ids } = await publishActions(publisher, 'cis', [
      'cis.import.invoices',
      'cis.export.invoices',
      'cis.export.subcontractors',
      'cis.export.return',
      'cis.error',
      'cis.permission.denied',
    ]);
    const entries = await eventually(async () => {
      const found = await entriesOf(h, tenantId);
      return found.length >= ids.size ? found : undefined;
    }, 60_000);
    expectOneEntryPerAction(entries, ids);
  });

  it("cis's deadline notice (issue 15): a deadline told by the daily scan is one entry of the cis trail", async () => {
    expect((await cis.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
    // 18 January 2027 (cis's business clock): the return of the month ending 5 January 2027 is due tomorrow.
    cis.clock.set(new Date('2027-01-18T09:00:00Z'));
    try {
      await cis.definition.deadlineScan().runOnce();
    } finally {
      cis.clock.set(new Date());
    }
    const [told] = await adminQuery(
      cis,
      `SELECT event_id FROM cis.outbox WHERE type = 'cis.deadline.alerted' AND tenant_id = 'demo'
         AND payload->>'taxMonth' = '2026-12' AND payload->>'kind' = 'filing'`,
    );
    expect(told).toBeDefined();
    const entry = await eventually(
      async () =>
        (await entriesOf(h, 'demo', '&action=cis.deadline.alerted')).find(
          (item) => item.sourceEventId === told?.event_id,
        ),
      60_000,
      'cis.deadline.alerted in the audit trail',
    );
    expect(entry).toMatchObject({ module: 'cis', targetId: '2026-12', actorId: 'system' });
    expect(entry.payload).toMatchObject({
      taxMonth: '2026-12',
      kind: 'filing',
      state: 'due',
      dueDate: '2027-01-19',
    });
  });
});
