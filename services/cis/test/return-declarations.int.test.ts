// Issue 13, declarations and corrections on the return side, through the cis service's API on real PostgreSQL and
// Kafka: a submit without the declarations its return asks for is refused and changes nothing; the declarations
// ticked are stored with the return (who, when) and written into its CIS300 as given, valid against HMRC's XSD
// (a return with payments and a nil return with inactivity); a payment into a submitted month shows the return
// "changed since submission" with the difference, and the amendment goes through the declarations again and
// produces the amended CIS300; the return CSV is clear for a holder of cis.pii.unmask (audited) and masked for others.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CIS_DECLARATION_MISSING, CIS_INACTIVITY_ONLY_NIL } from '@workspace/rules';
import {
  ALL_CIS_SCOPES,
  DECLARED,
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  settingsBody,
  startCisHarness,
  storedRow,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;

const ADMIN = '00000000-0000-4000-8000-00000000e000';
const SUBMITTER = '00000000-0000-4000-8000-00000000e001';
const AMENDER = '00000000-0000-4000-8000-00000000e002';
const READER = '00000000-0000-4000-8000-00000000e003';

/** The month with payments: 6 May to 5 June 2025. */
const MAY = '2025-05';
/** A month without payments (nil return). */
const JUNE = '2025-06';

const ids = { alma: '', bold: '' };
const XSD = fileURLToPath(new URL('../xsd/CISreturn-v1-2.xsd', import.meta.url));

const as = (userId: string, scopes = ALL_CIS_SCOPES) => h.token(scopes, 'demo', userId);

async function paidInvoice(
  subcontractorId: string,
  invoiceNumber: string,
  grossP: number,
  paymentDate: string,
) {
  const created = await h.call(
    admin,
    'POST',
    '/invoices',
    invoiceBody(subcontractorId, { invoiceNumber, invoiceDate: paymentDate, grossP, materialsP: 0 }),
  );
  expect(created.status).toBe(201);
  const id = (created.body.invoice as { id: string }).id;
  expect((await h.call(admin, 'POST', '/invoices/approve', { ids: [id] })).body).toMatchObject({
    failed: [],
  });
  await drainJobQueue(h);
  // A payment into a month whose return is submitted is confirmed past the warning (the corrections' 409).
  expect(
    (await h.call(admin, 'POST', '/invoices/pay', { ids: [id], paymentDate, confirmSubmittedReturn: true }))
      .body,
  ).toMatchObject({ failed: [] });
  await drainJobQueue(h);
  return id;
}

/** Issues every statement of the month not yet issued (a return is submitted once they all are). */
async function issueStatements(taxMonth: string) {
  const page = await h.call(admin, 'GET', `/statements?taxMonth=${taxMonth}`);
  for (const group of page.body.subcontractors as { statement: { id: string; status: string } | null }[]) {
    if (group.statement && group.statement.status !== 'issued')
      expect(
        (await h.call(admin, 'POST', `/statements/${group.statement.id}/issue`, { method: 'portal' })).status,
      ).toBe(200);
  }
}

/** The IRenvelope of a GovTalk message checked by xmllint against HMRC's CISreturn-v1-2.xsd ('' when valid). */
function schemaProblems(xml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cis300-declared-'));
  const start = xml.indexOf('<IRenvelope');
  const end = xml.indexOf('</IRenvelope>') + '</IRenvelope>'.length;
  writeFileSync(join(dir, 'return.xml'), xml.slice(start, end));
  try {
    execFileSync('xmllint', ['--noout', '--schema', XSD, join(dir, 'return.xml')], { stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

/** The Declarations element of a CIS300 document, whitespace removed. */
const declarationsOf = (xml: string) =>
  /<Declarations>[\s\S]*?<\/Declarations>/.exec(xml)?.[0].replace(/\s+/g, '') ?? '';

beforeAll(async () => {
  h = await startCisHarness();
  admin = await as(ADMIN);
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
  ids.alma = await createSubcontractor(h, admin, {
    name: 'Alma Andrews',
    utr: '1111111111',
    nino: 'AB123456C',
  });
  ids.bold = await createSubcontractor(h, admin, {
    name: 'Bert Bold',
    utr: '2222222222',
    nino: 'CE654321A',
    email: 'bert@bold.test',
  });
  await paidInvoice(ids.alma, 'AL-1', 100000, '2025-05-20');
  await paidInvoice(ids.bold, 'BO-1', 50000, '2025-05-21');
  await issueStatements(MAY);
  expect((await h.call(admin, 'POST', `/returns/${MAY}/compile`)).body.validation).toEqual({
    valid: true,
    issues: [],
  });
  expect((await h.call(admin, 'POST', `/returns/${JUNE}/compile`)).body.return).toMatchObject({
    status: 'nil',
  });
});

afterAll(async () => {
  await h.stop();
});

describe('submit asks for the declarations', () => {
  it('refuses a submit without them, naming each one, and leaves the return unlocked and unfiled', async () => {
    const before = await storedRow(h, 'returns', { tenant_id: 'demo', id: MAY });
    const none = await h.call(await as(SUBMITTER), 'POST', `/returns/${MAY}/submit`);
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([
      { field: 'body.declarations.employmentStatus', message: CIS_DECLARATION_MISSING.employmentStatus },
      { field: 'body.declarations.verification', message: CIS_DECLARATION_MISSING.verification },
      { field: 'body.declarations.informationCorrect', message: CIS_DECLARATION_MISSING.informationCorrect },
    ]);
    expect(none.body.detail).toContain(CIS_DECLARATION_MISSING.employmentStatus);

    // One box left unticked, or ticked "false", is refused too; so is inactivity on a return with payments.
    for (const declarations of [
      { employmentStatus: true, informationCorrect: true },
      { employmentStatus: true, verification: false, informationCorrect: true },
    ]) {
      const partial = await h.call(admin, 'POST', `/returns/${MAY}/submit`, { declarations });
      expect(partial.status).toBe(400);
      expect(partial.body.errors).toEqual([
        { field: 'body.declarations.verification', message: CIS_DECLARATION_MISSING.verification },
      ]);
    }
    const inactive = await h.call(admin, 'POST', `/returns/${MAY}/submit`, {
      declarations: { ...DECLARED.declarations, inactivity: true },
    });
    expect(inactive.status).toBe(400);
    expect(inactive.body.detail).toBe(`${CIS_INACTIVITY_ONLY_NIL}.`);

    // A nil return asks for information-correct only.
    const nil = await h.call(admin, 'POST', `/returns/${JUNE}/submit`, {
      declarations: { inactivity: true },
    });
    expect(nil.status).toBe(400);
    expect(nil.body.errors).toEqual([
      { field: 'body.declarations.informationCorrect', message: CIS_DECLARATION_MISSING.informationCorrect },
    ]);

    expect(await storedRow(h, 'returns', { tenant_id: 'demo', id: MAY })).toEqual(before);
    expect(
      await adminQuery(h, `SELECT id FROM cis.returns WHERE locked OR declarations IS NOT NULL`),
    ).toEqual([]);
  });

  it('stores the declarations with the return (who, when) and writes them into the CIS300 as given, valid against the XSD', async () => {
    const submitted = await h.call(await as(SUBMITTER), 'POST', `/returns/${MAY}/submit`, DECLARED);
    expect(submitted.status).toBe(200);
    expect(submitted.body.return).toMatchObject({
      status: 'submitted',
      displayStatus: 'Submitted',
      submittedBy: SUBMITTER,
      submittedAt: expect.any(String),
      declarations: { employmentStatus: true, verification: true, informationCorrect: true },
      hasCis300: true,
    });
    expect(await storedRow(h, 'returns', { tenant_id: 'demo', id: MAY })).toMatchObject({
      submitted_by: SUBMITTER,
      declarations: { employmentStatus: true, verification: true, informationCorrect: true },
    });

    const xml = (await h.call(admin, 'GET', `/returns/${MAY}/cis300.xml`)).text;
    expect(declarationsOf(xml)).toBe(
      '<Declarations><EmploymentStatus>yes</EmploymentStatus><Verification>yes</Verification>' +
        '<InformationCorrect>yes</InformationCorrect></Declarations>',
    );
    expect(xml).not.toContain('<NilReturn>');
    expect(schemaProblems(xml)).toBe('');
    const [entry] = await adminQuery(
      h,
      `SELECT performed_by, details FROM cis.activity WHERE action = 'cis.return.submitted' AND target_id = $1`,
      [MAY],
    );
    expect(entry).toMatchObject({
      performed_by: SUBMITTER,
      details: { declarations: 'employmentStatus,verification,informationCorrect' },
    });
  });

  it("a nil return's CIS300 carries information-correct and the inactivity ticked, and nothing else, valid against the XSD", async () => {
    // Submitted by a real user of the tenant (Alex Accountant), whom another reader sees by name.
    const alex = await h.signInAs('accountant@demo.test');
    const submitted = await h.call(alex, 'POST', `/returns/${JUNE}/submit`, {
      // The employment status and verification are not asked of a nil return: not stored, not written.
      declarations: { employmentStatus: true, informationCorrect: true, inactivity: true },
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body.return).toMatchObject({
      status: 'submitted',
      submittedByName: null, // the reader's own: 'you' on the page
      declarations: { informationCorrect: true, inactivity: true },
    });
    const ada = await h.signInAs('admin@demo.test');
    expect((await h.call(ada, 'GET', `/returns/${JUNE}`)).body.return).toMatchObject({
      submittedByName: 'Alex Accountant',
    });
    expect((submitted.body.return as { declarations: object }).declarations).toEqual({
      informationCorrect: true,
      inactivity: true,
    });
    const xml = (await h.call(admin, 'GET', `/returns/${JUNE}/cis300.xml`)).text;
    expect(xml).toMatch(/<NilReturn>yes<\/NilReturn>/);
    expect(declarationsOf(xml)).toBe(
      '<Declarations><InformationCorrect>yes</InformationCorrect><Inactivity>yes</Inactivity></Declarations>',
    );
    expect(schemaProblems(xml)).toBe('');
  });
});

describe('changed since submission, and the amendment', () => {
  let amendmentId = '';

  it('answers no change while the live figures are those submitted', async () => {
    const changes = await h.call(admin, 'GET', `/returns/${MAY}/changes`);
    expect(changes.status).toBe(200);
    expect(changes.body).toMatchObject({ taxMonth: MAY, changed: false, lines: [], amendment: null });
    expect(changes.body.submitted).toMatchObject({ id: MAY, status: 'submitted' });
    // A month never submitted answers no submitted return.
    expect((await h.call(admin, 'GET', '/returns/2025-08/changes')).body).toMatchObject({
      submitted: null,
      changed: false,
    });
  });

  it('shows the difference per subcontractor and in total once an invoice is paid into the submitted month', async () => {
    await paidInvoice(ids.alma, 'AL-LATE', 30000, '2025-05-28');
    const changes = await h.call(admin, 'GET', `/returns/${MAY}/changes`);
    expect(changes.body).toMatchObject({
      changed: true,
      lines: [
        {
          subcontractorId: ids.alma,
          name: 'Alma Andrews',
          submitted: { grossP: 100000, invoiceCount: 1 },
          live: { grossP: 130000, invoiceCount: 2 },
          difference: { grossP: 30000, materialsP: 0, cisDeductedP: 6000, invoiceCount: 1 },
        },
      ],
      totals: {
        submitted: { grossP: 150000, cisDeductedP: 30000 },
        live: { grossP: 180000, cisDeductedP: 36000 },
        difference: { subcontractors: 0, invoices: 1, grossP: 30000, cisDeductedP: 6000 },
      },
    });
    // The submitted return itself stays as filed.
    expect((await h.call(admin, 'GET', `/returns/${MAY}/changes`)).body.submitted).toMatchObject({
      totals: { grossP: 150000 },
    });
  });

  it('Amend compiles the live figures into an amendment, which is declared again and produces the amended CIS300', async () => {
    const amended = await h.call(await as(AMENDER), 'POST', `/returns/${MAY}/amend`);
    expect(amended.status).toBe(201);
    const amendment = amended.body.return as { id: string; totals: Record<string, number> };
    amendmentId = amendment.id;
    expect(amendment).toMatchObject({
      status: 'amended',
      amendmentOf: MAY,
      totals: { grossP: 180000, invoices: 3 },
    });
    // The month's return is still the one submitted: the amendment in progress is named beside it.
    expect((await h.call(admin, 'GET', `/returns/${MAY}/changes`)).body).toMatchObject({
      changed: true,
      submitted: { id: MAY },
      amendment: { id: amendmentId },
    });

    await issueStatements(MAY);
    const undeclared = await h.call(admin, 'POST', `/returns/${amendmentId}/submit`);
    expect(undeclared.status).toBe(400);
    const submitted = await h.call(await as(AMENDER), 'POST', `/returns/${amendmentId}/submit`, DECLARED);
    expect(submitted.status).toBe(200);
    expect(submitted.body.return).toMatchObject({
      id: amendmentId,
      status: 'submitted',
      amendmentOf: MAY,
      submittedBy: AMENDER,
      declarations: DECLARED.declarations,
    });
    const xml = (await h.call(admin, 'GET', `/returns/${encodeURIComponent(amendmentId)}/cis300.xml`)).text;
    expect(xml).toContain('<TotalPayments>1300.00</TotalPayments>');
    expect(declarationsOf(xml)).toContain('<EmploymentStatus>yes</EmploymentStatus>');
    expect(schemaProblems(xml)).toBe('');

    // Filed again: no change since the amendment.
    expect((await h.call(admin, 'GET', `/returns/${MAY}/changes`)).body).toMatchObject({
      changed: false,
      submitted: { id: amendmentId },
      amendment: null,
    });
  });
});

describe('the return CSV', () => {
  const unmaskedEntries = async () =>
    adminQuery(
      h,
      `SELECT performed_by, target_type, target_id, details FROM cis.activity WHERE action = 'cis.pii.unmasked'`,
    );

  it('carries clear UTRs and NINOs for a holder of cis.pii.unmask, audited as cis.pii.unmasked', async () => {
    const csv = await h.call(await as(ADMIN), 'GET', `/returns/${MAY}/export.csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('Alma Andrews,1111111111,AB123456C');
    expect(csv.text).toContain('Bert Bold,2222222222,CE654321A');
    expect(await unmaskedEntries()).toEqual([
      {
        performed_by: ADMIN,
        target_type: 'return',
        target_id: MAY,
        details: expect.objectContaining({ fields: 'utr,nino', format: 'csv', taxMonth: MAY }),
      },
    ]);
  });

  it('is masked for a user without cis.pii.unmask, and nothing is unmasked', async () => {
    const reader = await as(
      READER,
      ALL_CIS_SCOPES.filter((scope) => scope !== 'cis.pii.unmask' && scope !== 'cis.manage'),
    );
    const csv = await h.call(reader, 'GET', `/returns/${MAY}/export.csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).not.toContain('1111111111');
    expect(csv.text).not.toContain('AB123456C');
    expect(csv.text).toMatch(/Alma Andrews,\*+1111,/);
    expect((await unmaskedEntries()).map((entry) => entry.performed_by)).toEqual([ADMIN]);
  });
});
