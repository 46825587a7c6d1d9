// The one route the drive calls (drive ADR 0046), on real PostgreSQL and Kafka: an issued statement's PDF and a
// submitted return's CIS300 XML, by id, for the drive's token only; each copy audited (ids only).
import {
  ALL_CIS_SCOPES,
  CIS_DOCUMENTS_TOKEN,
  DECLARED,
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
  startCisHarness,
  type CisHarness,
} from './support.js';

const MONTH = '2025-06';
let h: CisHarness;
let admin: string;
let statementId = '';
let returnId = '';
let submissionRef = '';

const fetchDocument = (path: string, token?: string) =>
  fetch(`${h.cisUrl}/v1/internal/drive-documents/${path}`, {
    headers: token === undefined ? {} : { 'x-internal-token': token },
  });

beforeAll(async () => {
  h = await startCisHarness();
  admin = await h.token(ALL_CIS_SCOPES);
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
  const sub = await createSubcontractor(h, admin, { name: 'Dan Drain', email: 'dan@drain.test' });
  const created = await h.call(admin, 'POST', '/invoices', invoiceBody(sub, { invoiceDate: '2025-06-20' }));
  const invoiceId = (created.body.invoice as { id: string }).id;
  await h.call(admin, 'POST', '/invoices/approve', { ids: [invoiceId] });
  await drainJobQueue(h);
  await h.call(admin, 'POST', '/invoices/pay', { ids: [invoiceId], paymentDate: '2025-06-20' });
  await drainJobQueue(h);
  const page = await h.call(admin, 'GET', `/statements?taxMonth=${MONTH}`);
  statementId =
    (page.body.subcontractors as { statement: { id: string } | null }[]).find((g) => g.statement)?.statement
      ?.id ?? '';
});

afterAll(async () => {
  await h.stop();
});

describe('GET /v1/internal/drive-documents/:kind/:id', () => {
  it('refuses a caller without the drive’s token, or with another', async () => {
    expect((await fetchDocument(`statements/${statementId}?tenantId=demo`)).status).toBe(401);
    expect((await fetchDocument(`statements/${statementId}?tenantId=demo`, 'x'.repeat(48))).status).toBe(401);
    const staff = await fetch(
      `${h.cisUrl}/v1/internal/drive-documents/statements/${statementId}?tenantId=demo`,
      {
        headers: { authorization: `Bearer ${admin}` },
      },
    );
    expect(staff.status).toBe(401);
  });

  it('answers 404 for a statement not issued yet, and for another tenant', async () => {
    expect((await fetchDocument(`statements/${statementId}?tenantId=demo`, CIS_DOCUMENTS_TOKEN)).status).toBe(
      404,
    );
    expect(
      (await h.call(admin, 'POST', `/statements/${statementId}/issue`, { method: 'portal' })).status,
    ).toBe(200);
    expect((await fetchDocument(`statements/${statementId}?tenantId=acme`, CIS_DOCUMENTS_TOKEN)).status).toBe(
      404,
    );
  });

  it('hands an issued statement’s PDF (the subcontractor’s copy) with its download file name, audited', async () => {
    const answer = await fetchDocument(`statements/${statementId}?tenantId=demo`, CIS_DOCUMENTS_TOKEN);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="cis-statement-month-ending-2025-07-05-${statementId}.pdf"`,
    );
    expect(answer.headers.get('x-document-ref')).toBe(statementId);
    expect(answer.headers.get('x-tax-month')).toBe(MONTH);
    expect(
      Buffer.from(await answer.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const audited = await adminQuery(
      h,
      `SELECT performed_by, details FROM cis.activity WHERE action = 'cis.statement.downloaded' AND target_id = $1`,
      [statementId],
    );
    expect(audited).toEqual([
      expect.objectContaining({
        performed_by: 'system',
        details: expect.objectContaining({ basis: 'drive' }),
      }),
    ]);
  });

  it('hands a submitted return’s CIS300 XML (404 before it is submitted), its IRmark as the document ref', async () => {
    const compiled = await h.call(admin, 'POST', `/returns/${MONTH}/compile`);
    returnId = (compiled.body.return as { id: string }).id;
    expect((await fetchDocument(`returns/${returnId}?tenantId=demo`, CIS_DOCUMENTS_TOKEN)).status).toBe(404);
    const submitted = await h.call(admin, 'POST', `/returns/${returnId}/submit`, DECLARED);
    expect(submitted.status).toBe(200);
    submissionRef = (submitted.body.return as { submissionRef: string }).submissionRef;
    const answer = await fetchDocument(`returns/${returnId}?tenantId=demo`, CIS_DOCUMENTS_TOKEN);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/xml');
    expect(answer.headers.get('content-disposition')).toBe(
      'attachment; filename="cis300-month-ending-2025-07-05.xml"',
    );
    expect(answer.headers.get('x-document-ref')).toBe(submissionRef);
    expect(await answer.text()).toContain('<IRenvelope');
  });
});
