import { decodeProtectedHeader } from 'jose';
import {
  demoSeed,
  INTERNAL_TOKEN,
  internalPost,
  signIn,
  startIdentityHarness,
  type IdentityHarness,
} from './support.js';

/*
 * Security review L8: an "immediate" rotation for a leaked key kept publishing that key until every token it signed
 * had expired (about 8 h), so tokens forged with it kept verifying. `revoke` takes it out of the JWKS at once.
 */

let harness: IdentityHarness;

beforeAll(async () => {
  harness = await startIdentityHarness();
});

afterAll(async () => {
  await harness.stop();
});

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

async function accessToken(): Promise<string> {
  const result = await signIn(harness, 'demo', 'viewer@demo.test', demoSeed.password);
  expect(result.status).toBe(200);
  return (result.body as unknown as { accessToken: string }).accessToken;
}

async function jwksKids(): Promise<string[]> {
  const body = (await (await fetch(`${harness.baseUrl}/.well-known/jwks.json`)).json()) as {
    keys: { kid: string }[];
  };
  return body.keys.map((key) => key.kid);
}

const me = (token: string) =>
  fetch(`${harness.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } });

describe('revoking a leaked signing key', () => {
  it('takes the key out of the JWKS at once: a token it signed (already verified once) stops verifying', async () => {
    const token = await accessToken();
    const leaked = kidOf(token);
    expect((await me(token)).status).toBe(200);

    const rotation = await internalPost(harness, '/v1/internal/signing-keys/rotate', { revoke: true });
    expect(rotation.status).toBe(200);
    const { kid, retired } = (await rotation.json()) as { kid: string; retired: string[] };
    expect(retired).toContain(leaked);

    expect(await jwksKids()).not.toContain(leaked);
    expect(await jwksKids()).toContain(kid);
    expect((await me(token)).status).toBe(401);
    // Signing in again works at once, with the new key.
    const fresh = await accessToken();
    expect(kidOf(fresh)).toBe(kid);
    expect((await me(fresh)).status).toBe(200);
  });

  it('an immediate rotation without revoke keeps the replaced key published (its tokens verify until they expire)', async () => {
    const token = await accessToken();
    const replaced = kidOf(token);
    const rotation = await internalPost(harness, '/v1/internal/signing-keys/rotate', { immediate: true });
    expect(rotation.status).toBe(200);
    expect(await jwksKids()).toContain(replaced);
    expect((await me(token)).status).toBe(200);
  });

  it('refuses a rotation without the internal token', async () => {
    const res = await fetch(`${harness.baseUrl}/v1/internal/signing-keys/rotate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': `${INTERNAL_TOKEN}-wrong` },
      body: JSON.stringify({ revoke: true }),
    });
    expect(res.status).toBe(401);
  });
});
