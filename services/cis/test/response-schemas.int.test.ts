import type { z } from 'zod';
import {
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
  subcontractorBody,
  type CisHarness,
  useCisHarnessWithAdmin,
} from './support.js';

/*
 * What cis answers is what its response schemas say (the views of src/http/*.schemas.ts, the browser's types):
 * the main list and detail answers of each resource, read over HTTP, parse with the schema their route declares
 * (the ApiRouter's operations) and lose nothing in parsing, so a presenter that drops, renames, retypes or adds a
 * field fails here. /openapi.json documents each of them from the same schema.
 */

let h: CisHarness;
let admin: string;
let document: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const taxMonth = '2026-11';

useCisHarnessWithAdmin(async (started) => {
  ({ h, admin } = started);
  document = (await (await fetch(`${h.cisUrl}/openapi.json`)).json()) as typeof document;
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
});

/** The response schema the route of `method path` declares for `status` (path as declared: '/invoices/:id'). */
function declaredSchema(method: string, path: string, status = 200): z.ZodType {
  for (const { api } of h.definition.routes(h.cis.deps)) {
    const operation = api.operations.find((op) => op.method === method && op.path === path);
    const schema = operation?.responses[status]?.schema;
    if (schema) return schema;
  }
  throw new Error(`no ${status} schema for ${method.toUpperCase()} ${path}`);
}

/**
 * Calls cis and checks the answer against its route's schema: it parses, parsing strips nothing (no field the
 * schema lacks), and /openapi.json documents the answer's properties from the schema.
 */
async function expectConforming(
  method: 'get' | 'post' | 'put',
  path: string,
  url: string,
  options: { body?: unknown; status?: number } = {},
): Promise<Record<string, unknown>> {
  const status = options.status ?? 200;
  const answer = await h.call(admin, method.toUpperCase(), url, options.body);
  expect({ status: answer.status, text: answer.status === status ? '' : answer.text }).toEqual({
    status,
    text: '',
  });
  const parsed = declaredSchema(method, path, status).safeParse(answer.body);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  expect(parsed.data).toEqual(answer.body);
  const documented = document.paths[`/v1${path.replace(/:([A-Za-z]+)/g, '{$1}')}`]?.[method]?.responses[
    String(status)
  ] as
    { content?: { 'application/json'?: { schema?: { properties?: Record<string, unknown> } } } } | undefined;
  expect(Object.keys(documented?.content?.['application/json']?.schema?.properties ?? {}).sort()).toEqual(
    expect.arrayContaining(Object.keys(answer.body)),
  );
  return answer.body;
}

async function paidInvoice(subcontractorId: string, invoiceNumber: string): Promise<string> {
  const created = await h.call(admin, 'POST', '/invoices', invoiceBody(subcontractorId, { invoiceNumber }));
  const id = (created.body.invoice as { id: string }).id;
  expect((await h.call(admin, 'POST', `/invoices/${id}/approve`)).status).toBe(200);
  expect((await h.call(admin, 'POST', `/invoices/${id}/pay`, { paymentDate: '2026-11-20' })).status).toBe(
    200,
  );
  return id;
}

describe('cis answers match their response schemas', () => {
  it('subcontractors: the list, one (masked and in clear) and a created one', async () => {
    const id = await createSubcontractor(h, admin, { name: 'Schema Brick', utr: '1234567890' });
    await expectConforming('get', '/subcontractors', '/subcontractors');
    await expectConforming('get', '/subcontractors/:id', `/subcontractors/${id}`);
    const clear = await expectConforming('get', '/subcontractors/:id', `/subcontractors/${id}?unmask=true`);
    expect(clear.subcontractor).toMatchObject({ utr: '1234567890' });
    await expectConforming('post', '/subcontractors', '/subcontractors', {
      body: subcontractorBody({ name: 'Schema Build', utr: '2325648152', nino: 'AB654321C' }),
      status: 201,
    });
  });

  it('invoices: the list, one, a saved one and the dashboard and analytics over them', async () => {
    const subcontractorId = await createSubcontractor(h, admin, { name: 'Invoice Brick' });
    const paid = await paidInvoice(subcontractorId, 'SCHEMA-1');
    await expectConforming('post', '/invoices', '/invoices', {
      body: invoiceBody(subcontractorId, { invoiceNumber: 'SCHEMA-2' }),
      status: 201,
    });
    const list = await expectConforming('get', '/invoices', '/invoices');
    expect((list.items as unknown[]).length).toBeGreaterThan(0);
    await expectConforming('get', '/invoices/:id', `/invoices/${paid}`);
    await expectConforming('get', '/dashboard', '/dashboard');
    await expectConforming('get', '/analytics', '/analytics?months=3');
  });

  it('statements: the month (with a generated statement), one generated and one issued', async () => {
    const subcontractorId = await createSubcontractor(h, admin, { name: 'Statement Brick' });
    const paid = await paidInvoice(subcontractorId, 'SCHEMA-3');
    // Paying queues the statement job (a deduction above 0): let it finish and take back its statement, so the
    // generate call below makes one rather than racing the job for it.
    await drainJobQueue(h);
    await adminQuery(h, 'UPDATE cis.invoices SET statement_id = NULL WHERE id = $1', [paid]);
    await adminQuery(h, 'DELETE FROM cis.statements WHERE subcontractor_id = $1', [subcontractorId]);
    const generated = await expectConforming('post', '/statements/generate', '/statements/generate', {
      body: { subcontractorId, taxMonth },
      status: 201,
    });
    const month = await expectConforming('get', '/statements', `/statements?taxMonth=${taxMonth}`);
    expect((month.subcontractors as unknown[]).length).toBeGreaterThan(0);
    const { id } = generated.statement as { id: string };
    await expectConforming('post', '/statements/:id/issue', `/statements/${id}/issue`, {
      body: { method: 'print' },
    });
  });

  it('returns: compiled, the current month, the history and one month', async () => {
    const subcontractorId = await createSubcontractor(h, admin, { name: 'Return Brick' });
    await paidInvoice(subcontractorId, 'SCHEMA-4');
    const compiled = await expectConforming(
      'post',
      '/returns/:taxMonth/compile',
      `/returns/${taxMonth}/compile`,
    );
    expect((compiled.return as { lines: unknown[] }).lines.length).toBeGreaterThan(0);
    await expectConforming('get', '/returns/current', '/returns/current');
    await expectConforming('get', '/returns', '/returns');
    await expectConforming('get', '/returns/:taxMonth', `/returns/${taxMonth}`);
  });
});
