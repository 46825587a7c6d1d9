// The portal's sign-in page in Chromium on a phone (390 px), on the CIS stack (bff, identity, cis, notification and
// its SMTP sink; issue 15, ADR 0055): a returning subcontractor on a new phone names the contractor by its code and
// asks for a fresh sign-in link; the answer is the same for an unknown address; the link arrives in the sink, opens
// the dashboard, and Log out lands on /portal-login saying they are signed out, with the contractor remembered. A
// used link says so and offers a new one for the contractor it names. A session whose portal access the contractor
// revokes is refused at its next page, which says so and leads to /portal-login. For each cause (access turned off,
// archived, deleted) the next portal call is refused at once and identity ends the bff's session. Screenshots:
// portal-login-*.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { adminQuery, createSubcontractor, subcontractorBody, type CisHarness } from '@workspace/cis/testing';
import { eventually } from '@workspace/kit/testing';
import { shots, styleOf, visible } from './browser.js';
import { cisStackPerFile } from './cis-stack.js';

let harness: CisHarness;
let browser: Browser;
let baseUrl: string;
let admin: string;
let staff: Page;
const phones: BrowserContext[] = [];

const SENT =
  'If this address belongs to a subcontractor with access to this contractor’s portal, a sign-in link is on its way to it. The link works once, within 15 minutes.';

cisStackPerFile(async (stack) => {
  ({ harness, browser, baseUrl } = stack);
  admin = await harness.signInAs('admin@demo.test');
  staff = await stack.newPage('admin@demo.test');
});

afterAll(async () => {
  for (const phone of phones) await phone.close();
});

/** A new phone (390 × 844): nothing remembered, no session. */
async function phonePage(): Promise<Page> {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
  phones.push(phone);
  return phone.newPage();
}

/** The page's scrolling width against its viewport (run in the page; the test's TypeScript has no DOM types). */
function pageWidths(page: Page) {
  return page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: { scrollingElement: { scrollWidth: number; clientWidth: number } };
      }
    ).document;
    return { scrollWidth: doc.scrollingElement.scrollWidth, clientWidth: doc.scrollingElement.clientWidth };
  });
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await pageWidths(page);
  expect(widths.scrollWidth).toBeLessThanOrEqual(widths.clientWidth);
}

const queued = async () =>
  Number((await adminQuery(harness, 'SELECT count(*)::int AS n FROM identity.portal_link_requests'))[0]?.n);
const mailTo = (address: string) =>
  harness.sink.messages().filter((message) => message.to.some((to) => to.toLowerCase() === address));
const linkIn = (text: string) => {
  const match = /https?:\/\/\S+\/portal-login\?\S*token=\S+/.exec(text);
  if (!match) throw new Error(`no sign-in link in: ${text}`);
  return new URL(match[0]);
};

const notice = (page: Page) => page.getByTestId('portal-login-notice');
const requestButton = (page: Page) => page.getByRole('button', { name: 'Email me a sign-in link' });

async function askForLink(page: Page, email: string, code?: string): Promise<void> {
  if (code !== undefined) await page.getByLabel('Contractor code').fill(code);
  await page.getByLabel('Email address').fill(email);
  await requestButton(page).click();
  await visible(page.getByTestId('portal-login-sent'));
}

