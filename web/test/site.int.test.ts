// The public site in Chromium, served by the bff from the built bundles, with the real identity (sign-in, rate
// limits) and notification services (PostgreSQL, the SMTP sink) behind it: every page with real content, the home
// page's anchors, the FAQ, the Start a project drawer (from the navigation and the footer, its fields, validation,
// heights at 1280 px and 375 px, the success text and the close 2 s later on Playwright's clock, a failure only
// logged), the site's 404 page for an unknown path, and the staff app's Privacy and Terms links.
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import type { RunningBff } from '@workspace/bff';
import { INTERNAL_TOKEN, startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import { startNotificationHarness, type NotificationHarness } from '@workspace/notification/testing';
import {
  animationsDone,
  freeOrigin,
  launchChromium,
  prepareArtifacts,
  shots,
  signInThroughPages,
  startTestBff,
  styleOf,
  visible,
} from './browser.js';
import { until } from './cis-stack.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
const SUCCESS = 'Thank you! We’ll be in touch shortly.';

let identity: IdentityHarness;
let notification: NotificationHarness;
let bff: RunningBff;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  prepareArtifacts();
  baseUrl = await freeOrigin();
  identity = await startIdentityHarness({ publicUrl: baseUrl });
  notification = await startNotificationHarness({ INTERNAL_API_TOKEN: INTERNAL_TOKEN });
  bff = await startTestBff(baseUrl, identity.baseUrl, { NOTIFICATION_URL: notification.baseUrl });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await bff.shutdown();
  await notification.stop();
  await identity.stop();
});

