// The retention clean-up and the upgrade of what older versions stored in clear (review M2, ADR 0030). Time is
// controlled through the rows: records are dated back with the administrative connection, never waited for.
import { randomBytes, randomUUID } from 'node:crypto';
import { createDatabase, migrateLatest, withTenant } from '@workspace/kit';
import { eventually } from '@workspace/kit/testing';
import pg from 'pg';
import { notificationMigrations } from '../migrations/index.js';
import { NotificationClient } from '../src/client/notification-client.js';
import { INTERNAL_TOKEN, startNotificationHarness, type NotificationHarness } from './support.js';

let harness: NotificationHarness;
let admin: pg.Client;

beforeAll(async () => {
  // A retry waits an hour: an e-mail the relay refused stays pending for the whole test.
  harness = await startNotificationHarness({
    DELIVERY_BACKOFF_MS: '3600000',
    EMAIL_RETENTION_DAYS: '30',
    EMAIL_RETENTION_INTERVAL_MS: '3600000',
  });
  admin = new pg.Client({ connectionString: harness.database.adminUrl });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await harness.stop();
});

const client = (target: NotificationHarness = harness) =>
  new NotificationClient({ baseUrl: target.baseUrl, internalToken: INTERNAL_TOKEN });

const send = (subject: string, tenantId = 'demo') =>
  client().send({ tenantId, to: 'sub@acme.test', subject, text: 'x' });

/** Dates an e-mail's last change `days` back, as if it had become final (or last been tried) then. */
async function age(id: string, days: number): Promise<void> {
  await admin.query(
    `UPDATE notification.emails SET updated_at = now() - make_interval(days => $2), created_at = now() - make_interval(days => $2)
      WHERE email_id = $1`,
    [id, days],
  );
}

async function remaining(ids: string[]): Promise<string[]> {
  const { rows } = await admin.query<{ email_id: string }>(
    'SELECT email_id FROM notification.emails WHERE email_id = ANY($1::uuid[])',
    [ids],
  );
  return ids.filter((id) => rows.some((row) => row.email_id === id));
}

describe('the retention clean-up', () => {
  it('deletes the records of e-mails final for longer than EMAIL_RETENTION_DAYS, in every tenant, and nothing else', async () => {
    const oldSent = await send('old and sent');
    const oldOtherTenant = await send('old and sent, other tenant', 'acme');
    const recentSent = await send('recent and sent');
    await harness.sinkClient.failNext(1, 550);
    const oldFailed = await send('old and failed');
    await harness.sinkClient.failNext(1, 451);
    const oldPending = await send('old and still pending');
    expect([oldSent, oldOtherTenant, recentSent].map((result) => result.status)).toEqual([
      'sent',
      'sent',
      'sent',
    ]);
    expect(oldFailed.status).toBe('failed');
    expect(oldPending.status).toBe('retrying');

    await age(oldSent.id, 31);
    await age(oldOtherTenant.id, 31);
    await age(oldFailed.id, 31);
    await age(recentSent.id, 29);
    await age(oldPending.id, 40);

    const report = await harness.definition.retention().runOnce();

    expect(report.deleted).toBe(3);
    const ids = [oldSent.id, oldOtherTenant.id, recentSent.id, oldFailed.id, oldPending.id];
    expect(await remaining(ids)).toEqual([recentSent.id, oldPending.id]);
    await expect(client().status('demo', oldSent.id)).rejects.toThrow(/404/);
    expect(await client().status('demo', recentSent.id)).toMatchObject({ status: 'sent', attempts: 1 });
    // A pending e-mail is never deleted, however old: it is still owed to its recipient.
    const { rows } = await admin.query<{ count: string }>(
      'SELECT count(*) AS count FROM notification.delivery_queue WHERE email_id = $1',
      [oldPending.id],
    );
    expect(Number(rows[0]?.count)).toBe(1);
  });

  it("is the runtime role's only way across tenants, and cannot be asked to delete records younger than a day", async () => {
    const { db } = harness.service.deps;
    // Outside a tenant transaction the service's own role sees no e-mail, final or not: no policy opens them to it.
    expect(await db('emails').count<{ count: number }[]>('* as count')).toEqual([{ count: 0 }]);
    expect(await db('emails').where({ status: 'sent' }).delete()).toBe(0);
    await expect(db.raw('SELECT purge_expired_emails(0)')).rejects.toThrow(/at least 1/);
  });
});