describe('signing in to the portal on a phone (390 px)', () => {
  it('asks for a link by contractor code, opens it from the e-mail, lands on the dashboard; Log out lands on /portal-login signed out', async () => {
    await createSubcontractor(harness, admin, {
      name: 'Pat Paving',
      email: 'pat@paving.test',
      portalAccess: true,
    });
    harness.sink.clear();
    const page = await phonePage();
    await page.goto(`${baseUrl}/portal-login`);
    await visible(page.getByRole('heading', { name: 'Subcontractor portal' }));
    // A new phone knows no contractor: the code is asked for, with where to find it.
    await visible(page.getByLabel('Contractor code'));
    await visible(page.getByText("It is in the emails from your contractor's portal"));
    await expectNoSidewaysScroll(page);
    // The staff app's font.
    await staff.goto(`${baseUrl}/cis`);
    const staffButton = staff.locator('.ant-btn').first();
    await visible(staffButton);
    expect(await styleOf(requestButton(page), 'font-family')).toBe(await styleOf(staffButton, 'font-family'));

    // Empty: each field says what it needs, nothing is sent.
    await requestButton(page).click();
    await visible(page.getByText('Enter your contractor code'));
    await visible(page.getByText('Enter your email address'));
    await page.screenshot({ path: `${shots}/portal-login-390.png`, fullPage: true });

    // An unknown address gets the very same answer as a known one.
    await askForLink(page, 'nobody@nowhere.test', 'demo');
    await expect(page.getByTestId('portal-login-sent-message').textContent()).resolves.toBe(SENT);
    await page.getByRole('button', { name: 'Ask for another link' }).click();
    await askForLink(page, 'Pat@Paving.test', 'demo');
    await expect(page.getByTestId('portal-login-sent-message').textContent()).resolves.toBe(SENT);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/portal-login-sent-390.png`, fullPage: true });

    await eventually(
      async () => (await queued()) === 0 && mailTo('pat@paving.test').length === 1,
      30_000,
      'the e-mail',
    );
    expect(harness.sink.messages()).toHaveLength(1);
    const [mail] = mailTo('pat@paving.test');
    expect(mail?.text).toContain('Your contractor code: demo');
    const link = linkIn(mail?.text ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(`${baseUrl}/portal-login`);

    await page.goto(link.toString());
    await page.waitForURL(/\/portal\/dashboard$/);
    await visible(page.getByTestId('portal-subcontractor').getByText('Pat Paving'));
    await visible(page.getByTestId('portal-contractor').getByText('Demo Construction Ltd'));
    await page.screenshot({ path: `${shots}/portal-login-dashboard-390.png`, fullPage: true });
    // The session is kept in this browser: stored locally (no credential in it), and a reload keeps it.
    const stored = await page.evaluate(() =>
      (
        globalThis as unknown as { localStorage: { getItem(key: string): string | null } }
      ).localStorage.getItem('workspace.portal.session'),
    );
    expect(JSON.parse(stored ?? '{}')).toMatchObject({
      tenant: { id: 'demo', name: 'Demo Construction Ltd' },
    });
    expect(stored).not.toMatch(/accessToken|eyJ/);
    await page.reload();
    await visible(page.getByTestId('portal-subcontractor').getByText('Pat Paving'));
    expect(new URL(page.url()).pathname).toBe('/portal/dashboard');
    // A limited portal: a staff page opened with this session leads back to the portal's dashboard.
    await page.goto(`${baseUrl}/cis`, { waitUntil: 'commit' });
    await page.waitForURL(/\/portal\/dashboard$/);
    await visible(page.getByTestId('portal-subcontractor').getByText('Pat Paving'));

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/portal-login\?signedOut=1$/);
    await visible(notice(page).getByText('You have signed out'));
    await visible(notice(page).getByText('To sign in again, ask for a new sign-in link below.'));
    // The session is over at the bff too.
    expect(await page.evaluate(async () => (await fetch('/api/portal/session')).status)).toBe(401);
    // This phone remembers the contractor: a new link is one address away.
    const remembered = page.getByRole('radio', { name: 'Demo Construction Ltd' });
    await visible(page.getByText('Demo Construction Ltd'));
    expect(await remembered.isChecked()).toBe(true);
    expect(await page.getByLabel('Contractor code').count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/portal-login-signed-out-390.png`, fullPage: true });

    // Opening a portal page now leads back to sign-in.
    await page.goto(`${baseUrl}/portal/invoices`);
    await visible(page.getByText('Your portal session has ended'));
  });

  it('says a used link cannot sign in, and offers a new one for the contractor the link names', async () => {
    const id = await createSubcontractor(harness, admin, {
      name: 'Uma Used',
      email: 'uma@used.test',
    });
    const invite = await harness.call(admin, 'POST', '/subcontractors/invite', { subcontractorId: id });
    expect(invite.status).toBe(200);
    const magicLink = String(invite.body.magicLink);
    const first = await phonePage();
    await first.goto(magicLink);
    await first.waitForURL(/\/portal\/dashboard$/);

    const page = await phonePage();
    await page.goto(magicLink);
    await visible(notice(page).getByText('We could not sign you in'));
    await visible(
      notice(page).getByText('This link has already been used. Ask your contractor for a new one.'),
    );
    // The token is gone from the address bar; the contractor it named is offered by name.
    expect(page.url()).toBe(`${baseUrl}/portal-login?tid=demo`);
    const named = page.getByRole('radio', { name: 'Demo Construction Ltd' });
    await visible(page.getByText('Demo Construction Ltd'));
    expect(await named.isChecked()).toBe(true);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/portal-login-used-link-390.png`, fullPage: true });
    await askForLink(page, 'uma@used.test');
    await eventually(() => Promise.resolve(mailTo('uma@used.test').length >= 2), 30_000, 'the new link');
  });

  it('shows a session whose portal access was revoked that it has ended at its next page, and leads to /portal-login', async () => {
    const id = await createSubcontractor(harness, admin, {
      name: 'Rob Revoked',
      email: 'rob@revoked.test',
    });
    const invite = await harness.call(admin, 'POST', '/subcontractors/invite', { subcontractorId: id });
    const page = await phonePage();
    await page.goto(String(invite.body.magicLink));
    await page.waitForURL(/\/portal\/dashboard$/);
    await visible(page.getByTestId('portal-subcontractor').getByText('Rob Revoked'));

    const off = await harness.call(
      admin,
      'PUT',
      `/subcontractors/${id}`,
      subcontractorBody({
        name: 'Rob Revoked',
        utr: '',
        nino: '',
        email: 'rob@revoked.test',
        portalAccess: false,
      }),
    );
    expect(off.status).toBe(200);

    // The next page the subcontractor opens is refused (cis at once; the bff's session ends as identity hears of it).
    // The page leaves for /portal-login as soon as its first call is refused, which can be before its own load event:
    // waiting for 'load' would then see an aborted navigation, so the journey waits for the address instead.
    await page.goto(`${baseUrl}/portal/invoices`, { waitUntil: 'commit' });
    await page.waitForURL(/\/portal-login\?ended=1$/);
    await visible(notice(page).getByText('Your portal session has ended'));
    await visible(requestButton(page));
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/portal-login-revoked-390.png`, fullPage: true });
  });
});

