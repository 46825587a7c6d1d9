import {
  CLIENT,
  POST_LOGOUT_REDIRECT_URI,
  startIdentityHarness,
  type IdentityHarness,
} from '@workspace/identity/testing';
import type { RunningBff } from '../src/app.js';
import {
  PUBLIC_URL,
  read,
  signInThroughBff,
  signedInBrowser,
  startTestBff,
  submitSelfPostingForm,
  type TestBrowser,
} from './support.js';

/*
 * How a staff session ends (issue 12, M4 and "Sign out ends the sign-in"), against the real identity (PostgreSQL,
 * Kafka) and the dev IdP: the absolute and idle limits checked by the bff on every request (its clock moved by the
 * test, the limits configured small), "sign out of all sessions", and sign-out ending the IdP's own session.
 */

const IDLE_SECONDS = 120;
const ABSOLUTE_SECONDS = 600;

let harness: IdentityHarness;
let bff: RunningBff;
let base: string;
let clockOffsetMs = 0;

beforeAll(async () => {
  harness = await startIdentityHarness();
  ({ bff, base } = await startTestBff(
    harness.baseUrl,
    {
      SESSION_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
      SESSION_ABSOLUTE_TIMEOUT_SECONDS: String(ABSOLUTE_SECONDS),
      // Every request reads the session from identity (no replica cache: ADR 0025's second is not under test).
      SESSION_CACHE_MS: '0',
    },
    { now: () => Date.now() + clockOffsetMs },
  ));
});

afterEach(() => {
  clockOffsetMs = 0;
});

afterAll(async () => {
  await bff.shutdown('test');
  await harness.stop();
});

const signedIn = (email: string) => signedInBrowser(base, { email });
const sessionStatus = async (browser: TestBrowser) => (await browser.api('/api/auth/session')).status;

describe('staff session limits, checked on every request', () => {
  it('ends the session at its absolute lifetime although it is used every minute', async () => {
    const { browser } = await signedIn('accountant@demo.test');
    // The browser may keep the cookie no longer than the session lasts.
    const maxAge = Number(/Max-Age=(\d+)/.exec(browser.lastSetCookie('ws_session') ?? '')?.[1]);
    expect(maxAge).toBeLessThanOrEqual(ABSOLUTE_SECONDS);
    for (let minute = 1; minute < ABSOLUTE_SECONDS / 60; minute++) {
      clockOffsetMs = minute * 60_000;
      // The access token (300 s) is renewed through identity on the way: a used session, not an idle one.
      expect([minute, (await browser.api('/api/v1/auth/effective-scopes')).status]).toEqual([minute, 200]);
    }
    clockOffsetMs = ABSOLUTE_SECONDS * 1000;
    const ended = await browser.api('/api/auth/session');
    expect(ended.status).toBe(401);
    expect((await read(ended)).status).toBe(401);
    // Ended for good, not only refused at that moment.
    clockOffsetMs = 0;
    expect(await sessionStatus(browser)).toBe(401);
  });

  it('ends the session after the idle timeout without a request, counted from the last request', async () => {
    const { browser } = await signedIn('clerk@demo.test');
    clockOffsetMs = (IDLE_SECONDS - 1) * 1000;
    expect(await sessionStatus(browser)).toBe(200);
    clockOffsetMs += (IDLE_SECONDS - 1) * 1000;
    expect(await sessionStatus(browser)).toBe(200);
    clockOffsetMs += IDLE_SECONDS * 1000;
    expect(await sessionStatus(browser)).toBe(401);
  });
});

describe('sign out of all sessions', () => {
  it('ends every session of the user (a second browser too) and no other user’s; the browser goes to the IdP to end its sign-in', async () => {
    const first = await signedIn('viewer@demo.test');
    const second = await signedIn('viewer@demo.test');
    const other = await signedIn('editor@demo.test');
    expect(first.browser.cookie('ws_session')).not.toBe(second.browser.cookie('ws_session'));

    // CSRF as every state-changing call.
    expect((await first.browser.api('/api/auth/logout-all', { method: 'POST' })).status).toBe(403);
    expect(await sessionStatus(second.browser)).toBe(200);

    const answer = await first.browser.api('/api/auth/logout-all', { method: 'POST', csrf: first.csrf });
    expect(answer.status).toBe(200);
    const { redirectTo } = (await read(answer)) as { redirectTo: string };
    expect(new URL(redirectTo).origin).toBe(harness.idp.issuer);
    expect(first.browser.cookie('ws_session')).toBeUndefined();

    expect(await sessionStatus(first.browser)).toBe(401);
    expect(await sessionStatus(second.browser)).toBe(401);
    expect(await sessionStatus(other.browser)).toBe(200);
    // Not even a refresh keeps the second browser in: its refresh token was revoked too.
    expect(
      (await second.browser.api('/api/auth/set-token', { method: 'POST', json: {}, csrf: second.csrf }))
        .status,
    ).toBe(401);
  });

  it('needs a session', async () => {
    const { browser, csrf } = await signedIn('manager@demo.test');
    expect((await browser.api('/api/auth/logout', { method: 'POST', csrf })).status).toBe(200);
    expect((await browser.api('/api/auth/logout-all', { method: 'POST', csrf })).status).toBe(401);
  });
});

describe('sign-out ends the sign-in at the IdP', () => {
  it('sends the browser to the IdP’s end-session endpoint, after which the next sign-in asks for credentials', async () => {
    const { browser, csrf } = await signedIn('cis.admin@demo.test');
    // Before: the IdP's session is alive, so signing in again goes straight through without its page.
    expect(
      (await signInThroughBff(browser, base, { tenant: 'demo', email: 'cis.admin@demo.test' })).loginPage,
    ).toBe('');
    const csrfNow = ((await read(await browser.api('/api/auth/session'))) as { csrfToken: string }).csrfToken;
    expect(csrfNow).not.toBe(csrf);

    const answer = await browser.api('/api/auth/logout', { method: 'POST', csrf: csrfNow });
    expect(answer.status).toBe(200);
    const { redirectTo } = (await read(answer)) as { redirectTo: string };
    const url = new URL(redirectTo);
    expect(url.origin).toBe(harness.idp.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(POST_LOGOUT_REDIRECT_URI);
    expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^eyJ/);

    // The IdP's page submits itself; the IdP then sends the browser to the sign-in page.
    const page = await browser.fetch(redirectTo);
    expect(page.status).toBe(200);
    const back = await submitSelfPostingForm(browser, await page.text(), redirectTo);
    expect(back.headers.get('location')).toBe(`${PUBLIC_URL}/login`);

    const again = await signInThroughBff(browser, base, { tenant: 'demo', email: 'cis.admin@demo.test' });
    expect(again.loginPage).toContain('Sign in to Workspace');
    expect(again.callback.status).toBe(302);
  });

  it('offers another account: prompt=login has the IdP ask for credentials while its session is alive', async () => {
    const { browser } = await signedIn('admin@demo.test');
    const another = await signInThroughBff(browser, base, {
      tenant: 'demo',
      email: 'viewer@demo.test',
      prompt: 'login',
    });
    expect(another.loginPage).toContain('Sign in to Workspace');
    expect(another.callback.status).toBe(302);
    expect(await read(await browser.api('/api/auth/session'))).toMatchObject({
      user: { email: 'viewer@demo.test' },
    });
  });
});
