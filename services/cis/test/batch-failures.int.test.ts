// Batch writes that fail as a whole (cis.md section 8: 'Batch errors carry a cause'): a real failing condition in
// PostgreSQL (a trigger refusing every update of cis.invoices) makes bulk approve, mark paid and delete fail, and
// each answers 500 with the spec's cause while nothing changes; the statement job's final failure records its own.
import { eventually } from '@workspace/kit/testing';
import {
  adminQuery,
  createSubcontractor,
  invoiceBody,
  type CisHarness,
  useCisHarnessWithAdmin,
} from './support.js';

let h: CisHarness;
let admin: string;

useCisHarnessWithAdmin((started) => {
  ({ h, admin } = started);
});

async function invoice(subcontractorId: string, invoiceNumber: string): Promise<string> {
  const created = await h.call(admin, 'POST', '/invoices', invoiceBody(subcontractorId, { invoiceNumber }));
  expect(created.status).toBe(201);
  return (created.body.invoice as { id: string }).id;
}

/** A trigger makes PostgreSQL refuse every row of `operation` on the cis table; answers what lifts it again. */
async function refuse(operation: 'UPDATE' | 'INSERT', table: 'invoices' | 'statements') {
  const name = `cis.refuse_${table}_${operation.toLowerCase()}`;
  await adminQuery(
    h,
    `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION '${table} are read-only for this test'; END $$`,
  );
  await adminQuery(
    h,
    `CREATE TRIGGER refuse BEFORE ${operation} ON cis.${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
  );
  return async () => {
    await adminQuery(h, `DROP TRIGGER refuse ON cis.${table}`);
    await adminQuery(h, `DROP FUNCTION ${name}()`);
  };
}

const statusOf = async (id: string) =>
  ((await h.call(admin, 'GET', `/invoices/${id}`)).body.invoice as { status: string }).status;

describe('batch failures', () => {
  it('a bulk approve, mark paid or delete that the database refuses answers 500 with its cause and changes nothing', async () => {
    const subcontractorId = await createSubcontractor(h, admin);
    const draft = await invoice(subcontractorId, 'BATCH-1');
    const approved = await invoice(subcontractorId, 'BATCH-2');
    expect((await h.call(admin, 'POST', '/invoices/approve', { ids: [approved] })).status).toBe(200);

    const allowUpdates = await refuse('UPDATE', 'invoices');
    try {
      const cases = [
        ['/invoices/approve', { ids: [draft] }, 'Batch approval failed'],
        ['/invoices/pay', { ids: [approved], paymentDate: '2026-11-20' }, 'Batch payment marking failed'],
        ['/invoices/delete', { ids: [draft] }, 'Batch delete failed'],
      ] as const;
      for (const [path, body, cause] of cases) {
        const answer = await h.call(admin, 'POST', path, body);
        expect({ path, status: answer.status, detail: answer.body.detail }).toEqual({
          path,
          status: 500,
          detail: cause,
        });
      }
    } finally {
      await allowUpdates();
    }
    // Nothing changed, and the same batches now succeed.
    expect(await statusOf(draft)).toBe('draft');
    expect(await statusOf(approved)).toBe('approved');
    const paid = await h.call(admin, 'POST', '/invoices/pay', { ids: [approved], paymentDate: '2026-11-20' });
    expect(paid.body).toEqual({ succeeded: [approved], failed: [] });
  });

  it('a statement job that fails on its last attempt is recorded as failed with Batch statement generation failed', async () => {
    const subcontractorId = await createSubcontractor(h, admin, {
      name: 'Fay Failing',
      utr: '3456789012',
      email: 'fay@failing.test',
    });
    const id = await invoice(subcontractorId, 'BATCH-JOB-1');
    expect((await h.call(admin, 'POST', '/invoices/approve', { ids: [id] })).status).toBe(200);
    // The statements table refuses new rows: generating the paid month's statement throws in the job.
    const allowInserts = await refuse('INSERT', 'statements');
    try {
      expect((await h.call(admin, 'POST', `/invoices/${id}/pay`, { paymentDate: '2026-10-15' })).status).toBe(
        200,
      );
      // The job the payment queued fails its first attempt and waits to be retried ...
      const jobId = await eventually(
        async () => {
          const rows = await adminQuery(
            h,
            `SELECT id FROM cis.jobs WHERE payload->'invoiceIds' ? $1 AND attempts >= 1 AND status = 'pending'`,
            [id],
          );
          return rows[0]?.id as string | undefined;
        },
        30_000,
        'the failed first attempt',
      );
      // ... made its fifth and last attempt.
      await adminQuery(h, 'UPDATE cis.jobs SET attempts = 4 WHERE id = $1', [jobId]);
      const job = await eventually(
        async () => {
          const answer = await h.call(admin, 'GET', `/jobs/${jobId}`);
          const value = answer.body.job as { status: string; error: string | null };
          return value.status === 'failed' ? value : undefined;
        },
        30_000,
        'the failed job',
      );
      expect(job).toMatchObject({ status: 'failed', error: 'Batch statement generation failed' });
    } finally {
      await allowInserts();
    }
  });
});

describe('settings that cannot be read', () => {
  it('GET /settings and the dashboard fall back to the same defaults in memory, and read the stored ones again after', async () => {
    const saved = await h.call(admin, 'PUT', '/settings', {
      active: true,
      companyName: 'Stored Construction Ltd',
      employerRef: '123/AB12345',
      accountsOfficeRef: '123PA00012345',
      vatScheme: 'flat',
      emailStatements: false,
      warningDays: 10,
      statementDeadlineDays: 20,
    });
    expect(saved.status).toBe(200);
    // The table is out of reach: every read of it fails in the database.
    await adminQuery(h, 'ALTER TABLE cis.settings RENAME TO settings_unreadable');
    try {
      const read = await h.call(admin, 'GET', '/settings');
      expect(read.status).toBe(200);
      expect(read.body.settings).toMatchObject({
        active: false,
        companyName: '',
        employerRef: '',
        accountsOfficeRef: '',
        vatScheme: 'standard',
        emailStatements: true,
        warningDays: 3,
        statementDeadlineDays: 14,
        hasUtr: false,
      });
      const dashboard = await h.call(admin, 'GET', '/dashboard');
      expect(dashboard.status).toBe(200);
      expect(dashboard.body.setupRequired).toBe(true);
    } finally {
      await adminQuery(h, 'ALTER TABLE cis.settings_unreadable RENAME TO settings');
    }
    const again = await h.call(admin, 'GET', '/settings');
    expect(again.body.settings).toMatchObject({ companyName: 'Stored Construction Ltd', warningDays: 10 });
  });
});
