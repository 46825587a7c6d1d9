// Review L3: on https the bff's cookies carry the prefixes browsers enforce (`__Host-` for the session cookies,
// `__Secure-` for the sign-in cookie), so a sibling subdomain cannot set or shadow them (cookie tossing); the bff
// reads only the prefixed names there. Plain http (local runs and the other tests) keeps the plain names.
import { randomBytes } from 'node:crypto';
import { startIdentityHarness, type IdentityHarness } from '@workspace/identity/testing';
import type { RunningBff } from '../src/app.js';
import { cookieNames } from '../src/cookies.js';
import { TestBrowser, signedInBrowser, startTestBff } from './support.js';

let harness: IdentityHarness;
const running: RunningBff[] = [];
const secret = randomBytes(32).toString('hex');

beforeAll(async () => {
  harness = await startIdentityHarness();
});

afterAll(async () => {
  for (const bff of running) await bff.shutdown('test');
  await harness.stop();
});

async function bffAt(publicUrl?: string): Promise<string> {
  const { bff, base } = await startTestBff(harness.baseUrl, {
    SESSION_SECRET: secret,
    ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
  });
  running.push(bff);
  return base;
}

describe('cookie names on https (review L3)', () => {
  it('are __Host- for the sessions and __Secure- for the sign-in cookie on https, plain on http', () => {
    expect(cookieNames(true)).toEqual({
      session: '__Host-ws_session',
      portal: '__Host-ws_portal',
      signIn: '__Secure-ws_signin',
    });
    expect(cookieNames(false)).toEqual({ session: 'ws_session', portal: 'ws_portal', signIn: 'ws_signin' });
  });

  it('sets the sign-in cookie as __Secure-ws_signin, Secure, on /api/auth', async () => {
    const base = await bffAt('https://workspace.example.test');
    const browser = new TestBrowser(base);
    const login = await browser.api('/api/auth/login?tenant=demo');
    expect(login.status).toBe(302);
    const cookie = browser.setCookies.find((line) => line.startsWith('__Secure-ws_signin='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\/api\/auth/i);
    expect(browser.setCookies.some((line) => line.startsWith('ws_signin='))).toBe(false);
  });

  it('honours a session only under __Host-ws_session there: the plain name a sibling could set is ignored', async () => {
    // A session made through a plain-http bff of the same store and secret, then presented to the https one.
    const { browser } = await signedInBrowser(await bffAt(), { email: 'viewer@demo.test' });
    const sessionId = browser.setCookies
      .map((line) => /^ws_session=([^;]+)/.exec(line)?.[1])
      .find((id) => id !== undefined);
    expect(sessionId).toBeDefined();
    const secure = await bffAt('https://workspace.example.test');
    const as = (cookie: string) =>
      fetch(`${secure}/api/auth/session`, { headers: { cookie: `${cookie}=${sessionId ?? ''}` } });
    expect((await as('ws_session')).status).toBe(401);
    expect((await as('__Host-ws_session')).status).toBe(200);
  });
});
