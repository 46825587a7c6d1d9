// Browser journeys of signing out (issue 12: "Sign out ends the sign-in", and "sign out of all sessions"): Debian's
// Chromium driven by playwright-core against the real stack (PostgreSQL, Kafka, identity with the dev OIDC provider,
// the bff serving the built web bundles). A shared site-office PC: after Sign out, the next person must be asked for
// credentials by the IdP, and may sign in with another account.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedPassword } from '@workspace/identity/testing';
import { shellStackPerFile, shots, signInThroughPages, visible } from './browser.js';

let browser: Browser;
let baseUrl: string;

shellStackPerFile((stack) => {
  ({ browser, baseUrl } = stack);
});

async function newBrowser(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  return { context, page: await context.newPage() };
}

async function signedIn(page: Page, email: string): Promise<void> {
  await signInThroughPages(page, baseUrl, email);
  await visible(page.getByTestId('top-bar'));
}

/** Who the browser's session belongs to, as the bff says (undefined: signed out). */
async function sessionEmail(page: Page): Promise<string | undefined> {
  const answer = await page.request.get(`${baseUrl}/api/auth/session`);
  if (answer.status() !== 200) return undefined;
  return ((await answer.json()) as { user: { email: string } }).user.email;
}

const onSignInPage = (page: Page) =>
  page.waitForURL((url) => url.origin === baseUrl && url.pathname === '/login');

/** The dev IdP's own sign-in page: it asks for credentials. */
const atIdpSignIn = (page: Page) => page.waitForURL(/\/interaction\//);

describe('signing out in Chromium', () => {
  it('Sign out ends the IdP’s sign-in too: signing in again asks for credentials; Use another account lets a different user in', async () => {
    const { context, page } = await newBrowser();
    await signedIn(page, 'manager@demo.test');
    expect(await sessionEmail(page)).toBe('manager@demo.test');

    await page.getByRole('button', { name: 'Sign out' }).click();
    // Through the IdP's end-session page (it submits itself) and back to the product's sign-in page.
    await onSignInPage(page);
    await visible(page.getByRole('heading', { name: 'Sign in to Workspace' }));
    expect(await sessionEmail(page)).toBeUndefined();
    await page.screenshot({ path: `${shots}/sign-out-landed-on-sign-in.png` });

    // The next person at this PC: Continue goes to the IdP, which asks for credentials (no way straight in).
    await page.getByLabel('Organisation').fill('demo');
    await page.getByRole('button', { name: 'Continue' }).click();
    await atIdpSignIn(page);
    await visible(page.getByLabel('Password'));
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    await page.screenshot({ path: `${shots}/sign-out-idp-asks-again.png` });

    // 'Use another account' while the IdP's sign-in is alive: it asks for credentials, and another user signs in.
    await page.goto(baseUrl);
    await signedIn(page, 'admin@demo.test');
    expect(await sessionEmail(page)).toBe('admin@demo.test');
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Organisation').fill('demo');
    await page.screenshot({ path: `${shots}/sign-in-use-another-account.png` });
    await page.getByRole('button', { name: 'Use another account' }).click();
    await atIdpSignIn(page);
    await page.getByLabel('Email').fill('viewer@demo.test');
    await page.getByLabel('Password').fill(seedPassword('demo'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === baseUrl && !url.pathname.startsWith('/login'));
    await visible(page.getByRole('button', { name: /^Status: / }));
    await visible(page.getByTestId('top-bar').getByText('Vera Viewer'));
    expect(await sessionEmail(page)).toBe('viewer@demo.test');
    await page.screenshot({ path: `${shots}/sign-in-another-account-signed-in.png` });
    await context.close();
  });

  it('Sign out of all sessions (user menu, confirmed) ends the user’s other browser too, not another user’s', async () => {
    const mine = await newBrowser();
    const myOther = await newBrowser();
    const someoneElse = await newBrowser();
    await signedIn(mine.page, 'editor@demo.test');
    await signedIn(myOther.page, 'editor@demo.test');
    await signedIn(someoneElse.page, 'clerk@demo.test');

    await mine.page.getByRole('button', { name: /^Status: / }).click();
    await mine.page.getByRole('menuitem', { name: 'Sign out of all sessions' }).click();
    const dialog = mine.page.getByRole('dialog');
    await visible(dialog.locator('.ant-modal-confirm-title', { hasText: 'Sign out of all sessions?' }));
    await visible(dialog.getByText('You will be signed out on every device and browser'));
    await mine.page.waitForTimeout(400); // the dialog's opening animation, for the screenshot
    await mine.page.screenshot({ path: `${shots}/sign-out-all-confirm.png` });
    // Cancel keeps everything as it was.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await sessionEmail(mine.page)).toBe('editor@demo.test');

    await mine.page.getByRole('button', { name: /^Status: / }).click();
    await mine.page.getByRole('menuitem', { name: 'Sign out of all sessions' }).click();
    await mine.page.getByRole('dialog').getByRole('button', { name: 'Sign out of all sessions' }).click();
    await onSignInPage(mine.page);
    expect(await sessionEmail(mine.page)).toBeUndefined();

    // The other browser of the same user is signed out (once past the bff's 1 s session cache, ADR 0025) ...
    await myOther.page.waitForTimeout(1_100);
    expect(await sessionEmail(myOther.page)).toBeUndefined();
    await myOther.page.reload();
    await onSignInPage(myOther.page);
    await myOther.page.screenshot({ path: `${shots}/sign-out-all-other-browser.png` });
    // ... another user's is not.
    await someoneElse.page.reload();
    await visible(someoneElse.page.getByTestId('top-bar'));
    expect(await sessionEmail(someoneElse.page)).toBe('clerk@demo.test');
    for (const opened of [mine, myOther, someoneElse]) await opened.context.close();
  });
});