describe('sealed content moved to another row', () => {
  it('is refused: the e-mail fails for good with ECONTENT and nothing is sent', async () => {
    await harness.sinkClient.failNext(2, 451);
    const victim = await send('the victim');
    const donor = await send('the donor');
    expect([victim.status, donor.status]).toEqual(['retrying', 'retrying']);
    // Someone with write access to the table copies one e-mail's sealed content into another's row.
    await admin.query(
      `UPDATE notification.emails SET content_sealed = (SELECT content_sealed FROM notification.emails WHERE email_id = $2)
        WHERE email_id = $1`,
      [victim.id, donor.id],
    );
    await harness.sinkClient.clear();
    await admin.query('UPDATE notification.delivery_queue SET due_at = now() WHERE email_id = $1', [
      victim.id,
    ]);

    const failed = await eventually(
      async () => {
        const status = await client().status('demo', victim.id);
        return status.status === 'failed' ? status : undefined;
      },
      15_000,
      'the tampered e-mail to fail',
    );
    expect(failed).toMatchObject({
      attempts: 2,
      lastError: expect.stringMatching(/^ECONTENT: .*another e-mail/),
    });
    expect(await harness.sinkClient.messages()).toHaveLength(0);
    const { rows } = await admin.query<{ content_sealed: string | null }>(
      'SELECT content_sealed FROM notification.emails WHERE email_id = $1',
      [victim.id],
    );
    // A dead letter (ADR 0052): kept as it is, sealed, until the retention clean-up.
    expect(rows[0]?.content_sealed).toMatch(/^v1\./);
  });
});

describe('what an older version stored in clear', () => {
  it('is dropped for final e-mails by the migration and sealed for pending ones at start; the pending one is still delivered', async () => {
    const token = randomBytes(32).toString('base64url');
    const utr = '8' + String(randomBytes(4).readUInt32BE(0)).padStart(9, '0').slice(0, 9);
    const pdf = Buffer.from(`%PDF-1.7 statement for UTR ${utr}`);
    const sentId = randomUUID();
    const pendingId = randomUUID();

    const legacy = await startNotificationHarness(
      { DELIVERY_BACKOFF_MS: '3600000', EMAIL_RETENTION_INTERVAL_MS: '3600000' },
      {
        // The database as the version before migration 002 left it: content in clear, pending and final.
        async beforeStart(roles) {
          const db = createDatabase({ url: roles.migrationUrl, schema: 'notification', poolMax: 2 });
          try {
            await migrateLatest(db, 'notification', notificationMigrations.slice(0, 1));
            await withTenant(db, 'demo', async (trx) => {
              const email = (id: string, status: string) => ({
                email_id: id,
                tenant_id: 'demo',
                request_hash: randomUUID(),
                category: 'portal-invite',
                from_address: 'Workspace <no-reply@workspace.local>',
                to_addresses: ['sub@acme.test'],
                subject: `Legacy ${status}`,
                text_body: `Sign in: https://workspace.example.com/portal-login?token=${token}`,
                html_body: `<a href="https://workspace.example.com/portal-login?token=${token}">Sign in</a>`,
                status,
                attempts: 1,
                message_id: `<${id}@workspace.local>`,
              });
              await trx('emails').insert([email(sentId, 'sent'), email(pendingId, 'retrying')]);
              await trx('email_attachments').insert(
                [sentId, pendingId].map((id) => ({
                  email_id: id,
                  position: 0,
                  tenant_id: 'demo',
                  filename: 'statement.pdf',
                  content_type: 'application/pdf',
                  content: pdf,
                  size: pdf.length,
                })),
              );
              await trx('delivery_queue').insert({
                email_id: pendingId,
                tenant_id: 'demo',
                due_at: new Date('2999-01-01T00:00:00Z'),
              });
            });
          } finally {
            await db.destroy();
          }
        },
      },
    );
    const legacyAdmin = new pg.Client({ connectionString: legacy.database.adminUrl });
    await legacyAdmin.connect();
    try {
      const everything = async () => {
        const dumps = await Promise.all(
          ['emails', 'email_attachments'].map(async (table) => {
            const { rows } = await legacyAdmin.query<{ row: string }>(
              `SELECT t::text AS row FROM notification.${table} t`,
            );
            return rows.map((row) => row.row).join('\n');
          }),
        );
        return dumps.join('\n');
      };
      // The retention worker's first round (at start) seals the pending e-mail.
      await eventually(async () => !(await everything()).includes(token), 15_000, 'the clear content sealed');
      const stored = await everything();
      expect(stored).not.toContain(utr);
      expect(stored).not.toContain(pdf.toString('hex'));
      const { rows } = await legacyAdmin.query<{ email_id: string; sealed: boolean; subject: string | null }>(
        'SELECT email_id, content_sealed IS NOT NULL AS sealed, subject FROM notification.emails ORDER BY status',
      );
      expect(rows).toEqual([
        { email_id: pendingId, sealed: true, subject: null },
        { email_id: sentId, sealed: false, subject: null },
      ]);

      // The sealed e-mail is sent as it was written, then its content goes.
      await legacyAdmin.query('UPDATE notification.delivery_queue SET due_at = now()');
      const message = await legacy.sinkClient.waitForMessage((m) => m.subject === 'Legacy retrying');
      expect(message.text).toContain(token);
      expect(await legacy.sinkClient.attachment(message.id, 0)).toEqual(pdf);
      await eventually(
        async () => (await client(legacy).status('demo', pendingId)).status === 'sent',
        15_000,
        'the legacy e-mail sent',
      );
      const after = await legacyAdmin.query<{ count: string }>(
        'SELECT count(*) AS count FROM notification.email_attachments',
      );
      expect(Number(after.rows[0]?.count)).toBe(0);
      expect(await everything()).not.toContain('Legacy');
    } finally {
      await legacyAdmin.end();
      await legacy.stop();
    }
  });
});
