// The portal's access rules across the services (issue 15, ADR 0017 and 0055), on real PostgreSQL, Kafka, the SMTP
// sink, identity, notification, cis and the drive:
// - a returning subcontractor's request for a fresh sign-in link (identity's queue → cis → identity's link →
//   notification): the same answer for a known and an unknown address or contractor; only a subcontractor with
//   portal access gets an e-mail, with a single-use link that opens a portal session of theirs;
// - a portal session reads only its own subcontractor's data: another's statement PDF, invoice and profile (read or
//   change) answer 404;
// - a portal token is refused by every staff route of cis and of the drive.
import { randomUUID } from 'node:crypto';
import { internalPost } from '@workspace/identity/testing';
import { eventually } from '@workspace/kit/testing';
import { startDriveWithCis, type DriveWithCisHarness } from '@workspace/drive/testing';
import {
  ALL_CIS_SCOPES,
  adminQuery,
  createSubcontractor,
  drainJobQueue,
  invoiceBody,
  portalTokenOf,
  settingsBody,
  subcontractorBody,
  type CisHarness,
} from './support.js';

let stack: DriveWithCisHarness;
let h: CisHarness;
let admin: string;
let inviter: string;
const MONTH = '2025-06';
const ids = { sam: '', tom: '', samStatement: '', tomStatement: '', samInvoice: '', tomInvoice: '' };
const SAM_EMAIL = 'sam@stone.test';
const TOM_EMAIL = 'tom@tile.test';

async function statementIdOf(subcontractorId: string): Promise<string> {
  const page = await h.call(admin, 'GET', `/statements?taxMonth=${MONTH}`);
  const group = (
    page.body.subcontractors as { subcontractorId: string; statement: { id: string } | null }[]
  ).find((g) => g.subcontractorId === subcontractorId);
  if (!group?.statement) throw new Error(`no statement for ${subcontractorId}`);
  return group.statement.id;
}

