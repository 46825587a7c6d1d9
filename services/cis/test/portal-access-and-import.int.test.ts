// Security review M1, M3 and L17 against the running cis service (real PostgreSQL, Kafka, identity and notification):
// - the invoice import refuses a file over its caps whole, with the limit's message, and nothing is imported;
// - a portal session is refused at its next call once its subcontractor's portal access is off, or it is archived
//   or deleted, without waiting for identity to consume an event; turning access off records the event identity
//   consumes; a re-invite turns access back on, an archived subcontractor is not invited;
// - the invite validates a UTR as the create form does.
import { internalPost } from '@workspace/identity/testing';
import {
  EXPORT_ROWS_MAX,
  IMPORT_BODY_BYTES,
  IMPORT_LIMITS,
  PORTAL_ACCESS_ENDED,
  PORTAL_STATEMENTS_MAX,
  SUBCONTRACTOR_PAGE_MAX,
} from '../src/domain/index.js';
import {
  ALL_CIS_SCOPES,
  adminQuery,
  createSubcontractor,
  invoiceBody,
  subcontractorBody,
  useCisHarnessWithAdmin,
  type CisHarness,
} from './support.js';

let h: CisHarness;
let admin: string;
useCisHarnessWithAdmin((started) => {
  ({ h, admin } = started);
});

const HEADER =
  'Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge,Description,Materials Justification';

/** Invites the subcontractor (tenant demo) and redeems the link: a live portal token of theirs. */
async function portalTokenOf(inviter: string, subcontractorId: string): Promise<string> {
  const invite = await h.call(inviter, 'POST', '/subcontractors/invite', { subcontractorId });
  expect(invite.status).toBe(200);
  const token = new URL(String(invite.body.magicLink)).searchParams.get('token');
  const redeemed = await internalPost(h.identity, '/v1/portal/links/redeem', { tenantId: 'demo', token });
  expect(redeemed.status).toBe(200);
  return ((await redeemed.json()) as { accessToken: string }).accessToken;
}

