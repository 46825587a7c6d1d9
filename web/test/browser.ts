// What the browser journeys share: the built bundles, the screenshot folder, Debian's Chromium with the flags these
// machines need, the sign-in through the real OIDC pages, and the shell's stack (identity with the dev IdP and
// the bff serving web/dist on one origin).
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { bffConfigSchema, startBff, type RunningBff } from '@workspace/bff';
import {
  freePort,
  INTERNAL_TOKEN,
  seedPassword,
  startIdentityHarness,
  type IdentityHarness,
} from '@workspace/identity/testing';

/** The built bundles; WEB_DIST points elsewhere when several builds must not share web/dist. */
export const distDir = process.env.WEB_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
export const shots = fileURLToPath(new URL('../../test-results/screenshots', import.meta.url));

/** Fails clearly when the bundles were not built; makes the screenshot folder. */
export function prepareArtifacts(): void {
  if (!existsSync(`${distDir}/index.html`)) {
    throw new Error(
      'web/dist is missing: build the web bundles first (npm run build -w @workspace/web; make test does it).',
    );
  }
  mkdirSync(shots, { recursive: true });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Signs a seeded user in through the site's sign-in page and the dev IdP's own page (tenant demo unless named). */
export async function signInThroughPages(
  page: Page,
  baseUrl: string,
  email: string,
  tenant = 'demo',
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Organisation').fill(tenant);
  await page.getByRole('button', { name: 'Continue' }).click();
  // The dev IdP's own sign-in page.
  await page.waitForURL(/\/interaction\//);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(seedPassword(tenant));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === baseUrl && !url.pathname.startsWith('/login'));
}

export interface ShellStack {
  baseUrl: string;
  browser: Browser;
  /** identity behind the bff: a test calls it directly for what no screen offers (e.g. role bundles). */
  identity: IdentityHarness;
  stop(): Promise<void>;
}

/** The bff on `baseUrl`'s port, serving the built bundles, in front of the given identity (and services). */
export function startTestBff(
  baseUrl: string,
  identityUrl: string,
  services: {
    CIS_URL?: string;
    DRIVE_URL?: string;
    OBJECT_STORE_PUBLIC_URL?: string;
    AUDIT_URL?: string;
    NOTIFICATION_URL?: string;
  } = {},
): Promise<RunningBff> {
  return startBff(
    bffConfigSchema.parse({
      PORT: new URL(baseUrl).port,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      IDENTITY_URL: identityUrl,
      INTERNAL_API_TOKEN: INTERNAL_TOKEN,
      PUBLIC_URL: baseUrl,
      SESSION_SECRET: 'browser-test-session-secret-0123456789abcdef',
      STATIC_DIR: distDir,
      DEFAULT_TENANT: 'demo',
      ...services,
    }),
  );
}

/** A free local origin for the bff of a test. */
export async function freeOrigin(): Promise<string> {
  return `http://localhost:${await freePort()}`;
}

/** Real PostgreSQL and Kafka, identity with the dev IdP, the bff serving the built bundles, and Chromium. */
export async function startShellStack(): Promise<ShellStack> {
  prepareArtifacts();
  const baseUrl = await freeOrigin();
  const harness = await startIdentityHarness({ publicUrl: baseUrl });
  const bff = await startTestBff(baseUrl, harness.baseUrl);
  const browser = await launchChromium();
  return {
    baseUrl,
    browser,
    identity: harness,
    stop: async () => {
      await browser.close();
      await bff.shutdown();
      await harness.stop();
    },
  };
}

/**
 * One shell stack for a test file: started before its tests (then handed to `started`, which keeps what the tests
 * use) and stopped after them.
 */
export function shellStackPerFile(started: (stack: ShellStack) => void | Promise<void>): void {
  let stack: ShellStack;
  beforeAll(async () => {
    stack = await startShellStack();
    await started(stack);
  });
  afterAll(() => stack.stop());
}

/** Waits until the element is visible (15 s at the most). */
export async function visible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 15_000 });
}

/** A computed style of the element, read in the page (the test's TypeScript has no DOM types). */
export function styleOf(locator: Locator, property: string): Promise<string> {
  return locator.evaluate(
    (element, name) =>
      (
        globalThis as unknown as {
          getComputedStyle(e: unknown): { getPropertyValue(name: string): string };
        }
      )
        .getComputedStyle(element)
        .getPropertyValue(name),
    property,
  );
}

/** A '#RRGGBB' colour as the CSS rgb() the browser reports. */
export function rgb(hex: string): string {
  const value = Number.parseInt(hex.slice(1, 7), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}

/** The hue in degrees of a CSS rgb() colour. */
export function hueOf(css: string): number {
  const [r = 0, g = 0, b = 0] = (css.match(/\d+/g) ?? []).map((value) => Number(value) / 255);
  const max = Math.max(r, g, b);
  const delta = max - Math.min(r, g, b);
  if (delta === 0) return 0;
  const sector = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  return (sector * 60 + 360) % 360;
}

/**
 * Waits until every finite CSS animation and transition in the element (and its subtree) has finished, e.g. a
 * dialog's or drawer's opening, instead of waiting a guessed number of milliseconds. (Endless ones, a spinner's,
 * are left out.)
 */
export async function animationsDone(locator: Locator): Promise<void> {
  await locator.evaluate((element) => {
    interface Running {
      finished: Promise<unknown>;
      effect: { getComputedTiming(): { endTime?: number | string } } | null;
    }
    const animations = (element as { getAnimations(options: { subtree: boolean }): Running[] }).getAnimations(
      {
        subtree: true,
      },
    );
    return Promise.all(
      animations
        .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
        .map((animation) => animation.finished.catch(() => undefined)),
    );
  });
}

/** The bell's badge: the unread count it shows (0 when it shows none). */
export async function unreadShown(page: Page): Promise<number> {
  // Read in one step: the badge goes away when the count reaches 0, so a count-then-read could wait for a badge
  // that is no longer there.
  const titles = await page
    .getByTestId('notification-count')
    .locator('.ant-scroll-number')
    .evaluateAll((badges) =>
      badges.map((badge) =>
        (badge as unknown as { getAttribute(name: string): string | null }).getAttribute('title'),
      ),
    );
  return Number(titles[0] ?? '0');
}
