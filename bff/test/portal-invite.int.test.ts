import { freePort } from '@workspace/identity/testing';
import { createSubcontractor, startCisHarness, type CisHarness } from '@workspace/cis/testing';
import { bffSession } from '../bench/session.js';
import type { RunningBff } from '../src/app.js';
import { startTestBff } from './support.js';

/*
 * The spec's invite call through the bff, POST /api/portal/invite {subcontractorId, tenantId} (cis.md "Calls";
 * CIS-374, CIS-376), against the real identity, cis and notification (with an SMTP sink).
 */

let h: CisHarness;
let bff: RunningBff;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  h = await startCisHarness({ publicUrl: base });
  // The bff on the origin the harness registered as identity's redirect, in front of its identity and cis.
  ({ bff } = await startTestBff(h.identity.baseUrl, {
    PORT: String(port),
    PUBLIC_URL: base,
    CIS_URL: h.cisUrl,
  }));
});

afterAll(async () => {
  await bff.shutdown('test');
  await h.stop();
});

/** A signed-in browser of a demo user: its cookie and CSRF token. */
async function browser(email: string) {
  const cookie = await bffSession(base, base, email);
  const session = (await (await fetch(`${base}/api/auth/session`, { headers: { cookie } })).json()) as {
    csrfToken: string;
  };
  const invite = (body: unknown, csrf = session.csrfToken) =>
    fetch(`${base}/api/portal/invite`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(body),
    });
  return { invite };
}

describe('POST /api/portal/invite', () => {
  it('gives the spec’s {success, magicLink, tenantName} for a subcontractor of the session’s tenant and emails the link; another tenant is 404', async () => {
    const admin = await h.signInAs('admin@demo.test');
    const subcontractorId = await createSubcontractor(h, admin, {
      name: 'Ivy Invite',
      email: 'ivy@invite.test',
      utr: '5555555555',
      nino: '',
    });
    const staff = await browser('admin@demo.test');
    h.sink.clear();

    const res = await staff.invite({ subcontractorId, tenantId: 'demo' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      success: true,
      subcontractorId,
      tenantName: 'Demo Construction Ltd',
      expiresIn: '15 minutes',
      emailSent: true,
    });
    expect(String(body.magicLink)).toMatch(/\/portal-login\?.*token=/);
    const mail = h.sink.messages().find((message) => message.to.includes('ivy@invite.test'));
    expect(mail?.text).toContain(String(body.magicLink));

    // Another tenant's id never reaches cis.
    const other = await staff.invite({ subcontractorId, tenantId: 'acme' });
    expect(other.status).toBe(404);
    // Without the CSRF token, refused before anything happens.
    expect((await staff.invite({ subcontractorId, tenantId: 'demo' }, 'wrong')).status).toBe(403);
  });

  it('answers a refusal as problem+json with the spec’s success false and error', async () => {
    const staff = await browser('admin@demo.test');
    const missing = await staff.invite({
      subcontractorId: '00000000-0000-4000-8000-000000000000',
      tenantId: 'demo',
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const body = (await missing.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 404, success: false });
    expect(body.error).toBe(body.detail);
    expect(typeof body.error).toBe('string');

    // A user without cis.portal.invite: cis refuses, the same shape.
    const viewer = await browser('viewer@demo.test');
    const denied = await viewer.invite({
      subcontractorId: '00000000-0000-4000-8000-000000000000',
      tenantId: 'demo',
    });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({
      success: false,
      error: 'This requires the cis.portal.invite permission.',
    });

    const invalid = await staff.invite({ subcontractorId: 'nope', tenantId: 'demo' });
    expect(invalid.status).toBe(400);
  });
});