beforeAll(async () => {
  stack = await startDriveWithCis();
  h = stack.cis;
  admin = await h.token(ALL_CIS_SCOPES, 'demo');
  inviter = await h.signInAs('admin@demo.test');
  expect((await h.call(admin, 'PUT', '/settings', settingsBody())).status).toBe(200);
  ids.sam = await createSubcontractor(h, admin, {
    name: 'Sam Stone',
    utr: '1357924680',
    nino: '',
    email: SAM_EMAIL,
    portalAccess: true,
  });
  ids.tom = await createSubcontractor(h, admin, {
    name: 'Tom Tile',
    utr: '2468013579',
    nino: '',
    email: TOM_EMAIL,
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
      invoiceBody(subcontractorId, { invoiceNumber, invoiceDate: '2025-06-20' }),
    );
    expect(created.status).toBe(201);
    invoices.push((created.body.invoice as { id: string }).id);
  }
  [ids.samInvoice, ids.tomInvoice] = invoices as [string, string];
  expect((await h.call(admin, 'POST', '/invoices/approve', { ids: invoices })).body).toMatchObject({
    failed: [],
  });
  await drainJobQueue(h);
  expect(
    (await h.call(admin, 'POST', '/invoices/pay', { ids: invoices, paymentDate: '2025-06-20' })).body,
  ).toMatchObject({ failed: [] });
  await drainJobQueue(h);
  ids.samStatement = await statementIdOf(ids.sam);
  ids.tomStatement = await statementIdOf(ids.tom);
  for (const id of [ids.samStatement, ids.tomStatement]) {
    expect((await h.call(admin, 'POST', `/statements/${id}/issue`, { method: 'portal' })).status).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await stack.stop();
});

/** identity's queue of sign-in link requests, as the bff calls it. */
const requestLink = async (tenantId: string, email: string) => {
  const response = await internalPost(h.identity, '/v1/portal/link-requests', { tenantId, email });
  return { status: response.status, body: await response.json() };
};
const queued = async () =>
  Number((await adminQuery(h, 'SELECT count(*)::int AS n FROM identity.portal_link_requests'))[0]?.n);
const mailTo = (address: string) =>
  h.sink.messages().filter((message) => message.to.some((to) => to.toLowerCase() === address));
const linkIn = (text: string) => {
  const match = /https?:\/\/\S+\/portal-login\?\S+/.exec(text);
  if (!match) throw new Error(`no portal link in: ${text}`);
  return new URL(match[0]);
};

describe('a fresh sign-in link on request', () => {
  it('gives every address and contractor the same answer, and e-mails only a subcontractor with portal access a working single-use link', async () => {
    const ended = await createSubcontractor(h, admin, {
      name: 'Ended Ed',
      utr: '1122334455',
      nino: '',
      email: 'ed@ended.test',
      portalAccess: true,
    });
    const off = await h.call(
      admin,
      'PUT',
      `/subcontractors/${ended}`,
      subcontractorBody({ name: 'Ended Ed', utr: '', nino: '', email: 'ed@ended.test', portalAccess: false }),
    );
    expect(off.status).toBe(200);
    h.sink.clear();

    const answers = [
      await requestLink('demo', 'SAM@stone.test'),
      await requestLink('demo', 'nobody@nowhere.test'),
      await requestLink('demo', 'ed@ended.test'),
      await requestLink('acme', SAM_EMAIL),
      await requestLink('no-such-contractor', SAM_EMAIL),
    ];
    for (const answer of answers) expect(answer).toEqual({ status: 202, body: { accepted: true } });

    // Every request is handled (the queue empties); one e-mail, to Sam, as the contractor.
    await eventually(
      async () => (await queued()) === 0 && mailTo(SAM_EMAIL).length === 1,
      30_000,
      'the queue',
    );
    expect(h.sink.messages()).toHaveLength(1);
    const [mail] = mailTo(SAM_EMAIL);
    expect(mail?.subject).toBe("Your sign-in link for Demo Construction Ltd's subcontractor portal");
    expect(mail?.text).toContain('Hello Sam Stone,');
    expect(mail?.text).toContain('The link expires in 15 minutes and can be used once.');
    expect(mail?.text).toContain('Your contractor code: demo');

    const link = linkIn(mail?.text ?? '');
    expect(link.searchParams.get('tid')).toBe('demo');
    const redeem = () =>
      internalPost(h.identity, '/v1/portal/links/redeem', {
        tenantId: 'demo',
        token: link.searchParams.get('token'),
      });
    const first = await redeem();
    expect(first.status).toBe(200);
    const session = (await first.json()) as { subcontractorId: string; accessToken: string };
    expect(session.subcontractorId).toBe(ids.sam);
    expect((await h.call(session.accessToken, 'GET', '/portal/me')).status).toBe(200);
    expect((await redeem()).status).toBe(410);

    // The link was made by identity's invitation route for the requesting service, and nothing keeps the address.
    const [link_row] = await adminQuery(
      h,
      `SELECT created_by FROM identity.portal_links WHERE subcontractor_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [ids.sam],
    );
    expect(link_row).toEqual({ created_by: 'portal-sign-in' });
  });

  it('refuses a malformed request with field errors and queues nothing', async () => {
    const bad = await internalPost(h.identity, '/v1/portal/link-requests', { tenantId: 'demo', email: 'x' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('Enter a valid email address');
    expect(await queued()).toBe(0);
    // Only the bff may queue one.
    const outside = await fetch(`${h.identity.baseUrl}/v1/portal/link-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId: 'demo', email: SAM_EMAIL }),
    });
    expect(outside.status).toBe(401);
  });
});

