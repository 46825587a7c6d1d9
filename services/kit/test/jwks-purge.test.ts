import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import request from 'supertest';
import { z } from 'zod';
import {
  ApiRouter,
  createLogger,
  createMetricsRegistry,
  createServiceApp,
  remoteJwks,
  type AuthOptions,
} from '../src/index.js';
import { eventually } from '../src/testing/index.js';

/*
 * The kit keeps a verified token until it expires (one RSA verification per token). A token whose signing key has
 * since left identity's JWKS (purged after a rotation, or at once after a leak) must stop being accepted when the
 * service next has the JWKS: at once when a token naming a key it does not know makes it fetch the JWKS, and
 * otherwise when the JWKS is past its max age (fetched again in the background for tokens served from the cache).
 */

const ISSUER = 'workspace-identity';
const AUDIENCE = 'workspace';

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

const newKey = async (kid: string): Promise<Key> => {
  const pair = await generateKeyPair('RS256');
  return {
    kid,
    privateKey: pair.privateKey,
    jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256' },
  };
};

const tokenOf = (key: Key, expiresIn = '8h') =>
  new SignJWT({ tid: 'acme', role: 'standard', scp: ['notes.view'] })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
    .setSubject('user-1')
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key.privateKey);

/** identity's JWKS endpoint: the published keys can change, and it can fail. */
class JwksServer {
  published: JWK[] = [];
  failing = false;
  fetches = 0;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((_req, res) => {
      this.fetches++;
      if (this.failing) {
        res.writeHead(503).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: this.published }));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
}

function app(keys: AuthOptions['keys']) {
  const api = new ApiRouter().route({
    method: 'get',
    path: '/whoami',
    summary: 'The caller',
    responses: { 200: { description: 'Caller', schema: z.object({ userId: z.string() }) } },
    handler: ({ ctx }) => Promise.resolve({ userId: ctx.userId }),
  });
  return createServiceApp({
    name: 'jwks-purge-test',
    logger: createLogger({ name: 'test', level: 'silent' }),
    metrics: createMetricsRegistry('jwks_purge_test'),
    auth: { keys, issuer: ISSUER, audience: AUDIENCE },
    readiness: {},
    apis: [{ basePath: '/api', api }],
  });
}

const call = (service: ReturnType<typeof app>, token: string) =>
  request(service).get('/api/whoami').set('authorization', `Bearer ${token}`);

/** Calls until the service refuses the token (401), within the time given; answers the refusal. */
const refusedWithin = (service: ReturnType<typeof app>, token: string, timeoutMs: number) =>
  eventually(
    async () => {
      const res = await call(service, token);
      return res.status === 401 ? res : undefined;
    },
    timeoutMs,
    'the purged key’s token refused',
  );

let jwks: JwksServer;
let url: string;
let oldKey: Key;
let newKeyOf: Key;

beforeEach(async () => {
  jwks = new JwksServer();
  url = await jwks.start();
  oldKey = await newKey('old');
  newKeyOf = await newKey('new');
});

afterEach(async () => {
  await jwks.stop();
});

describe('verified-token cache and the JWKS', () => {
  it('drops a cached token whose key was purged as soon as a token naming an unknown key refreshes the JWKS', async () => {
    jwks.published = [oldKey.jwk];
    const service = app(remoteJwks(url, { cooldownMs: 0 }));
    const old = await tokenOf(oldKey);
    expect((await call(service, old)).status).toBe(200);
    expect((await call(service, old)).status).toBe(200);
    expect(jwks.fetches).toBe(1);

    // identity rotated to the new key and purged the old one; this service has not fetched the JWKS since.
    jwks.published = [newKeyOf.jwk];
    expect((await call(service, old)).status).toBe(200);
    expect(jwks.fetches).toBe(1);

    // A token of the new key makes the service fetch the JWKS: from then on the old key's token is refused.
    expect((await call(service, await tokenOf(newKeyOf))).status).toBe(200);
    expect(jwks.fetches).toBe(2);
    const refused = await call(service, old);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'unauthorized', detail: 'The access token is not valid.' });
  });

  it('keeps accepting a cached token whose key is still published after a rotation', async () => {
    jwks.published = [oldKey.jwk];
    const service = app(remoteJwks(url, { cooldownMs: 0 }));
    const old = await tokenOf(oldKey);
    expect((await call(service, old)).status).toBe(200);
    jwks.published = [newKeyOf.jwk, oldKey.jwk];
    expect((await call(service, await tokenOf(newKeyOf))).status).toBe(200);
    expect(jwks.fetches).toBe(2);
    expect((await call(service, old)).status).toBe(200);
  });

  it('fetches a JWKS past its max age again for tokens served from the cache, and then refuses a purged key’s token', async () => {
    jwks.published = [oldKey.jwk];
    const service = app(remoteJwks(url, { cooldownMs: 0, maxAgeMs: 1 }));
    const old = await tokenOf(oldKey);
    expect((await call(service, old)).status).toBe(200);
    jwks.published = [newKeyOf.jwk];
    // Only cached tokens arrive: the stale JWKS is fetched again in the background, and the token then refused.
    const refused = await refusedWithin(service, old, 10_000);
    expect(refused.body.detail).toBe('The access token is not valid.');
    expect(jwks.fetches).toBeGreaterThanOrEqual(2);
  });

  it('keeps serving verified tokens while the JWKS cannot be fetched, and fetches it again at most every 30 s', async () => {
    jwks.published = [oldKey.jwk];
    const service = app(remoteJwks(url, { cooldownMs: 0, maxAgeMs: 1 }));
    const old = await tokenOf(oldKey);
    expect((await call(service, old)).status).toBe(200);
    jwks.failing = true;
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 5; i++) expect((await call(service, old)).status).toBe(200);
    await eventually(() => Promise.resolve(jwks.fetches === 2), 5_000, 'one background fetch');
    for (let i = 0; i < 5; i++) expect((await call(service, old)).status).toBe(200);
    expect(jwks.fetches).toBe(2);
  });

  it('follows a key lookup that lists its keys and reloads by itself (identity’s own keys)', async () => {
    let local = createLocalJWKSet({ keys: [oldKey.jwk] });
    const lookup: JWTVerifyGetKey = (header, token) => local(header, token);
    const keys = Object.assign(lookup, { jwks: () => local.jwks() });
    const service = app(keys);
    const old = await tokenOf(oldKey);
    expect((await call(service, old)).status).toBe(200);
    expect((await call(service, old)).status).toBe(200);
    // The maintenance worker's reload drops the purged key; no token reaches the lookup meanwhile.
    local = createLocalJWKSet({ keys: [newKeyOf.jwk] });
    const refused = await refusedWithin(service, old, 5_000);
    expect(refused.body.detail).toBe('The access token is not valid.');
  });

  it('keeps the old behaviour for a key lookup that cannot list its keys', async () => {
    let local = createLocalJWKSet({ keys: [oldKey.jwk] });
    const service = app((header, token) => local(header, token));
    const old = await tokenOf(oldKey);
    expect((await call(service, old)).status).toBe(200);
    local = createLocalJWKSet({ keys: [newKeyOf.jwk] });
    expect((await call(service, old)).status).toBe(200);
  });
});
