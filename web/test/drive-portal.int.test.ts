// drive.md §1 (DRV-004): subcontractors use their own, limited portal, never the staff drive screens. A subcontractor
// signed in to the portal through the invitation's magic link opens /drive, /drive/all and /drive/trash in Chromium:
// the staff app finds no staff session but a portal one and sends the browser to /portal/dashboard, no drive screen and no file is
// shown; the drive's API through the bff answers 401 to the portal session, with no file data. The portal session
// itself still works. Screenshots: drive-portal-*.png.
import type { BrowserContext, Page } from 'playwright-core';
import { createSubcontractor, settingsBody } from '@workspace/cis/testing';
import { shots, visible } from './browser.js';
import { driveStackPerFile, type DriveBrowserStack } from './drive-stack.js';
import { ADMIN, firstLibrary, sharedDrive, uploadThroughApi } from './drive-support.js';

const SECRET_FILE = 'Tender prices 2027.txt';

let stack: DriveBrowserStack;
let portalContext: BrowserContext;
let portal: Page;

driveStackPerFile(async (started) => {
  stack = started;
  const admin = await stack.signInAs(ADMIN);
  const driveId = await sharedDrive(stack, admin, 'Project Files');
  const place = { driveId, libraryId: await firstLibrary(stack, admin, driveId) };
  await uploadThroughApi(stack, admin, place, SECRET_FILE, 'text/plain', Buffer.from('Roofing: 41,000'));

  const { harness } = stack;
  const settings = await harness.call(admin, 'PUT', '/settings', settingsBody());
  expect(settings.status).toBe(200);
  const subcontractorId = await createSubcontractor(harness, admin, {
    name: 'Rita Roofing',
    utr: '5555555555',
    nino: 'AB123456C',
    email: 'rita@roofing.test',
  });
  const invite = await harness.call(admin, 'POST', '/subcontractors/invite', { subcontractorId });
  expect(invite.status).toBe(200);
  const { pathname, search } = new URL(String(invite.body.magicLink));

  // The subcontractor's own browser: the magic link gives it a portal session (and no staff session).
  portalContext = await stack.browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB' });
  portal = await portalContext.newPage();
  await portal.goto(`${stack.baseUrl}${pathname}${search}`);
  await portal.waitForURL(/\/portal\/dashboard$/);
  await visible(portal.getByTestId('portal-subcontractor').getByText('Rita Roofing'));
});

describe('a subcontractor’s portal session and the staff drive', () => {
  for (const path of ['/drive', '/drive/all', '/drive/trash']) {
    it(`opening ${path} shows no drive screen: the staff app sends the portal session to /portal/dashboard`, async () => {
      const answers: string[] = [];
      const listen = (response: { url(): string; status(): number }) => {
        if (new URL(response.url()).pathname.startsWith('/api/drive/'))
          answers.push(String(response.status()));
      };
      portal.on('response', listen);
      try {
        await portal.goto(`${stack.baseUrl}${path}`, { waitUntil: 'commit' });
        await portal.waitForURL((url) => url.pathname === '/portal/dashboard');
        await visible(portal.getByTestId('portal-subcontractor').getByText('Rita Roofing'));
        expect(await portal.getByText('Sign in to Workspace').count()).toBe(0);
        expect(await portal.getByTestId('drive-toolbar').count()).toBe(0);
        expect(await portal.getByTestId('file-table').count()).toBe(0);
        expect(await portal.getByText(SECRET_FILE).count()).toBe(0);
        expect(await portal.getByText('Project Files').count()).toBe(0);
        // Whatever the staff app asked of the drive's API on the way was refused.
        expect(answers.filter((status) => status !== '401')).toEqual([]);
        await portal.screenshot({ path: `${shots}/drive-portal-${path.slice(1).replace('/', '-')}.png` });
      } finally {
        portal.off('response', listen);
      }
    });
  }

  it('the drive’s API through the bff answers 401 to the portal session, with no file data', async () => {
    const cookies = await portalContext.cookies(stack.baseUrl);
    expect(cookies.map((cookie) => cookie.name)).toContain('ws_portal');
    for (const path of ['/api/drive/files', '/api/drive/drives', '/api/drive/me/abilities']) {
      const answer = await portal.request.get(`${stack.baseUrl}${path}`);
      expect([path, answer.status()]).toEqual([path, 401]);
      const text = await answer.text();
      expect(text).not.toContain(SECRET_FILE);
      expect(text).not.toContain('Project Files');
    }
  });

  it('the portal session still opens the portal afterwards', async () => {
    await portal.goto(`${stack.baseUrl}/portal/dashboard`);
    await visible(portal.getByTestId('portal-subcontractor').getByText('Rita Roofing'));
    await portal.screenshot({ path: `${shots}/drive-portal-dashboard.png` });
  });
});