describe('the invoice import over its caps', () => {
  const importedCount = async (name: string) =>
    Number(
      (
        await adminQuery(
          h,
          `SELECT count(*)::int AS n FROM cis.invoices WHERE source = 'import' AND subcontractor_name = $1`,
          [name],
        )
      )[0]?.n,
    );
  const refusedWith = (message: string) => ({ created: [], failed: [{ index: 0, errors: [message] }] });

  it('refuses a header of 100,000 "(", a long row, too many rows and a file over 5 MB, importing nothing of each', async () => {
    const name = 'Cap Carpentry';
    await createSubcontractor(h, admin, { name, utr: '1010101010', nino: '' });
    const row = (n: number) => `CAP-${n},${name},01/11/2026,100.00,0,20,no,,`;
    const post = (csv: string) => h.call(admin, 'POST', '/invoices/import', { csv });

    const parens = await post(`${'('.repeat(100_000)}\n${row(1)}\n`);
    expect(parens.status).toBe(200);
    expect(parens.body).toEqual(refusedWith('Line 1 is too long (at most 10,000 characters per row)'));

    const longCell = await post(`${HEADER},${'('.repeat(5_000)}\n${row(1)},x\n`);
    expect(longCell.body).toEqual(
      refusedWith('Column 10 of the header is too long (at most 200 characters per column name)'),
    );

    // Good rows around a row of 10,001 characters: the file is refused whole.
    const longRow = await post(
      [HEADER, row(1), `${row(2)}${'x'.repeat(IMPORT_LIMITS.recordCharacters)}`, row(3)].join('\n'),
    );
    expect(longRow.body).toEqual(refusedWith('Line 3 is too long (at most 10,000 characters per row)'));

    const rows = Array.from({ length: IMPORT_LIMITS.rows + 1 }, (_, i) => row(i + 1));
    const tooMany = await post([HEADER, ...rows].join('\n'));
    expect(tooMany.body).toEqual(refusedWith('Too many rows: 50,001 (at most 50,000 per file)'));

    const padding = 'p'.repeat(2_000);
    const bigRows = Array.from({ length: 2_700 }, (_, i) => `${row(i + 1).slice(0, -1)}${padding},`);
    const big = [HEADER, ...bigRows].join('\n');
    expect(Buffer.byteLength(big)).toBeGreaterThan(IMPORT_LIMITS.fileBytes);
    const tooBig = await post(big);
    expect(tooBig.body).toEqual(refusedWith('The file is too large: 5.3 MB (at most 5 MB per file)'));

    expect(await importedCount(name)).toBe(0);
    // The same rows under the caps are imported.
    const fine = await post([HEADER, row(1), row(2)].join('\n'));
    expect((fine.body.created as string[]).length).toBe(2);
    expect(await importedCount(name)).toBe(2);
  });

  it('answers 413 to a body over what the largest file needs, well under the old 16 MB', async () => {
    const response = await fetch(`${h.cisUrl}/v1/invoices/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ csv: 'x'.repeat(IMPORT_BODY_BYTES) }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { detail: string }).detail).toBe('The request body is too large.');
  });
});

describe('portal access', () => {
  let inviter: string;
  beforeAll(async () => {
    inviter = await h.signInAs('admin@demo.test');
  });

  const portalToken = (subcontractorId: string) => portalTokenOf(inviter, subcontractorId);
  const newSubcontractor = (name: string, utr: string) =>
    createSubcontractor(h, admin, { name, utr, nino: '', email: `${utr}@sub.test` });
  /** Every portal route, each answering 403 `portal_access_ended` once access has ended. */
  const portalCalls = (token: string) => [
    h.call(token, 'GET', '/portal/me'),
    h.call(token, 'POST', '/portal/invoices', {
      invoiceNumber: `P-${Math.random().toString(36).slice(2, 8)}`,
      invoiceDate: '2026-11-14',
      grossP: 10000,
      materialsP: 0,
      vatRate: 20,
    }),
    h.call(token, 'GET', '/portal/statements/0123456789abcdef/pdf'),
  ];
  const expectEnded = async (token: string) => {
    for (const call of portalCalls(token)) {
      const response = await call;
      expect({ status: response.status, code: response.body.code, detail: response.body.detail }).toEqual({
        status: 403,
        code: 'portal_access_ended',
        detail: PORTAL_ACCESS_ENDED,
      });
    }
  };
  const outboxEvents = (type: string, targetId: string) =>
    adminQuery(h, `SELECT payload FROM cis.outbox WHERE type = $1 AND payload->>'targetId' = $2`, [
      type,
      targetId,
    ]);

  it('ends at the next portal call when portal access is turned off, and records the event identity consumes', async () => {
    const id = await newSubcontractor('Off Ollie', '2020202020');
    const other = await portalToken(await newSubcontractor('Open Olga', '3030303030'));
    const token = await portalToken(id);
    expect((await h.call(token, 'GET', '/portal/me')).status).toBe(200);

    const edited = await h.call(
      admin,
      'PUT',
      `/subcontractors/${id}`,
      subcontractorBody({
        name: 'Off Ollie',
        utr: '',
        nino: '',
        email: '2020202020@sub.test',
        portalAccess: false,
      }),
    );
    expect(edited.status).toBe(200);
    await expectEnded(token);
    // Another subcontractor's session is untouched.
    expect((await h.call(other, 'GET', '/portal/me')).status).toBe(200);

    const [event] = await outboxEvents('cis.subcontractor.portal_access_ended', id);
    expect(event?.payload).toMatchObject({
      targetType: 'subcontractor',
      targetId: id,
      targetIds: [id],
      details: { reason: 'portal access turned off' },
    });
    // An edit that leaves access as it was records no such event.
    await h.call(
      admin,
      'PUT',
      `/subcontractors/${id}`,
      subcontractorBody({
        name: 'Off Ollie',
        utr: '',
        nino: '',
        email: '2020202020@sub.test',
        portalAccess: false,
      }),
    );
    expect(await outboxEvents('cis.subcontractor.portal_access_ended', id)).toHaveLength(1);

    // A re-invite is the decision to give access back: it turns portal access on and says so in its entry.
    const again = await portalToken(id);
    expect((await h.call(again, 'GET', '/portal/me')).status).toBe(200);
    const detail = await h.call(admin, 'GET', `/subcontractors/${id}`);
    expect(detail.body.subcontractor).toMatchObject({ portalAccess: true });
    const [invited] = await adminQuery(
      h,
      `SELECT summary, details FROM cis.activity WHERE action = 'cis.subcontractor.invited' AND target_id = $1
       ORDER BY performed_at DESC LIMIT 1`,
      [id],
    );
    expect(invited).toMatchObject({
      summary: 'Subcontractor Off Ollie invited to the portal (portal access turned back on)',
      details: { portalAccessRestored: 'true' },
    });
  });

  it('ends at the next portal call when the subcontractor is archived (by the archive action or the edit) or deleted', async () => {
    const archived = await newSubcontractor('Arch Archie', '4040404040');
    const archivedToken = await portalToken(archived);
    expect((await h.call(admin, 'POST', '/subcontractors/archive', { ids: [archived] })).status).toBe(200);
    await expectEnded(archivedToken);
    // Not invited while archived (the portal would refuse the link's session).
    const invite = await h.call(inviter, 'POST', '/subcontractors/invite', { subcontractorId: archived });
    expect({ status: invite.status, detail: invite.body.detail }).toEqual({
      status: 409,
      detail: 'Archived subcontractors cannot be invited to the portal',
    });

    const edited = await newSubcontractor('Edit Edna', '5050505050');
    const editedToken = await portalToken(edited);
    const put = await h.call(
      admin,
      'PUT',
      `/subcontractors/${edited}`,
      subcontractorBody({
        name: 'Edit Edna',
        utr: '',
        nino: '',
        email: '5050505050@sub.test',
        portalAccess: true,
        active: false,
      }),
    );
    expect(put.status).toBe(200);
    await expectEnded(editedToken);
    const [event] = await outboxEvents('cis.subcontractor.portal_access_ended', edited);
    expect(event?.payload).toMatchObject({ targetIds: [edited], details: { reason: 'archived' } });

    const deleted = await newSubcontractor('Del Delia', '6060606060');
    const deletedToken = await portalToken(deleted);
    expect((await h.call(admin, 'POST', '/subcontractors/delete', { ids: [deleted] })).status).toBe(200);
    await expectEnded(deletedToken);
  });
});

describe('the invite’s UTR', () => {
  it('is validated as the create form validates it, and nothing is created with a bad one', async () => {
    const inviter = await h.signInAs('admin@demo.test');
    const messageOf = (response: { body: Record<string, unknown> }) =>
      (response.body.errors as { field: string; message: string }[]).find((e) => e.field === 'body.utr')
        ?.message;
    const created = await h.call(
      admin,
      'POST',
      '/subcontractors',
      subcontractorBody({ name: 'Bad Utr Form', utr: '12345abc' }),
    );
    expect(created.status).toBe(400);
    const invited = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'Bad Utr Invite',
      email: 'bad.utr@invite.test',
      type: 'individual',
      utr: '12345abc',
    });
    expect(invited.status).toBe(400);
    expect(messageOf(invited)).toBe('Valid UTR required (10 digits)');
    expect(messageOf(invited)).toBe(messageOf(created));
    expect(await adminQuery(h, `SELECT id FROM cis.subcontractors WHERE name = 'Bad Utr Invite'`)).toEqual(
      [],
    );

    // A good one is stored; none at all is still allowed.
    const good = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'Good Utr Invite',
      email: 'good.utr@invite.test',
      type: 'company',
      utr: '0123456789',
    });
    expect(good.status).toBe(200);
    const record = await h.call(admin, 'GET', `/subcontractors/${String(good.body.subcontractorId)}`);
    expect(record.body.subcontractor).toMatchObject({ utrMasked: '******6789' });
    const none = await h.call(inviter, 'POST', '/subcontractors/invite', {
      name: 'No Utr Invite',
      email: 'no.utr@invite.test',
      type: 'partnership',
    });
    expect(none.status).toBe(200);
  });
});

describe('lists and exports with a bound (security review L9), in tenant acme', () => {
  /**
   * Copies one row of `table` `count` times with new ids (and `column` numbered), as the schema owner; without a
   * subcontractor's identifier hashes (unique among live records, ADR 0039: the copies stand for other people).
   */
  const cloneRows = (table: string, id: string, count: number, column: string, prefix: string) =>
    adminQuery(
      h,
      `INSERT INTO cis.${table}
       SELECT r.* FROM cis.${table} t, generate_series(1, $3::int) g,
         LATERAL jsonb_populate_record(null::cis.${table}, (to_jsonb(t) - 'utr_hash' - 'nino_hash' - 'crn_hash') || jsonb_build_object(
           'id', gen_random_uuid(), '${column}', $2::text || lpad(g::text, 6, '0'))) r
       WHERE t.id = $1`,
      [id, prefix, count],
    );

  it('pages the subcontractor list by 1,000 and refuses an export over 100,000 rows', async () => {
    const acme = await h.token(ALL_CIS_SCOPES, 'acme');
    const first = await createSubcontractor(h, acme, { name: 'Aaron Acme', utr: '7070707070', nino: '' });
    // 100,001 more: a list of 100,002 and an export over the cap.
    await cloneRows('subcontractors', first, EXPORT_ROWS_MAX + 1, 'name', 'Bulk Sub ');
    const list = await h.call(acme, 'GET', '/subcontractors');
    expect(list.status).toBe(200);
    expect((list.body.items as unknown[]).length).toBe(SUBCONTRACTOR_PAGE_MAX);
    expect(list.body).toMatchObject({ total: EXPORT_ROWS_MAX + 2, page: 1, pageSize: 1000 });
    expect((list.body.items as { name: string }[])[0]?.name).toBe('Aaron Acme');
    const last = await h.call(acme, 'GET', '/subcontractors?page=101&pageSize=1000');
    expect((last.body.items as { name: string }[]).map((s) => s.name)).toEqual([
      'Bulk Sub 100000',
      'Bulk Sub 100001',
    ]);
    expect((await h.call(acme, 'GET', '/subcontractors?pageSize=1001')).status).toBe(400);
    const subExport = await h.call(acme, 'GET', '/subcontractors/export.csv');
    expect({ status: subExport.status, code: subExport.body.code, detail: subExport.body.detail }).toEqual({
      status: 422,
      code: 'too_many_rows',
      detail:
        'Too many subcontractors to export: more than 100,000 match the filters (at most 100,000 per file). Narrow the filters and export again.',
    });
    // Filtered to fewer, it exports.
    const filtered = await h.call(acme, 'GET', '/subcontractors/export.csv?search=Aaron');
    expect(filtered.status).toBe(200);
    expect(filtered.headers.get('x-record-count')).toBe('1');

    const invoice = await h.call(acme, 'POST', '/invoices', invoiceBody(first, { invoiceNumber: 'ACME-1' }));
    expect(invoice.status).toBe(201);
    await cloneRows(
      'invoices',
      (invoice.body.invoice as { id: string }).id,
      EXPORT_ROWS_MAX,
      'invoice_number',
      'BULK-',
    );
    const invExport = await h.call(acme, 'GET', '/invoices/export.csv');
    expect({ status: invExport.status, detail: invExport.body.detail }).toEqual({
      status: 422,
      detail:
        'Too many invoices to export: more than 100,000 match the filters (at most 100,000 per file). Narrow the filters and export again.',
    });
    expect((await h.call(acme, 'GET', '/invoices/export.csv?search=ACME-1')).status).toBe(200);
  });

  it('shows the portal its newest 120 issued statements', async () => {
    const id = await createSubcontractor(h, admin, {
      name: 'Stan Statements',
      utr: '8080808080',
      nino: '',
      email: 'stan@statements.test',
    });
    const created = await h.call(admin, 'POST', '/invoices', invoiceBody(id, { invoiceNumber: 'STAN-1' }));
    const invoiceId = (created.body.invoice as { id: string }).id;
    expect((await h.call(admin, 'POST', `/invoices/${invoiceId}/approve`)).status).toBe(200);
    const paid = await h.call(admin, 'POST', `/invoices/${invoiceId}/pay`, {});
    const taxMonth = (paid.body.invoice as { taxMonth: string }).taxMonth;
    const generated = await h.call(admin, 'POST', '/statements/generate', { subcontractorId: id, taxMonth });
    expect(generated.status).toBe(201);
    const statementId = (generated.body.statement as { id: string }).id;
    expect(
      (await h.call(admin, 'POST', `/statements/${statementId}/issue`, { method: 'print' })).status,
    ).toBe(200);
    // 130 more issued statements, for the months of 2001 to 2011 (all older than the real one).
    await adminQuery(
      h,
      `INSERT INTO cis.statements
       SELECT r.* FROM cis.statements s, generate_series(1, 130) g,
         LATERAL jsonb_populate_record(null::cis.statements, to_jsonb(s) || jsonb_build_object(
           'id', substr(md5(g::text || s.id), 1, 16),
           'tax_month', to_char(date '2001-01-01' + make_interval(months => g), 'YYYY-MM'))) r
       WHERE s.id = $1`,
      [statementId],
    );
    const me = await h.call(
      await portalTokenOf(await h.signInAs('admin@demo.test'), id),
      'GET',
      '/portal/me',
    );
    expect(me.status).toBe(200);
    const months = (me.body.statements as { taxMonth: string }[]).map((s) => s.taxMonth);
    expect(months).toHaveLength(PORTAL_STATEMENTS_MAX);
    expect(months[0]).toBe(taxMonth);
    expect(months[1]).toBe('2011-11');
  });
});
