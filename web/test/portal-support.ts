// Shared by the portal journeys (web/test/portal-*.int.test.ts): opening the portal from an invitation's link on a
// phone or a desktop, what a page measures of itself, and the portal's pages.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { ControlledClock } from '@workspace/kit/testing';
import type { CisHarness } from '@workspace/cis/testing';
import { visible } from './browser.js';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1366, height: 900 } as const;

/** The portal's pages: path, the link in its navigation, its title. */
export const PORTAL_PAGES = [
  { path: '/portal/dashboard', link: 'Dashboard', title: 'Dashboard' },
  { path: '/portal/invoices', link: 'Invoices', title: 'Invoices' },
  { path: '/portal/statements', link: 'Statements', title: 'Statements' },
  { path: '/portal/tax-year', link: 'Tax year', title: 'Tax year summary' },
  { path: '/portal/profile', link: 'Profile', title: 'Profile' },
] as const;

/** A staff user invites the subcontractor (cis's invite, as the staff app's button calls it): the magic link. */
export async function inviteLink(
  harness: CisHarness,
  staffToken: string,
  subcontractorId: string,
): Promise<string> {
  const invite = await harness.call(staffToken, 'POST', '/subcontractors/invite', { subcontractorId });
  if (invite.status !== 200) throw new Error(`invite failed: ${invite.status} ${invite.text}`);
  // identity builds the link on its PORTAL_LOGIN_URL (the harness leaves the default host): path and query are it.
  const { pathname, search } = new URL(String(invite.body.magicLink));
  return `${pathname}${search}`;
}

/** A fresh browser (phone or desktop) whose clock starts at the business clock's time, signed in by the link. */
export async function openPortal(
  browser: Browser,
  baseUrl: string,
  link: string,
  viewport: { width: number; height: number },
  clock?: ControlledClock,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  if (clock) await context.clock.install({ time: clock.now() });
  const page = await context.newPage();
  await page.goto(`${baseUrl}${link}`);
  await page.waitForURL(/\/portal\/dashboard$/);
  return { context, page };
}

/** The page's scroll width against the window's width (run in the page; the test's TypeScript has no DOM types). */
export function widths(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => {
    const scope = globalThis as unknown as {
      document: { scrollingElement: { scrollWidth: number } };
      innerWidth: number;
    };
    return { scrollWidth: scope.document.scrollingElement.scrollWidth, innerWidth: scope.innerWidth };
  });
}

/** Nothing on the page overflows sideways: document.scrollingElement.scrollWidth <= innerWidth. */
export async function expectNoSidewaysOverflow(page: Page): Promise<void> {
  const measured = await widths(page);
  expect(measured.scrollWidth).toBeLessThanOrEqual(measured.innerWidth);
}

/** An element's box on the screen and whether its content is cut (wider or taller than the box). */
export function boxOf(locator: Locator) {
  return locator.evaluate((element) => {
    const el = element as unknown as {
      getBoundingClientRect(): { left: number; right: number };
      scrollWidth: number;
      clientWidth: number;
      scrollHeight: number;
      clientHeight: number;
    };
    const rect = el.getBoundingClientRect();
    return {
      left: rect.left,
      right: rect.right,
      clipped: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
    };
  });
}

/** The header shows the contractor's and the subcontractor's names whole, and Log out, inside the screen. */
export async function expectHeader(page: Page, contractor: string, subcontractor: string, width: number) {
  const header = page.getByTestId('portal-header');
  await visible(header.getByTestId('portal-contractor').getByText(contractor, { exact: true }));
  await visible(header.getByTestId('portal-subcontractor').getByText(subcontractor, { exact: true }));
  for (const part of [
    header,
    header.getByTestId('portal-contractor'),
    header.getByTestId('portal-subcontractor'),
    header.getByRole('button', { name: 'Log out' }),
  ]) {
    const box = await boxOf(part);
    expect(box).toMatchObject({ clipped: false });
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(width);
  }
}

/** Goes to a portal page through its navigation link and waits for its title. */
export async function openPortalPage(page: Page, target: (typeof PORTAL_PAGES)[number]): Promise<void> {
  await page.getByTestId('portal-nav').getByRole('link', { name: target.link, exact: true }).click();
  await page.waitForURL((url) => url.pathname === target.path);
  await visible(page.getByRole('heading', { name: target.title, level: 2, exact: true }));
}

/** DD/MM/YYYY of an ISO date. */
export const uk = (iso: string) => iso.split('-').reverse().join('/');

/** Types a date into an antd DatePicker and confirms it. */
export async function pickDate(field: Locator, iso: string): Promise<void> {
  await field.click();
  await field.fill(uk(iso));
  await field.press('Enter');
}