describe('a portal session reads only its own subcontractor', () => {
  it('answers 404 to another subcontractor’s statement PDF, invoice and profile (read or change), and gives its own', async () => {
    const sam = await portalTokenOf(h, inviter, ids.sam);
    const own = await h.call(sam, 'GET', `/portal/statements/${ids.samStatement}/pdf`);
    expect(own.status).toBe(200);
    const other = await h.call(sam, 'GET', `/portal/statements/${ids.tomStatement}/pdf`);
    expect({ status: other.status, pdf: other.headers.get('content-type')?.includes('pdf') }).toEqual({
      status: 404,
      pdf: false,
    });
    // Another's invoice and profile: 404, read or write, and nothing of theirs in the answer.
    const invoice = await h.call(sam, 'GET', `/portal/invoices/${ids.tomInvoice}`);
    expect({ status: invoice.status, leaks: invoice.text.includes('TOM-1') }).toEqual({
      status: 404,
      leaks: false,
    });
    expect((await h.call(sam, 'GET', `/portal/invoices/${ids.samInvoice}`)).status).toBe(200);
    const profile = await h.call(sam, 'GET', `/portal/subcontractors/${ids.tom}`);
    expect({ status: profile.status, leaks: profile.text.includes('Tom Tile') }).toEqual({
      status: 404,
      leaks: false,
    });
    expect((await h.call(sam, 'GET', `/portal/subcontractors/${ids.sam}`)).status).toBe(200);
    const change = {
      phone: '07700900999',
      registeredAddress: subcontractorBody().registeredAddress,
    };
    const edit = await h.call(sam, 'PUT', `/portal/subcontractors/${ids.tom}`, change);
    expect(edit.status).toBe(404);
    // The same change to their own profile is accepted (so the 404 is the other id's, not the body's).
    expect((await h.call(sam, 'PUT', `/portal/subcontractors/${ids.sam}`, change)).status).toBe(200);
    const [tom] = await adminQuery(h, 'SELECT phone FROM cis.subcontractors WHERE id = $1', [ids.tom]);
    expect(tom?.phone).not.toBe('07700900999');
    // The portal's own lists carry only Sam's invoice.
    const me = await h.call(sam, 'GET', '/portal/me');
    expect(me.status).toBe(200);
    expect(me.text).toContain(ids.samInvoice);
    expect(me.text).not.toContain(ids.tomInvoice);
    expect(me.text).not.toContain('Tom Tile');
  });
});

interface Operation {
  method: string;
  path: string;
}

/** The operations a service's /openapi.json lists under /v1, path parameters filled with a random uuid. */
async function operationsOf(baseUrl: string): Promise<Operation[]> {
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, randomUUID()) })),
  );
}

describe('a portal token and the staff routes', () => {
  it('is refused by every staff route of cis and of the drive (403), and by the routes other services call with their own token', async () => {
    const token = await portalTokenOf(h, inviter, ids.sam);
    const driveUrl = `http://127.0.0.1:${stack.drive.port}`;
    const services = [
      { name: 'cis', baseUrl: h.cisUrl },
      { name: 'drive', baseUrl: driveUrl },
    ];
    let staffRoutes = 0;
    const unexpected: string[] = [];
    for (const service of services) {
      for (const operation of await operationsOf(service.baseUrl)) {
        // The public share page's routes take no token (a portal token there is an anonymous call).
        if (!operation.path.startsWith('/v1/') || operation.path.startsWith('/v1/public/')) continue;
        // The portal's own routes are the only ones a portal token may use.
        if (service.name === 'cis' && operation.path.startsWith('/v1/portal/')) continue;
        const response = await fetch(`${service.baseUrl}${operation.path}`, {
          method: operation.method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { body: '{}' }),
        });
        const text = await response.text();
        const route = `${service.name} ${operation.method} ${operation.path} → ${response.status}`;
        if (response.status === 403 && text.includes('This is not available to portal sessions.')) {
          staffRoutes += 1;
        } else if (response.status !== 401 && response.status !== 404) {
          // Only the service-to-service routes (the drive's documents token) and the public share page may answer
          // otherwise, and then 401 or 404.
          unexpected.push(`${route} ${text.slice(0, 120)}`);
        }
      }
    }
    expect(unexpected).toEqual([]);
    expect(staffRoutes).toBeGreaterThan(60);
  });
});