/** A portal session at the bff from the subcontractor's invitation: its cookie. */
async function portalCookie(subcontractorId: string): Promise<string> {
  const invite = await harness.call(admin, 'POST', '/subcontractors/invite', { subcontractorId });
  expect(invite.status).toBe(200);
  const link = new URL(String(invite.body.magicLink));
  const response = await fetch(`${baseUrl}/api/portal/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tenantId: link.searchParams.get('tid'), token: link.searchParams.get('token') }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith('ws_portal='));
  return (cookie ?? '').split(';')[0] ?? '';
}

const withCookie = (cookie: string, path: string) => fetch(`${baseUrl}${path}`, { headers: { cookie } });

describe('portal access ends at once (each cause), at cis and at the bff', () => {
  const causes: [string, (id: string, email: string) => Promise<number>][] = [
    [
      'portal access turned off',
      async (id, email) =>
        (
          await harness.call(
            admin,
            'PUT',
            `/subcontractors/${id}`,
            subcontractorBody({ name: 'Cause Carl', utr: '', nino: '', email, portalAccess: false }),
          )
        ).status,
    ],
    [
      'archived',
      async (id) => (await harness.call(admin, 'POST', '/subcontractors/archive', { ids: [id] })).status,
    ],
    [
      'deleted',
      async (id) => (await harness.call(admin, 'POST', '/subcontractors/delete', { ids: [id] })).status,
    ],
  ];
  for (const [cause, end] of causes) {
    it(`${cause}: the next portal call is refused, and the bff's session ends`, async () => {
      const email = `carl-${cause.replace(/\W+/g, '-')}@cause.test`;
      const id = await createSubcontractor(harness, admin, { name: 'Cause Carl', email });
      const cookie = await portalCookie(id);
      const other = await portalCookie(
        await createSubcontractor(harness, admin, { name: 'Other Olive', email: `olive-${email}` }),
      );
      expect((await withCookie(cookie, '/api/portal/cis/me')).status).toBe(200);

      expect(await end(id, email)).toBe(200);
      // At once: cis refuses the very next call.
      const next = await withCookie(cookie, '/api/portal/cis/me');
      expect([401, 403]).toContain(next.status);
      if (next.status === 403) {
        expect(await next.json()).toMatchObject({
          code: 'portal_access_ended',
          detail: 'Portal access has ended. Ask your contractor for a new invitation.',
        });
      }
      // identity hears of it and ends the session at every bff replica: the cookie is no session any more.
      await eventually(
        async () => (await withCookie(cookie, '/api/portal/session')).status === 401,
        60_000,
        'the bff session to end',
      );
      // Another subcontractor's session goes on.
      expect((await withCookie(other, '/api/portal/cis/me')).status).toBe(200);
      // A fresh link is not sent for an address whose access has ended.
      const asked = await fetch(`${baseUrl}/api/portal/sign-in-links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tenantId: 'demo', email }),
      });
      expect(asked.status).toBe(202);
      await eventually(async () => (await queued()) === 0, 30_000, 'the request to be handled');
      expect(mailTo(email).filter((mail) => mail.subject.startsWith('Your sign-in link'))).toEqual([]);
    });
  }
});
