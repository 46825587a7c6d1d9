import { eventually } from '@workspace/kit/testing';
import { currentTaxMonth, londonDate } from '../src/domain/index.js';
import {
  ALL_CIS_SCOPES,
  adminQuery,
  createSubcontractor,
  invoiceBody,
  type CisHarness,
  useCisHarnessWithAdmin,
} from './support.js';

/*
 * CIS-361 "jobs: create, update, get, subscribe": a Generate All job is created, updated as it runs, read with
 * GET /jobs/:id, and followed live with GET /jobs/:id/stream (Server-Sent Events, from every replica through
 * PostgreSQL NOTIFY), which ends by itself at the job's final state.
 */

let h: CisHarness;
let admin: string;

useCisHarnessWithAdmin((started) => {
  ({ h, admin } = started);
});

/** Reads a job stream to its end: each `job` event's data. */
async function followJob(
  token: string,
  jobId: string,
): Promise<{ status: string; progress: number; id: string }[]> {
  const res = await fetch(`${h.cisUrl}/v1/jobs/${jobId}/stream`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(60_000),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  // The stream ends by itself after the final state: the whole text is there once it has.
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: job\n'))
    .map(
      (block) =>
        JSON.parse(block.slice(block.indexOf('data: ') + 6)) as {
          status: string;
          progress: number;
          id: string;
        },
    );
}

describe('job stream', () => {
  it('follows a Generate All job from its state when opened to completed at 100, then ends', async () => {
    const subcontractorId = await createSubcontractor(h, admin, { name: 'Jo Job', utr: '4444444444' });
    const ids: string[] = [];
    for (const invoiceNumber of ['JOB-1', 'JOB-2']) {
      const invoice = await h.call(
        admin,
        'POST',
        '/invoices',
        invoiceBody(subcontractorId, {
          invoiceNumber,
          invoiceDate: londonDate(new Date()),
          materialsP: 10000,
        }),
      );
      ids.push((invoice.body.invoice as { id: string }).id);
    }
    await h.call(admin, 'POST', '/invoices/approve', { ids });
    await h.call(admin, 'POST', '/invoices/pay', { ids, paymentDate: londonDate(new Date()) });
    await eventually(
      async () => (await adminQuery(h, 'SELECT count(*)::int AS n FROM cis.job_queue'))[0]?.n === 0,
      30_000,
      'the queue to drain',
    );
    // Generate All has work to do once the statement the approval made is gone.
    await adminQuery(h, 'UPDATE cis.invoices SET statement_id = NULL WHERE id = ANY($1)', [ids]);
    await adminQuery(h, 'DELETE FROM cis.statements WHERE subcontractor_id = $1', [subcontractorId]);

    const started = await h.call(admin, 'POST', '/statements/generate-all', { taxMonth: currentTaxMonth() });
    expect(started.status).toBe(202);
    const jobId = (started.body.job as { id: string }).id;
    const events = await followJob(admin, jobId);

    expect(events.length).toBeGreaterThanOrEqual(1);
    for (const event of events) expect(event.id).toBe(jobId);
    expect(events.at(-1)).toEqual({ id: jobId, status: 'completed', progress: 100 });
    // States only move forward: progress never goes back, nothing follows the final state.
    const progress = events.map((event) => event.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(events.filter((event) => event.status === 'completed')).toHaveLength(1);
    // The result is read once the stream has ended.
    const job = await h.call(admin, 'GET', `/jobs/${jobId}`);
    expect(job.body.job).toMatchObject({ status: 'completed', progress: 100, result: { generated: 1 } });

    // A job that has already finished: its final state at once, and the stream ends.
    expect(await followJob(admin, jobId)).toEqual([{ id: jobId, status: 'completed', progress: 100 }]);
  });

  it('Generate All answers its batch as a success id list and a failed list, and flags each statement’s invoices as needing it', async () => {
    // A gross-paid subcontractor: no deduction, so approval asks for no statement.
    const subcontractorId = await createSubcontractor(h, admin, { name: 'Gus Gross', utr: '3333333333' });
    const verified = await h.call(admin, 'POST', `/subcontractors/${subcontractorId}/verification`, {
      status: 'gross',
      method: 'online',
    });
    expect(verified.status).toBe(200);
    const invoice = await h.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(subcontractorId, {
        invoiceNumber: 'GROSS-1',
        invoiceDate: londonDate(new Date()),
        materialsP: 0,
      }),
    );
    const invoiceId = (invoice.body.invoice as { id: string }).id;
    await h.call(admin, 'POST', '/invoices/approve', { ids: [invoiceId] });
    await h.call(admin, 'POST', '/invoices/pay', { ids: [invoiceId], paymentDate: londonDate(new Date()) });
    const before = await h.call(admin, 'GET', `/invoices/${invoiceId}`);
    expect(before.body.invoice).toMatchObject({
      amounts: { cisDeductionP: 0 },
      statement: { required: false },
    });

    const started = await h.call(admin, 'POST', '/statements/generate-all', { taxMonth: currentTaxMonth() });
    const jobId = (started.body.job as { id: string }).id;
    expect((await followJob(admin, jobId)).at(-1)?.status).toBe('completed');
    const job = await h.call(admin, 'GET', `/jobs/${jobId}`);
    const result = (job.body.job as { result: { succeeded: string[]; errors: unknown[]; generated: number } })
      .result;
    expect(result.errors).toEqual([]);
    expect(result.succeeded).toHaveLength(result.generated);
    const after = await h.call(admin, 'GET', `/invoices/${invoiceId}`);
    const statement = (after.body.invoice as { statement: { required: boolean; statementId: string } })
      .statement;
    expect(statement.required).toBe(true);
    expect(result.succeeded).toContain(statement.statementId);
    const generated = await h.call(admin, 'GET', `/statements?subcontractorId=${subcontractorId}`);
    expect(JSON.stringify(generated.body)).toContain(statement.statementId);
  });

  it("answers 404 'Job not found' for another tenant's job, and 403 without cis.inv.read", async () => {
    const started = await h.call(admin, 'POST', '/statements/generate-all', { taxMonth: currentTaxMonth() });
    const jobId = (started.body.job as { id: string }).id;
    const other = await h.token(ALL_CIS_SCOPES, 'acme');
    const foreign = await fetch(`${h.cisUrl}/v1/jobs/${jobId}/stream`, {
      headers: { authorization: `Bearer ${other}`, accept: 'text/event-stream' },
    });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { detail: string }).detail).toBe('Job not found');
    const unscoped = await fetch(`${h.cisUrl}/v1/jobs/${jobId}/stream`, {
      headers: { authorization: `Bearer ${await h.token([])}`, accept: 'text/event-stream' },
    });
    expect(unscoped.status).toBe(403);
  });
});
