// The cis service end to end on real PostgreSQL and Kafka, with identity (tokens, portal links) and notification
// (a real SMTP sink): an invoice's whole life through to a submitted return, amendment and unlock; import; the
// invite; encryption at rest; tenants; scopes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '@workspace/kit/testing';
import { PDFParse } from 'pdf-parse';
import { addDays, currentTaxMonth, londonDate, taxMonthOf, taxMonthPeriod } from '../src/domain/index.js';
import { internalPost } from '@workspace/identity/testing';
import {
  DECLARED,
  ALL_CIS_SCOPES,
  adminQuery,
  settingsBody,
  startCisHarness,
  storedRow,
  subcontractorBody,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;

beforeAll(async () => {
  h = await startCisHarness();
  admin = await h.token(ALL_CIS_SCOPES);
});

afterAll(async () => {
  await h.stop();
});

describe('settings', () => {
  it('creates defaults on first read, validates, seals the contractor UTR and shows it masked', async () => {
    // The table has no settings row for the tenant before the first read, and one with the defaults after it.
    expect(await storedRow(h, 'settings', { tenant_id: 'demo' })).toBeUndefined();
    const first = await h.call(admin, 'GET', '/settings');
    expect(first.status).toBe(200);
    expect(await storedRow(h, 'settings', { tenant_id: 'demo' })).toMatchObject({
      tenant_id: 'demo',
      active: false,
      email_statements: true,
      warning_days: 3,
      statement_deadline_days: 14,
      utr_enc: null,
    });
    expect(first.body.settings).toMatchObject({
      active: false,
      emailStatements: true,
      warningDays: 3,
      statementDeadlineDays: 14,
      hasUtr: false,
    });
    expect(first.body.readiness).toContain('Contractor UTR is required');

    const bad = await h.call(
      admin,
      'PUT',
      '/settings',
      settingsBody({
        employerRef: '12/AB',
        accountsOfficeRef: 'nope',
        utr: '123',
        warningDays: 31,
        statementDeadlineDays: 0,
        emailReplyTo: 'not-an-email',
      }),
    );
    expect(bad.status).toBe(400);
    const messages = Object.fromEntries(
      (bad.body.errors as { field: string; message: string }[]).map((e) => [e.field, e.message]),
    );
    expect(messages).toMatchObject({
      'body.employerRef': 'Invalid format (e.g., 123/AB12345)',
      'body.accountsOfficeRef': 'Invalid format (e.g., 123PA00012345)',
      'body.utr': 'Invalid UTR format (10 digits)',
      'body.warningDays': 'Must be between 0 and 30 days',
      'body.statementDeadlineDays': 'Must be between 1 and 30 days',
      'body.emailReplyTo': 'Invalid email format',
    });

    const saved = await h.call(admin, 'PUT', '/settings', settingsBody());
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toMatchObject({ active: true, hasUtr: true, utrMasked: '******8152' });
    expect(JSON.stringify(saved.body)).not.toContain('2325648152');
    const [raw] = await adminQuery(
      h,
      `SELECT utr_enc, utr_masked FROM cis.settings WHERE tenant_id = 'demo'`,
    );
    expect(String(raw?.utr_enc)).not.toContain('2325648152');
    expect(String(raw?.utr_enc)).toMatch(/^v1\.c1\./);
  });
});

describe('an invoice from record to submitted return', () => {
  let subcontractorId: string;
  let invoiceId: string;

  it('creates a subcontractor with its identifiers sealed at rest and masked in answers', async () => {
    const created = await h.call(admin, 'POST', '/subcontractors', subcontractorBody());
    expect(created.status).toBe(201);
    const sub = created.body.subcontractor as Record<string, unknown>;
    subcontractorId = String(sub.id);
    expect(sub).toMatchObject({
      utrMasked: '******7890',
      ninoMasked: 'AB******C',
      verification: { rate: 20 },
    });
    expect(JSON.stringify(sub)).not.toContain('1234567890');
    const [raw] = await adminQuery(h, 'SELECT utr_enc, nino_enc FROM cis.subcontractors WHERE id = $1', [
      subcontractorId,
    ]);
    expect(String(raw?.utr_enc)).not.toContain('1234567890');
    expect(String(raw?.nino_enc)).not.toContain('AB123456C');

    const masked = await h.call(
      await h.token(['cis.sub.read']),
      'GET',
      `/subcontractors/${subcontractorId}?unmask=true`,
    );
    expect(masked.status).toBe(403);
    const clear = await h.call(admin, 'GET', `/subcontractors/${subcontractorId}?unmask=true`);
    expect(clear.body.subcontractor).toMatchObject({ utr: '1234567890', nino: 'AB123456C' });
  });

  it('refuses an invalid subcontractor with each of the spec messages', async () => {
    const bad = await h.call(admin, 'POST', '/subcontractors', {
      type: 'individual',
      name: 'D',
      utr: '12345',
      nino: 'DA123456Z',
      email: 'nope',
      registeredAddress: { line1: '', city: '', postcode: '' },
      gdprConsent: false,
    });
    expect(bad.status).toBe(400);
    const messages = (bad.body.errors as { message: string }[]).map((e) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Name is required',
        'Valid UTR required (10 digits)',
        'Invalid NINO format',
        'Invalid email format',
        'Address line 1 is required',
        'City is required',
        'Postcode is required',
        'GDPR consent is required',
      ]),
    );
  });

  it('records a draft with amounts from the verified rate, exact to the penny', async () => {
    const created = await h.call(admin, 'POST', '/invoices', {
      invoiceNumber: 'INV-001',
      subcontractorId,
      invoiceDate: '2026-11-10',
      grossP: 256700,
      materialsP: 36700,
      vatRate: 20,
      reverseCharge: false,
    });
    expect(created.status).toBe(201);
    const invoice = created.body.invoice as { id: string; amounts: Record<string, number>; status: string };
    invoiceId = invoice.id;
    expect(invoice.status).toBe('draft');
    expect(invoice.amounts).toMatchObject({
      grossP: 256700,
      materialsP: 36700,
      labourP: 220000,
      cisDeductionP: 44000,
      vatAmountP: 51340,
      netPaymentP: 256700 + 51340 - 44000,
    });
    const duplicate = await h.call(admin, 'POST', '/invoices', {
      invoiceNumber: 'inv-001',
      subcontractorId,
      invoiceDate: '2026-11-10',
      grossP: 100,
      materialsP: 0,
      vatRate: 0,
    });
    expect(duplicate.status).toBe(409);
  });

  it('approves (locking it and queuing statement generation), then marks it paid in the payment date’s tax month', async () => {
    const cannotPay = await h.call(admin, 'POST', `/invoices/${invoiceId}/pay`, {});
    expect(cannotPay.status).toBe(409);
    expect(cannotPay.body.detail).toBe('Only approved invoices can be marked as paid');

    const approved = await h.call(admin, 'POST', `/invoices/${invoiceId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.invoice).toMatchObject({
      status: 'approved',
      statement: { required: true },
    });
    expect((approved.body.invoice as { lockedAt: string | null }).lockedAt).not.toBeNull();
    const jobs = await adminQuery(h, `SELECT type, payload FROM cis.jobs WHERE tenant_id = 'demo'`);
    expect(jobs.some((job) => job.type === 'statements.generate')).toBe(true);

    const editAfterApproval = await h.call(admin, 'PUT', `/invoices/${invoiceId}`, {
      invoiceNumber: 'INV-001',
      subcontractorId,
      invoiceDate: '2026-11-10',
      grossP: 1,
      materialsP: 0,
      vatRate: 0,
    });
    expect(editAfterApproval.status).toBe(409);

    const today = londonDate(new Date());
    const paid = await h.call(admin, 'POST', `/invoices/${invoiceId}/pay`, { paymentDate: today });
    expect(paid.status).toBe(200);
    expect(paid.body.invoice).toMatchObject({
      status: 'paid',
      paymentDate: today,
      taxMonth: taxMonthOf(today),
    });
  });

  it('generates the statement in the background after payment and issues it by email with the PDF', async () => {
    const month = currentTaxMonth();
    const generated = await eventually(
      async () => {
        const page = await h.call(admin, 'GET', `/statements?taxMonth=${month}`);
        const group = (
          page.body.subcontractors as { subcontractorId: string; statement: { id: string } | null }[]
        ).find((g) => g.subcontractorId === subcontractorId);
        return group?.statement ?? undefined;
      },
      20_000,
      'the statement job',
    );
    const duplicate = await h.call(admin, 'POST', '/statements/generate', {
      subcontractorId,
      taxMonth: month,
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.detail).toBe('Statement already exists for Dave Brick for this tax month');

    const pdf = await fetch(`${h.cisUrl}/v1/statements/${generated.id}/pdf`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain('Payment and Deduction Statement');
    expect(text).toContain('Demo Construction Ltd');
    expect(text).toContain('123/AB12345');
    expect(text).toContain('1234567890');
    expect(text).toContain('£440.00');
    expect(text).toMatch(/at least 6 years/);

    h.sink.clear();
    const issued = await h.call(admin, 'POST', `/statements/${generated.id}/issue`, { method: 'email' });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({
      statement: { status: 'issued', issuedMethod: 'email' },
      emailSent: true,
    });
    const message = h.sink.messages().find((m) => m.to.includes('dave@brick.test'));
    expect(message?.attachments[0]?.contentType).toBe('application/pdf');
    const invoice = await h.call(admin, 'GET', `/invoices/${invoiceId}`);
    expect(invoice.body.invoice).toMatchObject({ statement: { issuedMethod: 'email' } });
  });

  it('compiles, submits (locked, with a CIS300 document valid against HMRC’s schema), amends and unlocks', async () => {
    const month = currentTaxMonth();
    const compiled = await h.call(admin, 'POST', `/returns/${month}/compile`);
    expect(compiled.status).toBe(200);
    expect(compiled.body.validation).toEqual({ valid: true, issues: [] });
    const ret = compiled.body.return as { id: string; totals: Record<string, number>; status: string };
    expect(ret.status).toBe('draft');
    expect(ret.totals).toMatchObject({
      subcontractors: 1,
      invoices: 1,
      grossP: 256700,
      materialsP: 36700,
      cisDeductedP: 44000,
    });

    // Issue 13: a return is submitted once its month has ended (the 6th of the next month), then back to today.
    const today = h.clock.now();
    h.clock.set(new Date(`${addDays(taxMonthPeriod(month).endDate, 1)}T10:00:00Z`));
    const submitted = await h.call(admin, 'POST', `/returns/${ret.id}/submit`, DECLARED);
    h.clock.set(today);
    expect(submitted.status).toBe(200);
    expect(submitted.body.return).toMatchObject({
      status: 'submitted',
      locked: true,
      // Issue 13: 'Submitted' and the person who submitted (cis.md section 4 said 'Locked' and 'system').
      displayStatus: 'Submitted',
      submittedBy: expect.any(String),
      hasCis300: true,
    });
    const again = await h.call(admin, 'POST', `/returns/${ret.id}/submit`, DECLARED);
    expect(again.body.detail).toBe('Return is already locked');
    const recompile = await h.call(admin, 'POST', `/returns/${month}/compile`);
    expect(recompile.body.detail).toBe('Return is already locked');

    const xml = await h.call(admin, 'GET', `/returns/${ret.id}/cis300.xml`);
    expect(xml.text).toContain('<TotalPayments>2567.00</TotalPayments>');
    expect(xml.text).toContain('<TotalDeducted>440.00</TotalDeducted>');
    // The IRenvelope (header and CISreturn body) against HMRC's CISreturn-v1-2.xsd.
    const dir = mkdtempSync(join(tmpdir(), 'cis300-'));
    const start = xml.text.indexOf('<IRenvelope');
    const end = xml.text.indexOf('</IRenvelope>') + '</IRenvelope>'.length;
    expect(start).toBeGreaterThan(0);
    writeFileSync(join(dir, 'return.xml'), xml.text.slice(start, end));
    const xsd = fileURLToPath(new URL('../xsd/CISreturn-v1-2.xsd', import.meta.url));
    expect(() =>
      execFileSync('xmllint', ['--noout', '--schema', xsd, join(dir, 'return.xml')], { stdio: 'pipe' }),
    ).not.toThrow();

    const amended = await h.call(admin, 'POST', `/returns/${ret.id}/amend`);
    expect(amended.status).toBe(201);
    expect((amended.body.return as { id: string }).id).toMatch(new RegExp(`^${ret.id}-AMD-\\d+$`));
    expect(amended.body.return).toMatchObject({ status: 'amended', amendmentOf: ret.id });

    const unlocked = await h.call(admin, 'POST', `/returns/${ret.id}/unlock`);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.return).toMatchObject({
      status: 'draft',
      locked: false,
      submittedAt: null,
      hasCis300: false,
    });
    writeFileSync(join(dir, 'envelope.xml'), xml.text);
    expect(() => execFileSync('xmllint', ['--noout', join(dir, 'envelope.xml')])).not.toThrow();

    const history = await h.call(admin, 'GET', '/returns');
    expect((history.body.items as unknown[]).length).toBe(2);
  });
});

describe('live updates', () => {
  it('tells a subscriber of the tenant when another user changes an invoice, and not another tenant', async () => {
    const open = async (token: string) => {
      const controller = new AbortController();
      const response = await fetch(`${h.cisUrl}/v1/invoices/stream`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let received = '';
      const pump = (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            received += new TextDecoder().decode(value);
          }
        } catch {
          // aborted
        }
      })();
      return {
        text: () => received,
        close: async () => {
          controller.abort();
          await pump;
        },
      };
    };
    const demo = await open(admin);
    const acme = await open(await h.token(ALL_CIS_SCOPES, 'acme'));
    const list = await h.call(admin, 'GET', '/subcontractors?search=Dave');
    const subcontractorId = (list.body.items as { id: string }[])[0]?.id;
    const created = await h.call(admin, 'POST', '/invoices', {
      invoiceNumber: 'LIVE-1',
      subcontractorId,
      invoiceDate: '2026-11-12',
      grossP: 10000,
      materialsP: 0,
      vatRate: 20,
    });
    const id = (created.body.invoice as { id: string }).id;
    await eventually(async () => Promise.resolve(demo.text().includes(id)), 10_000, 'the change event');
    expect(demo.text()).toContain('event: invoices');
    expect(demo.text()).toContain('"action":"created"');
    expect(acme.text()).not.toContain(id);
    await demo.close();
    await acme.close();
  });
});

describe('bulk import', () => {
  it('creates the valid rows and reports each invalid row by its index', async () => {
    await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Sam Slate', utr: '9876543210', nino: '' }),
    );
    const csv = [
      'Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge,Description,Materials Justification',
      'IMP-1,Sam Slate,01/11/2026,1000.00,100.00,20,no,Roofing,',
      'IMP-2,Nobody Here,01/11/2026,500.00,0,20,no,,',
      'IMP-3,Sam Slate,01/11/2026,100.00,200.00,20,no,,',
      'IMP-4,Sam Slate,2026-11-02,"1,234.56",0,0,no,,',
    ].join('\n');
    const result = await h.call(admin, 'POST', '/invoices/import', { csv });
    expect(result.status).toBe(200);
    expect((result.body.created as string[]).length).toBe(2);
    const failed = result.body.failed as { index: number; errors: string[] }[];
    expect(failed.map((f) => f.index)).toEqual([2, 3]);
    expect(failed[0]?.errors).toEqual(['Unknown subcontractor: Nobody Here']);
    expect(failed[1]?.errors).toContain('Materials cannot exceed gross amount');
    const list = await h.call(admin, 'GET', '/invoices?search=IMP-4');
    expect((list.body.items as { amounts: { grossP: number } }[])[0]?.amounts.grossP).toBe(123456);

    // A number the subcontractor already has (in any case), or that an earlier row of the file takes, is refused;
    // the same number for another subcontractor is not.
    await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Tia Tiler', utr: '5432109876', nino: '' }),
    );
    const again = await h.call(admin, 'POST', '/invoices/import', {
      csv: [
        'Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge,Description,Materials Justification',
        'imp-1,Sam Slate,01/11/2026,100.00,0,20,no,,',
        'IMP-5,Sam Slate,01/11/2026,100.00,0,20,no,,',
        'IMP-5,Sam Slate,01/11/2026,100.00,0,20,no,,',
        'IMP-1,Tia Tiler,01/11/2026,100.00,0,20,no,,',
      ].join('\n'),
    });
    expect(again.status).toBe(200);
    expect((again.body.created as string[]).length).toBe(2);
    expect(again.body.failed).toEqual([
      { index: 1, errors: ['Invoice number already exists for this subcontractor'] },
      { index: 3, errors: ['Invoice number already exists for this subcontractor'] },
    ]);
  });
});

describe('the portal invitation', () => {
  it('creates the subcontractor, gets a single-use link from identity and emails it; a failed email still gives the link with the warning', async () => {
    const inviter = await h.signInAs('admin@demo.test');
    h.sink.clear();
    const sent = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'Pat Plaster',
      email: 'pat@plaster.test',
      type: 'individual',
      utr: '1111111111',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ success: true, emailSent: true, expiresIn: '15 minutes' });
    expect(String(sent.body.magicLink)).toContain('token=');
    const mail = h.sink.messages().find((m) => m.to.includes('pat@plaster.test'));
    expect(mail?.text).toContain(String(sent.body.magicLink));
    const created = await h.call(admin, 'GET', `/subcontractors/${String(sent.body.subcontractorId)}`);
    expect(created.body.subcontractor).toMatchObject({
      verification: { status: 'standard', rate: 20 },
      active: true,
    });

    h.sink.failNext(1, 550);
    const failed = await h.call(inviter, 'POST', '/subcontractors/invite', {
      subcontractorId: sent.body.subcontractorId,
    });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      emailSent: false,
      warning: 'Email could not be sent. Please share the link manually.',
    });
    expect(String(failed.body.magicLink)).toContain('token=');

    const missing = await h.call(inviter, 'POST', '/subcontractors/invite', { name: '', email: '' });
    expect(missing.body.detail).toBe('Name and email are required');

    // The link signs the subcontractor into the portal, which sees its own name and nothing of the staff API.
    const token = new URL(String(sent.body.magicLink)).searchParams.get('token');
    const redeemed = (await (
      await internalPost(h.identity, '/v1/portal/links/redeem', { tenantId: 'demo', token })
    ).json()) as { accessToken: string };
    const me = await h.call(redeemed.accessToken, 'GET', '/portal/me');
    expect(me.status).toBe(200);
    expect(me.body.subcontractor).toMatchObject({ name: 'Pat Plaster', utrMasked: '******1111' });
    expect((await h.call(redeemed.accessToken, 'GET', '/invoices')).status).toBe(403);

    // The subcontractor submits invoices; staff see them as Portal Pending and approve or reject them.
    const submit = (invoiceNumber: string) =>
      h.call(redeemed.accessToken, 'POST', '/portal/invoices', {
        invoiceNumber,
        invoiceDate: '2026-11-14',
        grossP: 50000,
        materialsP: 5000,
        vatRate: 20,
      });
    const first = await submit('PAT-1');
    expect(first.status).toBe(201);
    expect(first.body.invoice).toMatchObject({ status: 'portal_draft', statusLabel: 'Portal Pending' });
    const second = await submit('PAT-2');
    const listed = await h.call(admin, 'GET', '/invoices?status=portal_draft');
    expect((listed.body.items as { source: string }[]).every((i) => i.source === 'portal')).toBe(true);
    const firstId = (first.body.invoice as { id: string }).id;
    const secondId = (second.body.invoice as { id: string }).id;
    const rejected = await h.call(admin, 'POST', `/invoices/${firstId}/reject`, { reason: 'Wrong job' });
    expect(rejected.body.invoice).toMatchObject({ status: 'rejected', rejection: { reason: 'Wrong job' } });
    const approved = await h.call(admin, 'POST', `/invoices/${secondId}/approve`);
    expect(approved.body.invoice).toMatchObject({ status: 'approved' });
    const staffDraftReject = await h.call(admin, 'POST', `/invoices/${secondId}/reject`, { reason: 'x' });
    expect(staffDraftReject.body.detail).toBe('Only portal-submitted invoices can be rejected');
  });
});

describe('role permissions', () => {
  it('lists each bundle’s CIS scopes with the checklist, and changes one bundle in identity', async () => {
    const cisAdmin = await h.signInAs('cis.admin@demo.test');
    const before = await h.call(cisAdmin, 'GET', '/role-permissions');
    expect(before.status).toBe(200);
    const bundles = before.body.bundles as { id: string; scopes: string[] }[];
    expect(bundles.find((b) => b.id === 'cis-clerk')?.scopes).toEqual(
      expect.arrayContaining(['cis.settings.read', 'cis.inv.read']),
    );
    expect(before.body.scopes).toContain('cis.ret.submit');
    // The accountant template holds invoice write and approve: the separation-of-duties warning.
    expect((before.body.warnings as string[]).some((w) => w.includes('cis-accountant'))).toBe(true);

    const changed = await h.call(cisAdmin, 'PUT', '/role-permissions/cis-clerk', {
      scopes: ['cis.settings.read', 'cis.inv.read', 'cis.sub.read', 'cis.audit.read', 'cis.ret.submit'],
    });
    expect(changed.status).toBe(200);
    // Submit without compile is one of the checklist's errors.
    expect((changed.body.errors as string[]).some((e) => e.includes('cis-clerk'))).toBe(true);
    const clerk = await h.signInAs('clerk@demo.test');
    const abilities = await h.call(clerk, 'GET', '/me/abilities');
    expect(abilities.body.abilities).toMatchObject({ canSubmit: true, canWrite: false });
  });
});

describe('tenants and permissions', () => {
  it('never shows one tenant’s records to another (404)', async () => {
    const list = await h.call(admin, 'GET', '/subcontractors');
    const id = (list.body.items as { id: string }[])[0]?.id ?? '';
    const acme = await h.token(ALL_CIS_SCOPES, 'acme');
    expect((await h.call(acme, 'GET', `/subcontractors/${id}`)).status).toBe(404);
    const acmeList = await h.call(acme, 'GET', '/invoices');
    expect(acmeList.body.total).toBe(0);
  });

  it('records a refused request as cis.permission.denied, and exposes the job queue depth to Prometheus', async () => {
    const clerk = await h.token(['cis.inv.read'], 'demo', '00000000-0000-4000-8000-0000000000cc');
    expect((await h.call(clerk, 'POST', '/invoices/approve', { ids: [] })).status).toBe(403);
    const denied = await eventually(
      async () => {
        const rows = await adminQuery(
          h,
          `SELECT action, details FROM cis.activity WHERE performed_by = '00000000-0000-4000-8000-0000000000cc'`,
        );
        return rows.find((row) => row.action === 'cis.permission.denied');
      },
      10_000,
      'the audit entry',
    );
    expect(denied.details).toMatchObject({ method: 'POST', path: '/v1/invoices/approve', status: '403' });
    const metrics = await (await fetch(`${h.cisUrl}/metrics`)).text();
    expect(metrics).toMatch(/^cis_job_queue_depth\{service="cis"\} \d+/m);
  });

  it('publishes each audit action to cis.events.v1 without personal data, a bulk action as one event', async () => {
    const published = await eventually(
      async () => {
        const rows = await adminQuery(
          h,
          `SELECT type, topic, payload::text AS payload, published_at FROM cis.outbox ORDER BY id`,
        );
        return rows.every((row) => row.published_at !== null) ? rows : undefined;
      },
      20_000,
      'the outbox to drain to Kafka',
    );
    const types = new Set(published.map((row) => String(row.type)));
    for (const action of [
      'cis.settings.updated',
      'cis.module.activated',
      'cis.subcontractor.created',
      'cis.invoice.created',
      'cis.invoice.approved',
      'cis.invoice.paid',
      'cis.invoice.rejected',
      'cis.statement.generated',
      'cis.statement.sent',
      'cis.return.compiled',
      'cis.return.submitted',
      'cis.return.amended',
      'cis.return.unlocked',
      'cis.import.invoices',
      'cis.subcontractor.invited',
      'cis.permission.denied',
    ])
      expect(types).toContain(action);
    expect(published.every((row) => row.topic === 'cis.events.v1')).toBe(true);
    const text = published.map((row) => String(row.payload)).join('\n');
    for (const secret of ['1234567890', 'AB123456C', '2325648152', 'dave@brick.test'])
      expect(text).not.toContain(secret);
    const bulk = await h.call(admin, 'POST', '/invoices/delete', {
      ids: ['00000000-0000-4000-8000-00000000dead', '00000000-0000-4000-8000-00000000beef'],
    });
    expect(bulk.body).toMatchObject({
      succeeded: [],
      failed: [{ error: 'Invoice not found' }, { error: 'Invoice not found' }],
    });
    const [entry] = await adminQuery(
      h,
      `SELECT payload FROM cis.outbox WHERE type = 'cis.invoice.bulk.delete' ORDER BY id DESC LIMIT 1`,
    );
    expect(entry?.payload).toMatchObject({
      targetIds: expect.arrayContaining([expect.any(String)]),
      failed: 2,
    });
  });

  it.each([
    ['GET', '/settings', 'cis.settings.read'],
    ['PUT', '/settings', 'cis.settings.write'],
    ['GET', '/subcontractors', 'cis.sub.read'],
    ['POST', '/subcontractors', 'cis.sub.write'],
    ['GET', '/invoices', 'cis.inv.read'],
    ['POST', '/invoices', 'cis.inv.write'],
    ['POST', '/invoices/approve', 'cis.inv.approve'],
    ['POST', '/invoices/pay', 'cis.inv.pay'],
    ['POST', '/invoices/import', 'cis.io.import'],
    ['GET', '/invoices/export.csv', 'cis.io.export'],
    ['POST', '/statements/generate-all', 'cis.stmt.issue'],
    ['POST', '/returns/2026-11/compile', 'cis.ret.compile'],
    ['POST', '/returns/2026-11/submit', 'cis.ret.submit'],
    ['POST', '/subcontractors/invite', 'cis.portal.invite'],
  ])('%s %s without %s is 403', async (method, path, scope) => {
    const others = ALL_CIS_SCOPES.filter((s) => s !== scope && s !== 'cis.manage');
    const response = await h.call(await h.token(others), method, path, method === 'GET' ? undefined : {});
    expect(response.status).toBe(403);
    expect(response.body.detail).toBe(`This requires the ${scope} permission.`);
  });
});
