import {
  CLIENT,
  CookieJar,
  demoSeed,
  internalPost,
  POST_LOGOUT_REDIRECT_URI,
  signIn,
  startIdentityHarness,
  type IdentityHarness,
} from './support.js';

/*
 * How a staff sign-in ends (issue 12): "sign out of all sessions" (ASVS 3.3.4), the refresh chain bounded by the bff
 * session's absolute lifetime (ASVS 3.3.2), and the IdP's own session ended by RP-initiated logout, so the next
 * sign-in on the same browser asks for credentials. Real PostgreSQL, Kafka and the dev IdP (oidc-provider).
 */

let harness: IdentityHarness;

beforeAll(async () => {
  harness = await startIdentityHarness();
});

afterAll(async () => {
  await harness.stop();
});

interface SignedIn {
  refreshToken: string;
  refreshExpiresIn: number;
  idToken: string;
  user: { uid: string };
}

async function signedIn(email: string, options: Parameters<typeof signIn>[4] = {}): Promise<SignedIn> {
  const result = await signIn(harness, 'demo', email, demoSeed.password, options);
  expect(result.status).toBe(200);
  return result.body as unknown as SignedIn;
}

const refresh = (refreshToken: string) => internalPost(harness, '/v1/auth/refresh', { refreshToken });

/** A bff staff session stored at identity for `uid` (as the bff stores one at sign-in). */
async function storeBffSession(key: string, uid: string): Promise<void> {
  const res = await fetch(`${harness.baseUrl}/v1/internal/sessions/${key}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-internal-token': harness.config.INTERNAL_API_TOKEN },
    body: JSON.stringify({
      kind: 'staff',
      tenantId: 'demo',
      subject: uid,
      value: 'sealed',
      expiresAt: Date.now() + 3600_000,
    }),
  });
  expect(res.status).toBe(204);
}

const bffSessionStatus = async (key: string) =>
  (
    await fetch(`${harness.baseUrl}/v1/internal/sessions/${key}`, {
      headers: { 'x-internal-token': harness.config.INTERNAL_API_TOKEN },
    })
  ).status;

describe('sign out of all sessions', () => {
  it('revokes every refresh token of the user and deletes their bff staff sessions, and leaves another user’s alone', async () => {
    const first = await signedIn('viewer@demo.test');
    const second = await signedIn('viewer@demo.test');
    const other = await signedIn('editor@demo.test');
    await storeBffSession('viewer-browser-session-key-1', first.user.uid);
    await storeBffSession('viewer-browser-session-key-2', second.user.uid);
    await storeBffSession('editor-browser-session-key', other.user.uid);

    const answer = await internalPost(harness, '/v1/auth/logout-all', { refreshToken: first.refreshToken });
    expect(answer.status).toBe(204);

    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(401);
    expect(await bffSessionStatus('viewer-browser-session-key-1')).toBe(404);
    expect(await bffSessionStatus('viewer-browser-session-key-2')).toBe(404);
    // Another user of the same tenant keeps their session.
    expect((await refresh(other.refreshToken)).status).toBe(200);
    expect(await bffSessionStatus('editor-browser-session-key')).toBe(200);
  });

  it('refuses an unknown refresh token, and is for the bff only', async () => {
    const unknown = await internalPost(harness, '/v1/auth/logout-all', {
      refreshToken: `demo.${'x'.repeat(43)}`,
    });
    expect(unknown.status).toBe(401);
    const withoutToken = await fetch(`${harness.baseUrl}/v1/auth/logout-all`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: `demo.${'x'.repeat(43)}` }),
    });
    expect(withoutToken.status).toBe(401);
  });
});

describe('the refresh chain of a bff session', () => {
  it('ends with the session’s absolute lifetime when the bff names one (it never outlives the session)', async () => {
    // 12 h, as the bff asks by default: the refresh token's own 8 h is sooner.
    const day = await signedIn('clerk@demo.test', { sessionLifetimeSeconds: 12 * 3600 });
    expect(day.refreshExpiresIn).toBeGreaterThan(3600);
    // 1 h: the refresh token lasts no longer than the session, and no rotation extends it.
    const hour = await signedIn('clerk@demo.test', { sessionLifetimeSeconds: 3600 });
    expect(hour.refreshExpiresIn).toBeLessThanOrEqual(3600);
    const rotated = await refresh(hour.refreshToken);
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as SignedIn).refreshExpiresIn).toBeLessThanOrEqual(3600);
    const rows = await harness.definition
      .context()
      .inTenant('demo', (_stores, trx) =>
        trx('refresh_sessions')
          .where({ uid: hour.user.uid })
          .orderBy('created_at', 'desc')
          .limit(2)
          .select<{ absolute_expires_at: Date; expires_at: Date }[]>('absolute_expires_at', 'expires_at'),
      );
    expect(rows).toHaveLength(2);
    expect(rows[0]?.absolute_expires_at.getTime()).toBe(rows[1]?.absolute_expires_at.getTime());
    for (const row of rows)
      expect(row.expires_at.getTime()).toBeLessThanOrEqual(row.absolute_expires_at.getTime());
  });
});

describe('RP-initiated logout at the IdP', () => {
  it('ends the IdP’s session: the next sign-in on the same browser asks for credentials again', async () => {
    const browser = new CookieJar();
    const first = await signIn(harness, 'demo', 'manager@demo.test', demoSeed.password, { jar: browser });
    expect(first.loginPage).toContain('Sign in to Workspace');
    // The IdP's session is alive: a second sign-in goes straight through (the problem the issue describes).
    const again = await signIn(harness, 'demo', 'manager@demo.test', demoSeed.password, { jar: browser });
    expect(again.status).toBe(200);
    expect(again.loginPage).toBe('');

    const answer = await internalPost(harness, '/v1/auth/end-session-url', {
      tenantId: 'demo',
      idToken: (again.body as unknown as SignedIn).idToken,
      postLogoutRedirectUri: POST_LOGOUT_REDIRECT_URI,
    });
    expect(answer.status).toBe(200);
    const { endSessionUrl } = (await answer.json()) as { endSessionUrl: string };
    const url = new URL(endSessionUrl);
    expect(url.origin).toBe(harness.idp.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(POST_LOGOUT_REDIRECT_URI);
    expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(url.searchParams.get('id_token_hint')).toBe((again.body as unknown as SignedIn).idToken);

    // The browser at the IdP: its page submits the logout itself (no question to answer), then back to /login.
    const page = await fetch(url, { headers: { cookie: browser.header() }, redirect: 'manual' });
    browser.store(page);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Signing you out');
    expect(html).toContain('name="logout" value="yes"');
    expect(html).toContain('.submit()');
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const confirmed = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: browser.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    browser.store(confirmed);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(POST_LOGOUT_REDIRECT_URI);

    const afterLogout = await signIn(harness, 'demo', 'manager@demo.test', demoSeed.password, {
      jar: browser,
    });
    expect(afterLogout.status).toBe(200);
    expect(afterLogout.loginPage).toContain('Sign in to Workspace');
  });

  it('with prompt=login asks for credentials although the IdP’s session is alive (another account)', async () => {
    const browser = new CookieJar();
    await signIn(harness, 'demo', 'manager@demo.test', demoSeed.password, { jar: browser });
    const another = await signIn(harness, 'demo', 'clerk@demo.test', demoSeed.password, {
      jar: browser,
      prompt: 'login',
    });
    expect(another.loginPage).toContain('Sign in to Workspace');
    expect(another.status).toBe(200);
    expect(another.body).toMatchObject({ user: { email: 'clerk@demo.test' } });
  });
});