/** A fresh page (its own context) of the given size, recording the console. */
async function newPage(viewport = DESKTOP): Promise<{ page: Page; consoleLines: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const consoleLines: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    consoleLines.push(`${message.type()}: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) consoleLines.push(`http ${response.status()} ${response.url()}`);
  });
  return { page, consoleLines };
}

const drawer = (page: Page) => page.locator('.site-project-drawer .ant-drawer-content-wrapper');

async function openedDrawer(page: Page) {
  await visible(drawer(page));
  await animationsDone(drawer(page));
  return drawer(page);
}

/** The header's and the footer's Start a project. */
const navStart = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Start a project' });
const footerStart = (page: Page) =>
  page.getByRole('navigation', { name: 'Footer' }).getByRole('button', { name: 'Start a project' });

/** An element with its box (the test's TypeScript has no DOM types; the cast is written inside each evaluate). */
type Boxed = { getBoundingClientRect(): { top: number; height: number } };

/** Where an element's top is in the viewport (px). */
const topOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluate((element) => Math.round((element as unknown as Boxed).getBoundingClientRect().top));

/** Page width beyond the viewport: 0 when nothing overflows sideways. */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(
    () =>
      (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number } };
        }
      ).document.documentElement.scrollWidth -
      (globalThis as unknown as { document: { documentElement: { clientWidth: number } } }).document
        .documentElement.clientWidth,
  );

describe('the public site', () => {
  it('serves every page with real content, in the staff app’s font, on a desktop and on a phone', async () => {
    const pages: { path: string; heading: string; texts: string[] }[] = [
      {
        path: '/',
        heading: 'CIS, documents and a subcontractor portal, built around your business',
        texts: [
          'You pay per module',
          'live in 7-10 business days',
          'a full export on leaving',
          'terminated within 24 hours',
        ],
      },
      { path: '/vision', heading: 'Our vision', texts: ['Pay for what you use', 'No lock-in'] },
      {
        path: '/help',
        heading: 'Help',
        texts: ['Signing in', 'For subcontractors', 'no live connection to HMRC'],
      },
      { path: '/terms', heading: 'Terms of service', texts: ['within 24 hours of your request'] },
      {
        path: '/privacy',
        heading: 'Privacy notice',
        texts: ['******7890', 'AB******C', 'kept for 30 days', 'Start a project'],
      },
      { path: '/login', heading: 'Sign in', texts: ['Sign in to Workspace', 'Are you a subcontractor?'] },
    ];
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, consoleLines } = await newPage(viewport);
      for (const { path, heading, texts } of pages) {
        const response = await page.goto(`${baseUrl}${path}`);
        expect({ path, status: response?.status() }).toEqual({ path, status: 200 });
        await visible(page.getByRole('heading', { level: 1, name: heading, exact: true }));
        for (const text of texts) await visible(page.getByText(text).first());
        expect({ path, overflow: await sidewaysOverflow(page) }).toEqual({ path, overflow: 0 });
        const name = path === '/' ? 'home' : path.slice(1);
        await page.screenshot({
          path: `${shots}/site-${name}-${viewport.width}.png`,
          fullPage: viewport === PHONE || path !== '/',
        });
      }
      // The staff app's default appearance: its font (Inter, then the system's).
      expect(await styleOf(page.getByRole('heading', { level: 1 }), 'font-family')).toMatch(
        /^Inter, system-ui/,
      );
      expect(consoleLines.filter((line) => /^(error|http)/.test(line))).toEqual([]);
      // The sign-in form is the staff sign-in: Continue goes to the bff's sign-in for the organisation.
      await page.getByLabel('Organisation').fill('demo');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/interaction\//);
      await page.context().close();
    }
  });

  it('scrolls to #top, #industries, #process and #about from the navigation, from any page', async () => {
    const { page } = await newPage();
    await page.goto(`${baseUrl}/`);
    const main = page.getByRole('navigation', { name: 'Main' });
    for (const [label, id] of [
      ['Industries', 'industries'],
      ['Process', 'process'],
      ['About', 'about'],
    ] as const) {
      await main.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`${baseUrl}/#${id}`);
      // The section's top sits right under the sticky header (64 px).
      await until(
        () => topOf(page, `#${id}`),
        (top) => top === 64,
        `#${id}'s top`,
      );
      await page.screenshot({ path: `${shots}/site-anchor-${id}.png` });
    }
    await main.getByRole('link', { name: 'Workspace', exact: true }).click();
    await page.waitForURL(`${baseUrl}/#top`);
    await until(
      () => page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY),
      (y) => y === 0,
      'the scroll to the top',
    );
    // From another page, the link opens the home page at its section.
    await page.goto(`${baseUrl}/vision`);
    await main.getByRole('link', { name: 'Process', exact: true }).click();
    await page.waitForURL(`${baseUrl}/#process`);
    await until(
      () => topOf(page, '#process'),
      (top) => top === 64,
      "#process's top",
    );
    await page.context().close();
  });

  it('answers six questions in the FAQ', async () => {
    const { page } = await newPage();
    await page.goto(`${baseUrl}/`);
    const items = page.getByTestId('faq').locator('.ant-collapse-item');
    await visible(items.first());
    expect(await items.count()).toBe(6);
    await page.getByRole('button', { name: 'Does Workspace file my CIS return with HMRC?' }).click();
    await visible(
      page.getByText('Not directly: Workspace has no live connection to HMRC.', { exact: false }),
    );
    await page.getByTestId('faq').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/site-faq.png` });
    await page.context().close();
  });

  it('opens the Start a project drawer from the navigation and the footer: four fields, 70vh, 85vh under 768 px', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page } = await newPage(viewport);
      await page.goto(`${baseUrl}/`);
      for (const opener of [navStart, footerStart]) {
        await opener(page).click();
        const sheet = await openedDrawer(page);
        for (const label of ['Name', 'Email', 'Company', 'Message']) await visible(sheet.getByLabel(label));
        const height = await sheet.evaluate(
          (element) => (element as unknown as Boxed).getBoundingClientRect().height,
        );
        const expected = viewport === PHONE ? 0.85 * PHONE.height : 0.7 * DESKTOP.height;
        expect({ width: viewport.width, height: Math.round(height) }).toEqual({
          width: viewport.width,
          height: Math.round(expected),
        });
        await page.screenshot({
          path: `${shots}/site-drawer-${opener === navStart ? 'nav' : 'footer'}-${viewport.width}.png`,
        });
        await page.getByRole('button', { name: 'Close', exact: true }).click();
        await drawer(page).waitFor({ state: 'hidden' });
      }
      await page.context().close();
    }
  });

  it('refuses a blank name and the email a@ without sending anything', async () => {
    const { page } = await newPage();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/public/project-requests')) sent.push(request.method());
    });
    await page.goto(`${baseUrl}/`);
    await navStart(page).click();
    const sheet = await openedDrawer(page);
    await sheet.getByRole('button', { name: 'Send request' }).click();
    await visible(sheet.getByText('Please enter your name'));
    await visible(sheet.getByText('Please enter your email'));
    await sheet.getByLabel('Name').fill('Dana Builder');
    await sheet.getByLabel('Email').fill('a@');
    await sheet.getByRole('button', { name: 'Send request' }).click();
    await visible(sheet.getByText('Please enter a valid email address, e.g. name@example.com'));
    await page.getByText('Please enter your name').waitFor({ state: 'hidden' });
    await page.screenshot({ path: `${shots}/site-drawer-invalid.png` });
    expect(sent).toEqual([]);
    await page.context().close();
  });

  it('sends a valid request without company and message, thanks the visitor and closes 2 s later', async () => {
    const { page, consoleLines } = await newPage();
    await page.clock.install();
    await page.goto(`${baseUrl}/`);
    await footerStart(page).click();
    const sheet = await openedDrawer(page);
    await sheet.getByLabel('Name').fill('Sam Site');
    await sheet.getByLabel('Email').fill('sam@site.test');
    // The clock stands still from here: only runFor moves it.
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1000);
    await sheet.getByRole('button', { name: 'Send request' }).click();
    await visible(sheet.getByText(SUCCESS, { exact: true }));
    await page.screenshot({ path: `${shots}/site-drawer-success.png` });
    const mail = await notification.sinkClient.waitForMessage((message) =>
      message.subject.includes('Sam Site'),
    );
    expect(mail.to).toEqual(['sales@workspace.local']);
    expect(mail.replyTo).toEqual(['sam@site.test']);
    expect(mail.text).toContain('Company: (not given)');

    // The drawer is open (its root marked so) until 2 s have passed, then closes.
    const openDrawer = page.locator('.site-project-drawer.ant-drawer-open');
    await page.clock.runFor(1_990);
    expect(await openDrawer.count()).toBe(1);
    expect(await sheet.getByText(SUCCESS).isVisible()).toBe(true);
    await page.clock.runFor(10);
    await openDrawer.waitFor({ state: 'detached' });
    await page.clock.resume();
    await drawer(page).waitFor({ state: 'hidden' });
    // Opened again, it is an empty form.
    await footerStart(page).click();
    await visible((await openedDrawer(page)).getByLabel('Name'));
    expect(await drawer(page).getByLabel('Name').inputValue()).toBe('');
    expect(consoleLines.filter((line) => line.startsWith('error'))).toEqual([]);
    await page.context().close();
  });

  it('only logs a failed request: no message on screen, the form kept', async () => {
    const { page, consoleLines } = await newPage();
    await page.goto(`${baseUrl}/`);
    // This browser's address uses up its project requests (the bff's limit per client IP), as a busy office might.
    const limited = await page.evaluate(async () => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const response = await fetch('/api/public/project-requests', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Filler', email: 'filler@site.test' }),
        });
        if (response.status === 429) return true;
      }
      return false;
    });
    expect(limited).toBe(true);
    consoleLines.length = 0;

    await navStart(page).click();
    const sheet = await openedDrawer(page);
    await sheet.getByLabel('Name').fill('Lee Late');
    await sheet.getByLabel('Email').fill('lee@site.test');
    await sheet.getByLabel('Company').fill('Late Ltd');
    await sheet.getByRole('button', { name: 'Send request' }).click();
    const logged = await until(
      () => Promise.resolve(consoleLines.find((line) => line.includes('sendProjectRequest failed'))),
      (line) => line !== undefined,
      'the failure in the console',
    );
    expect(logged).toMatch(
      /^error: sendProjectRequest failed: Project request not received \(HTTP 429\): Too many project requests/,
    );
    // Nothing on screen: no success, no error; the form as it was, ready to send again.
    await until(
      () => sheet.getByRole('button', { name: 'Send request' }).isEnabled(),
      (enabled) => enabled,
      'the form to be ready again',
    );
    expect(await sheet.getByText(SUCCESS).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await sheet.locator('.ant-form-item-explain-error').count()).toBe(0);
    expect(await sheet.getByLabel('Company').inputValue()).toBe('Late Ltd');
    await page.screenshot({ path: `${shots}/site-drawer-failure-logged.png` });
    await page.context().close();
  });

  it("shows the site's 404 page at an unknown path, with no 401 in the console", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, consoleLines } = await newPage(viewport);
      const response = await page.goto(`${baseUrl}/pricing`);
      expect(response?.status()).toBe(404);
      await visible(page.getByRole('heading', { name: 'Page not found' }));
      await visible(page.getByRole('navigation', { name: 'Main' }));
      await page.screenshot({ path: `${shots}/site-404-${viewport.width}.png` });
      // A 401 answer or its console error (not a port or path that happens to contain "401").
      expect(consoleLines.filter((line) => /^http 401 |status of 401\b/.test(line))).toEqual([]);
      expect(await page.title()).toBe('Page not found · Workspace');
      await page.context().close();
    }
  });

  it("leads the staff app's footer links Privacy and Terms to the site's pages", async () => {
    const { page } = await newPage();
    await signInThroughPages(page, baseUrl, 'admin@demo.test');
    const footer = page.getByTestId('app-footer');
    await footer.getByRole('link', { name: 'Privacy' }).click();
    await page.waitForURL(`${baseUrl}/privacy`);
    await visible(page.getByRole('heading', { level: 1, name: 'Privacy notice' }));
    await page.goBack();
    await page.getByTestId('app-footer').getByRole('link', { name: 'Terms' }).click();
    await page.waitForURL(`${baseUrl}/terms`);
    await visible(page.getByRole('heading', { level: 1, name: 'Terms of service' }));
    await page.screenshot({ path: `${shots}/site-terms-from-staff-app.png` });
    await page.context().close();
  });
});
