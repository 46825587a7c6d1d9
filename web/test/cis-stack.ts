// What the CIS browser journeys share: the CIS stack (identity with the dev OIDC provider, notification with its
// SMTP sink, the cis service, the bff serving the built web bundles, Debian's Chromium) and the small waits and
// antd helpers the journeys use on its screens.
import type { Browser, Locator, Page } from 'playwright-core';
import type { RunningBff } from '@workspace/bff';
import { addDays, taxMonthOf, taxMonthPeriod } from '@workspace/cis/domain';
import { startCisHarness, type CisHarness } from '@workspace/cis/testing';
import type { ControlledClock } from '@workspace/kit/testing';
import {
  freeOrigin,
  launchChromium,
  prepareArtifacts,
  signInThroughPages,
  startTestBff,
  visible,
} from './browser.js';

export interface CisBrowserStack {
  baseUrl: string;
  harness: CisHarness;
  bff: RunningBff;
  browser: Browser;
  /** A new browser context (en-GB, 1366×900, clipboard allowed) with a demo user signed in through the pages. */
  newPage(email: string): Promise<Page>;
  stop(): Promise<void>;
}

/**
 * The CIS stack on a free local origin: one test database, one bff, one Chromium. With a `clock`, cis reads its
 * business dates from it and each new page's browser clock starts at its time (then runs on), so a journey can be
 * "on the 10th"; set the clock before opening the page.
 */
export async function startCisBrowserStack(
  options: { clock?: ControlledClock; inAppNotifications?: boolean } = {},
): Promise<CisBrowserStack> {
  prepareArtifacts();
  const baseUrl = await freeOrigin();
  const harness = await startCisHarness({
    publicUrl: baseUrl,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.inAppNotifications ? { inAppNotifications: true } : {}),
  });
  const bff = await startTestBff(baseUrl, harness.identity.baseUrl, {
    CIS_URL: harness.cisUrl,
    NOTIFICATION_URL: harness.notificationUrl,
  });
  const browser = await launchChromium();
  return {
    baseUrl,
    harness,
    bff,
    browser,
    newPage: async (email) => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB' });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
      if (options.clock) await context.clock.install({ time: options.clock.now() });
      const page = await context.newPage();
      await signInThroughPages(page, baseUrl, email);
      return page;
    },
    stop: async () => {
      await browser.close();
      await bff.shutdown();
      await harness.stop();
    },
  };
}

/**
 * One CIS stack for a test file (or, called inside a describe, for that describe): started before its tests (then
 * handed to `started`, which keeps what the tests use and seeds) and stopped after them.
 */
export function cisStackPerFile(
  started: (stack: CisBrowserStack) => void | Promise<void>,
  options: { clock?: ControlledClock; inAppNotifications?: boolean } = {},
): void {
  let stack: CisBrowserStack;
  beforeAll(async () => {
    stack = await startCisBrowserStack(options);
    await started(stack);
  });
  afterAll(() => stack.stop());
}

/** Waits until the value read satisfies the check (the lists refetch after each filter change). */
export async function until<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

/** The option labels of an antd Select (opened, read, closed again). */
export async function optionsOf(page: Page, field: Locator): Promise<string[]> {
  await field.click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await visible(options.first());
  // Read until the list is there and holds still (a dropdown closing or opening may be caught mid-animation).
  let previous = '';
  const labels = await until(
    () => options.allTextContents(),
    (read) => {
      const same = read.length > 0 && read.join('|') === previous;
      previous = read.join('|');
      return same;
    },
    'the open select options',
  );
  await page.keyboard.press('Escape');
  await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
  return labels;
}

/** Picks an option of an antd Select: open it, click the option (antd renders them in a portal), wait it closes. */
export async function choose(page: Page, field: Locator, option: string) {
  await field.click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
  await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
}

/** The antd modal dialog with this title (confirm dialogs and result dialogs alike). */
export const dialog = (page: Page, title: string) =>
  page.locator('.ant-modal:visible', { has: page.getByText(title, { exact: true }) });

/**
 * Runs `work` with the services' clock on the 6th of the month after the tax month in progress, then back to where it
 * would be: a return is submitted only once its month has ended (issue 13). The page's own clock is left alone; a
 * Returns page loaded inside `work` sees the month just ended as due.
 */
export async function onceTheMonthHasEnded<T>(harness: CisHarness, work: () => Promise<T>): Promise<T> {
  const today = harness.clock.now();
  const started = Date.now();
  harness.clock.set(new Date(`${addDays(taxMonthPeriod(taxMonthOf(today)).endDate, 1)}T10:00:00Z`));
  try {
    return await work();
  } finally {
    harness.clock.set(new Date(today.getTime() + (Date.now() - started)));
  }
}

/** The return's submit dialog (issue 13): its title names the return's period ("Submit the return for the month …"). */
export const submitDialog = (page: Page) =>
  page.locator('.ant-modal:visible', {
    has: page.getByText(/^Submit the (amended )?return for the month ending /),
  });

/**
 * In the open submit dialog, ticks every declaration it requires (not the optional inactivity) and submits: the
 * declared flow that replaced the single "Are you sure?" confirmation.
 */
export async function declareAndSubmit(page: Page): Promise<void> {
  const open = submitDialog(page);
  await visible(open);
  const boxes = open.locator('label.ant-checkbox-wrapper', { hasNotText: '(optional)' });
  for (const box of await boxes.all()) await box.click();
  await open.getByRole('button', { name: /^Submit (amended )?return$/ }).click();
}

/**
 * Submits the amendment open on the Returns page: once validated, Submit Return asks for the amended return of
 * `monthName` ('month ending 5 November 2026'), the declarations are ticked and sent, and Return Submitted closed.
 */
export async function submitAmendment(page: Page, current: Locator, monthName: string): Promise<void> {
  await visible(current.getByText('Return validated successfully'));
  await current.getByRole('button', { name: 'Submit Return' }).click();
  await visible(
    submitDialog(page).getByText(`Submit the amended return for the ${monthName}`, { exact: true }),
  );
  await declareAndSubmit(page);
  await dialog(page, 'Return Submitted').getByRole('button', { name: 'OK' }).click();
}
