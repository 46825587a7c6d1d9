// Documents and reads that carry clear identifiers (security review 2026-11-26 H1, H2, M8, L12, L16; ADR 0029), on
// real PostgreSQL and Kafka through the cis API: which copy of a statement PDF each caller gets, the print issue of
// an accountant who may not unmask, the portal's own copy, the CIS300 download's scopes and its storage sealed at
// rest, the audit entries of every clear read (ids only), the statement e-mail failure's message, and the activity
// log's scope.
import { jest } from '@jest/globals';
import { createDatabase, serviceDatabaseUrl } from '@workspace/kit';
import { internalPost } from '@workspace/identity/testing';
import { NotificationClient } from '@workspace/notification';
import { PDFParse } from 'pdf-parse';
import { queueUnsealedCis300 } from '../migrations/003_sealed_cis300.js';
import { sealStoredCis300 } from '../src/commands/seal-stored-cis300.js';
import { CIS_ROLE_TEMPLATES, taxMonthFilePart } from '../src/domain/index.js';
import {
  DECLARED,
  ALL_CIS_SCOPES,
  NOTIFICATION_TOKEN,
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
  startCisHarness,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;

const ADMIN = '00000000-0000-4000-8000-00000000e000';
const CLERK = '00000000-0000-4000-8000-00000000e001';
const ACCOUNTANT = '00000000-0000-4000-8000-00000000e002';
const OTHER_ACCOUNTANT = '00000000-0000-4000-8000-00000000e003';
const UNMASKER = '00000000-0000-4000-8000-00000000e004';
const SUBMITTER = '00000000-0000-4000-8000-00000000e005';
const FILER = '00000000-0000-4000-8000-00000000e006';

const MONTH = '2025-05';
const SAM_UTR = '1234567890';
const SAM_NINO = 'AB123456C';
const TOM_UTR = '9876543210';
const CONTRACTOR_UTR = settingsBody().utr;
const STAFF_MARK = 'STAFF COPY: identifiers masked, not for issue';

const ids = { sam: '', tom: '', samStatement: '', tomStatement: '' };

async function pdfText(body: ArrayBuffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** A statement PDF as `token` gets it: its status, filename and text. */
async function statementPdf(token: string, id: string, path = `/statements/${id}/pdf`) {
  const response = await fetch(`${h.cisUrl}/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  return {
    status: response.status,
    disposition: response.headers.get('content-disposition') ?? '',
    text: response.ok ? await pdfText(await response.arrayBuffer()) : await response.text(),
  };
}

/** The activity rows of one action, oldest first. */
const activityOf = (action: string) =>
  adminQuery(
    h,
    `SELECT action, target_type, target_id, details, performed_by FROM cis.activity WHERE action = $1 ORDER BY id`,
    [action],
  );

/** The outbox events of one action, as text. */
const eventsOf = async (type: string) =>
  (
    await adminQuery(h, `SELECT payload::text AS text FROM cis.outbox WHERE type = $1 ORDER BY id`, [type])
  ).map((row) => String(row.text));

const noIdentifier = (text: string) => {
  for (const identifier of [SAM_UTR, SAM_NINO, TOM_UTR, CONTRACTOR_UTR])
    expect(text).not.toContain(identifier);
};

async function statementIdOf(subcontractorId: string): Promise<string> {
  const page = await h.call(admin, 'GET', `/statements?taxMonth=${MONTH}`);
  const group = (
    page.body.subcontractors as { subcontractorId: string; statement: { id: string } | null }[]
  ).find((g) => g.subcontractorId === subcontractorId);
  if (!group?.statement) throw new Error(`no statement for ${subcontractorId}`);
  return group.statement.id;
}

beforeAll(async () => {
  h = await startCisHarness();
  admin = await h.token(ALL_CIS_SCOPES, 'demo', ADMIN);
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
  ids.sam = await createSubcontractor(h, admin, {
    name: 'Sam Stone',
    utr: SAM_UTR,
    nino: SAM_NINO,
    email: 'sam@stone.test',
  });
  ids.tom = await createSubcontractor(h, admin, {
    name: 'Tom Tile',
    utr: TOM_UTR,
    nino: '',
    email: 'tom@tile.test',
  });
  const invoices: string[] = [];
  for (const [subcontractorId, invoiceNumber] of [
    [ids.sam, 'SAM-1'],
    [ids.tom, 'TOM-1'],
  ] as const) {
    const created = await h.call(
      admin,
      'POST',
      '/invoices',
      invoiceBody(subcontractorId, { invoiceNumber, invoiceDate: '2025-05-20' }),
    );
    expect(created.status).toBe(201);
    invoices.push((created.body.invoice as { id: string }).id);
  }
  expect((await h.call(admin, 'POST', '/invoices/approve', { ids: invoices })).body).toMatchObject({
    failed: [],
  });
  await drainJobQueue(h);
  expect(
    (await h.call(admin, 'POST', '/invoices/pay', { ids: invoices, paymentDate: '2025-05-20' })).body,
  ).toMatchObject({ failed: [] });
  // The payment queues the statement job, which generates each statement (not issued).
  await drainJobQueue(h);
  ids.samStatement = await statementIdOf(ids.sam);
  ids.tomStatement = await statementIdOf(ids.tom);
});

afterAll(async () => {
  await h.stop();
});

describe('the statement PDF (H1, M8)', () => {
  it('gives a clerk (no cis.pii.unmask) a staff copy: the UTR masked as the product masks it, marked not for issue, not audited', async () => {
    const clerk = await h.token([...CIS_ROLE_TEMPLATES['cis-clerk']], 'demo', CLERK);
    const pdf = await statementPdf(clerk, ids.samStatement);
    expect(pdf.status).toBe(200);
    expect(pdf.text).toContain('Sam Stone');
    expect(pdf.text).toContain('******7890');
    expect(pdf.text).toContain(STAFF_MARK);
    expect(pdf.text).not.toContain(SAM_UTR);
    expect(pdf.disposition).toContain('staff-copy');
    expect(pdf.disposition).toContain(`cis-statement-${taxMonthFilePart(MONTH)}-`);
    expect(
      (await activityOf('cis.statement.downloaded')).filter((row) => row.performed_by === CLERK),
    ).toEqual([]);
  });

  it('gives a holder of cis.pii.unmask the subcontractor’s copy with the full UTR, audited as cis.statement.downloaded with ids only', async () => {
    const unmasker = await h.token(['cis.inv.read', 'cis.pii.unmask'], 'demo', UNMASKER);
    const pdf = await statementPdf(unmasker, ids.samStatement);
    expect(pdf.status).toBe(200);
    expect(pdf.text).toContain(SAM_UTR);
    expect(pdf.text).not.toContain('STAFF COPY');
    expect(
      (await activityOf('cis.statement.downloaded')).filter((row) => row.performed_by === UNMASKER),
    ).toEqual([
      {
        action: 'cis.statement.downloaded',
        target_type: 'statement',
        target_id: ids.samStatement,
        details: { copy: 'subcontractor', basis: 'unmask', taxMonth: MONTH },
        performed_by: UNMASKER,
      },
    ]);
    const events = await eventsOf('cis.statement.downloaded');
    expect(events.some((text) => text.includes(ids.samStatement) && text.includes(UNMASKER))).toBe(true);
    for (const text of events) noIdentifier(text);
  });

  it('lets an accountant who may issue but not unmask print for issue: the print issue, audited, gives that accountant the full UTR', async () => {
    const accountant = await h.token([...CIS_ROLE_TEMPLATES['cis-accountant']], 'demo', ACCOUNTANT);
    expect((await statementPdf(accountant, ids.samStatement)).text).toContain(STAFF_MARK);

    const issued = await h.call(accountant, 'POST', `/statements/${ids.samStatement}/issue`, {
      method: 'print',
    });
    expect(issued.status).toBe(200);
    expect(issued.body.statement).toMatchObject({ status: 'issued', issuedMethod: 'print' });
    const printed = await statementPdf(accountant, ids.samStatement);
    expect(printed.text).toContain(SAM_UTR);
    expect(printed.text).not.toContain('STAFF COPY');
    expect(printed.disposition).not.toContain('staff-copy');

    const sent = await activityOf('cis.statement.sent');
    expect(sent.filter((row) => row.performed_by === ACCOUNTANT)).toEqual([
      expect.objectContaining({
        target_id: ids.samStatement,
        details: expect.objectContaining({ method: 'print' }),
      }),
    ]);
    expect(
      (await activityOf('cis.statement.downloaded')).filter((row) => row.performed_by === ACCOUNTANT),
    ).toEqual([
      expect.objectContaining({
        target_id: ids.samStatement,
        details: { copy: 'subcontractor', basis: 'print-issue', taxMonth: MONTH },
      }),
    ]);

    // Another accountant did not print it: the staff copy.
    const other = await h.token([...CIS_ROLE_TEMPLATES['cis-accountant']], 'demo', OTHER_ACCOUNTANT);
    const otherCopy = await statementPdf(other, ids.samStatement);
    expect(otherCopy.text).toContain(STAFF_MARK);
    expect(otherCopy.text).not.toContain(SAM_UTR);
  });

  it('gives an issuer without cis.pii.unmask only the staff copy of a statement issued by portal', async () => {
    const accountant = await h.token([...CIS_ROLE_TEMPLATES['cis-accountant']], 'demo', ACCOUNTANT);
    const issued = await h.call(accountant, 'POST', `/statements/${ids.tomStatement}/issue`, {
      method: 'portal',
    });
    expect(issued.status).toBe(200);
    const pdf = await statementPdf(accountant, ids.tomStatement);
    expect(pdf.text).toContain('******3210');
    expect(pdf.text).toContain(STAFF_MARK);
    expect(pdf.text).not.toContain(TOM_UTR);
  });

  it('gives the subcontractor in the portal their own copy with the full UTR, audited', async () => {
    const issued = await h.call(admin, 'POST', `/statements/${ids.samStatement}/issue`, { method: 'portal' });
    expect(issued.status).toBe(200);
    const inviter = await h.signInAs('admin@demo.test');
    const invited = await h.call(inviter, 'POST', '/subcontractors/invite', { subcontractorId: ids.sam });
    expect(invited.status).toBe(200);
    const token = new URL(String(invited.body.magicLink)).searchParams.get('token');
    const redeemed = (await (
      await internalPost(h.identity, '/v1/portal/links/redeem', { tenantId: 'demo', token })
    ).json()) as { accessToken: string };
    const pdf = await statementPdf(
      redeemed.accessToken,
      ids.samStatement,
      `/portal/statements/${ids.samStatement}/pdf`,
    );
    expect(pdf.status).toBe(200);
    expect(pdf.text).toContain(SAM_UTR);
    expect(pdf.text).not.toContain('STAFF COPY');
    // The period in the file name as HMRC names it (issue 13).
    expect(pdf.disposition).toContain(`cis-statement-${taxMonthFilePart(MONTH)}.pdf`);
    expect(
      (await activityOf('cis.statement.downloaded')).filter(
        (row) => (row.details as { basis?: string }).basis === 'portal',
      ),
    ).toEqual([expect.objectContaining({ target_type: 'statement', target_id: ids.samStatement })]);
  });
});

describe('the CIS300 document (H1, H2, M8)', () => {
  let returnId = '';
  let submissionRef = '';

  beforeAll(async () => {
    // A return is submitted once every statement of its month is issued.
    for (const id of [ids.samStatement, ids.tomStatement])
      expect((await h.call(admin, 'POST', `/statements/${id}/issue`, { method: 'portal' })).status).toBe(200);
    const compiled = await h.call(admin, 'POST', `/returns/${MONTH}/compile`);
    expect(compiled.body.validation).toEqual({ valid: true, issues: [] });
    returnId = (compiled.body.return as { id: string }).id;
    const submitted = await h.call(admin, 'POST', `/returns/${returnId}/submit`, DECLARED);
    expect(submitted.status).toBe(200);
    submissionRef = (submitted.body.return as { submissionRef: string }).submissionRef;
  });

  it('is stored sealed: the returns row holds no UTR, no NINO and no XML in clear', async () => {
    const [row] = await adminQuery(h, `SELECT to_jsonb(r)::text AS text FROM cis.returns r WHERE id = $1`, [
      returnId,
    ]);
    const text = String(row?.text);
    expect(text).toContain(submissionRef);
    noIdentifier(text);
    expect(text).not.toContain('<');
  });

  it('refuses a submitter without cis.pii.unmask (403 naming the permission); with it, it is the submitted document, audited', async () => {
    const submitter = await h.token(['cis.inv.read', 'cis.ret.compile', 'cis.ret.submit'], 'demo', SUBMITTER);
    const refused = await h.call(submitter, 'GET', `/returns/${returnId}/cis300.xml`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('This requires the cis.pii.unmask permission.');
    expect(refused.text).not.toContain('<IRenvelope');

    const filer = await h.token(['cis.ret.submit', 'cis.pii.unmask'], 'demo', FILER);
    const xml = await h.call(filer, 'GET', `/returns/${returnId}/cis300.xml`);
    expect(xml.status).toBe(200);
    expect(xml.text).toContain('<IRenvelope');
    expect(xml.text).toContain(`<UTR>${SAM_UTR}</UTR>`);
    expect(xml.text).toContain(`<NINO>${SAM_NINO}</NINO>`);
    expect(xml.text).toContain(`<UTR>${TOM_UTR}</UTR>`);
    expect(xml.text).toContain(submissionRef);
    expect(await activityOf('cis.return.downloaded')).toEqual([
      {
        action: 'cis.return.downloaded',
        target_type: 'return',
        target_id: returnId,
        details: { format: 'cis300', taxMonth: MONTH },
        performed_by: FILER,
      },
    ]);
    for (const text of await eventsOf('cis.return.downloaded')) noIdentifier(text);
  });
  it('stored in clear by an earlier version, is listed by migration 003 and sealed once by the start-up backfill (sealStoredCis300), the plain column cleared', async () => {
    const deps = h.definition.deps();
    const [before] = await adminQuery(h, `SELECT cis300_xml_enc FROM cis.returns WHERE id = $1`, [returnId]);
    const document = deps.sealed.open(String(before?.cis300_xml_enc));
    // The row as the version before migration 003 left it: the document in clear, nothing sealed.
    await adminQuery(h, `ALTER TABLE cis.returns DROP CONSTRAINT returns_cis300_sealed`);
    await adminQuery(h, `UPDATE cis.returns SET cis300_xml = $1, cis300_xml_enc = NULL WHERE id = $2`, [
      document,
      returnId,
    ]);
    await adminQuery(
      h,
      `ALTER TABLE cis.returns ADD CONSTRAINT returns_cis300_sealed CHECK (cis300_xml IS NULL) NOT VALID`,
    );
    // What migration 003 does with it, as the schema owner (not a superuser: row-level security is forced on it).
    const owner = createDatabase({
      url: serviceDatabaseUrl(h.identity.database.adminUrl, 'svc_cis_owner', 'cis-owner-test'),
      schema: 'cis',
      poolMax: 1,
    });
    try {
      await owner.transaction((trx) => queueUnsealedCis300(trx));
    } finally {
      await owner.destroy();
    }
    expect(await adminQuery(h, `SELECT tenant_id FROM cis.cis300_seal_backlog`)).toEqual([
      { tenant_id: 'demo' },
    ]);

    expect(await sealStoredCis300(deps)).toBe(1);
    expect(await sealStoredCis300(deps)).toBe(0);
    expect(await adminQuery(h, `SELECT tenant_id FROM cis.cis300_seal_backlog`)).toEqual([]);
    const [row] = await adminQuery(
      h,
      `SELECT cis300_xml, cis300_xml_enc, to_jsonb(r)::text AS text FROM cis.returns r WHERE id = $1`,
      [returnId],
    );
    expect(row?.cis300_xml).toBeNull();
    noIdentifier(String(row?.text));
    expect(String(row?.text)).not.toContain('<');
    expect(deps.sealed.open(String(row?.cis300_xml_enc))).toBe(document);
    // Nothing writes a document in clear any more.
    await expect(
      adminQuery(h, `UPDATE cis.returns SET cis300_xml = '<IRenvelope/>' WHERE id = $1`, [returnId]),
    ).rejects.toThrow(/returns_cis300_sealed/);
    const filer = await h.token(['cis.ret.submit', 'cis.pii.unmask'], 'demo', FILER);
    expect((await h.call(filer, 'GET', `/returns/${returnId}/cis300.xml`)).text).toBe(document);
  });
});

describe('unmasking a subcontractor (M8)', () => {
  it('is audited as cis.pii.unmasked with the subcontractor’s id, never its identifiers; a masked read is not', async () => {
    const reader = await h.token(['cis.sub.read', 'cis.pii.unmask'], 'demo', UNMASKER);
    const masked = await h.call(reader, 'GET', `/subcontractors/${ids.tom}`);
    expect(masked.status).toBe(200);
    expect(await activityOf('cis.pii.unmasked')).toEqual([]);

    const clear = await h.call(reader, 'GET', `/subcontractors/${ids.tom}?unmask=true`);
    expect(clear.body.subcontractor).toMatchObject({ utr: TOM_UTR });
    expect(await activityOf('cis.pii.unmasked')).toEqual([
      {
        action: 'cis.pii.unmasked',
        target_type: 'subcontractor',
        target_id: ids.tom,
        details: { fields: 'utr,nino' },
        performed_by: UNMASKER,
      },
    ]);
    const events = await eventsOf('cis.pii.unmasked');
    expect(events).toHaveLength(1);
    for (const text of events) noIdentifier(text);
  });
});

describe('a statement e-mail that cannot be handed to the notification service (L12)', () => {
  it('answers 503 with the spec’s message, naming no internal address', async () => {
    const mailer = h.definition.deps().mailer;
    const unreachable = new NotificationClient({
      baseUrl: 'http://127.0.0.1:9',
      internalToken: NOTIFICATION_TOKEN,
    });
    const send = jest.spyOn(mailer, 'send').mockImplementationOnce((input) => unreachable.send(input));
    try {
      const failed = await h.call(admin, 'POST', `/statements/${ids.tomStatement}/issue`, {
        method: 'email',
      });
      expect(send).toHaveBeenCalledTimes(1);
      expect(failed.status).toBe(503);
      expect(failed.body.detail).toBe(
        'Failed to issue statement: the email service is not available, try again later',
      );
      expect(failed.text).not.toContain('127.0.0.1');
      expect(failed.text).not.toContain('http://');
    } finally {
      send.mockRestore();
    }
  });
});

describe('the activity log (L16)', () => {
  it('needs cis.audit.read, on its own route and on the dashboard', async () => {
    const invoiceReader = await h.token(['cis.inv.read']);
    const refused = await h.call(invoiceReader, 'GET', '/activity');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('This requires the cis.audit.read permission.');
    const board = await h.call(invoiceReader, 'GET', '/dashboard');
    expect(board.status).toBe(200);
    expect(board.body.recentActivity).toEqual([]);

    const auditor = await h.token(['cis.audit.read']);
    const log = await h.call(auditor, 'GET', '/activity');
    expect(log.status).toBe(200);
    expect((log.body.items as unknown[]).length).toBeGreaterThan(0);
    const auditingReader = await h.token(['cis.inv.read', 'cis.audit.read']);
    const fullBoard = await h.call(auditingReader, 'GET', '/dashboard');
    expect((fullBoard.body.recentActivity as unknown[]).length).toBeGreaterThan(0);
  });
});
