import { createRemoteJWKSet, jwtVerify } from 'jose';
import { demoSeed, internalPost, signIn, startIdentityHarness, type IdentityHarness } from './support.js';

let harness: IdentityHarness;

beforeAll(async () => {
  harness = await startIdentityHarness();
});

afterAll(async () => {
  await harness.stop();
});

describe('OIDC sign-in (authorization code + PKCE against the dev IdP)', () => {
  it('signs in the seeded admin through the IdP login page and issues a verifiable RS256 access token', async () => {
    const result = await signIn(harness, 'demo', 'admin@demo.test', demoSeed.password);
    expect(result.loginPage).toContain('Sign in to Workspace');
    expect(result.status).toBe(200);
    const body = result.body as {
      accessToken: string;
      refreshToken: string;
      expiresIn: number;
      user: { email: string; role: string };
      tenant: { id: string; name: string };
      scopes: string[];
    };
    expect(body.user).toMatchObject({ email: 'admin@demo.test', role: 'admin' });
    expect(body.tenant).toMatchObject({ id: 'demo', name: 'Demo Construction Ltd' });
    expect(body.expiresIn).toBe(300);
    expect(body.refreshToken.startsWith('demo.')).toBe(true);

    const jwks = createRemoteJWKSet(new URL(`${harness.baseUrl}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(body.accessToken, jwks, {
      issuer: 'workspace-identity',
      audience: 'workspace',
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      tid: 'demo',
      sub: '00000000-0000-4000-8000-000000000001',
      role: 'admin',
    });
    expect(payload.scp).toEqual(body.scopes);
    expect(body.scopes).toEqual(
      expect.arrayContaining(['tenant.edit_settings', 'roles.manage', 'cis.manage']),
    );
    expect(body.scopes).not.toContain('system.superadmin');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
  });

  it('shows the login page again with an error for a wrong password, and issues nothing', async () => {
    const result = await signIn(harness, 'demo', 'admin@demo.test', 'wrong-password');
    expect(result.status).toBe(401);
    expect(result.loginPage).toContain('Incorrect email or password.');
  });

  it('refuses a user of another tenant signing in to this one', async () => {
    const result = await signIn(harness, 'demo', 'admin@acme.test', 'acme-password');
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({ detail: 'Your account is not set up for this organisation.' });
  });

  it('rejects a callback whose state does not match', async () => {
    const started = (await (
      await internalPost(harness, '/v1/auth/authorize', {
        tenantId: 'demo',
        redirectUri: 'http://localhost:8080/api/auth/callback',
      })
    ).json()) as { state: string; nonce: string; codeVerifier: string };
    const res = await internalPost(harness, '/v1/auth/callback', {
      tenantId: 'demo',
      callbackUrl: 'http://localhost:8080/api/auth/callback?code=forged&state=other',
      state: started.state,
      nonce: started.nonce,
      codeVerifier: started.codeVerifier,
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      'Sign-in could not be completed. Please try again.',
    );
  });

  it('answers 401 on the bff-only endpoints without the internal token', async () => {
    const res = await fetch(`${harness.baseUrl}/v1/auth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId: 'demo', redirectUri: 'http://localhost:8080/api/auth/callback' }),
    });
    expect(res.status).toBe(401);
  });

  it('rotates the refresh token, detects reuse of a rotated one, and logs out', async () => {
    const { body } = await signIn(harness, 'demo', 'viewer@demo.test', demoSeed.password);
    const first = body.refreshToken as string;
    const refreshed = await internalPost(harness, '/v1/auth/refresh', { refreshToken: first });
    expect(refreshed.status).toBe(200);
    const second = ((await refreshed.json()) as { refreshToken: string }).refreshToken;
    expect(second).not.toBe(first);

    const reused = await internalPost(harness, '/v1/auth/refresh', { refreshToken: first });
    expect(reused.status).toBe(401);
    // Reuse of a rotated token ends every session of that user, the newest included.
    expect((await internalPost(harness, '/v1/auth/refresh', { refreshToken: second })).status).toBe(401);

    const again = await signIn(harness, 'demo', 'viewer@demo.test', demoSeed.password);
    const token = again.body.refreshToken as string;
    expect((await internalPost(harness, '/v1/auth/logout', { refreshToken: token })).status).toBe(204);
    expect((await internalPost(harness, '/v1/auth/refresh', { refreshToken: token })).status).toBe(401);
  });

  it('serves tenant metadata for the sign-in page, and 404 for an unknown tenant', async () => {
    const known = await fetch(`${harness.baseUrl}/v1/tenants/demo/metadata`);
    expect(await known.json()).toEqual({
      id: 'demo',
      name: 'Demo Construction Ltd',
      databaseRegion: 'uk',
      branding: { accentColor: '#1677FF' },
    });
    expect((await fetch(`${harness.baseUrl}/v1/tenants/nobody/metadata`)).status).toBe(404);
    expect((await fetch(`${harness.baseUrl}/v1/tenants/Bad!/metadata`)).status).toBe(400);
  });
});
